// The search's state and its small per-node helpers (move ordering, histories, limits, the
// repetition stack), shared by the node searches (search.cpp) and the root (search_root.cpp).
// Private to engine/search.
#pragma once

#include "engine/search/board_glue.h"
#include "engine/search/evaluation.h"
#include "engine/search/nnue.h"
#include "engine/search/search.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace chaiba::search {

struct Searcher::Impl {
    using Clock = std::chrono::steady_clock;
    static constexpr int kCheckEveryNodes = 1024;

    TranspositionTable tt;
    std::array<std::array<chess::Move, 2>, kMaxPly + 1> killers{};
    std::array<std::array<std::array<int, 64>, 64>, 2> history{};
    std::array<std::array<chess::Move, 64>, 64> counterMoves{}; // [from][to] of the move answered
    // Continuation history (kFeatureContinuation): [piece * 64 + to of an earlier move][piece][to]
    // of the quiet move that followed it; piece = colour * 6 + PeSTO index. 16 bits an entry:
    // gravity keeps every value within +-16384, and the half-size table (1.2 MB) misses the cache
    // less often.
    using ContinuationTable = std::array<std::array<int16_t, 64>, 12>;
    std::vector<ContinuationTable> continuation = std::vector<ContinuationTable>(12 * 64);
    // Capture history (kFeatureCaptureHistory): [piece * 64 + to][captured piece's PeSTO index, 6 for
    // a promotion that captures nothing].
    std::vector<std::array<int, 7>> captureHistory = std::vector<std::array<int, 7>>(12 * 64);
    // Correction history (kFeatureCorrection): [pawn-structure index][side to move], the average
    // of (searched score - static evaluation) in 1/kCorrectionGrain centipawns. Allocated by the
    // first search with the bit (startSearch), so the levels' per-move reset does not clear it.
    static constexpr int kCorrectionGrain = 256;
    static constexpr int kCorrectionSize = 1 << 14;
    static constexpr int kCorrectionMax = 64 * kCorrectionGrain;
    std::vector<std::array<int16_t, 2>> correction;
    std::array<int, kMaxPly + 2> movedPieceTo{};        // piece * 64 + to at each ply, -1: none
    std::array<chess::Move, kMaxPly + 2> excluded{};    // the move a singular search leaves out
    std::array<int, kMaxPly + 2> doubleExtensions{};    // double extensions on the path to a ply
    int rootDepth = 0;                                  // the iteration's depth
    std::array<chess::Move, kMaxPly + 2> currentMove{}; // the move searched at each ply
    std::array<int, kMaxPly + 2> staticEvals{};         // -kInfinity when in check
    std::array<std::array<chess::Move, kMaxPly + 1>, kMaxPly + 1> pvTable{};
    std::array<int, kMaxPly + 1> pvLength{};
    std::vector<uint64_t> keys; // repetition stack: game history, then the search path
    // kFeatureNodeTime: the nodes under each root move in this iteration ([from * 64 + to]), and
    // whether a root move raised alpha in the current call of the root (its score).
    std::array<uint64_t, 64 * 64> rootMoveNodes{};
    bool rootImproved = false;
    int rootImprovedScore = 0;

    uint64_t keptFor = 0; // Searcher::keptFor

    SearchLimits limits;
    uint32_t features = kSearchClassic;
    EvalTerms evalTerms = EvalTerms::Pesto;
    int tempo = 0; // kFeatureTempo's bonus, else 0
    Clock::time_point start;
    uint64_t nodes = 0;
    int selDepth = 0;
    bool stopped = false;
    // An outside stop is honoured once depth 1 is complete, so a stopped search always answers
    // with a searched move (a `go` followed at once by `stop` or end of input).
    bool depthOneDone = false;

    explicit Impl(std::size_t hashMb) : tt(hashMb) {}

    void forgetMoveOrdering() {
        keptFor = 0;
        killers = {};
        history = {};
        counterMoves = {};
        for (ContinuationTable& t : continuation) t = {};
        for (auto& row : captureHistory) row = {};
        for (auto& row : correction) row = {};
    }
    // The correction history's entry of a position: its side to move and its pawns.
    int16_t& correctionOf(const chess::Position& pos) {
        uint64_t h = pos.pieces(chess::Color::White, chess::PieceType::Pawn) * 0x9E3779B97F4A7C15ull ^
                     pos.pieces(chess::Color::Black, chess::PieceType::Pawn) * 0xC2B2AE3D27D4EB4Full;
        h ^= h >> 29;
        return correction[static_cast<std::size_t>((h * 0xBF58476D1CE4E5B9ull) >> 50)]
                         [static_cast<std::size_t>(glue::sideIndex(pos))];
    }
    // The static evaluation with the correction history's (kFeatureCorrection), else as is.
    int correctedEval(const chess::Position& pos, int raw) {
        if (!has(kFeatureCorrection)) return raw;
        return std::clamp(raw + correctionOf(pos) / kCorrectionGrain, -kMateBound + 1, kMateBound - 1);
    }
    // Moves the entry towards a searched score's difference from the raw evaluation, more the
    // deeper the search.
    void updateCorrection(const chess::Position& pos, int raw, int searched, int depth) {
        int16_t& entry = correctionOf(pos);
        const int weight = std::min(depth + 1, 16);
        const int target = std::clamp((searched - raw) * kCorrectionGrain, -kCorrectionMax, kCorrectionMax);
        entry = static_cast<int16_t>(
            std::clamp((entry * (256 - weight) + target * weight) / 256, -kCorrectionMax, kCorrectionMax));
    }
    static int capturedIndex(const chess::Position& pos, chess::Move m) {
        if (m.isEnPassant()) return 0;
        return pos.isCapture(m) ? glue::pestoIndex(chess::typeOf(pos.pieceOn(m.to()))) : 6;
    }
    int& captureHistoryOf(const chess::Position& pos, chess::Move m) {
        return captureHistory[static_cast<std::size_t>(pieceTo(pos, m))]
                             [static_cast<std::size_t>(capturedIndex(pos, m))];
    }
    int captureHistoryOf(const chess::Position& pos, chess::Move m) const {
        return captureHistory[static_cast<std::size_t>(pieceTo(pos, m))]
                             [static_cast<std::size_t>(capturedIndex(pos, m))];
    }

    bool has(SearchFeature f) const { return (features & f) != 0; }
    int eval(const chess::Position& pos) const { return evaluate(pos, evalTerms) + tempo; }

    // kFeatureNnue: the evaluation network's first layer a ply (nnue.h). A move made at ply p - 1
    // leaves nnDelta[p] and marks ply p not ready; evalAt brings the nearest ready ply above it
    // down the path, or sums the position's pieces when the chain is broken (the root, a ply
    // entered without a move).
    bool nnue = false;
    std::vector<NnueAccumulator> nnAcc; // kMaxPly + 2 of them, from the first search with the bit
    std::array<NnueDelta, kMaxPly + 2> nnDelta{};
    std::array<uint8_t, kMaxPly + 2> nnReady{};
    std::array<uint8_t, kMaxPly + 2> nnHasDelta{};
    void nnMove(int childPly, const chess::Position& before, chess::Move m) {
        if (!nnue) return;
        nnDelta[childPly] = nnueDelta(before, m);
        nnHasDelta[childPly] = 1;
        nnReady[childPly] = 0;
    }
    void nnNull(int childPly) {
        if (!nnue) return;
        nnDelta[childPly] = NnueDelta{};
        nnHasDelta[childPly] = 1;
        nnReady[childPly] = 0;
    }
    // The static evaluation of the position at `ply` of the search path.
    int evalAt(const chess::Position& pos, int ply) {
        if (!nnue) return eval(pos);
        int p = ply;
        while (p > 0 && !nnReady[p] && nnHasDelta[p]) --p;
        if (!nnReady[p]) {
            p = ply;
            nnueRefresh(pos, nnAcc[p]);
            nnReady[p] = 1;
        }
        for (int q = p + 1; q <= ply; ++q) {
            nnueApply(nnAcc[q - 1], nnDelta[q], nnAcc[q]);
            nnReady[q] = 1;
        }
        const int out = nnueOutput(nnAcc[ply], glue::sideIndex(pos));
        assert(out == nnueEvaluate(pos)); // the kept layer is the position's
        return eval(pos) + out;
    }

    // History with gravity (kFeatureHistory): a bonus or malus that shrinks as the entry nears
    // its bound, so the table tracks recent refutations instead of saturating.
    // (|h| <= kHistoryMax stays so: the new value lies between h and the bonus's bound.)
    template <class T> static void gravity(T& h, int bonus) {
        constexpr int kHistoryMax = 16384;
        bonus = std::clamp(bonus, -kHistoryMax, kHistoryMax);
        const int v = h;
        h = static_cast<T>(v + bonus - v * std::abs(bonus) / kHistoryMax);
    }
    // The continuation tables' index of a move: piece (colour * 6 + PeSTO index) * 64 + target.
    static int pieceTo(const chess::Position& pos, chess::Move m) {
        return (glue::sideIndex(pos) * 6 + glue::moverIndex(pos, m)) * 64 + glue::toIndex(m);
    }
    // The continuation tables that apply at `ply`: after the opponent's last move and after our
    // move before it; null where that move was a null move, or before the root.
    ContinuationTable* continuationAt(int ply, int back) {
        if (ply < back || movedPieceTo[ply - back] < 0) return nullptr;
        return &continuation[static_cast<std::size_t>(movedPieceTo[ply - back])];
    }
    const ContinuationTable* continuationAt(int ply, int back) const {
        return const_cast<Impl*>(this)->continuationAt(ply, back);
    }
    int continuationScore(int ply, int pieceToIndex) const {
        int s = 0;
        for (int back = 1; back <= 2; ++back)
            if (const ContinuationTable* t = continuationAt(ply, back))
                s += (*t)[pieceToIndex / 64][pieceToIndex % 64];
        return s;
    }
    chess::Move counterTo(int ply) const {
        if (ply == 0) return chess::Move{};
        const chess::Move prev = currentMove[ply - 1];
        return prev == chess::Move{} ? chess::Move{}
                                     : counterMoves[glue::fromIndex(prev)][glue::toIndex(prev)];
    }

    int64_t elapsedMs() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    }

    // Polled every kCheckEveryNodes nodes and on every node once the node cap is near.
    void checkLimits() {
        if (depthOneDone && limits.stop && limits.stop->load(std::memory_order_relaxed)) stopped = true;
        if (limits.maxNodes && nodes >= limits.maxNodes) stopped = true;
        if (limits.moveTimeMs && elapsedMs() >= limits.moveTimeMs) stopped = true;
    }

    void countNode() {
        ++nodes;
        if ((nodes % kCheckEveryNodes) == 0 || (limits.maxNodes && nodes >= limits.maxNodes)) checkLimits();
    }

    bool isRepetition(uint64_t key, int halfmoveClock) const {
        // Look back at positions with the same side to move within the reversible stretch.
        const int n = static_cast<int>(keys.size());
        // keys.back() is the current position; the same side moved 4, 6, ... plies ago.
        for (int i = n - 5; i >= 0 && i >= n - 1 - halfmoveClock; i -= 2)
            if (keys[i] == key) return true;
        return false;
    }

    // The move-ordering scores of a node's moves. What is the same for every move (killers, counter
    // move, the continuation tables that apply, the side's history) is looked up once per node.
    void scoreMoves(const chess::Position& pos, const glue::MoveBuffer& moves, std::array<int, 256>& scores,
                    chess::Move hashMove, int ply) const {
        const chess::Move killer0 = killers[ply][0], killer1 = killers[ply][1];
        const bool useCounter = has(kFeatureCounterMove);
        const chess::Move counter = useCounter ? counterTo(ply) : chess::Move{};
        const bool useCaptureHistory = has(kFeatureCaptureHistory);
        const int side = glue::sideIndex(pos);
        const auto& sideHistory = history[static_cast<std::size_t>(side)];
        const bool useContinuation = has(kFeatureContinuation);
        const ContinuationTable* before1 = useContinuation ? continuationAt(ply, 1) : nullptr;
        const ContinuationTable* before2 = useContinuation ? continuationAt(ply, 2) : nullptr;
        for (int i = 0; i < moves.size(); ++i) {
            const chess::Move m = moves[i];
            int score;
            if (m == hashMove) {
                score = 1 << 30;
            } else if (glue::isCaptureOrPromotion(pos, m)) {
                int mvvLva =
                    16 * glue::capturedValue(pos, m) - glue::moverIndex(pos, m) + glue::promotionValue(m);
                if (useCaptureHistory) mvvLva += captureHistoryOf(pos, m) / 2;
                // Captures that lose material in the exchange go after the quiet moves' killers.
                score = (m.isPromotion() || pos.seeGe(m, 0) ? (1 << 24) : -(1 << 22)) + mvvLva;
            } else if (m == killer0) {
                score = 1 << 23;
            } else if (m == killer1) {
                score = (1 << 23) - 1;
            } else if (useCounter && m == counter) {
                score = (1 << 23) - 2;
            } else {
                score = sideHistory[glue::fromIndex(m)][glue::toIndex(m)];
                if (useContinuation) {
                    const int piece = side * 6 + glue::moverIndex(pos, m), to = glue::toIndex(m);
                    if (before1) score += (*before1)[piece][to];
                    if (before2) score += (*before2)[piece][to];
                }
            }
            scores[i] = score;
        }
    }

    // Selection sort step: brings the best remaining move to index i (the first of the best, when
    // several score the same). In two passes, the highest score and then its first index: the
    // first pass has no branch on the scores (a compare-and-select, vectorised where the target
    // can). Same picks as one pass with a branch per move; level 9 about 8% faster natively and 4%
    // in WASM (median time ratios, side by side).
    static void pickNext(glue::MoveBuffer& moves, std::array<int, 256>& scores, int i) {
        const int n = moves.size();
        int top = scores[i];
        for (int j = i + 1; j < n; ++j) top = std::max(top, scores[j]);
        int best = i;
        while (scores[best] != top) ++best;
        if (best != i) {
            std::swap(scores[i], scores[best]);
            moves.swap(i, best);
        }
    }

    // Whether the pruning of quiet moves near the leaves (alphaBeta, step 6) skips every move from
    // index `from` on, once it prunes every quiet move that does not give check (late or futile):
    // those, the captures it prunes too, and the move a singular search leaves out. The moves are
    // looked at in any order: whether one is pruned no longer depends on which came before.
    static bool restPruned(const chess::Position& pos, const glue::MoveBuffer& moves, int from, int depth,
                           chess::Move excludedMove, const chess::CheckInfo& checkInfo) {
        for (int j = from; j < moves.size(); ++j) {
            const chess::Move m = moves[j];
            if (!(excludedMove == chess::Move{}) && m == excludedMove) continue;
            if (!glue::isCaptureOrPromotion(pos, m)) {
                if (pos.givesCheck(m, checkInfo)) return false;
            } else if (depth > 5 || pos.seeGe(m, -150 * depth) || pos.givesCheck(m, checkInfo)) {
                return false;
            }
        }
        return true;
    }

    void updatePv(int ply, chess::Move m) {
        pvTable[ply][0] = m;
        const int childLength = ply + 1 <= kMaxPly ? pvLength[ply + 1] : 0;
        for (int i = 0; i < childLength && i + 1 < kMaxPly; ++i) pvTable[ply][i + 1] = pvTable[ply + 1][i];
        pvLength[ply] = std::min(childLength + 1, kMaxPly);
    }

    // The node searches (search.cpp) and the root's set-up (search_root.cpp).
    int quiescence(chess::Position& pos, int alpha, int beta, int ply);
    // cutNode: a null-window node expected to fail high (the first move of its parent's was not
    // searched here, or a late move's reduced search), for kFeatureCutNode.
    int alphaBeta(chess::Position& pos, int alpha, int beta, int depth, int ply, bool allowNull,
                  bool cutNode = false);
    // ProbCut's captures (kFeatureProbCut): a score >= probBeta when one of them holds it, else -kInfinity.
    int probCut(chess::Position& pos, int probBeta, int depth, int ply, chess::Move hashMove, int staticEval);
    void startSearch(chess::Position& pos, const SearchLimits& l);
};

} // namespace chaiba::search
