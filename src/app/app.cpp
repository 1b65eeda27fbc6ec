// App: the page layout (header, board, match card) and the settings window.
#include "src/app/app.h"

#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba {

App::App(KeyValueStore& store, Platform& platform, bool storagePersistent)
    : store_(store), platform_(platform), storagePersistent_(storagePersistent) {
    SettingsLoad load = loadSettings(store_);
    settings_ = load.settings;
    loadWarnings_ = load.warnings;
    if (!storagePersistent_)
        loadWarnings_.push_back("this browser does not allow local storage: settings and games will not be kept");
    if (!loadWarnings_.empty()) {
        std::string text;
        for (const auto& w : loadWarnings_) text += (text.empty() ? "" : "\n") + w;
        settingsPanel_.notice = text;
        settingsPanel_.noticeIsError = true;
    }
}

void App::setFonts(const ui::Fonts& fonts, float pixelRatio) {
    fonts_ = fonts;
    pixelRatio_ = pixelRatio;
}

bool App::wantsContinuousFrames() const { return board_.busy(platform_.nowMs()); }

std::string App::stateJson() const {
    nlohmann::json doc = {{"fen", position_.fen()}, {"flipped", board_.flipped}};
    return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void App::save() {
    if (auto error = saveSettings(store_, settings_)) {
        settingsPanel_.notice = "Not saved: " + *error;
        settingsPanel_.noticeIsError = true;
    } else if (settingsPanel_.noticeIsError && loadWarnings_.empty()) {
        settingsPanel_.notice.clear();
    }
}

void App::frame() {
    ui::beginItemFrame();
    if (appliedTheme_ != settings_.theme || appliedRatio_ != pixelRatio_) {
        ui::applyTheme(settings_.theme, pixelRatio_);
        appliedTheme_ = settings_.theme;
        appliedRatio_ = pixelRatio_;
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin("CHAIBA##main", nullptr, flags)) {
        ImGui::PopStyleVar();
        drawHeader();
        drawBody();
    } else {
        ImGui::PopStyleVar();
    }
    ImGui::End();
    if (settingsPanel_.DrawWindow(fonts_, settings_)) save();
    ui::endItemFrame();
}

void App::drawHeader() {
    const ui::Palette& pal = ui::palette();
    const ImGuiStyle& style = ImGui::GetStyle();
    const char* tagline = "language models play chess";
    const char* keyState = settings_.apiKey.empty() ? "No API key \xC2\xB7 engines play" : "\xE2\x9C\x93 API key set";
    ImGui::PushFont(fonts_.bold);
    ImGui::SetWindowFontScale(1.5f);
    const float titleW = ImGui::CalcTextSize("CHAIBA").x;
    ImGui::TextUnformatted("CHAIBA");
    ImGui::SetWindowFontScale(1.0f);
    ImGui::PopFont();
    // Right side first in priority: the Settings button always shows; the key state and the
    // tagline only when there is room (phones).
    const float buttonW = ImGui::CalcTextSize("Settings").x + style.FramePadding.x * 2;
    const float right = ImGui::GetWindowContentRegionMax().x;
    float free = right - ImGui::GetWindowContentRegionMin().x - titleW - buttonW - style.ItemSpacing.x * 2;
    const float stateW = ImGui::CalcTextSize(keyState).x + style.ItemSpacing.x;
    const bool showState = free > stateW;
    if (showState) free -= stateW;
    const bool showTagline = free > ImGui::CalcTextSize(tagline).x + style.ItemSpacing.x;
    if (showTagline) {
        ImGui::SameLine();
        ImGui::AlignTextToFramePadding();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "%s", tagline);
    }
    if (showState) {
        ImGui::SameLine(right - buttonW - stateW);
        ImGui::AlignTextToFramePadding();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(settings_.apiKey.empty() ? pal.muted : pal.ok), "%s", keyState);
    }
    ImGui::SameLine(right - buttonW);
    if (ImGui::Button("Settings")) settingsPanel_.open = !settingsPanel_.open;
    ui::markItem("header.settings");
    ImGui::Separator();
}

void App::drawBody() {
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
    const bool landscape = avail.x > avail.y * 1.15f;
    const double now = platform_.nowMs();
    auto drawBoard = [&](float size) {
        if (auto move = board_.draw(fonts_, position_, lastMove_, size, true, now)) {
            const chess::Position before = position_;
            position_.makeMove(*move);
            lastMove_ = *move;
            board_.animate(before, *move, now);
        }
    };
    if (landscape) {
        const float boardSize = std::max(64.0f, std::min(avail.y - 4.0f, avail.x * 0.6f));
        ImGui::BeginGroup();
        drawBoard(boardSize);
        ImGui::EndGroup();
        ImGui::SameLine(0, gap);
        drawMatchCard(ImGui::GetContentRegionAvail().x);
    } else {
        const float boardSize = std::max(64.0f, std::min(avail.x - 4.0f, avail.y * 0.62f));
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + (avail.x - boardSize) * 0.5f);
        drawBoard(boardSize);
        ImGui::Spacing();
        drawMatchCard(avail.x);
    }
}

void App::drawMatchCard(float width) {
    const ui::Palette& pal = ui::palette();
    ImGui::BeginChild("##matchcard", ImVec2(width, 0), true);
    ImGui::PushFont(fonts_.bold);
    ImGui::TextUnformatted("New match");
    ImGui::PopFont();
    ImGui::Separator();
    ImGui::TextUnformatted("White");
    ImGui::SameLine(fonts_.uiSize * 5);
    ImGui::TextUnformatted("Built-in engine");
    ImGui::TextUnformatted("Black");
    ImGui::SameLine(fonts_.uiSize * 5);
    ImGui::TextUnformatted("Built-in engine");
    ImGui::Spacing();
    if (ImGui::Button("Start match", ImVec2(-1, fonts_.uiSize * 2.4f))) {
        statusLine_ = "Matches are not wired yet: the rules engine and players land next.";
    }
    ui::markItem("match.start");
    if (!statusLine_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.warning);
        ImGui::TextWrapped("%s", statusLine_.c_str());
        ImGui::PopStyleColor();
    }
    if (ImGui::SmallButton("Copy FEN")) platform_.copyToClipboard(position_.fen());
    ImGui::SameLine();
    if (ImGui::SmallButton("Flip board")) board_.flipped = !board_.flipped;
    ImGui::SameLine();
    if (ImGui::SmallButton("Reset")) {
        position_ = chess::Position::startPosition();
        lastMove_ = chess::Move();
    }
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    ImGui::TextWrapped(settings_.apiKey.empty()
                           ? "No API key: the built-in engines play. Add an OpenRouter key in Settings to pit "
                             "language models against each other."
                           : "Your OpenRouter key is set: pick two models to play.");
    ImGui::PopStyleColor();
    ImGui::EndChild();
}

} // namespace chaiba
