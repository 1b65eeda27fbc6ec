// The arena's move-quality queue (see arena_analysis.h): positions scored one request at a time,
// the moves judged with search::judgeMoves once the game's last position is scored.
#include "src/modes/chess/arena_analysis.h"

#include "engine/chess/notation.h"

#include <algorithm>
#include <cstddef>

namespace chaiba::chessmode {

ScoreReply scorePosition(const ScoreRequest& request, search::Searcher& searcher) {
    ScoreReply reply;
    const chess::FenResult start = chess::Position::fromFen(request.startFen, request.chess960);
    if (!start.ok()) {
        reply.error = "start position: " + start.error;
        return reply;
    }
    chess::Position pos = *start.position;
    std::vector<chess::Move> moves;
    for (std::size_t i = 0; i < request.uciMoves.size(); ++i) {
        const chess::MoveResult m = chess::parseUci(pos, request.uciMoves[i]);
        if (!m.ok()) {
            reply.error = "move " + std::to_string(i + 1) + ": " + m.error;
            return reply;
        }
        moves.push_back(m.move);
        pos.makeMove(m.move);
    }
    reply.eval = search::evaluateGamePosition(*start.position, moves, request.budget, searcher);
    reply.eval.pv.clear(); // the worker sends no line either
    reply.ok = true;
    return reply;
}

std::function<std::unique_ptr<PositionScorer>()> inThreadScorer() {
    return []() -> std::unique_ptr<PositionScorer> { return std::make_unique<SearchScorer>(); };
}

void SearchScorer::request(const ScoreRequest& request, Callback callback) {
    pending_ = request;
    callback_ = std::move(callback);
}

void SearchScorer::poll() {
    if (!pending_) return;
    if (!searcher_) searcher_ = std::make_unique<search::Searcher>(pending_->budget.hashMb);
    const ScoreReply reply = scorePosition(*pending_, *searcher_);
    pending_.reset();
    Callback callback = std::move(callback_);
    callback_ = nullptr;
    if (callback) callback(reply);
}

ArenaAnalysisQueue::ArenaAnalysisQueue(std::unique_ptr<PositionScorer> scorer, search::AnalysisBudget budget)
    : budget_(budget), scorer_(std::move(scorer)) {}

ArenaAnalysisQueue::~ArenaAnalysisQueue() = default;

void ArenaAnalysisQueue::clear() {
    ++generation_;
    current_ = -1;
    evals_.clear();
    movers_.clear();
    inFlight_ = false;
    reply_.reset();
    done_.clear();
    failed_.clear();
    hint_ = 0;
    loading_ = -1;
    loaded_.reset();
    records_.clear();
    currentRecord_ = GameRecord{};
    completed_.clear();
    error_.clear();
}

bool ArenaAnalysisQueue::analysed(const GameRecord& game) const {
    return game.plies() == 0 || game.analysed() || done_.count(game.pairing.id) != 0;
}

size_t ArenaAnalysisQueue::firstWaiting(const std::vector<GameRecord>& games) const {
    // Games before the hint were analysed (or failed) when it was set, and records only ever
    // gain an analysis; a list that is not the same there any more is read from the start.
    if (hint_ > games.size() || (hint_ > 0 && games[hint_ - 1].pairing.id != hintId_)) hint_ = 0;
    while (hint_ < games.size()) {
        const GameRecord& g = games[hint_];
        if (!g.finished() || (!analysed(g) && !failed_.count(g.pairing.id))) break;
        hintId_ = g.pairing.id;
        ++hint_;
    }
    return hint_;
}

int ArenaAnalysisQueue::waiting(const std::vector<GameRecord>& games) const {
    int n = 0;
    for (size_t i = firstWaiting(games); i < games.size(); ++i) {
        const GameRecord& g = games[i];
        if (g.finished() && !analysed(g) && !failed_.count(g.pairing.id)) ++n;
    }
    return n;
}

bool ArenaAnalysisQueue::anyWaiting(const std::vector<GameRecord>& games) const {
    for (size_t i = firstWaiting(games); i < games.size(); ++i) {
        const GameRecord& g = games[i];
        if (g.finished() && !analysed(g) && !failed_.count(g.pairing.id)) return true;
    }
    return false;
}

std::optional<GameRecord> ArenaAnalysisQueue::takeRecord(int gameId) {
    const auto it = records_.find(gameId);
    if (it == records_.end()) return std::nullopt;
    GameRecord r = std::move(it->second);
    records_.erase(it);
    return r;
}

bool ArenaAnalysisQueue::apply(GameRecord& record) const {
    const auto it = done_.find(record.pairing.id);
    if (it == done_.end() || it->second.size() != record.moves.size()) return false;
    for (std::size_t i = 0; i < record.moves.size(); ++i) applyJudgement(record.moves[i], it->second[i]);
    return true;
}

bool ArenaAnalysisQueue::startNext(const std::vector<GameRecord>& games) {
    for (size_t at = firstWaiting(games); at < games.size(); ++at) {
        const GameRecord& listed = games[at];
        if (!listed.finished() || analysed(listed) || failed_.count(listed.pairing.id)) continue;
        // Step 1. A folded game's moves from the store: asked once, then the queue waits for them.
        const int id = listed.pairing.id;
        std::optional<GameRecord> whole;
        if (listed.isFolded()) {
            if (!loaded_ || loaded_->pairing.id != id) {
                if (!load_) {
                    failed_.insert(id);
                    error_ = "game " + std::to_string(id + 1) + " could not be analysed: its moves are not in memory";
                    continue;
                }
                if (loading_ == id) return false; // still reading
                loading_ = id;
                loaded_.reset();
                const uint64_t generation = generation_;
                load_(id, [this, generation, id](Parsed<GameRecord> read) {
                    if (generation != generation_ || loading_ != id) return; // cleared meanwhile
                    loading_ = -1;
                    if (read.ok()) {
                        loaded_ = std::move(*read.value);
                        return;
                    }
                    failed_.insert(id);
                    error_ = "game " + std::to_string(id + 1) + " could not be analysed: " + read.error;
                });
                if (failed_.count(id)) continue;               // failed at once
                if (!loaded_ || loaded_->pairing.id != id) return false; // answered later
            }
            whole = std::move(*loaded_);
            loaded_.reset();
        }
        const GameRecord& g = whole ? *whole : listed;
        // Step 2. Replay the record once: a game that does not replay is reported and skipped.
        const chess::FenResult start = chess::Position::fromFen(g.startFen, g.pairing.seededStart >= 0);
        std::string why = start.ok() ? "" : "start position: " + start.error;
        movers_.clear();
        if (start.ok()) {
            chess::Position pos = *start.position;
            for (std::size_t i = 0; i < g.moves.size() && why.empty(); ++i) {
                const chess::MoveResult m = chess::parseUci(pos, g.moves[i].uci);
                if (!m.ok()) {
                    why = "move " + std::to_string(i + 1) + ": " + m.error;
                    break;
                }
                movers_.push_back(pos.sideToMove());
                pos.makeMove(m.move);
            }
        }
        if (!why.empty()) {
            failed_.insert(g.pairing.id);
            error_ = "game " + std::to_string(g.pairing.id + 1) + " could not be analysed: " + why;
            continue;
        }
        current_ = g.pairing.id;
        currentRecord_ = g;
        base_ = ScoreRequest{};
        base_.startFen = g.startFen;
        base_.chess960 = g.pairing.seededStart >= 0;
        base_.budget = budget_;
        for (const TurnRecord& t : g.moves) base_.uciMoves.push_back(t.uci);
        evals_.clear();
        return true;
    }
    return false;
}

void ArenaAnalysisQueue::finishCurrent() {
    const search::GameAnalysis a = search::judgeMoves(std::move(evals_), movers_);
    std::vector<TurnJudgement> marks;
    for (std::size_t i = 0; i < a.moves.size(); ++i) marks.push_back(turnJudgement(a, i));
    done_[current_] = std::move(marks);
    records_[current_] = std::move(currentRecord_);
    currentRecord_ = GameRecord{};
    completed_.push_back(current_);
    current_ = -1;
    evals_.clear();
    movers_.clear();
}

std::vector<int> ArenaAnalysisQueue::poll(const std::vector<GameRecord>& games) {
    scorer_->poll();
    // Step 1. A reply that arrived: the next position is scored (or the game is judged).
    if (reply_) {
        const ScoreReply reply = std::move(*reply_);
        reply_.reset();
        const double took = std::max(0.0, nowMs_ - requestedAtMs_);
        nextRequestAtMs_ = share_ > 0 && share_ < 1 ? nowMs_ + took * (1 / share_ - 1) : nowMs_;
        if (current_ >= 0) {
            if (!reply.ok) {
                failed_.insert(current_);
                error_ = "game " + std::to_string(current_ + 1) + " could not be analysed: " + reply.error;
                current_ = -1;
                evals_.clear();
            } else {
                evals_.push_back(reply.eval);
                if (evals_.size() == base_.uciMoves.size() + 1) finishCurrent();
            }
        }
    }
    // Step 2. The next request, when the scorer is free and a game waits.
    const bool paced = share_ < 1 && nowMs_ < nextRequestAtMs_;
    if (!inFlight_ && !paced && scorer_->ready() && (current_ >= 0 || startNext(games))) {
        ScoreRequest r;
        r.startFen = base_.startFen;
        r.chess960 = base_.chess960;
        r.budget = budget_;
        r.uciMoves.assign(base_.uciMoves.begin(), base_.uciMoves.begin() + static_cast<std::ptrdiff_t>(evals_.size()));
        inFlight_ = true;
        requestedAtMs_ = nowMs_;
        const uint64_t generation = generation_;
        scorer_->request(r, [this, generation](const ScoreReply& reply) {
            if (generation != generation_) return; // cleared meanwhile
            inFlight_ = false;
            reply_ = reply;
        });
    }
    std::vector<int> out;
    out.swap(completed_);
    return out;
}

} // namespace chaiba::chessmode
