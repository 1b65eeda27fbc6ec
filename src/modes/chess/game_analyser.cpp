// GameAnalyser: one position scored per step, the judgements recomputed from the scored prefix.
#include "src/modes/chess/game_analyser.h"

#include "engine/chess/notation.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba::chessmode {

search::AnalysisBudget defaultAnalysisBudget() {
    return search::AnalysisBudget{};
}

search::AnalysisBudget arenaAnalysisBudget() {
    search::AnalysisBudget budget;
    budget.maxNodes = 30000;
    return budget;
}

TurnJudgement turnJudgement(const search::GameAnalysis& analysis, std::size_t i) {
    TurnJudgement j;
    j.cpLoss = analysis.moves[i].cpLoss;
    j.judgement = static_cast<int>(analysis.moves[i].judgement);
    const search::PositionEval& after = analysis.positions[i + 1];
    j.evalMate = after.terminal ? 0 : after.mateIn;
    if (after.terminal && after.whiteCp != 0) j.evalCp = after.whiteCp > 0 ? kCheckmateEvalCp : -kCheckmateEvalCp;
    else if (j.evalMate == 0) j.evalCp = std::clamp(after.whiteCp, -kCheckmateEvalCp + 1, kCheckmateEvalCp - 1);
    return j;
}

void applyJudgement(TurnRecord& turn, const TurnJudgement& j) {
    turn.cpLoss = j.cpLoss;
    turn.judgement = j.judgement;
    turn.evalCp = j.evalCp;
    turn.evalMate = j.evalMate;
}

std::optional<std::string> analyseRecord(GameRecord& game, const search::AnalysisBudget& budget) {
    chess::FenResult start = chess::Position::fromFen(game.startFen, game.pairing.seededStart >= 0);
    if (!start.ok()) return "start position: " + start.error;
    chess::Position pos = *start.position;
    std::vector<chess::Move> moves;
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        const chess::MoveResult m = chess::parseUci(pos, game.moves[i].uci);
        if (!m.ok()) return "move " + std::to_string(i + 1) + ": " + m.error;
        moves.push_back(m.move);
        pos.makeMove(m.move);
    }
    const search::GameAnalysis a = search::analyseGame(*start.position, moves, budget);
    for (std::size_t i = 0; i < moves.size(); ++i) applyJudgement(game.moves[i], turnJudgement(a, i));
    return std::nullopt;
}

std::optional<std::string> analyseFinishedRecords(std::vector<GameRecord>& games, const search::AnalysisBudget& budget,
                                                  int& analysed, const std::function<void(int)>& onGame,
                                                  const WholeRecordSource& whole, const AnalysedRecordSink& sink) {
    for (std::size_t i = 0; i < games.size(); ++i) {
        GameRecord& g = games[i];
        if (!awaitsAnalysis(g)) continue;
        const std::string where = "game " + std::to_string(i + 1) + " (#" + std::to_string(g.pairing.id) + "): ";
        GameRecord record;
        if (g.isFolded()) {
            Parsed<GameRecord> read = readBackWhole(g, whole);
            if (!read.ok()) return where + read.error;
            record = std::move(*read.value);
        } else {
            record = g;
        }
        if (auto error = analyseRecord(record, budget)) return where + *error;
        if (sink)
            if (auto error = sink(record)) return where + *error;
        g = std::move(record);
        ++analysed;
        if (onGame) onGame(analysed);
    }
    return std::nullopt;
}

GameAnalyser::GameAnalyser(search::AnalysisBudget budget)
    : budget_(budget), searcher_(std::make_unique<search::Searcher>(budget.hashMb)) {}

GameAnalyser::~GameAnalyser() = default;

void GameAnalyser::follow(const chess::Game& game) {
    const bool sameStart = !positions_.empty() && positions_.front().fen() == game.startPosition().fen();
    std::size_t common = 0;
    if (sameStart)
        while (common < moves_.size() && common < game.moves().size() && moves_[common] == game.moves()[common]) ++common;
    else positions_.clear();
    if (sameStart && common == moves_.size() && common == game.moves().size()) return;
    // Keep positions 0..common, rebuild the rest. A reply still on its way is for a position
    // that may be gone: it is dropped, and the next step asks again.
    if (!sameStart || common < moves_.size()) {
        ++*generation_;
        pending_ = false;
        error_.clear();
    }
    if (positions_.empty()) {
        start_ = game.startPosition();
        positions_.push_back(start_);
        hashes_.assign(1, start_.hash());
        evals_.assign(1, std::nullopt);
        moves_.clear();
        common = 0;
    }
    moves_.resize(common);
    positions_.erase(positions_.begin() + static_cast<long>(common) + 1, positions_.end());
    hashes_.resize(common + 1);
    evals_.resize(common + 1);
    for (std::size_t i = common; i < game.moves().size(); ++i) {
        chess::Position next = positions_.back();
        next.makeMove(game.moves()[i]);
        moves_.push_back(game.moves()[i]);
        positions_.push_back(next);
        hashes_.push_back(next.hash());
        evals_.emplace_back();
    }
    rejudge();
}

void GameAnalyser::setScorer(std::unique_ptr<PositionScorer> scorer) {
    scorer_ = std::move(scorer);
    ++*generation_;
    pending_ = false;
}

bool GameAnalyser::step() {
    if (scorer_) scorer_->poll();
    for (std::size_t i = 0; i < evals_.size(); ++i) {
        if (evals_[i]) continue;
        if (scorer_) return requestNext(i);
        const std::vector<uint64_t> prior(hashes_.begin(), hashes_.begin() + static_cast<long>(i));
        chess::Position pos = positions_[i];
        evals_[i] = search::evaluatePosition(pos, prior, budget_, *searcher_);
        rejudge();
        return true;
    }
    return false;
}

bool GameAnalyser::requestNext(std::size_t index) {
    if (!error_.empty()) return false;
    if (pending_ || !scorer_->ready()) return true;
    ScoreRequest request;
    request.startFen = start_.fen();
    request.chess960 = start_.isChess960();
    request.budget = budget_;
    for (std::size_t k = 0; k < index; ++k) request.uciMoves.push_back(chess::toUci(positions_[k], moves_[k]));
    pending_ = true;
    // The reply may come after this analyser is gone (never: the scorer it owns cancels its call
    // when destroyed) or after the game changed under it (the generation says so).
    std::weak_ptr<int> generation = generation_;
    const int asked = *generation_;
    scorer_->request(request, [this, generation, asked, index](const ScoreReply& reply) {
        const std::shared_ptr<int> now = generation.lock();
        if (!now || *now != asked) return;
        pending_ = false;
        if (!reply.ok) {
            error_ = "move analysis stopped: " + reply.error;
            return;
        }
        if (index < evals_.size() && !evals_[index]) {
            evals_[index] = reply.eval;
            rejudge();
        }
    });
    return true;
}

bool GameAnalyser::complete() const {
    return scoredPositions() == totalPositions() && totalPositions() > 0;
}

int GameAnalyser::scoredPositions() const {
    int n = 0;
    for (const auto& e : evals_) n += e ? 1 : 0;
    return n;
}

const search::PositionEval* GameAnalyser::eval(std::size_t index) const {
    return index < evals_.size() && evals_[index] ? &*evals_[index] : nullptr;
}

void GameAnalyser::rejudge() {
    // The scored prefix (positions 0..k) judges moves 0..k-1.
    std::vector<search::PositionEval> prefix;
    std::vector<chess::Color> movers;
    for (std::size_t i = 0; i < evals_.size() && evals_[i]; ++i) {
        prefix.push_back(*evals_[i]);
        if (i > 0) movers.push_back(positions_[i - 1].sideToMove());
    }
    if (prefix.empty()) {
        analysis_ = {};
        return;
    }
    analysis_ = search::judgeMoves(std::move(prefix), movers);
}

nlohmann::json analysisState(const GameAnalyser& analyser) {
    const search::GameAnalysis& a = analyser.analysis();
    nlohmann::json marks = nlohmann::json::array(), evals = nlohmann::json::array();
    for (const auto& q : a.moves) marks.push_back(search::judgementSymbol(q.judgement));
    for (const auto& e : a.positions) evals.push_back(search::clampedCp(e));
    return {{"scored", analyser.scoredPositions()},
            {"total", analyser.totalPositions()},
            {"complete", analyser.complete()},
            {"error", analyser.error()},
            {"accuracy", {{"white", a.sides[0].accuracy}, {"black", a.sides[1].accuracy}}},
            {"acpl", {{"white", a.sides[0].averageCpLoss}, {"black", a.sides[1].averageCpLoss}}},
            {"marks", marks},
            {"evalsCp", evals}};
}

} // namespace chaiba::chessmode
