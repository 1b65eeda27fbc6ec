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

// The native choice of ArenaEnvironment::makeScorer: a SearchScorer.
std::function<std::unique_ptr<PositionScorer>()> inThreadScorer();

// A build without a scorer: every request fails with the reason (each game is reported not judged).
class NoScorer final : public PositionScorer {
public:
    bool ready() const override { return !callback_; }
    void request(const ScoreRequest&, Callback callback) override { callback_ = std::move(callback); }
    void poll() override {
        if (!callback_) return;
        Callback callback = std::move(callback_);
        callback_ = nullptr;
        ScoreReply reply;
        reply.error = "no engine to judge moves was given to this arena";
        callback(reply);
    }

private:
    Callback callback_;
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
    // The whole record a finished analysis was made on (the game as it was handed over, or read
    // back from the store when folded), once: the owner applies the analysis to it.
    std::optional<GameRecord> takeRecord(int gameId);
    // Drops a finished analysis once every record of the game carries it.
    void forget(int gameId) {
        done_.erase(gameId);
        records_.erase(gameId);
    }
    // Reads a folded game back whole (the session's store); the callback may run inside the call
    // or later, and the queue waits for it. Without a loader a folded game cannot be analysed (it
    // is reported and skipped).
    using Loader = std::function<void(int gameId, std::function<void(Parsed<GameRecord>)> done)>;
    void setLoader(Loader load) { load_ = std::move(load); }
    // Forgets everything (a reset or an import); a reply still on its way is dropped.
    void clear();
    // The share of the time the scorer may be kept busy, from the next poll on (the poll's time
    // is `nowMs`): below 1, after each reply the next request waits (1/share - 1) times as long
    // as that position took, so a background analysis leaves the cores to the live games on a
    // machine that has few. 1: back to back.
    void pace(double share, double nowMs) {
        share_ = share;
        nowMs_ = nowMs;
    }

    bool analysed(const GameRecord& game) const; // judged, or nothing to judge
    int waiting(const std::vector<GameRecord>& games) const; // finished games not yet analysed
    bool anyWaiting(const std::vector<GameRecord>& games) const;
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
    double share_ = 1.0;          // pace()
    double nowMs_ = 0;            // the time pace() last gave
    double requestedAtMs_ = 0;    // when the request in flight was sent
    double nextRequestAtMs_ = 0;  // no request before this (share_ < 1)
    uint64_t generation_ = 0;                   // bumped by clear(): stale replies are dropped
    std::optional<ScoreReply> reply_;           // arrived, taken by the next poll
    std::map<int, std::vector<TurnJudgement>> done_; // game id -> each move's judgement
    std::set<int> failed_;
    // games[0, hint_) of the list last seen are analysed or failed (hintId_: the id at hint_ - 1):
    // a long tournament is not read from its first game at every poll.
    size_t firstWaiting(const std::vector<GameRecord>& games) const;
    mutable size_t hint_ = 0;
    mutable int hintId_ = -1;
    std::vector<int> completed_;
    std::string error_;
    Loader load_;
    int loading_ = -1;                 // the folded game whose record is being read
    std::optional<GameRecord> loaded_; // and its record, once read
    GameRecord currentRecord_;         // the game being analysed, whole
    std::map<int, GameRecord> records_; // finished analyses' records, until taken
    std::unique_ptr<PositionScorer> scorer_;    // last: destroyed first, so no reply outlives the queue
};

} // namespace chaiba::chessmode
