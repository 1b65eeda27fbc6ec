// The root of the search: iterative deepening with aspiration windows and the node-budget clock
// (node_time.h), root-move scores for the weakened levels, and the Searcher's lifetime; the node
// searches are in search.cpp. See search.h for the contract.
#include "engine/search/search.h"

#include "engine/search/node_time.h"
#include "engine/search/search_impl.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace chaiba::search {

void Searcher::Impl::startSearch(chess::Position& pos, const SearchLimits& l) {
    limits = l;
    features = l.features;
    keptFor = 0; // what the tables hold is this search's now; chooseMove tags it when it keeps them
    const bool allTerms = has(kFeatureEvalPlus) && has(kFeatureEvalMore) && has(kFeatureEvalKing);
    nnue = has(kFeatureNnue) && nnueHidden() > 0;
    if (nnue && nnAcc.empty()) nnAcc.resize(kMaxPly + 2);
    nnReady = {};
    nnHasDelta = {};
    evalTerms = !has(kFeatureFullEval)                           ? EvalTerms::Pesto
                : has(kFeatureTunedEval) && allTerms             ? EvalTerms::FullKingTuned
                : has(kFeatureTunedEval)                         ? EvalTerms::FullTuned
                : allTerms                                       ? EvalTerms::FullKing
                : has(kFeatureEvalPlus) && has(kFeatureEvalMore) ? EvalTerms::FullMore
                : has(kFeatureEvalPlus)                          ? EvalTerms::FullPlus
                                                                 : EvalTerms::Full;
    tempo = has(kFeatureTempo) ? 15 : 0;
    if (has(kFeatureCorrection) && correction.empty()) correction.resize(kCorrectionSize);
    start = Clock::now();
    nodes = 0;
    selDepth = 0;
    stopped = false;
    depthOneDone = false;
    doubleExtensions = {};
    tt.newSearch();
    keys.clear();
    if (l.priorPositionHashes) keys = *l.priorPositionHashes;
    keys.push_back(glue::key(pos));
    for (auto& h : history)
        for (auto& row : h)
            for (int& v : row) v /= 8;
    if (has(kFeatureCaptureHistory))
        for (auto& row : captureHistory)
            for (int& v : row) v /= 8;
    if (has(kFeatureContinuation))
        for (ContinuationTable& t : continuation)
            for (auto& row : t)
                for (int16_t& v : row) v = static_cast<int16_t>(v / 8);
}

Searcher::Searcher(std::size_t hashMb) : impl_(std::make_unique<Impl>(hashMb)) {}
Searcher::~Searcher() = default;

void Searcher::resizeHash(std::size_t megabytes) {
    impl_->tt.resize(megabytes);
    impl_->keptFor = 0;
}

std::size_t Searcher::hashMb() const {
    return impl_->tt.sizeMb();
}

void Searcher::clear() {
    impl_->tt.clear();
    impl_->forgetMoveOrdering();
}

void Searcher::reset(std::size_t megabytes) {
    impl_->tt.resize(megabytes); // reallocates only when the entry count changes; always clears
    impl_->forgetMoveOrdering();
}

uint64_t Searcher::keptFor() const {
    return impl_->keptFor;
}
void Searcher::setKeptFor(uint64_t digest) {
    impl_->keptFor = digest;
}

SearchResult Searcher::search(chess::Position& position, const SearchLimits& limits,
                              SearchObserver* observer) {
    Impl& s = *impl_;
    s.startSearch(position, limits);
    SearchResult result;
    glue::MoveBuffer rootMoves;
    glue::generateLegal(position, rootMoves);
    if (rootMoves.size() == 0) {
        result.score = glue::inCheck(position) ? -kMateScore : 0;
        return result;
    }
    result.bestMove = rootMoves[0];
    result.hasMove = true;

    const int maxDepth = std::clamp(limits.maxDepth, 1, kMaxPly - 1);
    const bool nodeTime = s.has(kFeatureNodeTime);
    NodeTimeManager nodeClock(nodeTime ? limits.maxNodes : 0);
    int previousScore = 0;
    for (int depth = 1; depth <= maxDepth; ++depth) {
        const uint64_t iterationStart = s.nodes;
        if (nodeTime) s.rootMoveNodes.fill(0);
        // Aspiration window around the last score from depth 5 on, widened on failure.
        int delta = depth >= 5 ? 40 : kInfinity;
        int alpha = std::max(previousScore - delta, -kInfinity);
        int beta = std::min(previousScore + delta, kInfinity);
        int score = 0;
        while (true) {
            s.selDepth = 0;
            s.rootDepth = depth;
            s.rootImproved = false;
            score = s.alphaBeta(position, alpha, beta, depth, 0, false);
            if (s.stopped) break;
            if (score <= alpha && alpha > -kInfinity) {
                delta *= 2;
                alpha = delta > 1000 ? -kInfinity : std::max(score - delta, -kInfinity);
            } else if (score >= beta && beta < kInfinity) {
                delta *= 2;
                beta = delta > 1000 ? kInfinity : std::min(score + delta, kInfinity);
            } else {
                break;
            }
        }
        if (s.stopped && depth > 1) {
            // Cut short: a root move that beat the ones searched before it (the last iteration's
            // best first) is the better answer.
            if (nodeTime && s.rootImproved && s.pvLength[0] > 0) {
                result.bestMove = s.pvTable[0][0];
                result.pv.assign(s.pvTable[0].begin(), s.pvTable[0].begin() + s.pvLength[0]);
                result.score = s.rootImprovedScore;
            }
            break;
        }
        if (s.pvLength[0] > 0) {
            result.bestMove = s.pvTable[0][0];
            result.pv.assign(s.pvTable[0].begin(), s.pvTable[0].begin() + s.pvLength[0]);
        }
        result.score = score;
        result.completedDepth = depth;
        s.depthOneDone = true;
        if (limits.stop && limits.stop->load()) s.stopped = true;
        previousScore = score;
        if (observer) {
            SearchInfo info{depth, s.selDepth, score, s.nodes, s.elapsedMs(), result.pv};
            observer->onIteration(info);
        }
        if (s.stopped) break;
        // A forced mate found within this depth will not get shorter by searching deeper.
        if (isMateScore(score) && std::abs(mateInMoves(score)) * 2 <= depth) break;
        if (limits.softTimeMs && s.elapsedMs() >= limits.softTimeMs) break;
        if (nodeTime &&
            nodeClock.stopAfter(
                depth, result.bestMove, score, s.nodes, s.nodes - iterationStart,
                s.rootMoveNodes[glue::fromIndex(result.bestMove) * 64 + glue::toIndex(result.bestMove)]))
            break;
    }
    result.nodes = s.nodes;
    result.timeMs = s.elapsedMs();
    return result;
}

std::vector<RootMoveScore> Searcher::scoreRootMoves(chess::Position& position, int depth,
                                                    const SearchLimits& limits) {
    Impl& s = *impl_;
    s.startSearch(position, limits);
    glue::MoveBuffer moves;
    glue::generateLegal(position, moves);
    std::vector<RootMoveScore> out;
    // Iterative deepening over the whole root list so each move keeps its deepest finished score.
    for (int i = 0; i < moves.size(); ++i) out.push_back({moves[i], 0});
    for (int d = 0; d <= depth && !s.stopped; ++d) {
        std::vector<RootMoveScore> next = out;
        bool complete = true;
        for (auto& rm : next) {
            s.movedPieceTo[0] = s.has(kFeatureContinuation) ? s.pieceTo(position, rm.move) : -1;
            s.nnMove(1, position, rm.move);
            const chess::Undo undo = position.makeMove(rm.move);
            s.keys.push_back(glue::key(position));
            const int score = d == 0 ? -s.quiescence(position, -kInfinity, kInfinity, 1)
                                     : -s.alphaBeta(position, -kInfinity, kInfinity, d - 1, 1, true);
            s.keys.pop_back();
            position.unmakeMove(rm.move, undo);
            if (s.stopped && d > 0) {
                complete = false;
                break;
            }
            rm.score = score;
        }
        if (complete || d == 0) out = next;
    }
    return out;
}

} // namespace chaiba::search

namespace chaiba::search {

std::vector<uint64_t> priorHashes(const chess::Game& game) {
    chess::Position p = game.startPosition();
    std::vector<uint64_t> out;
    out.reserve(game.moves().size());
    for (const chess::Move m : game.moves()) {
        out.push_back(p.hash());
        p.makeMove(m);
    }
    return out;
}

} // namespace chaiba::search
