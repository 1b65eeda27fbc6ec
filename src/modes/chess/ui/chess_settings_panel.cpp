// The chess sections of the Settings window (see chess_settings_panel.h).
#include "src/modes/chess/ui/chess_settings_panel.h"

#include "src/modes/chess/ui/board_style.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>

namespace chaiba::chessmode {

namespace {

void copyInto(char* buffer, size_t size, const std::string& text) {
    std::strncpy(buffer, text.c_str(), size - 1);
    buffer[size - 1] = '\0';
}

// Keeps the next widget on this line when `width` more pixels fit, else starts a new line (the
// choices wrap on a phone instead of running off the panel).
void sameLineIfFits(float width) {
    const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
    if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

// A 2×2 patch of a board theme's squares, the height of a line of text.
void boardSwatch(BoardTheme theme, Theme pageTheme) {
    const float side = ImGui::GetTextLineHeight();
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const float y = a.y + (ImGui::GetFrameHeight() - side) * 0.5f;
    const ui::BoardColours c = ui::boardThemeColours(theme, pageTheme);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float h = side * 0.5f;
    dl->AddRectFilled(ImVec2(a.x, y), ImVec2(a.x + h, y + h), c.light);
    dl->AddRectFilled(ImVec2(a.x + h, y), ImVec2(a.x + side, y + h), c.dark);
    dl->AddRectFilled(ImVec2(a.x, y + h), ImVec2(a.x + h, y + side), c.dark);
    dl->AddRectFilled(ImVec2(a.x + h, y + h), ImVec2(a.x + side, y + side), c.light);
    ImGui::Dummy(ImVec2(side, ImGui::GetFrameHeight()));
}

} // namespace

bool ChessSettingsPanel::draw(const ui::Fonts& fonts, ChessSettings& settings, BoardLook& look, Theme pageTheme,
                              const std::string& pieceSetProblem) {
    const int frame = ImGui::GetFrameCount();
    if (lastFrame_ != frame - 1) {
        const std::string* current[3] = {&settings.promptBase, &settings.promptWhite, &settings.promptBlack};
        const std::string* defaults[3] = {&defaults_.systemBase, &defaults_.systemWhite, &defaults_.systemBlack};
        for (int i = 0; i < 3; ++i)
            copyInto(promptBuffers_[i], sizeof promptBuffers_[i], current[i]->empty() ? *defaults[i] : *current[i]);
    }
    lastFrame_ = frame;
    bool changed = drawPrompts(fonts, settings);

    ui::sectionTitle(fonts, "How models play chess");
    // What each request of a match carries (`chaiba play --context`); the arena sets its own.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Each request sends");
    const char* labels[] = {"the whole conversation", "the position only (stateless)", "a window of the last"};
    for (ContextPolicy policy : kContextPolicies) {
        const char* label = labels[int(policy)];
        sameLineIfFits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x);
        if (ImGui::RadioButton(label, settings.contextPolicy == policy)) {
            changed = changed || settings.contextPolicy != policy;
            settings.contextPolicy = policy;
        }
        ui::markItem(std::string("settings.context.") + contextPolicyName(policy));
    }
    sameLineIfFits(fonts.uiSize * 12);
    ImGui::SetNextItemWidth(fonts.uiSize * 6);
    ImGui::BeginDisabled(settings.contextPolicy != ContextPolicy::Windowed);
    if (ImGui::InputInt("moves##contextWindow", &settings.contextWindowMoves, 1, 4)) {
        settings.contextWindowMoves = std::clamp(settings.contextWindowMoves, 1, kMaxContextWindowMoves);
        changed = true;
    }
    ImGui::EndDisabled();
    ui::markItem("settings.context.windowMoves");
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().muted);
    ImGui::TextWrapped("For matches; the arena's setup has its own. The whole conversation grows with every move "
                       "(145k prompt tokens in 37 moves were seen); a window stops the growth.");
    ImGui::PopStyleColor();
    if (ImGui::Checkbox("Send a context message each turn (FEN and move history)", &settings.sendContextMessage))
        changed = true;
    ImGui::BeginDisabled(!settings.sendContextMessage);
    if (ImGui::Checkbox("Include the list of legal moves", &settings.sendLegalMoves)) changed = true;
    ImGui::EndDisabled();
    if (ImGui::Checkbox("Send the current FEN with the error after an invalid move", &settings.sendFenOnError))
        changed = true;
    ImGui::SetNextItemWidth(fonts.uiSize * 10);
    if (ImGui::SliderInt("Retries after an invalid move", &settings.retryAttempts, 0, 10)) changed = true;
    ui::markItem("settings.retryAttempts");
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().muted);
    ImGui::TextWrapped("When the retries run out the model forfeits the game; a model never loses a turn.");
    ImGui::PopStyleColor();

    ui::sectionTitle(fonts, "Boards");
    if (drawBoardLook(look, pageTheme, pieceSetProblem)) changed = true;
    ImGui::SetNextItemWidth(fonts.uiSize * 14);
    if (ImGui::SliderInt("Engine move delay", &settings.engineMoveDelayMs, 0, 5000, "%d ms")) changed = true;
    if (ImGui::IsItemDeactivatedAfterEdit()) changed = true;
    return changed;
}

bool ChessSettingsPanel::drawPrompts(const ui::Fonts& fonts, ChessSettings& settings) {
    bool changed = false;
    ui::sectionTitle(fonts, "Chess prompts");
    std::string* targets[3] = {&settings.promptBase, &settings.promptWhite, &settings.promptBlack};
    const std::string* defaults[3] = {&defaults_.systemBase, &defaults_.systemWhite, &defaults_.systemBlack};
    const char* labels[3] = {"Base (both sides)", "White", "Black"};
    for (int i = 0; i < 3; ++i) {
        ImGui::PushID(i);
        const bool custom = !targets[i]->empty();
        if (ImGui::TreeNode(labels[i], "%s%s", labels[i], custom ? " (edited)" : "")) {
            ImGui::PushFont(fonts.mono);
            if (ImGui::InputTextMultiline("##prompt", promptBuffers_[i], sizeof promptBuffers_[i],
                                          ImVec2(-1, fonts.uiSize * 9))) {
                // Text equal to the default is stored as "default", so later shipped fixes apply.
                *targets[i] = promptBuffers_[i] == *defaults[i] ? std::string() : std::string(promptBuffers_[i]);
                changed = true;
            }
            ImGui::PopFont();
            ImGui::BeginDisabled(!custom);
            if (ui::smallButton("Reset to default")) {
                targets[i]->clear();
                copyInto(promptBuffers_[i], sizeof promptBuffers_[i], *defaults[i]);
                changed = true;
            }
            ImGui::EndDisabled();
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    return changed;
}

// The pieces and the squares of every board (match, arena tiles, the arena's game view).
bool ChessSettingsPanel::drawBoardLook(BoardLook& look, Theme pageTheme, const std::string& pieceSetProblem) {
    bool changed = false;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float radio = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Pieces");
    for (PieceSet set : kPieceSets) {
        sameLineIfFits(radio + ImGui::CalcTextSize(pieceSetLabel(set)).x);
        if (ImGui::RadioButton(pieceSetLabel(set), look.pieceSet == set)) {
            changed = changed || look.pieceSet != set;
            look.pieceSet = set;
        }
        ui::markItem(std::string("settings.pieces.") + pieceSetName(set));
    }
    if (!pieceSetProblem.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().warning);
        ImGui::TextWrapped("%s", pieceSetProblem.c_str());
        ui::markItem("settings.pieces.problem");
        ImGui::PopStyleColor();
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Board");
    for (BoardTheme theme : kBoardThemes) {
        const char* label = boardThemeLabel(theme);
        sameLineIfFits(radio + ImGui::CalcTextSize(label).x + style.ItemInnerSpacing.x + ImGui::GetTextLineHeight());
        if (ImGui::RadioButton(label, look.boardTheme == theme)) {
            changed = changed || look.boardTheme != theme;
            look.boardTheme = theme;
        }
        ui::markItem(std::string("settings.board.") + boardThemeName(theme));
        ImGui::SameLine(0.0f, style.ItemInnerSpacing.x);
        boardSwatch(theme, pageTheme);
    }
    return changed;
}

} // namespace chaiba::chessmode
