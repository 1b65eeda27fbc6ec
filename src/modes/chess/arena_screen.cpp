// The arena screen: its lifecycle (load, tick, commands are in arena_api.cpp), the page layout, a
// sidebar (status, controls, standings, export/import) and the reset and import dialogs. The setup
// form is in arena_setup.cpp, the grid, one game and the leaderboard in arena_games.cpp; the
// tournament itself is ArenaSession.
#include "src/modes/chess/arena_screen.h"

#include "src/net/section_timer.h"
#include "src/ui/dialog_place.h"
#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/rating_plot.h"
#include "src/ui/text_fit.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace chaiba {

namespace {

const char* phaseWords(ArenaPhase phase) {
    switch (phase) {
    case ArenaPhase::Setup: return "Setting up";
    case ArenaPhase::Running: return "Running";
    case ArenaPhase::Stopping: return "Finishing the running games";
    case ArenaPhase::Paused: return "Paused";
    case ArenaPhase::Stopped: return "Stopped";
    case ArenaPhase::Finished: return "Finished";
    }
    return "";
}

} // namespace

void ArenaScreen::draw() {
    net::SectionTimer timer("arena.draw");
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const bool room = avail.x > context_.fonts->uiSize * 64;
    if (leftPanel_ && !room) {
        if (leftPanel_->drawNarrow(avail.x, avail.y)) return; // the panel fills the screen
        return drawArena();
    }
    if (!leftPanel_ || leftPanel_->drawSide(avail.x, avail.y) <= 0) return drawArena();
    ImGui::SameLine();
    ImGui::BeginChild("##arenaBesidePanel", ImVec2(0, avail.y), false);
    drawArena();
    ImGui::EndChild();
}

void ArenaScreen::drawArena() {
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const bool wide = avail.x > context_.fonts->uiSize * 48;
    arenaCompact_ = !wide;
    if (wide) {
        const float sideW = std::clamp(avail.x * 0.24f, context_.fonts->uiSize * 17, context_.fonts->uiSize * 22);
        drawSidebar(sideW, avail.y);
        ImGui::SameLine(0, ImGui::GetStyle().ItemSpacing.x * 2);
        ImGui::BeginChild("##arenaMain", ImVec2(0, avail.y), false);
    } else {
        // Phones: the sidebar's parts stack above the main view and the page scrolls.
        ImGui::BeginChild("##arenaMain", ImVec2(0, 0), false);
        drawSidebar(ImGui::GetContentRegionAvail().x, 0);
    }
    if (!arena_->hasTournament()) {
        drawSetup();
    } else {
        if (ImGui::BeginTabBar("##arenaTabs")) {
            const ImGuiTabItemFlags gamesFlags =
                arenaTabRequested_ && arenaTab_ == 0 ? ImGuiTabItemFlags_SetSelected : 0;
            const ImGuiTabItemFlags boardFlags =
                arenaTabRequested_ && arenaTab_ == 1 ? ImGuiTabItemFlags_SetSelected : 0;
            arenaTabRequested_ = false;
            if (ImGui::BeginTabItem("Games", nullptr, gamesFlags)) {
                ui::markItem("arena.tab.games");
                arenaTab_ = 0;
                if (arenaGame_ >= 0 && arena_->game(arenaGame_)) drawGame(arenaGame_);
                else drawGrid();
                ImGui::EndTabItem();
            } else {
                ui::markItem("arena.tab.games");
            }
            if (ImGui::BeginTabItem("Leaderboard", nullptr, boardFlags)) {
                ui::markItem("arena.tab.leaderboard");
                arenaTab_ = 1;
                drawLeaderboard();
                ImGui::EndTabItem();
            } else {
                ui::markItem("arena.tab.leaderboard");
            }
            ImGui::EndTabBar();
        }
    }
    ImGui::EndChild();
}

void ArenaScreen::drawSidebar(float width, float height) {
    const ui::Palette& pal = ui::palette();
    const bool own = height > 0;
    if (own) ImGui::BeginChild("##arenaSide", ImVec2(width, height), false);
    ImGui::PushFont(context_.fonts->bold);
    ImGui::TextWrapped("%s", arena_->hasTournament() ? arena_->config().name.c_str() : "New tournament");
    ImGui::PopFont();
    // Status: phase, games, ticks, money.
    const ArenaPhase phase = arena_->phase();
    const ImU32 colour = phase == ArenaPhase::Running    ? pal.ok
                         : phase == ArenaPhase::Paused   ? pal.danger
                         : phase == ArenaPhase::Stopping ? pal.warning
                                                         : pal.muted;
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(phaseWords(phase));
    ImGui::PopStyleColor();
    ui::markItem("arena.status");
    if (arena_->hasTournament()) {
        const chessmode::TournamentConfig& c = arena_->config();
        ImGui::Text("%d of %d games played", arena_->gamesFinished(), arena_->totalGames());
        if (c.tempo == chessmode::Tempo::Ticker) {
            const double next = arena_->msUntilNextTimer(context_.platform->nowMs());
            ImGui::Text("tick %lld \xC2\xB7 every %d s", arena_->ticks(), c.tickerSeconds);
            if (next >= 0 && phase == ArenaPhase::Running) {
                ImGui::SameLine();
                ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "\xC2\xB7 next in %s",
                                   formatElapsed(next).c_str());
            }
        }
        std::string spent = "spent " + formatCost(arena_->spentUsd());
        if (c.budgetUsd) spent += " of " + formatCost(*c.budgetUsd) + " cap";
        ImGui::TextUnformatted(spent.c_str());
        ui::markItem("arena.spent");
        const chessmode::BudgetEstimate e = arena_->estimate(settings_);
        if (e.totalUsd > 0) {
            // Wrapped: the sidebar is narrow, and the basis of the estimate matters as much as its figure.
            ImGui::PushTextWrapPos(0.0f);
            ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
            ImGui::TextWrapped("%s to %s in all, about %s (%s; the upper end: every game to the %d-ply limit)",
                               formatCost(std::min(e.fromUsd, e.totalUsd)).c_str(), formatCost(e.upToUsd).c_str(),
                               formatCost(e.totalUsd).c_str(),
                               e.measured ? "from the games played" : "from the prompt sizes", e.longestPlies);
            ImGui::PopStyleColor();
            ImGui::PopTextWrapPos();
            ui::markItem("arena.estimate");
        }
    }
    ImGui::Spacing();
    drawControls();
    // Errors: a pause, storage, a corrupt stored tournament.
    if (!arena_->error().empty() || !arenaNotice_.empty()) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos(0.0f);
        if (!arena_->error().empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, pal.danger);
            ImGui::TextUnformatted(arena_->error().c_str());
            ImGui::PopStyleColor();
            ui::markItem("arena.error");
            const bool keyProblem = arena_->errorFailure().has_value(); // a 401 or 402 pause
            if (keyProblem && chaiba::ui::smallButton("Open Settings")) context_.openSettings();
            if (phase != ArenaPhase::Paused) {
                if (keyProblem) ImGui::SameLine();
                if (chaiba::ui::smallButton("Dismiss##arenaError")) arena_->clearError();
            }
        }
        if (!arenaNotice_.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
            ImGui::TextUnformatted(arenaNotice_.c_str());
            ImGui::PopStyleColor();
            ui::markItem("arena.notice");
        }
        ImGui::PopTextWrapPos();
    }
    if (!services_.arenaStoreWarning.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.warning), "%s", services_.arenaStoreWarning.c_str());
        ImGui::PopTextWrapPos();
    }
    if (arena_->hasTournament()) {
        ImGui::Spacing();
        ImGui::Separator();
        // Phones: the standings fold away so the boards come first.
        if (!arenaCompact_ || ImGui::CollapsingHeader("Standings")) drawStandings();
    }
    if (own) ImGui::EndChild();
}

void ArenaScreen::drawControls() {
    const ArenaPhase phase = arena_->phase();
    const float big = context_.fonts->uiSize * 2.2f;
    const double now = context_.platform->nowMs();
    ui::FlowRow row;
    auto report = [this](const std::optional<std::string>& error) { arenaNotice_ = error ? *error : std::string(); };
    switch (phase) {
    case ArenaPhase::Setup: {
        const std::optional<std::string> problem = arena_->checkDraft();
        ImGui::BeginDisabled(problem.has_value());
        if (ImGui::Button("Start tournament", ImVec2(-1, big))) report(arena_->start(settings_, now));
        ui::markItem("arena.start");
        ImGui::EndDisabled();
        ImGui::PushTextWrapPos(0.0f);
        if (problem) {
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ui::palette().danger), "%s", problem->c_str());
        } else {
            const chessmode::BudgetEstimate e = arena_->estimate(settings_);
            const std::string cost = e.totalUsd > 0 ? formatCost(e.fromUsd) + " to " + formatCost(e.upToUsd)
                                                    : std::string("no model costs");
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ui::palette().muted), "%d games \xC2\xB7 %s", e.games,
                               cost.c_str());
        }
        ImGui::PopTextWrapPos();
        break;
    }
    case ArenaPhase::Running:
        row.place("Stop");
        if (ImGui::Button("Stop")) arena_->stop(false);
        ui::markItem("arena.stop");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Stops now; running games keep their moves and continue on Resume.");
        row.place("Finish running games");
        if (ImGui::Button("Finish running games")) arena_->stop(true);
        ui::markItem("arena.finish");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("No new games start; the running ones play to their end.");
        break;
    case ArenaPhase::Stopping:
        row.place("Stop now");
        if (ImGui::Button("Stop now")) arena_->stop(false);
        ui::markItem("arena.stop");
        break;
    case ArenaPhase::Paused:
    case ArenaPhase::Stopped:
        row.place("Resume");
        if (ImGui::Button("Resume")) report(arena_->resume(settings_, now));
        ui::markItem("arena.resume");
        break;
    case ArenaPhase::Finished: break;
    }
    if (arena_->hasTournament()) {
        row.place("Reset\xE2\x80\xA6");
        if (ImGui::Button("Reset\xE2\x80\xA6")) arenaResetOpen_ = true;
        ui::markItem("arena.reset");
    }
    ui::FlowRow files;
    files.small = true;
    // Export buttons: label, file, MIME type, what to say after the download.
    struct Export {
        const char* label;
        const char* item;
        const char* file;
        const char* mime;
        const char* done;
        bool json;
    };
    static constexpr Export kExports[] = {
        {"Export JSON", "arena.exportJson", "chaiba-tournament.json", "application/json",
         "Downloaded chaiba-tournament.json (no API key inside).", true},
        {"Export PGN", "arena.exportPgn", "chaiba-tournament.pgn", "application/x-chess-pgn",
         "Downloaded chaiba-tournament.pgn.", false},
    };
    for (const Export& e : kExports) {
        if (!arena_->hasTournament()) break;
        files.place(e.label);
        ImGui::BeginDisabled(exportBusy_);
        if (chaiba::ui::smallButton(e.label)) {
            // Folded (older) games are read back from the browser's storage first.
            exportBusy_ = true;
            arenaNotice_ = "Exporting: reading the older games back from this browser's storage\xE2\x80\xA6";
            arena_->exportLater(!e.json, [this, e](chessmode::Parsed<std::string> text) {
                exportBusy_ = false;
                if (text.ok()) context_.platform->downloadTextFile(e.file, e.mime, *text.value);
                arenaNotice_ = text.ok() ? e.done : text.error;
            });
        }
        ImGui::EndDisabled();
        ui::markItem(e.item);
    }
    files.place("Import\xE2\x80\xA6");
    if (chaiba::ui::smallButton("Import\xE2\x80\xA6")) {
        arenaImportOpen_ = true;
        arenaImportError_.clear();
    }
    ui::markItem("arena.import");
    if (arena_->hasTournament()) {
        bool exclude = arena_->excludeForfeits();
        if (ImGui::Checkbox("Leave out forfeit games", &exclude)) arena_->setExcludeForfeits(exclude);
        ui::markItem("arena.excludeForfeits");
    }
}

void ArenaScreen::drawStandings() {
    const ui::Palette& pal = ui::palette();
    if (!arenaCompact_) {
        ImGui::PushFont(context_.fonts->bold);
        ImGui::TextUnformatted("Standings");
        ImGui::PopFont();
    }
    const chessmode::Leaderboard& board = arena_->leaderboard();
    if (board.gamesRated == 0) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
        ImGui::TextWrapped("Ratings appear after the first finished game.");
        ImGui::PopStyleColor();
        return;
    }
    const float right = ImGui::GetContentRegionAvail().x;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    int waiting = 0;
    // The leaderboard's rows in its order: who has not played yet comes last, with a dash.
    for (const chessmode::LeaderboardRow& row : board.rows) {
        const bool played = row.games > 0;
        if (!played) ++waiting;
        char rating[32], rank[8];
        if (played) std::snprintf(rating, sizeof rating, "%.0f%s", row.rating, row.anchored ? "*" : "");
        else std::snprintf(rating, sizeof rating, "\xE2\x80\x93");
        if (played) std::snprintf(rank, sizeof rank, "%2d", row.rank);
        else std::snprintf(rank, sizeof rank, " \xE2\x80\x93");
        if (!played) ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
        const ImVec2 rowStart = ImGui::GetCursorScreenPos();
        ImGui::PushFont(context_.fonts->mono);
        ImGui::TextUnformatted(rank);
        ImGui::PopFont();
        ImGui::SameLine();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float sw = context_.fonts->uiSize * 0.6f;
        dl->AddRectFilled(ImVec2(p.x, p.y + context_.fonts->uiSize * 0.25f), ImVec2(p.x + sw, p.y + context_.fonts->uiSize * 0.25f + sw),
                          ui::seriesColour(row.participant));
        ImGui::Dummy(ImVec2(sw, context_.fonts->uiSize));
        ImGui::SameLine();
        const float ratingW = ImGui::CalcTextSize("0000*").x;
        std::string name = arena_->participantName(row.participant);
        const float nameMax = right - (ImGui::GetCursorPosX() - ImGui::GetWindowContentRegionMin().x) - ratingW -
                              ImGui::GetStyle().ItemSpacing.x;
        // As in the leaderboard table: the provider goes first, then the end is cut with "…".
        ui::fittedName(name, nameMax, ImGui::GetTextLineHeight());
        ImGui::SameLine(ImGui::GetWindowContentRegionMin().x + right - ImGui::CalcTextSize(rating).x);
        ImGui::PushFont(context_.fonts->mono);
        ImGui::TextUnformatted(rating);
        ImGui::PopFont();
        if (!played) ImGui::PopStyleColor();
        ui::markItemRect("arena.standing." + std::to_string(row.participant), rowStart.x, rowStart.y, right,
                         ImGui::GetItemRectMax().y - rowStart.y);
    }
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    const bool anchors = std::any_of(board.rows.begin(), board.rows.end(), [](const auto& r) { return r.anchored; });
    std::string note = std::to_string(board.gamesRated) + (board.gamesRated == 1 ? " game" : " games") + " rated";
    if (anchors) note += " \xC2\xB7 * anchored engine level";
    if (waiting > 0) note += " \xC2\xB7 " + std::to_string(waiting) + " yet to play (\xE2\x80\x93)";
    ImGui::TextWrapped("%s", note.c_str());
    ImGui::PopStyleColor();
}

void ArenaScreen::drawResetConfirm() {
    if (arenaResetOpen_) {
        ImGui::OpenPopup("Reset the tournament?");
        arenaResetOpen_ = false;
    }
    ImGui::SetNextWindowSize(ImVec2(context_.fonts->uiSize * 26, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Reset the tournament?", nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::TextWrapped("This clears every game and rating of \"%s\" from this browser. Export it first to keep "
                           "a copy. The setup stays, ready to start again.",
                           arena_->config().name.c_str());
        ImGui::Spacing();
        if (ImGui::Button("Reset")) {
            resetArena();
            arenaNotice_.clear();
            ImGui::CloseCurrentPopup();
        }
        ui::markItem("arena.reset.confirm");
        ImGui::SameLine();
        if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
        ui::markItem("arena.reset.cancel");
        ImGui::EndPopup();
    }
}

void ArenaScreen::drawImport() {
    if (!arenaImportOpen_) return;
    ui::placeDialog(context_.fonts->uiSize, 34, 24, 4); // on a phone: the page's width, not past its edge
    if (ImGui::Begin("Import a tournament", &arenaImportOpen_, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        ui::markWindow("arena.import.window");
        if (ui::escapeClosesDialog()) arenaImportOpen_ = false;
        ImGui::TextWrapped("Choose or paste a tournament exported from CHAIBA (chaiba-tournament.json, or the "
                           "tournament.json that `chaiba arena --out` writes). It replaces the tournament shown "
                           "now%s.",
                           arena_->hasTournament() ? " (export that one first to keep it)" : "");
        if (ImGui::Button("Choose a file\xE2\x80\xA6")) context_.platform->pickTextFile(".json,application/json");
        ui::markItem("arena.import.file");
        if (auto file = context_.platform->takePickedFile()) {
            if (!file->error.empty()) {
                arenaImportError_ = file->name + ": " + file->error;
            } else if (auto error = importBundle(file->text)) {
                arenaImportError_ = file->name + ": " + *error;
            } else {
                arenaImportOpen_ = false;
                arenaGame_ = -1;
                arenaReplays_.clear();
                arenaNotice_ = "Imported \"" + arena_->config().name + "\" from " + file->name + ".";
            }
        }
        ImGui::TextUnformatted("or paste it here:");
        ImGui::InputTextMultiline("##bundle", arenaImportBuffer_.data(), arenaImportBuffer_.size(),
                                  ImVec2(-1, ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing() * 2.5f));
        if (!arenaImportError_.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().danger);
            ImGui::TextWrapped("%s", arenaImportError_.c_str());
            ImGui::PopStyleColor();
        }
        if (ImGui::Button("Import")) {
            if (auto error = importBundle(arenaImportBuffer_.data())) {
                arenaImportError_ = *error;
            } else {
                arenaImportOpen_ = false;
                arenaGame_ = -1;
                arenaReplays_.clear();
                arenaNotice_ = "Imported \"" + arena_->config().name + "\". Resume continues its unplayed games.";
                arenaImportBuffer_.assign(arenaImportBuffer_.size(), 0);
            }
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) arenaImportOpen_ = false;
        ui::markItem("arena.import.cancel");
    }
    ImGui::End();
}

} // namespace chaiba
