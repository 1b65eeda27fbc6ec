// The arena screen: a sidebar (status, controls, standings, export/import) beside the live grid
// of games, the full view of one game, and the leaderboard with the rating plot. The setup form is
// in arena_setup.cpp; the tournament itself is ArenaSession.
#include "src/app/app.h"

#include "engine/chess/notation.h"
#include "src/modes/chess/reasoning_model.h"
#include "src/modes/chess/players.h"
#include "src/ui/flow_row.h"
#include "src/modes/chess/ui/game_tile.h"
#include "src/ui/item_registry.h"
#include "src/ui/leaderboard_table.h"
#include "src/modes/chess/ui/move_list.h"
#include "src/ui/rating_plot.h"
#include "src/ui/reasoning_panel.h"
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

std::string resultLine(const chessmode::GameRecord& g) {
    if (!g.finished()) return "stopped";
    std::string text(chessmode::resultText(g.result));
    std::string how(chessmode::terminationName(g.termination));
    std::replace(how.begin(), how.end(), '_', ' ');
    return text + " \xC2\xB7 " + how;
}

chess::Position positionAt(const ArenaReplay& r, int plies, chess::Move& last) {
    chess::Position pos = r.start;
    last = chess::Move();
    for (int i = 0; i < plies && i < int(r.moves.size()); ++i) {
        pos.makeMove(r.moves[size_t(i)]);
        last = r.moves[size_t(i)];
    }
    return pos;
}

} // namespace

const ArenaReplay& App::arenaReplay(const chessmode::GameRecord& g) {
    std::string key = g.startFen + '|' + std::to_string(g.moves.size());
    if (!g.moves.empty()) key += '|' + g.moves.back().uci;
    ArenaReplay& r = arenaReplays_[g.pairing.id];
    if (r.key == key) return r;
    r = ArenaReplay{};
    r.key = std::move(key);
    auto start = chess::Position::fromFen(g.startFen, arena_->config().chess960);
    if (!start.ok()) return r;
    r.start = *start.position;
    chess::Position pos = r.start;
    for (const chessmode::TurnRecord& t : g.moves) {
        const chess::MoveResult move = chess::parseUci(pos, t.uci);
        if (!move.ok()) break; // the bundle importer and the runner checked every move
        r.moves.push_back(move.move);
        pos.makeMove(move.move);
    }
    return r;
}

std::string App::arenaRating(int participant) const {
    for (const chessmode::LeaderboardRow& row : arena_->leaderboard().rows)
        if (row.participant == participant && row.games > 0) return std::to_string(int(std::lround(row.rating)));
    const auto& ps = arena_->config().participants;
    if (participant >= 0 && size_t(participant) < ps.size() && ps[size_t(participant)].anchorElo >= 0)
        return std::to_string(int(std::lround(ps[size_t(participant)].anchorElo)));
    return {};
}

void App::drawArenaScreen() {
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const bool wide = avail.x > fonts_.uiSize * 48;
    arenaCompact_ = !wide;
    if (wide) {
        const float sideW = std::clamp(avail.x * 0.24f, fonts_.uiSize * 17, fonts_.uiSize * 22);
        drawArenaSidebar(sideW, avail.y);
        ImGui::SameLine(0, ImGui::GetStyle().ItemSpacing.x * 2);
        ImGui::BeginChild("##arenaMain", ImVec2(0, avail.y), false);
    } else {
        // Phones: the sidebar's parts stack above the main view and the page scrolls.
        ImGui::BeginChild("##arenaMain", ImVec2(0, 0), false);
        drawArenaSidebar(ImGui::GetContentRegionAvail().x, 0);
    }
    if (!arena_->hasTournament()) {
        drawArenaSetup();
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
                if (arenaGame_ >= 0 && arena_->game(arenaGame_)) drawArenaGame(arenaGame_);
                else drawArenaGrid();
                ImGui::EndTabItem();
            } else {
                ui::markItem("arena.tab.games");
            }
            if (ImGui::BeginTabItem("Leaderboard", nullptr, boardFlags)) {
                ui::markItem("arena.tab.leaderboard");
                arenaTab_ = 1;
                drawArenaLeaderboard();
                ImGui::EndTabItem();
            } else {
                ui::markItem("arena.tab.leaderboard");
            }
            ImGui::EndTabBar();
        }
    }
    ImGui::EndChild();
}

void App::drawArenaSidebar(float width, float height) {
    const ui::Palette& pal = ui::palette();
    const bool own = height > 0;
    if (own) ImGui::BeginChild("##arenaSide", ImVec2(width, height), false);
    ImGui::PushFont(fonts_.bold);
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
            const double next = arena_->msUntilNextTimer(services_.platform->nowMs());
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
    }
    ImGui::Spacing();
    drawArenaControls();
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
            if (keyProblem && ImGui::SmallButton("Open Settings")) settingsPanel_.open = true;
            if (phase != ArenaPhase::Paused) {
                if (keyProblem) ImGui::SameLine();
                if (ImGui::SmallButton("Dismiss##arenaError")) arena_->clearError();
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
        if (!arenaCompact_ || ImGui::CollapsingHeader("Standings")) drawArenaStandings();
    }
    if (own) ImGui::EndChild();
}

void App::drawArenaControls() {
    const ArenaPhase phase = arena_->phase();
    const float big = fonts_.uiSize * 2.2f;
    const double now = services_.platform->nowMs();
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
            const chessmode::BudgetEstimate e = arena_->estimate();
            const std::string cost = e.totalUsd > 0 ? "about " + formatCost(e.totalUsd) : std::string("no model costs");
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
        if (ImGui::SmallButton(e.label)) {
            const auto text = e.json ? arena_->exportJson() : arena_->exportPgn();
            if (text.ok()) services_.platform->downloadTextFile(e.file, e.mime, *text.value);
            arenaNotice_ = text.ok() ? e.done : text.error;
        }
        ui::markItem(e.item);
    }
    files.place("Import\xE2\x80\xA6");
    if (ImGui::SmallButton("Import\xE2\x80\xA6")) {
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

void App::drawArenaStandings() {
    const ui::Palette& pal = ui::palette();
    if (!arenaCompact_) {
        ImGui::PushFont(fonts_.bold);
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
    int waiting = 0, shown = 0, rank = 0;
    double previous = 0;
    for (const chessmode::LeaderboardRow& row : board.rows) {
        if (row.games == 0) { // anchors and late starters: in the full leaderboard, not here yet
            ++waiting;
            continue;
        }
        ++shown;
        if (shown == 1 || row.rating != previous) rank = shown; // ties share a place
        previous = row.rating;
        char rating[32];
        std::snprintf(rating, sizeof rating, "%.0f%s", row.rating, row.anchored ? "*" : "");
        ImGui::PushFont(fonts_.mono);
        ImGui::Text("%2d", rank);
        ImGui::PopFont();
        ImGui::SameLine();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float sw = fonts_.uiSize * 0.6f;
        dl->AddRectFilled(ImVec2(p.x, p.y + fonts_.uiSize * 0.25f), ImVec2(p.x + sw, p.y + fonts_.uiSize * 0.25f + sw),
                          ui::seriesColour(row.participant));
        ImGui::Dummy(ImVec2(sw, fonts_.uiSize));
        ImGui::SameLine();
        const float ratingW = ImGui::CalcTextSize("0000*").x;
        std::string name = arena_->participantName(row.participant);
        const float nameMax = right - (ImGui::GetCursorPosX() - ImGui::GetWindowContentRegionMin().x) - ratingW -
                              ImGui::GetStyle().ItemSpacing.x;
        while (name.size() > 4 && ImGui::CalcTextSize(name.c_str()).x > nameMax) name = name.substr(0, name.size() - 4) + "\xE2\x80\xA6";
        ImGui::TextUnformatted(name.c_str());
        ImGui::SameLine(ImGui::GetWindowContentRegionMin().x + right - ImGui::CalcTextSize(rating).x);
        ImGui::PushFont(fonts_.mono);
        ImGui::TextUnformatted(rating);
        ImGui::PopFont();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    const bool anchors = std::any_of(board.rows.begin(), board.rows.end(), [](const auto& r) { return r.anchored; });
    std::string note = std::to_string(board.gamesRated) + (board.gamesRated == 1 ? " game" : " games") + " rated";
    if (anchors) note += " \xC2\xB7 * anchored engine level";
    if (waiting > 0) note += " \xC2\xB7 " + std::to_string(waiting) + " yet to play";
    ImGui::TextWrapped("%s", note.c_str());
    ImGui::PopStyleColor();
}

void App::drawArenaGrid() {
    const double now = services_.platform->nowMs();
    const auto& slots = arena_->slots();
    const int n = std::max<int>(1, int(slots.size()));
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    // The column count that gives the largest tiles that fit (tiles scroll when none fit).
    int bestCols = 1;
    float bestW = 0;
    for (int cols = 1; cols <= n; ++cols) {
        const int rows = (n + cols - 1) / cols;
        float w = (avail.x - gap * float(cols - 1)) / float(cols) - 1.0f;
        while (!arenaCompact_ && w > 80 && (ui::gameTileHeight(fonts_, w) + gap) * float(rows) > avail.y) w -= 4;
        if (w > bestW) {
            bestW = w;
            bestCols = cols;
        }
    }
    const float minW = fonts_.uiSize * 9;
    if (arenaCompact_) {
        // Phones: boards of about 11 lines of text side by side; the page scrolls down the grid.
        bestCols = std::clamp(int((avail.x + gap) / (fonts_.uiSize * 11 + gap)), 1, n);
        bestW = (avail.x - gap * float(bestCols - 1)) / float(bestCols) - 1.0f;
    } else if (bestW < minW) {
        bestW = minW;
        bestCols = std::max(1, int((avail.x + gap) / (minW + gap)));
    }
    const int cols = std::min(bestCols, n);
    const float indent = std::max(0.0f, (avail.x - float(cols) * bestW - gap * float(cols - 1)) * 0.5f);
    // Wide screens: the grid scrolls on its own; phones: the page scrolls.
    if (!arenaCompact_) ImGui::BeginChild("##grid", ImVec2(0, 0), false);
    for (int i = 0; i < int(slots.size()); ++i) {
        const ArenaSlot& slot = slots[size_t(i)];
        if (i % bestCols != 0) ImGui::SameLine(0, gap);
        else ImGui::SetCursorPosX(ImGui::GetCursorPosX() + indent);
        ui::GameTileModel m;
        const std::string tileId = "arena.tile." + std::to_string(i);
        const chessmode::GameRecord* record = slot.gameId >= 0 ? arena_->game(slot.gameId) : nullptr;
        chessmode::LiveGame* live = slot.live ? arena_->liveGame(slot.gameId) : nullptr;
        if (!record && !live) {
            ImGui::BeginGroup();
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float h = ui::gameTileHeight(fonts_, bestW);
            ImGui::GetWindowDrawList()->AddRect(p, ImVec2(p.x + bestW, p.y + h), ui::palette().panelBorder);
            const char* waiting = "waiting for a game";
            const ImVec2 ts = ImGui::CalcTextSize(waiting);
            ImGui::GetWindowDrawList()->AddText(ImVec2(p.x + (bestW - ts.x) * 0.5f, p.y + (h - ts.y) * 0.5f),
                                                ui::palette().muted, waiting);
            ImGui::Dummy(ImVec2(bestW, h));
            ImGui::EndGroup();
            continue;
        }
        const play::Pairing& pairing = live ? live->pairing : record->pairing;
        m.white = arena_->participantName(pairing.white);
        m.black = arena_->participantName(pairing.black);
        m.whiteRating = arenaRating(pairing.white);
        m.blackRating = arenaRating(pairing.black);
        double cost = 0;
        if (live) {
            const chessmode::MatchRunner& match = *live->match;
            const chess::Game& game = match.game();
            m.position = game.position();
            const size_t plies = game.moves().size();
            if (plies > 0) {
                m.lastMove = game.moves().back();
                const chess::Position& start = game.startPosition();
                m.lastMoveText = moveNumberLabel(int(plies - 1), start.fullmoveNumber(),
                                                 start.sideToMove() == chess::Color::Black) +
                                 " " + match.moves().back().san;
            }
            cost = match.costUsd(chess::Color::White) + match.costUsd(chess::Color::Black);
            m.whiteToMove = m.position.sideToMove() == chess::Color::White;
            auto& since = arenaThinkStart_[pairing.id];
            if (since.first != plies || since.second <= 0) since = {plies, now};
            if (arena_->phase() == ArenaPhase::Paused) {
                m.status = ui::GameTileModel::Status::Paused;
                m.statusText = "paused";
            } else if (live->retryAtMs() >= 0) {
                m.status = ui::GameTileModel::Status::Retrying;
                m.statusText = "retrying in " + formatElapsed(std::max(0.0, live->retryAtMs() - now));
            } else if (match.thinking()) {
                m.status = ui::GameTileModel::Status::Thinking;
                m.statusText = std::string(m.whiteToMove ? "White" : "Black") + " thinking " + formatElapsed(now - since.second);
            } else {
                m.status = ui::GameTileModel::Status::Waiting;
                m.statusText = arena_->config().tempo == chessmode::Tempo::Ticker ? "waiting for the next tick" : "waiting";
            }
        } else {
            const ArenaReplay& r = arenaReplay(*record);
            m.position = positionAt(r, int(r.moves.size()), m.lastMove);
            if (!record->moves.empty()) {
                m.lastMoveText = moveNumberLabel(int(record->moves.size() - 1), r.start.fullmoveNumber(),
                                                 r.start.sideToMove() == chess::Color::Black) +
                                 " " + record->moves.back().san;
            }
            for (const auto& t : record->moves) cost += t.costUsd;
            m.whiteToMove = m.position.sideToMove() == chess::Color::White;
            m.status = record->finished() ? ui::GameTileModel::Status::Finished : ui::GameTileModel::Status::Paused;
            m.statusText = resultLine(*record);
        }
        m.moveNumber = m.position.fullmoveNumber();
        m.footer = "game " + std::to_string(pairing.id + 1) + " \xC2\xB7 round " + std::to_string(pairing.round);
        if (cost > 0) m.footer += " \xC2\xB7 " + formatCost(cost);
        if (ui::drawGameTile(fonts_, m, bestW, tileId.c_str())) {
            arenaGame_ = pairing.id;
            arenaNav_ = MoveNavigator();
            arenaBoard_.clearSelection();
        }
        ui::markItem(tileId);
    }
    if (!arenaCompact_) ImGui::EndChild();
}

void App::drawArenaGame(int gameId) {
    const ui::Palette& pal = ui::palette();
    chessmode::LiveGame* live = arena_->liveGame(gameId);
    const chessmode::GameRecord* record = arena_->game(gameId);
    if (ImGui::Button("\xE2\x86\x90 All games")) {
        arenaGame_ = -1;
        return;
    }
    ui::markItem("arena.back");
    const play::Pairing& pairing = live ? live->pairing : record->pairing;
    const std::string white = arena_->participantName(pairing.white);
    const std::string black = arena_->participantName(pairing.black);
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::PushFont(fonts_.bold);
    ImGui::Text("%s  vs  %s", white.c_str(), black.c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    ImGui::Text("game %d \xC2\xB7 round %d%s", pairing.id + 1, pairing.round,
                live ? "" : (" \xC2\xB7 " + resultLine(*record)).c_str());
    ImGui::PopStyleColor();
    // What each side spent on this game (every answer, rejected ones included).
    double cost[2] = {0, 0};
    long long tokens[2] = {0, 0};
    if (live) {
        for (int i = 0; i < 2; ++i) {
            const chess::Color side = i == 0 ? chess::Color::White : chess::Color::Black;
            cost[i] = live->match->costUsd(side);
            const llm::Usage u = live->match->usage(side);
            tokens[i] = u.promptTokens + u.completionTokens;
        }
    } else {
        for (size_t ply = 0; ply <= record->moves.size(); ++ply) {
            const chessmode::TurnRecord* t = ply < record->moves.size() ? &record->moves[ply]
                                                                    : (record->openTurn ? &*record->openTurn : nullptr);
            if (!t) continue;
            const int i = record->moverOf(ply) == pairing.white ? 0 : 1;
            cost[i] += t->costUsd;
            tokens[i] += t->promptTokens + t->completionTokens;
        }
    }
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    ImGui::Text("White %s \xC2\xB7 %s tokens     Black %s \xC2\xB7 %s tokens", formatCost(cost[0]).c_str(),
                formatTokens(uint64_t(tokens[0])).c_str(), formatCost(cost[1]).c_str(),
                formatTokens(uint64_t(tokens[1])).c_str());
    if (!live && record && !record->detail.empty()) ImGui::TextWrapped("%s", record->detail.c_str());
    ImGui::PopStyleColor();

    // Moves and positions: the live match's, else the record replayed.
    ui::MoveListModel moves;
    ArenaReplay r;
    if (live) {
        const chess::Game& game = live->match->game();
        r.start = game.startPosition();
        r.moves = game.moves();
        for (const auto& rec : live->match->moves())
            if (rec.ply >= 0) moves.sans.push_back(rec.san);
    } else {
        r = arenaReplay(*record);
        for (size_t i = 0; i < r.moves.size(); ++i) moves.sans.push_back(record->moves[i].san);
        if (record->finished()) moves.result = std::string(chessmode::resultText(record->result));
    }
    moves.startFullmove = r.start.fullmoveNumber();
    moves.startBlack = r.start.sideToMove() == chess::Color::Black;
    arenaNav_.setPlyCount(int(r.moves.size()));

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
    const bool landscape = avail.x > avail.y * 1.2f;
    const float boardSize = landscape ? std::max(64.0f, std::min(avail.y - 4, avail.x * 0.5f))
                                      : std::max(64.0f, std::min(avail.x - 4, fonts_.uiSize * 24));
    chess::Move last;
    const chess::Position pos = positionAt(r, arenaNav_.viewPly(), last);
    ImGui::BeginGroup();
    arenaBoard_.draw(fonts_, pos, last, boardSize, false, services_.platform->nowMs());
    ImGui::EndGroup();
    ui::markItem("arena.game.board");
    if (landscape) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    const float width = landscape ? ImGui::GetContentRegionAvail().x : avail.x;
    const float height = landscape ? avail.y : fonts_.uiSize * 30;
    const float listH = std::max(fonts_.uiSize * 6, height * 0.3f);
    ImGui::BeginChild("##arenaMoves", ImVec2(width, listH), false);
    ui::drawMoveList(fonts_, moves, arenaNav_, listH - ImGui::GetFrameHeightWithSpacing());
    ImGui::EndChild();
    const float panelW = (width - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    const float panelH = std::max(fonts_.uiSize * 8, height - listH - ImGui::GetStyle().ItemSpacing.y);
    for (chess::Color side : {chess::Color::White, chess::Color::Black}) {
        const bool isWhite = side == chess::Color::White;
        const int participant = isWhite ? pairing.white : pairing.black;
        std::string title = std::string(isWhite ? "White" : "Black") + " \xC2\xB7 " + (isWhite ? white : black);
        ui::ReasoningPanelModel model;
        if (live) {
            const auto spec = chessmode::parsePlayerSpec(arena_->config().participants[size_t(participant)].spec);
            const bool llm = spec.ok() && spec.value->kind == chessmode::PlayerSpec::Kind::Model;
            model = reasoningFromMatch(*live->match, side, isWhite ? live->white.get() : live->black.get(),
                                       std::move(title), llm, false);
        } else {
            model = reasoningFromRecord(*record, side, std::move(title));
        }
        if (!isWhite) ImGui::SameLine();
        ui::drawReasoningPanel(fonts_, model, panelW, panelH, isWhite ? "arena.reasoning.white" : "arena.reasoning.black",
                               arenaNav_.viewPly() - 1);
    }
    ImGui::EndGroup();
}

void App::drawArenaLeaderboard() {
    const chessmode::Leaderboard& board = arena_->leaderboard();
    std::vector<ui::LeaderboardRowView> rows;
    for (const chessmode::LeaderboardRow& r : board.rows) {
        ui::LeaderboardRowView v;
        v.rank = r.rank;
        v.name = arena_->participantName(r.participant);
        v.kind = ArenaSession::participantKind(arena_->config().participants[size_t(r.participant)]);
        v.rating = r.rating;
        v.low = r.ratingLow;
        v.high = r.ratingHigh;
        v.anchored = r.anchored;
        v.elo = r.elo;
        v.games = r.games;
        v.wins = r.wins;
        v.draws = r.draws;
        v.losses = r.losses;
        v.forfeits = r.forfeits;
        v.illegalPer100 = r.illegalPer100Moves;
        v.avgCostPerGame = r.avgCostPerGame;
        v.avgTokensPerMove = r.avgTokensPerMove;
        v.spentUsd = arena_->spentUsd(r.participant);
        v.colour = ui::seriesColour(r.participant);
        rows.push_back(std::move(v));
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float rowH = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().CellPadding.y * 2;
    const float tableH = std::min(avail.y * 0.5f, rowH * float(rows.size() + 2) + 4);
    ui::drawLeaderboardTable(fonts_, rows, tableH, "arena.leaderboard");
    ui::markItem("arena.leaderboard");
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().muted);
    ImGui::TextWrapped("Bradley-Terry ratings with 95%% bootstrap intervals%s; Elo is the live rating (start 1500, "
                       "K = 32). %d %s rated%s.",
                       std::any_of(board.rows.begin(), board.rows.end(), [](const auto& r) { return r.anchored; })
                           ? ", anchored to the calibrated engine levels (*)"
                           : "",
                       board.gamesRated, board.gamesRated == 1 ? "game" : "games",
                       arena_->excludeForfeits() ? ", forfeit games left out" : "");
    ImGui::PopStyleColor();
    if (auto ok = arena_->importedMatches()) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(*ok ? ui::palette().ok : ui::palette().danger), "%s",
                           *ok ? "\xE2\x9C\x93 reproduces the leaderboard stored in the imported file"
                               : "\xE2\x9C\x97 differs from the leaderboard stored in the imported file");
        ui::markItem("arena.importCheck");
    }
    std::vector<ui::RatingSeries> series;
    const auto& history = arena_->ratingHistory();
    for (size_t p = 0; p < arena_->config().participants.size(); ++p) {
        ui::RatingSeries s;
        s.name = arena_->participantName(int(p));
        s.colour = ui::seriesColour(int(p));
        s.anchored = arena_->config().participants[p].anchorElo >= 0;
        for (const auto& point : history)
            if (p < point.size()) s.ratings.push_back(point[p]);
        series.push_back(std::move(s));
    }
    ImGui::Spacing();
    const ImVec2 rest = ImGui::GetContentRegionAvail();
    ui::drawRatingPlot(fonts_, series, ImVec2(rest.x, std::max(rest.y, fonts_.uiSize * 14)), "arena.plot");
    ui::markItem("arena.plot");
}

void App::drawArenaResetConfirm() {
    if (arenaResetOpen_) {
        ImGui::OpenPopup("Reset the tournament?");
        arenaResetOpen_ = false;
    }
    ImGui::SetNextWindowSize(ImVec2(fonts_.uiSize * 26, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Reset the tournament?", nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::TextWrapped("This clears every game and rating of \"%s\" from this browser. Export it first to keep "
                           "a copy. The setup stays, ready to start again.",
                           arena_->config().name.c_str());
        ImGui::Spacing();
        if (ImGui::Button("Reset")) {
            arena_->reset();
            arenaReplays_.clear();
            arenaGame_ = -1;
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

void App::drawArenaImport() {
    if (!arenaImportOpen_) return;
    ImGui::SetNextWindowSize(ImVec2(fonts_.uiSize * 34, fonts_.uiSize * 24), ImGuiCond_Appearing);
    if (ImGui::Begin("Import a tournament", &arenaImportOpen_, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        ImGui::TextWrapped("Choose or paste a tournament exported from CHAIBA (chaiba-tournament.json, or the "
                           "tournament.json that `chaiba arena --out` writes). It replaces the tournament shown "
                           "now%s.",
                           arena_->hasTournament() ? " (export that one first to keep it)" : "");
        if (ImGui::Button("Choose a file\xE2\x80\xA6")) services_.platform->pickTextFile(".json,application/json");
        ui::markItem("arena.import.file");
        if (auto file = services_.platform->takePickedFile()) {
            if (!file->error.empty()) {
                arenaImportError_ = file->name + ": " + file->error;
            } else if (auto error = arena_->importJson(file->text)) {
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
            if (auto error = arena_->importJson(arenaImportBuffer_.data())) {
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
    }
    ImGui::End();
}

} // namespace chaiba
