// The node searches: PVS alpha-beta and quiescence (the root's iterative deepening is in
// search_root.cpp; see search.h for the contract). The numbered steps follow the order in which a
// node is searched.
#include "engine/search/search.h"

#include "engine/search/board_glue.h"
#include "engine/search/evaluation.h"
#include "engine/search/search_impl.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>

namespace chaiba::search {

namespace {

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
    explicit LmrTable(double divisor) {
        for (int d = 1; d < 64; ++d)
            for (int m = 1; m < 64; ++m)
                r[d][m] = static_cast<int8_t>(0.75 + std::log(d) * std::log(m) / divisor);
    }
};
const LmrTable kLmr(2.25);
const LmrTable kLmrMore(1.9); // kFeatureLmrMore

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

int Searcher::Impl::quiescence(chess::Position& pos, int alpha, int beta, int ply) {
    countNode();
    pvLength[ply] = 0;
    if (stopped) return 0;
    selDepth = std::max(selDepth, ply);
    const bool inCheck = glue::inCheck(pos);
    if (ply >= kMaxPly) return inCheck ? 0 : evalAt(pos, ply);

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
        best = correctedEval(pos, evalAt(pos, ply));
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
        nnMove(ply + 1, pos, m);
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
int Searcher::Impl::probCut(chess::Position& pos, int probBeta, int depth, int ply, chess::Move hashMove,
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
        nnMove(ply + 1, pos, m);
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

int Searcher::Impl::alphaBeta(chess::Position& pos, int alpha, int beta, int depth, int ply, bool allowNull,
                              bool cutNode) {
    const bool pvNode = beta - alpha > 1;
    const bool root = ply == 0;
    pvLength[ply] = 0;

    // Step 1. Draws by rule and the ply limit (never at the root: we must return a move).
    if (!root) {
        if (glue::halfmoveClock(pos) >= 100 || glue::insufficientMaterial(pos) ||
            isRepetition(glue::key(pos), glue::halfmoveClock(pos)))
            return 0;
        if (ply >= kMaxPly) return evalAt(pos, ply);
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
    const int rawEval = inCheck ? -kInfinity : evalAt(pos, ply);
    int staticEval = inCheck ? -kInfinity : correctedEval(pos, rawEval);
    const int correctedStatic = staticEval; // before a stored bound refines it
    staticEvals[ply] = staticEval;
    // Improving: better than two plies ago (our last turn), so prune less.
    const bool improving = pruning && !inCheck && ply >= 2 && staticEvals[ply - 2] != -kInfinity &&
                           staticEval > staticEvals[ply - 2];
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
            nnNull(ply + 1);
            const chess::Undo undo = pos.makeNullMove();
            if (depth - 1 - r > 0) tt.prefetch(glue::key(pos));
            if (kPrefetch) prefetchEvaluation(glue::key(pos), evalTerms);
            keys.push_back(glue::key(pos));
            currentMove[ply] = chess::Move{};
            movedPieceTo[ply] = -1;
            doubleExtensions[ply + 1] = doubleExtensions[ply];
            const int score = -alphaBeta(pos, -beta, -beta + 1, depth - 1 - r, ply + 1, false, !cutNode);
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
                        if (restPruned(pos, moves, i, depth, singularSearch ? excludedMove : chess::Move{},
                                       checkInfo()))
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
            const int s =
                alphaBeta(pos, singularBeta - 1, singularBeta, (depth - 1) / 2, ply, false, cutNode);
            excluded[ply] = chess::Move{};
            if (stopped) return 0;
            if (s < singularBeta) {
                extension = 1;
                if (has(kFeatureSingularMore) && !pvNode && s < singularBeta - 20 &&
                    doubleExtensions[ply] < 6)
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
        const uint64_t nodesBefore = nodes;
        nnMove(ply + 1, pos, m);
        const chess::Undo undo = pos.makeMove(m);
        keys.push_back(glue::key(pos));
        currentMove[ply] = m;
        movedPieceTo[ply] = mPieceTo;
        doubleExtensions[ply + 1] = doubleExtensions[ply] + (extension >= 2);
        const bool givesCheck = glue::inCheck(pos);
        int score;
        if (i == 0) {
            score = -alphaBeta(pos, -beta, -alpha, depth - 1 + extension, ply + 1, true, !pvNode && !cutNode);
        } else {
            int r = 0;
            if (!root && depth >= 3 && i >= (pvNode ? 4 : 3) && quiet && !inCheck && !givesCheck) {
                r = (has(kFeatureLmrMore) ? kLmrMore : kLmr).r[std::min(depth, 63)][std::min(i, 63)];
                if (pvNode) r = std::max(0, r - 1);
                if (pruning) {
                    // Less for moves that refuted before, more when the position is getting worse.
                    r += !improving;
                    if (m == killers[ply][0] || m == killers[ply][1] || m == counter) r -= 1;
                    if (ttCapture) r += 1;
                    // An expected cut node whose first moves did not cut: the rest less likely to.
                    if (cutNode && has(kFeatureCutNode)) r += 2;
                    const int h = history[glue::sideIndex(pos) ^ 1][glue::fromIndex(m)][glue::toIndex(m)];
                    r -= has(kFeatureContinuation) ? (h + continuationScore(ply, mPieceTo)) / 9000 : h / 6000;
                }
                r = std::clamp(r, 0, depth - 2);
            }
            score = -alphaBeta(pos, -alpha - 1, -alpha, depth - 1 - r, ply + 1, true, true);
            if (score > alpha && r > 0)
                score = -alphaBeta(pos, -alpha - 1, -alpha, depth - 1, ply + 1, true, !cutNode);
            if (score > alpha && score < beta)
                score = -alphaBeta(pos, -beta, -alpha, depth - 1, ply + 1, true);
        }
        keys.pop_back();
        pos.unmakeMove(m, undo);
        if (root) rootMoveNodes[glue::fromIndex(m) * 64 + glue::toIndex(m)] += nodes - nodesBefore;
        if (stopped) return 0;

        if (score > best) {
            best = score;
            bestMove = m;
            if (score > alpha) {
                alpha = score;
                updatePv(ply, m);
                if (root) {
                    rootImproved = true;
                    rootImprovedScore = score;
                }
                if (score >= beta) {
                    // Step 7. Remember moves that refute: killers, history, counter move for
                    // quiet ones; the capture history for captures (and against the captures
                    // tried before either).
                    if (has(kFeatureCaptureHistory)) {
                        const int bonus = std::min(depth * depth * 16, 4096);
                        if (!quiet) gravity(captureHistoryOf(pos, m), bonus);
                        for (int q = 0; q < captureCount; ++q)
                            gravity(captureHistoryOf(pos, capturesTried[q]), -bonus);
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
                                gravity(history[side][glue::fromIndex(quietsTried[q])]
                                               [glue::toIndex(quietsTried[q])],
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
                            counterMoves[glue::fromIndex(currentMove[ply - 1])]
                                        [glue::toIndex(currentMove[ply - 1])] = m;
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
    const Bound bound = boundOf(best, originalAlpha, beta);
    tt.store(posKey, glue::moveToRaw(bestMove), scoreToTt(best, ply), depth, bound);
    // The correction history learns from a score that says more than the static evaluation: not
    // a bound on the evaluation's side of it, nor a capture's (quiescence's business), nor a mate.
    if (has(kFeatureCorrection) && !inCheck && best != -kInfinity && std::abs(best) < kMateBound &&
        (bestMove == chess::Move{} || !glue::isCaptureOrPromotion(pos, bestMove)) &&
        !(bound == Bound::Lower && best <= correctedStatic) &&
        !(bound == Bound::Upper && best >= correctedStatic))
        updateCorrection(pos, rawEval, best, depth);
    return best;
}

} // namespace chaiba::search
