// Iterative deepening PVS alpha-beta; see search.h for the contract. The numbered steps follow
// the order in which a node is searched.
#include "engine/search/search.h"

#include "engine/search/board_glue.h"
#include "engine/search/evaluation.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cmath>

namespace chaiba::search {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kCheckEveryNodes = 1024;

// Whether the target can load memory ahead of use: WASM has no prefetch instruction (the builtin
// compiles to nothing), so there a child's key is not worked out early for it.
#if defined(__EMSCRIPTEN__)
constexpr bool kPrefetch = false;
#else
constexpr bool kPrefetch = true;
#endif

// Late-move reduction amounts by depth and move number, the usual log * log shape.
struct LmrTable {
    std::array<std::array<int8_t, 64>, 64> r{};
    LmrTable() {
        for (int d = 1; d < 64; ++d)
            for (int m = 1; m < 64; ++m)
                r[d][m] = static_cast<int8_t>(0.75 + std::log(d) * std::log(m) / 2.25);
    }
};
const LmrTable kLmr;

int scoreToTt(int score, int ply) {
    if (score >= kMateBound) return score + ply;
    if (score <= -kMateBound) return score - ply;
    return score;
}
int scoreFromTt(int score, int ply) {
    if (score >= kMateBound) return score - ply;
    if (score <= -kMateBound) return score + ply;
    return score;
}

// Whether a stored bound settles a node searched with the window (alpha, beta).
bool boundSettles(Bound bound, int score, int alpha, int beta) {
    return bound == Bound::Exact || (bound == Bound::Lower && score >= beta) ||
           (bound == Bound::Upper && score <= alpha);
}
// The bound a node's best score is, searched with the window (alpha, beta).
Bound boundOf(int best, int alpha, int beta) {
    return best >= beta ? Bound::Lower : best > alpha ? Bound::Exact : Bound::Upper;
}

} // namespace

int mateInMoves(int score) {
    if (score >= kMateBound) return (kMateScore - score + 1) / 2;
    if (score <= -kMateBound) return -(kMateScore + score) / 2;
    return 0;
}
bool isMateScore(int score) {
    return score >= kMateBound || score <= -kMateBound;
}

struct Searcher::Impl {
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
    std::array<int, kMaxPly + 2> movedPieceTo{};                 // piece * 64 + to at each ply, -1: none
    std::array<chess::Move, kMaxPly + 2> excluded{};             // the move a singular search leaves out
    std::array<int, kMaxPly + 2> doubleExtensions{};             // double extensions on the path to a ply
    int rootDepth = 0;                                           // the iteration's depth
    std::array<chess::Move, kMaxPly + 2> currentMove{};          // the move searched at each ply
    std::array<int, kMaxPly + 2> staticEvals{};                  // -kInfinity when in check
    std::array<std::array<chess::Move, kMaxPly + 1>, kMaxPly + 1> pvTable{};
    std::array<int, kMaxPly + 1> pvLength{};
    std::vector<uint64_t> keys; // repetition stack: game history, then the search path

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
        killers = {};
        history = {};
        counterMoves = {};
        for (ContinuationTable& t : continuation) t = {};
        for (auto& row : captureHistory) row = {};
    }
    static int capturedIndex(const chess::Position& pos, chess::Move m) {
        if (m.isEnPassant()) return 0;
        return pos.isCapture(m) ? glue::pestoIndex(chess::typeOf(pos.pieceOn(m.to()))) : 6;
    }
    int& captureHistoryOf(const chess::Position& pos, chess::Move m) {
        return captureHistory[static_cast<std::size_t>(pieceTo(pos, m))][static_cast<std::size_t>(capturedIndex(pos, m))];
    }
    int captureHistoryOf(const chess::Position& pos, chess::Move m) const {
        return captureHistory[static_cast<std::size_t>(pieceTo(pos, m))][static_cast<std::size_t>(capturedIndex(pos, m))];
    }

    bool has(SearchFeature f) const { return (features & f) != 0; }
    int eval(const chess::Position& pos) const { return evaluate(pos, evalTerms) + tempo; }

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
            if (const ContinuationTable* t = continuationAt(ply, back)) s += (*t)[pieceToIndex / 64][pieceToIndex % 64];
        return s;
    }
    chess::Move counterTo(int ply) const {
        if (ply == 0) return chess::Move{};
        const chess::Move prev = currentMove[ply - 1];
        return prev == chess::Move{} ? chess::Move{} : counterMoves[glue::fromIndex(prev)][glue::toIndex(prev)];
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

    int quiescence(chess::Position& pos, int alpha, int beta, int ply) {
        countNode();
        pvLength[ply] = 0;
        if (stopped) return 0;
        selDepth = std::max(selDepth, ply);
        const bool inCheck = glue::inCheck(pos);
        if (ply >= kMaxPly) return inCheck ? 0 : eval(pos);

        const bool qsTable = has(kFeatureQsTable);
        const bool pvNode = beta - alpha > 1;
        chess::Move hashMove{};
        if (qsTable) {
            if (const TtEntry* e = tt.probe(glue::key(pos))) {
                const int ttScore = scoreFromTt(e->score, ply);
                if (!pvNode && boundSettles(e->bound(), ttScore, alpha, beta)) return ttScore;
                hashMove = glue::moveFromRaw(e->move);
            }
        }
        const int originalAlpha = alpha;
        chess::Move bestMove{};

        int best = -kInfinity;
        if (!inCheck) {
            best = eval(pos);
            if (best >= beta) return best;
            alpha = std::max(alpha, best);
        }
        glue::MoveBuffer moves;
        if (inCheck) {
            glue::generateLegal(pos, moves);
            if (moves.size() == 0) return -kMateScore + ply;
        } else {
            glue::generateCaptures(pos, moves);
        }

        std::array<int, 256> scores; // filled by scoreMoves
        scoreMoves(pos, moves, scores, hashMove, ply);
        for (int i = 0; i < moves.size(); ++i) {
            pickNext(moves, scores, i);
            const chess::Move m = moves[i];
            if (!inCheck) {
                // Delta pruning: even winning the piece cannot lift the score to alpha.
                // (kFeatureQsChecks: not a capture that gives check, which may mate.)
                if (!glue::isPromotion(m) && best + glue::capturedValue(pos, m) + 200 < alpha &&
                    !(has(kFeatureQsChecks) && pos.givesCheck(m)))
                    continue;
                // Captures that lose material in the exchange are not worth resolving. The order
                // score already tells (positive exactly when seeGe(m, 0) holds, scoreMoves),
                // except for the stored move's.
                if (m == hashMove ? !pos.seeGe(m, 0) : scores[i] < 0) continue;
            }
            // The child's first work is its evaluation (stand pat): its slot loads during makeMove.
            if (kPrefetch) prefetchEvaluation(pos.keyAfter(m), evalTerms);
            const chess::Undo undo = pos.makeMove(m);
            currentMove[ply] = m;
            const int score = -quiescence(pos, -beta, -alpha, ply + 1);
            pos.unmakeMove(m, undo);
            if (stopped) return 0;
            if (score > best) {
                best = score;
                if (score > alpha) {
                    alpha = score;
                    bestMove = m;
                    updatePv(ply, m);
                    if (score >= beta) break;
                }
            }
        }
        if (qsTable && best != -kInfinity)
            tt.store(glue::key(pos), glue::moveToRaw(bestMove), scoreToTt(best, ply), 0,
                     boundOf(best, originalAlpha, beta));
        return best;
    }

    // ProbCut's captures (kFeatureProbCut): returns a score >= probBeta when one of them holds it,
    // else -kInfinity.
    int probCut(chess::Position& pos, int probBeta, int depth, int ply, chess::Move hashMove,
                int staticEval) {
        glue::MoveBuffer moves;
        glue::generateCaptures(pos, moves);
        std::array<int, 256> scores; // filled by scoreMoves
        scoreMoves(pos, moves, scores, hashMove, ply);
        for (int i = 0; i < moves.size(); ++i) {
            pickNext(moves, scores, i);
            const chess::Move m = moves[i];
            if (!pos.seeGe(m, probBeta - staticEval)) continue;
            const int mPieceTo = has(kFeatureContinuation) ? pieceTo(pos, m) : 0;
            const chess::Undo undo = pos.makeMove(m);
            keys.push_back(glue::key(pos));
            currentMove[ply] = m;
            movedPieceTo[ply] = mPieceTo;
            doubleExtensions[ply + 1] = doubleExtensions[ply];
            int score = -quiescence(pos, -probBeta, -probBeta + 1, ply + 1);
            if (score >= probBeta && !stopped)
                score = -alphaBeta(pos, -probBeta, -probBeta + 1, depth - 4, ply + 1, true);
            keys.pop_back();
            pos.unmakeMove(m, undo);
            if (stopped) return -kInfinity;
            if (score >= probBeta) {
                tt.store(glue::key(pos), glue::moveToRaw(m), scoreToTt(score, ply), depth - 3, Bound::Lower);
                return score;
            }
        }
        return -kInfinity;
    }

    int alphaBeta(chess::Position& pos, int alpha, int beta, int depth, int ply, bool allowNull) {
        const bool pvNode = beta - alpha > 1;
        const bool root = ply == 0;
        pvLength[ply] = 0;

        // Step 1. Draws by rule and the ply limit (never at the root: we must return a move).
        if (!root) {
            if (glue::halfmoveClock(pos) >= 100 || glue::insufficientMaterial(pos) ||
                isRepetition(glue::key(pos), glue::halfmoveClock(pos)))
                return 0;
            if (ply >= kMaxPly) return eval(pos);
            // Mate distance pruning.
            alpha = std::max(alpha, -kMateScore + ply);
            beta = std::min(beta, kMateScore - ply - 1);
            if (alpha >= beta) return alpha;
        }

        // Step 2. Check extension, then quiescence at the horizon.
        const bool inCheck = glue::inCheck(pos);
        if (inCheck) ++depth;
        if (depth <= 0) return quiescence(pos, alpha, beta, ply);

        countNode();
        if (stopped) return 0;
        selDepth = std::max(selDepth, ply);

        // Step 3. Transposition table.
        const uint64_t posKey = glue::key(pos);
        chess::Move hashMove{};
        const TtEntry* ttEntry = tt.probe(posKey);
        int ttScore = 0, ttDepth = 0;
        Bound ttBound = Bound::None;
        const chess::Move excludedMove = excluded[ply];
        const bool singularSearch = !(excludedMove == chess::Move{});
        if (ttEntry) {
            hashMove = glue::moveFromRaw(ttEntry->move);
            ttScore = scoreFromTt(ttEntry->score, ply);
            ttDepth = ttEntry->depth;
            ttBound = ttEntry->bound();
            if (!pvNode && !root && !singularSearch && ttEntry->depth >= depth &&
                boundSettles(ttBound, ttScore, alpha, beta))
                return ttScore;
        }

        // Step 4. Static evaluation and the pruning it allows.
        const bool pruning = has(kFeaturePruning);
        int staticEval = inCheck ? -kInfinity : eval(pos);
        staticEvals[ply] = staticEval;
        // Improving: better than two plies ago (our last turn), so prune less.
        const bool improving =
            pruning && !inCheck && ply >= 2 && staticEvals[ply - 2] != -kInfinity && staticEval > staticEvals[ply - 2];
        // A stored bound refines the static evaluation for the pruning decisions.
        if (pruning && !inCheck && ttEntry && std::abs(ttScore) < kMateBound &&
            (ttEntry->bound() == Bound::Exact || (ttEntry->bound() == Bound::Lower && ttScore > staticEval) ||
             (ttEntry->bound() == Bound::Upper && ttScore < staticEval)))
            staticEval = ttScore;
        if (!pvNode && !inCheck && !singularSearch) {
            // Reverse futility pruning: far above beta near the leaves.
            if (pruning) {
                if (depth <= 6 && staticEval - 110 * (depth - improving) >= beta && std::abs(beta) < kMateBound)
                    return staticEval;
            } else if (depth <= 3 && staticEval - 100 * depth >= beta && std::abs(beta) < kMateBound) {
                return staticEval;
            }
            // Razoring: so far below alpha that only a capture could help; quiescence decides.
            if (has(kFeatureRazoring) && depth <= 3 && staticEval + 200 + 250 * depth <= alpha &&
                std::abs(alpha) < kMateBound) {
                const int q = quiescence(pos, alpha, alpha + 1, ply);
                if (stopped) return 0;
                if (q <= alpha) return q;
            }
            // Null-move pruning: if passing still fails high, the position is good enough.
            if (allowNull && depth >= 3 && staticEval >= beta && glue::hasNonPawnMaterial(pos)) {
                const int r = has(kFeatureNullMove) ? 3 + depth / 3 + std::min((staticEval - beta) / 200, 3)
                                                    : 2 + depth / 4;
                const chess::Undo undo = pos.makeNullMove();
                if (depth - 1 - r > 0) tt.prefetch(glue::key(pos));
                if (kPrefetch) prefetchEvaluation(glue::key(pos), evalTerms);
                keys.push_back(glue::key(pos));
                currentMove[ply] = chess::Move{};
                movedPieceTo[ply] = -1;
                doubleExtensions[ply + 1] = doubleExtensions[ply];
                const int score = -alphaBeta(pos, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
                keys.pop_back();
                pos.unmakeNullMove(undo);
                if (stopped) return 0;
                if (score >= beta) return score >= kMateBound ? beta : score;
            }
            // ProbCut: a good capture that beats beta by a margin in quiescence and then in a
            // search four plies shallower makes this node a cut node.
            if (has(kFeatureProbCut) && depth >= 5 && std::abs(beta) < kMateBound) {
                const int probBeta = beta + 200;
                if (!(ttEntry && ttDepth >= depth - 3 && ttScore < probBeta)) {
                    if (const int s = probCut(pos, probBeta, depth, ply, hashMove, staticEval); s >= probBeta)
                        return s;
                    if (stopped) return 0;
                }
            }
        }
        // Internal iterative reduction: without a stored move this node was never searched
        // deeply; search it one ply shallower first.
        if (pruning && depth >= 4 && hashMove == chess::Move{} && !singularSearch) --depth;

        // Step 5. Generate and order the moves.
        glue::MoveBuffer moves;
        glue::generateLegal(pos, moves);
        if (moves.size() == 0) return inCheck ? -kMateScore + ply : 0;
        std::array<int, 256> scores; // filled by scoreMoves
        scoreMoves(pos, moves, scores, hashMove, ply);
        const chess::Move counter = counterTo(ply);
        const bool ttCapture = has(kFeatureTtCaptureLmr) && !(hashMove == chess::Move{}) &&
                               glue::isCaptureOrPromotion(pos, hashMove);

        // Step 6. Search every move: the first with a full window, the rest with a null window
        // and a reduction for late quiet moves, re-searched when they surprise.
        const int originalAlpha = alpha;
        int best = -kInfinity;
        chess::Move bestMove{};
        std::array<chess::Move, 64> quietsTried;
        int quietCount = 0;
        std::array<chess::Move, 32> capturesTried;
        int captureCount = 0;
        bool restChecked = false; // whether restPruned was asked
        // Whether a move gives check, from this node's CheckInfo, worked out at the first question.
        chess::CheckInfo checkInfoStore;
        bool haveCheckInfo = false;
        auto checkInfo = [&]() -> const chess::CheckInfo& {
            if (!haveCheckInfo) {
                checkInfoStore = pos.checkInfo();
                haveCheckInfo = true;
            }
            return checkInfoStore;
        };
        auto checking = [&](chess::Move move) { return pos.givesCheck(move, checkInfo()); };
        for (int i = 0; i < moves.size(); ++i) {
            pickNext(moves, scores, i);
            const chess::Move m = moves[i];
            if (singularSearch && m == excludedMove) continue;
            const bool quiet = !glue::isCaptureOrPromotion(pos, m);
            const int mPieceTo = has(kFeatureContinuation) ? pieceTo(pos, m) : 0;
            // Late-move and futility pruning of quiet moves near the leaves, once a move has
            // been searched and no mate is at stake.
            if (pruning) {
                if (!root && i > 0 && best > -kMateBound && !inCheck) {
                    // Checking moves are never pruned (a mate can hide behind a lost queen).
                    if (quiet && depth <= 6) {
                        const bool late = i >= (3 + depth * depth) / (improving ? 1 : 2);
                        const bool futile = depth <= 5 && staticEval + 120 + 100 * depth <= alpha;
                        // Once late or futile, always so (i and alpha only grow): when every move
                        // left would be pruned, stop here instead of picking each one to skip it.
                        if ((late || futile) && !restChecked) {
                            restChecked = true;
                            if (restPruned(pos, moves, i, depth,
                                           singularSearch ? excludedMove : chess::Move{}, checkInfo()))
                                break;
                        }
                        if ((late || futile || !pos.seeGe(m, -25 * depth * depth)) && !checking(m)) continue;
                    } else if (!quiet && depth <= 5 && !pos.seeGe(m, -150 * depth) && !checking(m)) {
                        continue;
                    }
                }
            } else if (!pvNode && !inCheck && quiet && i > 0 && depth <= 3 && best > -kMateBound) {
                const bool late = i >= 3 + 2 * depth * depth;
                const bool futile = depth <= 2 && staticEval + 120 + 100 * depth <= alpha;
                // Checking moves are never pruned; the test is the costly part, so it comes last.
                if ((late || futile) && !checking(m)) continue;
            }
            // Singular extension: is the stored move the only good one here? Every other move is
            // searched at half the depth against a bound under its stored score.
            int extension = 0;
            if (has(kFeatureSingular) && !root && i == 0 && m == hashMove && !singularSearch && depth >= 7 &&
                ply < 2 * rootDepth && ttDepth >= depth - 3 &&
                (ttBound == Bound::Lower || ttBound == Bound::Exact) && std::abs(ttScore) < kMateBound) {
                const int singularBeta = ttScore - 2 * depth;
                excluded[ply] = m;
                const int s = alphaBeta(pos, singularBeta - 1, singularBeta, (depth - 1) / 2, ply, false);
                excluded[ply] = chess::Move{};
                if (stopped) return 0;
                if (s < singularBeta) {
                    extension = 1;
                    if (has(kFeatureSingularMore) && !pvNode && s < singularBeta - 20 && doubleExtensions[ply] < 6)
                        extension = 2;
                } else if (singularBeta >= beta) {
                    return singularBeta; // several moves beat beta: cut
                } else if (has(kFeatureSingularMore) && ttScore >= beta) {
                    extension = -1; // not singular, and it beats beta anyway: a ply less
                }
            }
            // The child's table slots start loading before the move is made (its key is computed
            // cheaply), so the fetches overlap makeMove: the child probes the table (quiescence
            // does not) and evaluates.
            if (kPrefetch) {
                const uint64_t childKey = pos.keyAfter(m);
                if (depth > 1) tt.prefetch(childKey);
                prefetchEvaluation(childKey, evalTerms);
            }
            const chess::Undo undo = pos.makeMove(m);
            keys.push_back(glue::key(pos));
            currentMove[ply] = m;
            movedPieceTo[ply] = mPieceTo;
            doubleExtensions[ply + 1] = doubleExtensions[ply] + (extension >= 2);
            const bool givesCheck = glue::inCheck(pos);
            int score;
            if (i == 0) {
                score = -alphaBeta(pos, -beta, -alpha, depth - 1 + extension, ply + 1, true);
            } else {
                int r = 0;
                if (!root && depth >= 3 && i >= (pvNode ? 4 : 3) && quiet && !inCheck && !givesCheck) {
                    r = kLmr.r[std::min(depth, 63)][std::min(i, 63)];
                    if (pvNode) r = std::max(0, r - 1);
                    if (pruning) {
                        // Less for moves that refuted before, more when the position is getting worse.
                        r += !improving;
                        if (m == killers[ply][0] || m == killers[ply][1] || m == counter) r -= 1;
                        if (ttCapture) r += 1;
                        const int h = history[glue::sideIndex(pos) ^ 1][glue::fromIndex(m)][glue::toIndex(m)];
                        r -= has(kFeatureContinuation) ? (h + continuationScore(ply, mPieceTo)) / 9000 : h / 6000;
                    }
                    r = std::clamp(r, 0, depth - 2);
                }
                score = -alphaBeta(pos, -alpha - 1, -alpha, depth - 1 - r, ply + 1, true);
                if (score > alpha && r > 0)
                    score = -alphaBeta(pos, -alpha - 1, -alpha, depth - 1, ply + 1, true);
                if (score > alpha && score < beta)
                    score = -alphaBeta(pos, -beta, -alpha, depth - 1, ply + 1, true);
            }
            keys.pop_back();
            pos.unmakeMove(m, undo);
            if (stopped) return 0;

            if (score > best) {
                best = score;
                bestMove = m;
                if (score > alpha) {
                    alpha = score;
                    updatePv(ply, m);
                    if (score >= beta) {
                        // Step 7. Remember moves that refute: killers, history, counter move for
                        // quiet ones; the capture history for captures (and against the captures
                        // tried before either).
                        if (has(kFeatureCaptureHistory)) {
                            const int bonus = std::min(depth * depth * 16, 4096);
                            if (!quiet) gravity(captureHistoryOf(pos, m), bonus);
                            for (int q = 0; q < captureCount; ++q) gravity(captureHistoryOf(pos, capturesTried[q]), -bonus);
                        }
                        if (quiet) {
                            if (!(killers[ply][0] == m)) {
                                killers[ply][1] = killers[ply][0];
                                killers[ply][0] = m;
                            }
                            const int side = glue::sideIndex(pos);
                            int& h = history[side][glue::fromIndex(m)][glue::toIndex(m)];
                            if (has(kFeatureHistory)) {
                                const int bonus = std::min(depth * depth * 16, 4096);
                                gravity(h, bonus);
                                for (int q = 0; q < quietCount; ++q)
                                    gravity(history[side][glue::fromIndex(quietsTried[q])][glue::toIndex(quietsTried[q])],
                                            -bonus);
                            } else {
                                h = std::min(h + depth * depth, 1 << 20);
                            }
                            if (has(kFeatureContinuation))
                                for (int back = 1; back <= 2; ++back)
                                    if (ContinuationTable* t = continuationAt(ply, back)) {
                                        const int bonus = std::min(depth * depth * 16, 4096);
                                        gravity((*t)[mPieceTo / 64][mPieceTo % 64], bonus);
                                        for (int q = 0; q < quietCount; ++q) {
                                            const int qi = pieceTo(pos, quietsTried[q]);
                                            gravity((*t)[qi / 64][qi % 64], -bonus);
                                        }
                                    }
                            if (has(kFeatureCounterMove) && ply > 0 && !(currentMove[ply - 1] == chess::Move{}))
                                counterMoves[glue::fromIndex(currentMove[ply - 1])][glue::toIndex(currentMove[ply - 1])] = m;
                        }
                        break;
                    }
                }
            }
            if (quiet && quietCount < 64) quietsTried[quietCount++] = m;
            if (!quiet && captureCount < 32) capturesTried[captureCount++] = m;
        }

        // Step 8. Store the result (not that of a search without the stored move).
        if (singularSearch) return best == -kInfinity ? alpha : best;
        tt.store(posKey, glue::moveToRaw(bestMove), scoreToTt(best, ply), depth, boundOf(best, originalAlpha, beta));
        return best;
    }

    void startSearch(chess::Position& pos, const SearchLimits& l) {
        limits = l;
        features = l.features;
        evalTerms = !has(kFeatureFullEval) ? EvalTerms::Pesto
                    : has(kFeatureTunedEval) ? EvalTerms::FullTuned
                    : has(kFeatureEvalPlus) && has(kFeatureEvalMore) && has(kFeatureEvalKing) ? EvalTerms::FullKing
                    : has(kFeatureEvalPlus) && has(kFeatureEvalMore) ? EvalTerms::FullMore
                    : has(kFeatureEvalPlus)  ? EvalTerms::FullPlus
                                             : EvalTerms::Full;
        tempo = has(kFeatureTempo) ? 15 : 0;
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
};

Searcher::Searcher(std::size_t hashMb) : impl_(std::make_unique<Impl>(hashMb)) {}
Searcher::~Searcher() = default;

void Searcher::resizeHash(std::size_t megabytes) {
    impl_->tt.resize(megabytes);
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
    int previousScore = 0;
    for (int depth = 1; depth <= maxDepth; ++depth) {
        // Aspiration window around the last score from depth 5 on, widened on failure.
        int delta = depth >= 5 ? 40 : kInfinity;
        int alpha = std::max(previousScore - delta, -kInfinity);
        int beta = std::min(previousScore + delta, kInfinity);
        int score = 0;
        while (true) {
            s.selDepth = 0;
            s.rootDepth = depth;
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
        if (s.stopped && depth > 1) break;
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
