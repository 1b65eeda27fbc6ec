// The arena's main views: the live grid of games, the full view of one game (board, moves, both
// players' reasoning) and the leaderboard with the rating plot.
#include "src/modes/chess/arena_screen.h"

#include "engine/chess/notation.h"
#include "engine/search/analysis.h"
#include "src/modes/chess/players.h"
#include "src/modes/chess/reasoning_model.h"
#include "src/modes/chess/ui/eval_graph.h"
#include "src/modes/chess/ui/game_tile.h"
#include "src/modes/chess/ui/games_filter_bar.h"
#include "src/modes/chess/ui/move_list.h"
#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/leaderboard_table.h"
#include "src/ui/rating_plot.h"
#include "src/ui/reasoning_panel.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace chaiba {

namespace {

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

// A finished game's move quality on its tile once the analysis has judged it: the last move's mark
// and the mistakes and blunders of each side (White–Black).
void tileQuality(const chessmode::GameRecord& g, chess::Color firstMover, ui::GameTileModel& m) {
    if (g.moves.empty() || g.moves.back().cpLoss < 0) return; // not analysed (yet)
    m.lastMoveJudgement = g.moves.back().judgement;
    int mistakes[2] = {0, 0}, blunders[2] = {0, 0};
    for (size_t i = 0; i < g.moves.size(); ++i) {
        const bool white = (i % 2 == 0) == (firstMover == chess::Color::White);
        const auto j = static_cast<search::MoveJudgement>(g.moves[i].judgement);
        if (j == search::MoveJudgement::Blunder) ++blunders[white ? 0 : 1];
        if (j == search::MoveJudgement::Mistake) ++mistakes[white ? 0 : 1];
    }
    char text[96];
    std::snprintf(text, sizeof text, "blunders %d\xE2\x80\x93%d \xC2\xB7 mistakes %d\xE2\x80\x93%d", blunders[0],
                  blunders[1], mistakes[0], mistakes[1]);
    m.quality = text;
}

} // namespace

const ArenaReplay& ArenaScreen::arenaReplay(const chessmode::GameRecord& g) {
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

std::string ArenaScreen::arenaRating(int participant) const {
    for (const chessmode::LeaderboardRow& row : arena_->leaderboard().rows)
        if (row.participant == participant && row.games > 0) return std::to_string(int(std::lround(row.rating)));
    const auto& ps = arena_->config().participants;
    if (participant >= 0 && size_t(participant) < ps.size() && ps[size_t(participant)].anchorElo >= 0)
        return std::to_string(int(std::lround(ps[size_t(participant)].anchorElo)));
    return {};
}
void ArenaScreen::drawGrid() {
    const double now = context_.platform->nowMs();
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
        while (!arenaCompact_ && w > 80 && (ui::gameTileHeight(*context_.fonts, w) + gap) * float(rows) > avail.y) w -= 4;
        if (w > bestW) {
            bestW = w;
            bestCols = cols;
        }
    }
    const float minW = context_.fonts->uiSize * 9;
    if (arenaCompact_) {
        // Phones: boards of about 11 lines of text side by side; the page scrolls down the grid.
        bestCols = std::clamp(int((avail.x + gap) / (context_.fonts->uiSize * 11 + gap)), 1, n);
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
            const float h = ui::gameTileHeight(*context_.fonts, bestW);
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
            tileQuality(*record, r.start.sideToMove(), m);
            m.whiteToMove = m.position.sideToMove() == chess::Color::White;
            m.status = record->finished() ? ui::GameTileModel::Status::Finished : ui::GameTileModel::Status::Paused;
            m.statusText = resultLine(*record);
        }
        m.moveNumber = m.position.fullmoveNumber();
        m.footer = "game " + std::to_string(pairing.id + 1) + " \xC2\xB7 round " + std::to_string(pairing.round);
        if (cost > 0) m.footer += " \xC2\xB7 " + formatCost(cost);
        if (ui::drawGameTile(*context_.fonts, m, bestW, tileId.c_str())) {
            arenaGame_ = pairing.id;
            arenaNav_ = MoveNavigator();
            arenaBoard_.clearSelection();
        }
        ui::markItem(tileId);
    }
    // A few boards in one row leave the grid's lower part empty: the finished games are listed there
    // (a row opens its game), as on the leaderboard's tab.
    if (!arenaCompact_ && ImGui::GetContentRegionAvail().y > context_.fonts->uiSize * 8 && arena_->gamesFinished() > 0)
        drawGamesList();
    if (!arenaCompact_) ImGui::EndChild();
    // What the boards keep per game (replayed positions, thinking clocks) goes with the game's
    // board: a long tournament shows thousands of games in turn.
    auto gone = [&](int id) {
        return id != arenaGame_ && std::none_of(slots.begin(), slots.end(), [id](const ArenaSlot& s) { return s.gameId == id; });
    };
    std::erase_if(arenaReplays_, [&](const auto& entry) { return gone(entry.first); });
    std::erase_if(arenaThinkStart_, [&](const auto& entry) { return gone(entry.first); });
}

void ArenaScreen::drawGame(int gameId) {
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
    ImGui::PushFont(context_.fonts->bold);
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
    } else if (record->isFolded()) { // its moves could not be read back: the sums it keeps
        for (size_t side = 0; side < 2; ++side) {
            const int i = record->folded->movers[side] == pairing.white ? 0 : 1;
            cost[i] += record->folded->costUsd[side];
            tokens[i] += record->folded->tokens[side];
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
    if (!live && record && record->isFolded()) {
        if (arena_->reading(gameId))
            ImGui::TextWrapped("Reading this game's moves back from this browser's storage\xE2\x80\xA6");
        else
            ImGui::TextWrapped("The moves of this game could not be read back from this browser's storage (%s); its "
                               "result and costs above are kept.", arena_->readError(gameId).c_str());
    }
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
        // The engine's verdicts (?!, ?, ??) once the game is analysed.
        if (!record->moves.empty() && record->moves.front().cpLoss >= 0)
            for (size_t i = 0; i < r.moves.size(); ++i)
                moves.marks.push_back(static_cast<search::MoveJudgement>(std::clamp(record->moves[i].judgement, 0, 3)));
        if (record->finished()) moves.result = std::string(chessmode::resultText(record->result));
    }
    // A game not judged by the arena yet (a live one) shows the review's marks as they come.
    if (moves.marks.empty() && review_ && reviewGameId_ == gameId)
        for (const auto& q : review_->analysis().moves) moves.marks.push_back(q.judgement);
    moves.startFullmove = r.start.fullmoveNumber();
    moves.startBlack = r.start.sideToMove() == chess::Color::Black;
    arenaNav_.setPlyCount(int(r.moves.size()));

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
    const bool landscape = avail.x > avail.y * 1.2f;
    const float boardSize = landscape ? std::max(64.0f, std::min(avail.y - 4, avail.x * 0.5f))
                                      : std::max(64.0f, std::min(avail.x - 4, context_.fonts->uiSize * 24));
    chess::Move last;
    const chess::Position pos = positionAt(r, arenaNav_.viewPly(), last);
    // The evaluation bar at the board's left, for the position shown (the review's score, once the
    // review follows this game: a game just opened shows "…" for a frame, not the last game's score).
    const bool reviewed = review_ && reviewGameId_ == gameId;
    const float barW = std::max(10.0f, context_.fonts->uiSize * 1.6f);
    const float barGap = ImGui::GetStyle().ItemSpacing.x * 0.5f;
    const search::PositionEval* eval = reviewed ? review_->eval(size_t(arenaNav_.viewPly())) : nullptr;
    ImGui::BeginGroup();
    ui::drawEvalBar(*context_.fonts, eval, eval ? search::formatEval(*eval, pos) : std::string("\xE2\x80\xA6"), barW,
                    boardSize - barW - barGap, arenaBoard_.flipped);
    ui::markItem("arena.game.evalBar");
    ImGui::SameLine(0, barGap);
    arenaBoard_.draw(*context_.fonts, pos, last, boardSize - barW - barGap, false, context_.platform->nowMs());
    ui::markItem("arena.game.board");
    ImGui::EndGroup();
    if (landscape) ImGui::SameLine(0, gap);
    const float width = landscape ? ImGui::GetContentRegionAvail().x : avail.x;
    const float height = landscape ? avail.y : context_.fonts->uiSize * 40;
    drawGameColumn(moves, pairing, live, record, width, height, !landscape);
}

// Beside the board (below it on a phone): the evaluation graph with the accuracies along its top (a
// click shows that position), the move list and both players' reasoning at the move shown.
void ArenaScreen::drawGameColumn(const ui::MoveListModel& moves, const play::Pairing& pairing, chessmode::LiveGame* live,
                                 const chessmode::GameRecord* record, float width, float height, bool compact) {
    const float uiSize = context_.fonts->uiSize;
    const ImGuiStyle& style = ImGui::GetStyle();
    ImGui::BeginGroup();
    const float graphH = uiSize * (compact ? 4.5f : 3.6f);
    if (review_ && reviewGameId_ == pairing.id) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        if (auto ply = ui::drawEvalGraph(*context_.fonts, *review_, arenaNav_.viewPly(), width, graphH, ui::analysisSummary(*review_)))
            arenaNav_.select(*ply);
        ui::markItemRect("arena.game.graph", at.x, at.y, width, graphH);
    } else {
        ImGui::Dummy(ImVec2(width, graphH));
    }
    const float rest = height - graphH - style.ItemSpacing.y;
    // Wide: the move list as a tall column (a game's worth of moves in view) and the two reasoning
    // panels stacked beside it, as on the match screen; a phone: each the whole width, one under another.
    const float listW = compact ? width : std::clamp(width * 0.36f, uiSize * 13, uiSize * 20);
    const float listH = compact ? uiSize * 14 : rest;
    ImGui::BeginChild("##arenaMoves", ImVec2(listW, listH), false, ImGuiWindowFlags_NoScrollbar);
    ui::drawMoveList(*context_.fonts, moves, arenaNav_,
                     ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing() -
                         (listW < uiSize * 17 ? ImGui::GetTextLineHeightWithSpacing() : 0.0f));
    ImGui::EndChild();
    if (!compact) ImGui::SameLine();
    const float panelW = compact ? width : ImGui::GetContentRegionAvail().x;
    const float panelH = compact ? uiSize * 12 : (rest - style.ItemSpacing.y) * 0.5f;
    const std::string white = arena_->participantName(pairing.white);
    const std::string black = arena_->participantName(pairing.black);
    ImGui::BeginGroup();
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
        ui::drawReasoningPanel(*context_.fonts, model, panelW, panelH, isWhite ? "arena.reasoning.white" : "arena.reasoning.black",
                               arenaNav_.viewPly() - 1);
    }
    ImGui::EndGroup();
    ImGui::EndGroup();
}

// The game shown in full, followed by its review (an engine worker of its own, made at the first
// game opened; natively a node-capped search a tick). A folded game is reviewed once read back.
void ArenaScreen::followReview() {
    if (arenaGame_ < 0) return;
    chessmode::LiveGame* live = arena_->liveGame(arenaGame_);
    const chessmode::GameRecord* record = arena_->game(arenaGame_);
    if (!live && (!record || record->isFolded())) return;
    if (!review_) {
        review_ = std::make_unique<chessmode::GameAnalyser>(chessmode::arenaAnalysisBudget());
        if (services_.makeScorer) review_->setScorer(services_.makeScorer());
    }
    if (live) {
        review_->follow(live->match->game());
    } else {
        const ArenaReplay& r = arenaReplay(*record);
        std::string key = std::to_string(arenaGame_) + '#' + r.key;
        if (key != reviewKey_) {
            reviewGame_ = chess::Game(r.start);
            for (chess::Move m : r.moves) reviewGame_.play(m);
            reviewKey_ = std::move(key);
        }
        review_->follow(reviewGame_);
    }
    reviewGameId_ = arenaGame_;
    review_->step();
}

bool ArenaScreen::reviewing() const {
    return arenaGame_ >= 0 && review_ && reviewGameId_ == arenaGame_ && !review_->complete() && review_->error().empty();
}

std::vector<int> ArenaScreen::gamesListed() const {
    const std::vector<chessmode::GameRecord>& games = arena_->games();
    std::vector<int> shown; // indexes into games, newest first
    for (int i = int(games.size()) - 1; i >= 0; --i) {
        const chessmode::GameRecord& g = games[size_t(i)];
        if (!g.finished()) continue;
        chessmode::GameFacts facts;
        facts.white = g.pairing.white;
        facts.black = g.pairing.black;
        facts.result = g.result;
        facts.ending = std::string(chessmode::terminationName(g.termination));
        facts.forfeit = chessmode::isForfeit(g.termination);
        facts.opening = g.pairing.opening;
        if (gamesFilter_.matches(facts)) shown.push_back(i);
    }
    return shown;
}

// Every finished game (not only the grid's): newest first, filtered by player, result, ending and
// opening (the bar the match history shares); a click opens the game view (a folded game is read
// back from the store there).
void ArenaScreen::drawGamesList() {
    const std::vector<chessmode::GameRecord>& games = arena_->games();
    ImGui::Spacing();
    ImGui::PushFont(context_.fonts->bold);
    ImGui::TextUnformatted("Games");
    ImGui::PopFont();
    ui::FlowRow filters; // the filters wrap on a phone
    filters.first = false;
    // How the games ended, among the endings that occurred; the opening, when the suite has several.
    ui::GamesFilterChoices choices;
    for (int i = 0; i < int(arena_->config().participants.size()); ++i) choices.players.push_back(arena_->participantName(i));
    bool seen[32] = {};
    for (const chessmode::GameRecord& g : games)
        if (g.finished() && int(g.termination) < 32) seen[int(g.termination)] = true;
    for (int t = 0; t < 32; ++t)
        if (seen[t]) choices.endings.emplace_back(chessmode::terminationName(chessmode::Termination(t)));
    for (const chessmode::Opening& o : arena_->config().openings) choices.openings.push_back(o.name);
    ui::drawGamesFilterBar(*context_.fonts, gamesFilter_, choices, "arena.games", filters);
    const std::vector<int> shown = gamesListed();
    char count[64];
    std::snprintf(count, sizeof count, "%zu game%s \xC2\xB7 a row opens the game", shown.size(), shown.size() == 1 ? "" : "s");
    filters.placeWidth(ImGui::CalcTextSize(count).x); // a narrow page: below the filters
    ImGui::TextDisabled("%s", count);
    if (shown.empty()) return;
    const float rowH = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().CellPadding.y * 2;
    const float height = std::min(rowH * 11, rowH * float(shown.size() + 1) + 4); // ten rows, then it scrolls
    if (!ImGui::BeginTable("##gamesList", 5,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp,
                           ImVec2(0, height)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, context_.fonts->uiSize * 2.5f);
    ImGui::TableSetupColumn("White", ImGuiTableColumnFlags_WidthStretch, 3);
    ImGui::TableSetupColumn("Black", ImGuiTableColumnFlags_WidthStretch, 3);
    ImGui::TableSetupColumn("Result", ImGuiTableColumnFlags_WidthStretch, 3);
    ImGui::TableSetupColumn("Plies", ImGuiTableColumnFlags_WidthFixed, context_.fonts->uiSize * 3);
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(int(shown.size()));
    while (clipper.Step()) {
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const chessmode::GameRecord& g = games[size_t(shown[size_t(r)])];
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::PushID(g.pairing.id);
            const std::string number = std::to_string(g.pairing.id + 1);
            if (ImGui::Selectable(number.c_str(), false, ImGuiSelectableFlags_SpanAllColumns)) {
                arenaGame_ = g.pairing.id;
                arenaNav_ = MoveNavigator();
                arenaTab_ = 0;
                arenaTabRequested_ = true;
            }
            ImGui::PopID();
            ImGui::TableSetColumnIndex(1);
            ImGui::TextUnformatted(arena_->participantName(g.pairing.white).c_str());
            ImGui::TableSetColumnIndex(2);
            ImGui::TextUnformatted(arena_->participantName(g.pairing.black).c_str());
            ImGui::TableSetColumnIndex(3);
            ImGui::TextUnformatted(resultLine(g).c_str());
            ImGui::TableSetColumnIndex(4);
            ImGui::Text("%zu", g.plies());
        }
    }
    ImGui::EndTable();
    ui::markItem("arena.games.list");
}

chessmode::LeaderboardReport ArenaScreen::leaderboardReport() const {
    chessmode::LeaderboardReport r;
    r.config = &arena_->config();
    r.board = &arena_->leaderboard();
    r.options = arena_->leaderboardOptions();
    for (size_t i = 0; i < r.config->participants.size(); ++i) r.names.push_back(arena_->participantName(int(i)));
    r.history = arena_->ratingHistory();
    r.judgeNodes = long(chessmode::arenaAnalysisBudget().maxNodes);
    r.appVersion = chessmode::appVersion();
    r.exportedAt = chessmode::utcIsoTime(int64_t(std::time(nullptr)));
    return r;
}

// The methods card (how the ratings, intervals and judgements are made, with this tournament's
// figures) and the leaderboard as files to publish as they are.
void ArenaScreen::drawMethods() {
    if (!arena_->hasTournament()) return;
    ImGui::Spacing();
    const bool open = ImGui::CollapsingHeader("Methods: how these ratings and judgements are made");
    ui::markItem("arena.methods");
    if (open) {
        ImGui::PushTextWrapPos(0.0f);
        for (const std::string& line : chessmode::methodsLines(leaderboardReport())) {
            ImGui::Bullet();
            ImGui::TextUnformatted(line.c_str());
        }
        ImGui::PopTextWrapPos();
    }
    // The static exports: what the table and the plot show, with the methods, for a web page or a paper.
    if (ui::smallButton("Export CSV")) {
        context_.platform->downloadTextFile("chaiba-leaderboard.csv", "text/csv", chessmode::leaderboardCsv(leaderboardReport()));
        arenaNotice_ = "Downloaded chaiba-leaderboard.csv.";
    }
    ui::markItem("arena.exportCsv");
    ImGui::SameLine();
    if (ui::smallButton("Export report (HTML)")) {
        context_.platform->downloadTextFile("chaiba-leaderboard.html", "text/html",
                                            chessmode::leaderboardHtml(leaderboardReport()));
        arenaNotice_ = "Downloaded chaiba-leaderboard.html: a page with the table, the rating plot and the methods.";
    }
    ui::markItem("arena.exportReport");
}

void ArenaScreen::drawLeaderboard() {
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
        v.analysed = r.analysedMoves > 0;
        v.avgCpLoss = r.avgCpLoss;
        v.blundersPer100 = r.blundersPer100Moves;
        v.context = chessmode::contextPolicyLabel(chessmode::contextPolicyOf(arena_->config(), r.participant),
                                                  arena_->config().contextWindowMoves); // "windowed 8"
        v.gamesToPlusMinus50 = r.gamesToPlusMinus50;
        v.colour = ui::seriesColour(r.participant);
        rows.push_back(std::move(v));
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float rowH = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().CellPadding.y * 2;
    const float tableH = std::min(avail.y * 0.5f, rowH * float(rows.size() + 2) + 4);
    // One rating scale in the table: the Bradley-Terry rating, or the live Elo in a view of its own.
    if (ImGui::RadioButton("Rating", !liveElo_)) liveElo_ = false;
    ui::markItem("arena.scale.rating");
    ImGui::SameLine();
    if (ImGui::RadioButton("Live Elo", liveElo_)) liveElo_ = true;
    ui::markItem("arena.scale.liveElo");
    // A row's click lists that player's games below.
    if (const int clicked = ui::drawLeaderboardTable(*context_.fonts, rows, tableH - ImGui::GetFrameHeightWithSpacing(),
                                                     "arena.leaderboard", liveElo_);
        clicked >= 0)
        gamesFilter_.player = board.rows[size_t(clicked)].participant;
    ui::markItem("arena.leaderboard");
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().muted);
    if (liveElo_)
        ImGui::TextWrapped("Live Elo: start 1500, K = 32, game by game in finish order; unanchored and order-dependent, "
                           "a view of the tournament's course. The rows stay ranked by the rating. %d %s rated.",
                           board.gamesRated, board.gamesRated == 1 ? "game" : "games");
    else
        ImGui::TextWrapped("Bradley-Terry ratings with 95%% bootstrap intervals%s. %d %s rated%s. How they are made: "
                           "Methods, below.",
                           std::any_of(board.rows.begin(), board.rows.end(), [](const auto& r) { return r.anchored; })
                               ? ", anchored to the calibrated engine levels (*)"
                               : "",
                           board.gamesRated, board.gamesRated == 1 ? "game" : "games",
                           arena_->excludeForfeits() ? ", forfeit games left out" : "");
    if (arena_->ratingsRefining()) {
        // A game just ended: its ratings are shown, the intervals follow a slice per frame.
        const auto [drawn, wanted] = arena_->refineProgress();
        if (arena_->bootstrapStats().sent > 0 && arena_->bootstrapStats().error.empty())
            ImGui::TextWrapped("Updating the intervals for the last result: %d resamples in the background (the ratings are current).",
                               wanted);
        else
            ImGui::TextWrapped("Updating the intervals for the last result: %d of %d resamples (the ratings are current).", drawn,
                               wanted);
        ui::markItem("arena.leaderboard.refining");
    }
    // Move quality and the setup's choices, as `chaiba arena` reports them.
    const chessmode::TournamentConfig& config = arena_->config();
    std::string quality = "ACPL (average centipawn loss) and blunders per 100 moves: the built-in engine's judgement at " +
                          std::to_string(chessmode::arenaAnalysisBudget().maxNodes / 1000) + "k nodes a position";
    if (const int waiting = arena_->gamesAwaitingAnalysis(); waiting > 0) {
        quality += " (" + std::to_string(waiting) + (waiting == 1 ? " game" : " games") + " still to analyse";
        // On a machine with few cores the analysis yields to the live games (ArenaEnvironment).
        if (arena_->analysisShare() < 1)
            quality += "; at " + std::to_string(int(std::lround(arena_->analysisShare() * 100))) +
                       " % of a core while games run on this machine's few cores, at full speed once they stop";
        quality += ")";
    }
    quality += ". Context: ";
    quality += chessmode::contextPolicyName(config.contextPolicy);
    if (config.format == play::Format::Arena) {
        quality += "; pairing: ";
        quality += play::arenaPairingName(config.pairing);
    }
    quality += ".";
    ImGui::TextWrapped("%s", quality.c_str());
    ui::markItem("arena.leaderboard.quality");
    if (!arena_->analysis().error().empty()) ImGui::TextWrapped("%s", arena_->analysis().error().c_str());
    ImGui::PopStyleColor();
    if (auto ok = arena_->importedMatches()) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(*ok ? ui::palette().ok : ui::palette().danger), "%s",
                           *ok ? "\xE2\x9C\x93 reproduces the leaderboard stored in the imported file"
                               : "\xE2\x9C\x97 differs from the leaderboard stored in the imported file");
        ui::markItem("arena.importCheck");
    }
    drawGamesList();
    drawMethods();
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
    ui::drawRatingPlot(*context_.fonts, series, ImVec2(rest.x, std::max(rest.y, context_.fonts->uiSize * 14)), "arena.plot");
    ui::markItem("arena.plot");
}

} // namespace chaiba
