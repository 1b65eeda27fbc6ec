// Move quality for the page's arena: finished games judged by the built-in engine at the arena's
// fixed budget (arenaAnalysisBudget, the same as `chaiba arena`), one position per request to a
// PositionScorer (the page's engine worker; natively a searcher in the caller's thread), one game
// at a time, while the scorer says the CPU is free. The judged moves land in the game records
// (TurnRecord::cpLoss / judgement), exactly as chessmode::analyseRecord writes them.
#pragma once

#include "src/modes/chess/layers.h"
#include "engine/search/analysis.h"
#include "src/modes/chess/game_analyser.h"
#include "src/modes/chess/position_scorer.h"
#include "src/modes/chess/tournament.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace chaiba::chessmode {

// The request scored in the caller's thread: what the page's engine worker runs for each request,
// and what the native scorer runs.
ScoreReply scorePosition(const ScoreRequest& request, search::Searcher& searcher);

// Natively: the pending request is scored in poll(), in the caller's thread.
class SearchScorer final : public PositionScorer {
public:
    bool ready() const override { return !pending_; }
    void request(const ScoreRequest& request, Callback callback) override;
    void poll() override;

private:
    std::optional<ScoreRequest> pending_;
    Callback callback_;
    std::unique_ptr<search::Searcher> searcher_;
};

// The queue: which finished game is analysed next, its scores so far, the finished analyses by game.
class ArenaAnalysisQueue {
public:
    explicit ArenaAnalysisQueue(std::unique_ptr<PositionScorer> scorer,
                                search::AnalysisBudget budget = arenaAnalysisBudget());
    ~ArenaAnalysisQueue();
    ArenaAnalysisQueue(const ArenaAnalysisQueue&) = delete;
    ArenaAnalysisQueue& operator=(const ArenaAnalysisQueue&) = delete;

    // Advances the analysis over `games` (the session's list: finished ones are analysed in
    // order, those already carrying cpLoss are skipped). Returns the ids of games whose analysis
    // completed since the last call: apply() now fills their records.
    std::vector<int> poll(const std::vector<GameRecord>& games);
    // Writes a finished analysis into a record of that game (same moves); false when there is none.
    bool apply(GameRecord& record) const;
    // Drops a finished analysis once every record of the game carries it.
    void forget(int gameId) { done_.erase(gameId); }
    // Where a folded game's moves come from (the session's store); without it a folded game
    // cannot be analysed (it is reported and skipped).
    void setLoader(std::function<Parsed<GameRecord>(int gameId)> load) { load_ = std::move(load); }
    // Forgets everything (a reset or an import); a reply still on its way is dropped.
    void clear();

    bool analysed(const GameRecord& game) const; // judged, or nothing to judge
    int waiting(const std::vector<GameRecord>& games) const; // finished games not yet analysed
    int scoredPositions() const { return static_cast<int>(evals_.size()); } // of the current game
    int currentGame() const { return current_; } // -1: none
    const std::string& error() const { return error_; } // the last game that could not be analysed

private:
    bool startNext(const std::vector<GameRecord>& games);
    void finishCurrent();

    search::AnalysisBudget budget_;
    int current_ = -1;                          // game id being analysed
    ScoreRequest base_;                         // its start (uciMoves: all of its moves)
    std::vector<chess::Color> movers_;
    std::vector<search::PositionEval> evals_;   // positions 0.. scored so far
    bool inFlight_ = false;
    uint64_t generation_ = 0;                   // bumped by clear(): stale replies are dropped
    std::optional<ScoreReply> reply_;           // arrived, taken by the next poll
    std::map<int, std::vector<std::pair<int, int>>> done_; // game id -> (cpLoss, judgement) per move
    std::set<int> failed_;
    std::vector<int> completed_;
    std::string error_;
    std::function<Parsed<GameRecord>(int gameId)> load_;
    std::unique_ptr<PositionScorer> scorer_;    // last: destroyed first, so no reply outlives the queue
};

} // namespace chaiba::chessmode
