// New Game dialog: a modal-like window; nothing changes until Start.
#include "src/modes/chess/ui/new_game_dialog.h"

#include "src/ui/dialog_place.h"
#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>

namespace chaiba::ui {

namespace {

const char* kKinds[] = {"Language model", "Built-in engine", "Person", "Random mover"};

int kindIndex(PlayerKind k) {
    switch (k) {
    case PlayerKind::Model: return 0;
    case PlayerKind::Engine: return 1;
    case PlayerKind::Person: return 2;
    case PlayerKind::Random: return 3;
    case PlayerKind::Bot: break;
    }
    return 1;
}

PlayerKind kindAt(int i) {
    static const PlayerKind kinds[] = {PlayerKind::Model, PlayerKind::Engine, PlayerKind::Person, PlayerKind::Random};
    return kinds[std::clamp(i, 0, 3)];
}

void copyInto(char* buffer, size_t size, const std::string& text) {
    std::strncpy(buffer, text.c_str(), size - 1);
    buffer[size - 1] = '\0';
}

} // namespace

void NewGameDialog::show(const GameSetup& setup) {
    setup_ = setup;
    copyInto(fen_, sizeof fen_, setup.fen);
    copyInto(pgn_, sizeof pgn_, setup.pgn);
    // Chess960 starts from a random position unless the last game chose a number (518 is the
    // standard position: never a sensible default for "Chess960").
    randomNumber_ = setup.mode != StartMode::Chess960 || setup.chess960Number < 0;
    if (setup_.chess960Number < 0) setup_.chess960Number = 518;
    error.clear();
    open = true;
    focusOnShow_ = true;
}

bool NewGameDialog::drawPlayer(const Fonts& fonts, const NewGameContext& ctx, const char* label, PlayerSpec& spec,
                               char* filter, size_t filterSize) {
    const Palette& pal = palette();
    ImGui::PushID(label);
    ImGui::AlignTextToFramePadding();
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(label);
    ImGui::PopFont();
    ImGui::SameLine(fonts.uiSize * 4.5f);
    int kind = kindIndex(spec.kind);
    ImGui::SetNextItemWidth(fonts.uiSize * 11);
    if (ImGui::Combo("##kind", &kind, kKinds, 4)) spec.kind = kindAt(kind);
    markItem(std::string("newgame.") + label + ".kind");
    ImGui::SameLine();
    if (spec.kind == PlayerKind::Engine) {
        // The level's name beside the slider, not inside it: the grab would cover part of it.
        const std::string name = ctx.engineName ? ctx.engineName(spec.level) : "level " + std::to_string(spec.level);
        const float nameW = ImGui::CalcTextSize(name.c_str()).x + ImGui::GetStyle().ItemSpacing.x;
        ImGui::SetNextItemWidth(std::max(fonts.uiSize * 5, ImGui::GetContentRegionAvail().x - nameW));
        ImGui::SliderInt("##level", &spec.level, 0, ctx.maxEngineLevel, "");
        markItem(std::string("newgame.") + label + ".level");
        ImGui::SameLine();
        if (ImGui::GetContentRegionAvail().x < nameW - ImGui::GetStyle().ItemSpacing.x) {
            ImGui::NewLine();
            ImGui::SetCursorPosX(fonts.uiSize * 4.5f);
        }
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(name.c_str());
        markItem(std::string("newgame.") + label + ".levelName");
    } else if (spec.kind == PlayerKind::Model) {
        ImGui::SetNextItemWidth(-1);
        const std::string preview = spec.modelId.empty() ? "choose a model" : spec.modelId;
        drawModelCombo(ctx, "##model", preview.c_str(), spec.modelId, filter, filterSize, refreshRequested_);
        markItem(std::string("newgame.") + label + ".model");
    } else {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
        // Wrapped under its own start on a phone, not cut off at the dialog's edge.
        ImGui::TextWrapped("%s", spec.kind == PlayerKind::Person ? "you move by dragging or clicking pieces"
                                                                 : "plays a uniformly random legal move");
        ImGui::PopStyleColor();
    }
    if (spec.kind == PlayerKind::Model && !ctx.haveKey) {
        ImGui::SetCursorPosX(fonts.uiSize * 4.5f);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.warning);
        ImGui::TextUnformatted("needs an OpenRouter API key: add one in Settings");
        ImGui::PopStyleColor();
    }
    ImGui::PopID();
    return true;
}

std::optional<GameSetup> NewGameDialog::DrawWindow(const Fonts& fonts, const NewGameContext& ctx) {
    if (!open) return std::nullopt;
    const Palette& pal = palette();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.12f),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0.0f));
    // The height follows the content (a FEN or PGN field adds rows), so Start and Cancel are
    // never cut off; at most the viewport's height, past which the window scrolls.
    const float width = std::min(vp->WorkSize.x - fonts.uiSize, fonts.uiSize * 40);
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, vp->WorkSize.y * 0.88f));
    ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
    if (focusOnShow_) ImGui::SetNextWindowFocus();
    focusOnShow_ = false;
    std::optional<GameSetup> result;
    if (ImGui::Begin("New game", &open, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        markWindow("newgame.window");
        // Esc: an open dropdown closes first, a field being edited keeps it; else the dialog closes.
        if (ui::escapeClosesDialog(popupWasOpen_)) open = false;
        drawPlayer(fonts, ctx, "White", setup_.white, whiteFilter_, sizeof whiteFilter_);
        drawPlayer(fonts, ctx, "Black", setup_.black, blackFilter_, sizeof blackFilter_);
        ImGui::Separator();
        ImGui::AlignTextToFramePadding();
        ImGui::PushFont(fonts.bold);
        ImGui::TextUnformatted("Start");
        ImGui::PopFont();
        ImGui::SameLine(fonts.uiSize * 4.5f);
        int mode = static_cast<int>(setup_.mode);
        // On a phone the choices wrap under the first ones rather than off the dialog's edge.
        FlowRow row;
        row.indent = fonts.uiSize * 4.5f;
        row.placeToggle("Standard");
        ImGui::RadioButton("Standard", &mode, static_cast<int>(StartMode::Standard));
        row.placeToggle("Chess960");
        ImGui::RadioButton("Chess960", &mode, static_cast<int>(StartMode::Chess960));
        markItem("newgame.chess960");
        row.placeToggle("FEN");
        ImGui::RadioButton("FEN", &mode, static_cast<int>(StartMode::Fen));
        markItem("newgame.fen");
        row.placeToggle("PGN");
        ImGui::RadioButton("PGN", &mode, static_cast<int>(StartMode::Pgn));
        markItem("newgame.pgn");
        setup_.mode = static_cast<StartMode>(mode);
        if (setup_.mode == StartMode::Chess960) {
            ImGui::SetCursorPosX(fonts.uiSize * 4.5f);
            ImGui::Checkbox("Random position", &randomNumber_);
            markItem("newgame.chess960Random");
            if (!randomNumber_) {
                ImGui::SameLine();
                ImGui::SetNextItemWidth(fonts.uiSize * 8);
                ImGui::InputInt("number (0-959, 518 = standard)", &setup_.chess960Number);
                setup_.chess960Number = std::clamp(setup_.chess960Number, 0, 959);
            }
        } else if (setup_.mode == StartMode::Fen) {
            ImGui::SetNextItemWidth(-1);
            ImGui::PushFont(fonts.mono);
            ImGui::InputTextWithHint("##fen", "paste a FEN", fen_, sizeof fen_);
            markItem("newgame.fenText");
            ImGui::PopFont();
        } else if (setup_.mode == StartMode::Pgn) {
            ImGui::PushFont(fonts.mono);
            ImGui::InputTextMultiline("##pgn", pgn_, sizeof pgn_, ImVec2(-1, fonts.uiSize * 9));
            markItem("newgame.pgnText");
            ImGui::PopFont();
            ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
            ImGui::TextWrapped("The game continues from the end of the first game in the PGN.");
            ImGui::PopStyleColor();
        }
        if (!error.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, pal.danger);
            ImGui::TextWrapped("%s", error.c_str());
            ImGui::PopStyleColor();
        }
        ImGui::Spacing();
        const bool start = ImGui::Button("Start", ImVec2(fonts.uiSize * 8, 0));
        markItem("newgame.start");
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) open = false;
        if (start) {
            GameSetup s = setup_;
            s.fen = fen_;
            s.pgn = pgn_;
            if (s.mode == StartMode::Chess960 && randomNumber_) s.chess960Number = -1;
            if (s.white.kind == PlayerKind::Model && s.white.modelId.empty()) error = "choose a model for White";
            else if (s.black.kind == PlayerKind::Model && s.black.modelId.empty()) error = "choose a model for Black";
            else result = s;
        }
    }
    popupWasOpen_ = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
    ImGui::End();
    return result;
}

} // namespace chaiba::ui
