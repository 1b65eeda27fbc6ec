// Game analysis: fixed-budget scores per position, lichess's judgements and accuracy per move.
#include "engine/search/analysis.h"

#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace chaiba::search {

namespace {
constexpr int kClampCp = 1000;

bool isWhite(chess::Color c) {
    return c == chess::Color::White;
}

// Population standard deviation.
double standardDeviation(const std::vector<double>& xs) {
    if (xs.empty()) return 0;
    double mean = 0;
    for (double x : xs) mean += x;
    mean /= double(xs.size());
    double var = 0;
    for (double x : xs) var += (x - mean) * (x - mean);
    return std::sqrt(var / double(xs.size()));
}
} // namespace

const char* judgementName(MoveJudgement j) {
    switch (j) {
    case MoveJudgement::Good: return "good";
    case MoveJudgement::Inaccuracy: return "inaccuracy";
    case MoveJudgement::Mistake: return "mistake";
    case MoveJudgement::Blunder: return "blunder";
    }
    return "good";
}
int judgementNag(MoveJudgement j) {
    switch (j) {
    case MoveJudgement::Good: return 0;
    case MoveJudgement::Inaccuracy: return 6;
    case MoveJudgement::Mistake: return 2;
    case MoveJudgement::Blunder: return 4;
    }
    return 0;
}
const char* judgementSymbol(MoveJudgement j) {
    switch (j) {
    case MoveJudgement::Good: return "";
    case MoveJudgement::Inaccuracy: return "?!";
    case MoveJudgement::Mistake: return "?";
    case MoveJudgement::Blunder: return "??";
    }
    return "";
}

PositionEval evalFromSearchScore(int score, chess::Color sideToMove) {
    PositionEval e;
    e.whiteCp = isWhite(sideToMove) ? score : -score;
    if (isMateScore(score)) e.mateIn = isWhite(sideToMove) ? mateInMoves(score) : -mateInMoves(score);
    return e;
}

PositionEval evaluatePosition(chess::Position& position, const std::vector<uint64_t>& priorHashes,
                              const AnalysisBudget& budget, Searcher& searcher) {
    chess::MoveList legal;
    chess::generateLegal(position, legal);
    if (legal.size() == 0) {
        // Step 1. Over on the board: mated (the side to move lost) or stalemate.
        PositionEval e;
        e.terminal = true;
        if (position.inCheck()) e.whiteCp = isWhite(position.sideToMove()) ? -kMateScore : kMateScore;
        return e;
    }
    // Step 2. A fresh table per position: the score depends on the position alone.
    searcher.reset(budget.hashMb);
    SearchLimits limits;
    limits.maxDepth = budget.maxDepth;
    limits.maxNodes = budget.maxNodes;
    limits.priorPositionHashes = &priorHashes;
    limits.features = kSearchFullStrength; // the judge uses the strongest search there is
    const SearchResult r = searcher.search(position, limits);
    PositionEval e = evalFromSearchScore(r.score, position.sideToMove());
    e.depth = r.completedDepth;
    e.nodes = r.nodes;
    e.pv = r.pv;
    return e;
}

int clampedCp(const PositionEval& e) {
    if (e.mateIn != 0 || (e.terminal && e.whiteCp != 0)) return e.whiteCp > 0 ? kClampCp : -kClampCp;
    return std::clamp(e.whiteCp, -kClampCp, kClampCp);
}

double winPercent(int cp) {
    cp = std::clamp(cp, -kClampCp, kClampCp);
    return 50.0 + 50.0 * (2.0 / (1.0 + std::exp(-0.00368208 * cp)) - 1.0);
}

namespace {

// A move's verdict as lichess gives it (lila, modules/analyse Advice.scala): between two scores in
// centipawns, by the drop of the mover's winning chances; when a mate appears or goes, by
// MateAdvice: a move that lets the opponent mate is a blunder unless the mover was already below
// -7.00 (a mistake) or -9.99 (an inaccuracy); a move that loses its own mate is a blunder unless
// it still leaves more than +7.00 (a mistake) or +9.99 (an inaccuracy); a mate delayed, or one
// against the mover before and after, is not judged. `sign`: +1 White moved, -1 Black.
MoveJudgement judgeMove(const PositionEval& before, const PositionEval& after, int sign, double winLoss) {
    const int mateBefore = sign * before.mateIn; // > 0: the mover mates
    const int mateAfter = after.terminal ? 0 : sign * after.mateIn;
    if (mateBefore != 0 || mateAfter != 0) {
        const int cpBefore = mateBefore != 0 ? 0 : sign * before.whiteCp;
        const int cpAfter = mateAfter != 0 ? 0 : sign * after.whiteCp;
        if (after.terminal) return MoveJudgement::Good; // the mate was given (or a draw taken)
        if (mateBefore == 0 && mateAfter < 0) // the move lets the opponent mate
            return cpBefore < -999 ? MoveJudgement::Inaccuracy
                   : cpBefore < -700 ? MoveJudgement::Mistake
                                     : MoveJudgement::Blunder;
        if (mateBefore > 0 && mateAfter <= 0) // the mover's mate is gone
            return cpAfter > 999 ? MoveJudgement::Inaccuracy
                   : cpAfter > 700 ? MoveJudgement::Mistake
                                   : MoveJudgement::Blunder;
        return MoveJudgement::Good;
    }
    return winLoss >= 15   ? MoveJudgement::Blunder
           : winLoss >= 10 ? MoveJudgement::Mistake
           : winLoss >= 5  ? MoveJudgement::Inaccuracy
                           : MoveJudgement::Good;
}

} // namespace

GameAnalysis judgeMoves(std::vector<PositionEval> positions, const std::vector<chess::Color>& movers) {
    GameAnalysis out;
    out.positions = std::move(positions);
    const std::size_t n = movers.size();
    if (out.positions.size() != n + 1) return out; // nothing to judge (caller's bug: sizes differ)
    std::vector<double> whiteWin(n + 1);
    for (std::size_t i = 0; i <= n; ++i) whiteWin[i] = winPercent(clampedCp(out.positions[i]));

    // Step 1. Each move: loss in centipawns and in win percent, from the mover's side.
    for (std::size_t i = 0; i < n; ++i) {
        MoveQuality q;
        q.mover = movers[i];
        const int sign = isWhite(q.mover) ? 1 : -1;
        const int before = sign * clampedCp(out.positions[i]);
        const int after = sign * clampedCp(out.positions[i + 1]);
        q.cpLoss = std::max(0, before - after);
        const double winBefore = isWhite(q.mover) ? whiteWin[i] : 100 - whiteWin[i];
        const double winAfter = isWhite(q.mover) ? whiteWin[i + 1] : 100 - whiteWin[i + 1];
        q.winLoss = std::max(0.0, winBefore - winAfter);
        const double raw = 103.1668100711649 * std::exp(-0.04354415386753951 * q.winLoss) - 3.166924740191411;
        q.accuracy = std::clamp(raw + 1.0, 0.0, 100.0);
        q.judgement = judgeMove(out.positions[i], out.positions[i + 1], sign, q.winLoss);
        out.moves.push_back(q);
    }

    // Step 2. Volatility weights: the stddev of win% over a window around each move.
    const std::size_t window = std::clamp<std::size_t>(n / 10, 2, 8);
    std::vector<double> weights(n, 0.5);
    for (std::size_t i = 0; i < n; ++i) {
        // lichess pads the start with copies of the first window, so move i uses the window
        // ending at position max(i + 1, window - 1) (inclusive), of `window` positions.
        const std::size_t end = std::min(n, std::max(i + 1, window - 1));
        const std::size_t begin = end + 1 >= window ? end + 1 - window : 0;
        std::vector<double> xs(whiteWin.begin() + long(begin), whiteWin.begin() + long(end) + 1);
        weights[i] = std::clamp(standardDeviation(xs), 0.5, 12.0);
    }

    // Step 3. Per side: centipawn loss, counts, and (weighted mean + harmonic mean) / 2.
    for (int side = 0; side < 2; ++side) {
        SideSummary& s = out.sides[std::size_t(side)];
        double cpSum = 0, wSum = 0, wAcc = 0, invSum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const MoveQuality& q = out.moves[i];
            if (int(isWhite(q.mover) ? 0 : 1) != side) continue;
            ++s.moves;
            cpSum += q.cpLoss;
            wSum += weights[i];
            wAcc += weights[i] * q.accuracy;
            invSum += 1.0 / std::max(1.0, q.accuracy);
            if (q.judgement == MoveJudgement::Inaccuracy) ++s.inaccuracies;
            if (q.judgement == MoveJudgement::Mistake) ++s.mistakes;
            if (q.judgement == MoveJudgement::Blunder) ++s.blunders;
        }
        if (s.moves == 0) continue;
        s.averageCpLoss = cpSum / s.moves;
        s.accuracy = (wAcc / wSum + double(s.moves) / invSum) / 2.0;
    }
    return out;
}

PositionEval evaluateGamePosition(const chess::Position& start, const std::vector<chess::Move>& moves,
                                  const AnalysisBudget& budget, Searcher& searcher) {
    chess::Position pos = start;
    std::vector<uint64_t> history; // hashes before the scored position, as analyseGame keeps them
    history.reserve(moves.size());
    for (const chess::Move m : moves) {
        history.push_back(pos.hash());
        pos.makeMove(m);
    }
    return evaluatePosition(pos, history, budget, searcher);
}

GameAnalysis analyseGame(const chess::Position& start, const std::vector<chess::Move>& moves,
                         const AnalysisBudget& budget) {
    Searcher searcher(budget.hashMb);
    chess::Position pos = start;
    std::vector<uint64_t> history; // hashes before the current position
    std::vector<PositionEval> evals;
    std::vector<chess::Color> movers;
    evals.reserve(moves.size() + 1);
    for (std::size_t i = 0;; ++i) {
        evals.push_back(evaluatePosition(pos, history, budget, searcher));
        if (i == moves.size()) break;
        movers.push_back(pos.sideToMove());
        history.push_back(pos.hash());
        pos.makeMove(moves[i]);
    }
    return judgeMoves(std::move(evals), movers);
}

std::string formatEval(const PositionEval& e, const chess::Position& position) {
    if (e.terminal) {
        if (e.whiteCp == 0) return "\xC2\xBD-\xC2\xBD";
        return isWhite(position.sideToMove()) ? "0-1" : "1-0";
    }
    if (e.mateIn != 0) return "#" + std::to_string(e.mateIn);
    char text[16];
    std::snprintf(text, sizeof text, "%+.2f", e.whiteCp / 100.0);
    return text;
}

std::string thinkingLine(const chess::Position& position, int scoreSideToMove, int depth, uint64_t nodes,
                         const std::vector<chess::Move>& pv) {
    const std::string dot = " \xC2\xB7 ";
    std::string out = formatEval(evalFromSearchScore(scoreSideToMove, position.sideToMove()), position);
    out += dot + "depth " + std::to_string(depth);
    if (nodes > 0) out += dot + std::to_string(nodes) + " nodes";
    const std::string line = sanLine(position, pv);
    if (!line.empty()) out += dot + line;
    return out;
}

std::string sanLine(const chess::Position& position, const std::vector<chess::Move>& line, int maxMoves) {
    chess::Position pos = position;
    std::string out;
    int count = 0;
    for (const chess::Move m : line) {
        if (count == maxMoves) break;
        chess::MoveList legal;
        chess::generateLegal(pos, legal);
        bool found = false;
        for (const chess::Move l : legal)
            if (l == m) found = true;
        if (!found) break;
        if (!out.empty()) out += ' ';
        if (isWhite(pos.sideToMove())) out += std::to_string(pos.fullmoveNumber()) + ". ";
        else if (count == 0) out += std::to_string(pos.fullmoveNumber()) + "...";
        out += chess::toSan(pos, m);
        pos.makeMove(m);
        ++count;
    }
    return out;
}

} // namespace chaiba::search

namespace chaiba::search {

void annotatePgn(chess::PgnGame& game, const GameAnalysis& analysis) {
    const std::size_t n = std::min(game.moves.size(), analysis.moves.size());
    game.nags.resize(game.moves.size());
    game.comments.resize(game.moves.size());
    for (std::size_t i = 0; i < n; ++i) {
        const int nag = judgementNag(analysis.moves[i].judgement);
        if (nag != 0) game.nags[i].push_back(nag);
        const PositionEval& e = analysis.positions[i + 1];
        if (e.terminal) continue;
        char text[32];
        if (e.mateIn != 0) std::snprintf(text, sizeof text, "[%%eval #%d]", e.mateIn);
        else std::snprintf(text, sizeof text, "[%%eval %.2f]", e.whiteCp / 100.0);
        std::string& c = game.comments[i];
        c = c.empty() ? std::string(text) : c + " " + text;
    }
}

} // namespace chaiba::search
