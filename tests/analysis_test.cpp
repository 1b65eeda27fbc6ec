// Game analysis (engine/search/analysis.h): lichess's win-percent and accuracy formulas as golden
// values, judgements of obvious blunders, scores from White's side, mate as #N, PV in SAN, NAGs in
// PGN, and a fixed budget giving the same result twice.
#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "engine/search/analysis.h"
#include "engine/search/board_glue.h"
#include "engine/search/nnue.h"

#include <doctest/doctest.h>
#include <string>

using namespace chaiba;
using namespace chaiba::search;

namespace {

chess::PgnGame readOne(const std::string& text) {
    const chess::PgnReadResult r = chess::readPgn(text);
    REQUIRE_MESSAGE(r.ok(), r.error);
    REQUIRE(r.games.size() == 1);
    return r.games[0];
}

AnalysisBudget smallBudget() {
    AnalysisBudget b;
    b.maxNodes = 40000;
    b.maxDepth = 8;
    return b;
}

PositionEval cp(int whiteCp) {
    PositionEval e;
    e.whiteCp = whiteCp;
    return e;
}

} // namespace

TEST_CASE("analysis: win percent and move accuracy follow lichess's formulas") {
    CHECK(winPercent(0) == doctest::Approx(50.0));
    CHECK(winPercent(100) == doctest::Approx(59.1).epsilon(0.002));   // 50 + 50*(2/(1+e^-0.368)-1)
    CHECK(winPercent(-300) == doctest::Approx(24.9).epsilon(0.003));
    CHECK(winPercent(5000) == doctest::Approx(winPercent(1000)));     // clamped at ±1000
    // A side that never loses win percent has accuracy 100 (the +1 bonus clamped); a drop of 20
    // points gives 103.1668 * e^(-0.8709) - 3.1669 + 1 = 41.0.
    const std::vector<chess::Color> movers = {chess::Color::White, chess::Color::Black};
    const GameAnalysis flat = judgeMoves({cp(0), cp(0), cp(0)}, movers);
    CHECK(flat.moves[0].accuracy == doctest::Approx(100.0));
    CHECK(flat.sides[0].accuracy == doctest::Approx(100.0));
    CHECK(flat.moves[0].judgement == MoveJudgement::Good);
    // Black's move drops Black's win percent from 50 to 30: a blunder ($4), loss 0 -> +222 cp.
    int cp30 = 0;
    while (winPercent(cp30) < 70.0) ++cp30;
    const GameAnalysis drop = judgeMoves({cp(0), cp(0), cp(cp30)}, movers);
    CHECK(drop.moves[1].cpLoss == cp30);
    CHECK(drop.moves[1].winLoss == doctest::Approx(20.0).epsilon(0.01));
    CHECK(drop.moves[1].accuracy == doctest::Approx(41.0).epsilon(0.01));
    CHECK(drop.moves[1].judgement == MoveJudgement::Blunder);
    CHECK(judgementNag(drop.moves[1].judgement) == 4);
    CHECK(drop.sides[1].blunders == 1);
    CHECK(drop.sides[1].averageCpLoss == doctest::Approx(cp30));
    // Thresholds: 5 inaccuracy, 10 mistake, 15 blunder (win-percent points).
    int cp7 = 0, cp12 = 0;
    while (winPercent(cp7) < 57.0) ++cp7;
    while (winPercent(cp12) < 62.0) ++cp12;
    CHECK(judgeMoves({cp(0), cp(0), cp(cp7)}, movers).moves[1].judgement == MoveJudgement::Inaccuracy);
    CHECK(judgeMoves({cp(0), cp(0), cp(cp12)}, movers).moves[1].judgement == MoveJudgement::Mistake);
    CHECK(judgementSymbol(MoveJudgement::Mistake) == std::string("?"));
    CHECK(judgementNag(MoveJudgement::Inaccuracy) == 6);
}

TEST_CASE("analysis: a fool's mate game is judged, scored from White's side, and annotated") {
    // 2. g4?? allows mate in one; the final position is checkmate (terminal, "0-1").
    chess::PgnGame pgn = readOne("1. f3 e5 2. g4 Qh4# 0-1\n");
    const GameAnalysis a = analyseGame(pgn.start, pgn.moves, smallBudget());
    REQUIRE(a.positions.size() == 5);
    REQUIRE(a.moves.size() == 4);
    CHECK(a.moves[2].judgement == MoveJudgement::Blunder); // 2. g4??
    CHECK(a.moves[2].cpLoss > 300);
    CHECK(a.moves[3].judgement == MoveJudgement::Good); // 2...Qh4# is best
    CHECK(a.positions[3].mateIn == -1);                 // after g4: Black mates in 1, "#-1"
    chess::Position afterG4 = pgn.start;
    for (int i = 0; i < 3; ++i) afterG4.makeMove(pgn.moves[std::size_t(i)]);
    CHECK(formatEval(a.positions[3], afterG4) == "#-1");
    CHECK(sanLine(afterG4, a.positions[3].pv) == "2...Qh4#");
    CHECK(a.positions[4].terminal);
    chess::Position end = afterG4;
    end.makeMove(pgn.moves[3]);
    CHECK(formatEval(a.positions[4], end) == "0-1");
    CHECK(a.sides[0].blunders == 1);
    CHECK(a.sides[0].accuracy < a.sides[1].accuracy);

    annotatePgn(pgn, a);
    const std::string text = chess::writePgn(pgn);
    CHECK(text.find("2. g4 $4 {[%eval #-1]}") != std::string::npos);
    // NAGs are read back.
    const chess::PgnGame again = readOne(text);
    REQUIRE(again.nags.size() >= 3);
    REQUIRE(again.nags[2].size() == 1);
    CHECK(again.nags[2][0] == 4);
}

TEST_CASE("analysis: scores are from White's side and the budget is deterministic") {
    // Black to move, a queen up for Black: the score must be negative (good for Black).
    chess::PgnGame pgn = readOne("[FEN \"4k3/8/8/8/8/8/q7/4K3 b - - 0 1\"]\n[SetUp \"1\"]\n\n1... Qd5 *\n");
    const GameAnalysis a = analyseGame(pgn.start, pgn.moves, smallBudget());
    CHECK(a.positions[0].whiteCp < -500);
    CHECK(formatEval(a.positions[0], pgn.start).substr(0, 1) == "-");
    const GameAnalysis b = analyseGame(pgn.start, pgn.moves, smallBudget());
    CHECK(a.positions[0].whiteCp == b.positions[0].whiteCp);
    CHECK(a.positions[0].nodes == b.positions[0].nodes);
    CHECK(a.positions[0].pv == b.positions[0].pv);
}

TEST_CASE("analysis: the judge searches with the strongest search and the evaluation network") {
    // The same tree as a search with those bits on a fresh table of the budget's size: the judge is
    // at least as strong as the strongest level (level 9 plays them too, with its node clock).
    REQUIRE(nnueHidden() > 0); // native builds carry the weights
    std::string error;
    auto pos = glue::positionFromFen(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", false, error);
    REQUIRE(pos);
    const AnalysisBudget budget = smallBudget();
    Searcher judge(budget.hashMb);
    const std::vector<uint64_t> prior;
    const PositionEval e = evaluatePosition(*pos, prior, budget, judge);
    SearchLimits limits;
    limits.maxDepth = budget.maxDepth;
    limits.maxNodes = budget.maxNodes;
    limits.priorPositionHashes = &prior;
    limits.features = kSearchStrongest | kFeatureNnue;
    Searcher same(budget.hashMb);
    CHECK(e.nodes == same.search(*pos, limits).nodes);
    limits.features = kSearchStrongest;
    Searcher noNetwork(budget.hashMb);
    CHECK(e.nodes != noNetwork.search(*pos, limits).nodes);
}

namespace {
PositionEval mate(int mateIn) {
    PositionEval e;
    e.mateIn = mateIn;
    e.whiteCp = mateIn > 0 ? 100000 - mateIn : -100000 - mateIn;
    return e;
}
} // namespace

// lichess's MateAdvice (lila, modules/analyse Advice.scala): a mate appearing or going is judged by
// where the mover stood, not by the win-percent drop (from -4.37 to being mated is only 14 points).
TEST_CASE("analysis: a move that lets the opponent mate is a blunder unless the mover stood below -7.00") {
    const std::vector<chess::Color> movers = {chess::Color::White, chess::Color::Black};
    // Black at -4.37 (White +4.37) lets White mate in one: a blunder, though its win% drops < 15.
    const GameAnalysis a = judgeMoves({cp(437), cp(437), mate(1)}, movers);
    CHECK(a.moves[1].winLoss < 15.0);
    CHECK(a.moves[1].judgement == MoveJudgement::Blunder);
    CHECK(a.sides[1].blunders == 1);
    // Already lost: below -7.00 a mistake, below -9.99 an inaccuracy. White's side the same.
    CHECK(judgeMoves({cp(0), cp(800), mate(2)}, movers).moves[1].judgement == MoveJudgement::Mistake);
    CHECK(judgeMoves({cp(0), cp(1200), mate(3)}, movers).moves[1].judgement == MoveJudgement::Inaccuracy);
    CHECK(judgeMoves({cp(-437), mate(-1)}, {chess::Color::White}).moves[0].judgement == MoveJudgement::Blunder);
    // A mate lost: a blunder unless more than +7.00 (mistake) or +9.99 (inaccuracy) remains.
    CHECK(judgeMoves({mate(3), cp(300)}, {chess::Color::White}).moves[0].judgement == MoveJudgement::Blunder);
    CHECK(judgeMoves({mate(3), cp(800)}, {chess::Color::White}).moves[0].judgement == MoveJudgement::Mistake);
    CHECK(judgeMoves({mate(3), cp(1500)}, {chess::Color::White}).moves[0].judgement == MoveJudgement::Inaccuracy);
    CHECK(judgeMoves({mate(3), mate(-2)}, {chess::Color::White}).moves[0].judgement == MoveJudgement::Blunder);
    // A mate delayed, and a mate against the mover before and after, are not judged.
    CHECK(judgeMoves({mate(2), mate(5)}, {chess::Color::White}).moves[0].judgement == MoveJudgement::Good);
    CHECK(judgeMoves({mate(-2), mate(-1)}, {chess::Color::White}).moves[0].judgement == MoveJudgement::Good);
}

TEST_CASE("analysis: a real position where a move a rook down allows mate in one is judged a blunder") {
    // Black, a rook and pawns down (about -6), plays 1...Ng5?? and 2. Rd8# follows: lichess says "??".
    chess::PgnGame pgn = readOne("[SetUp \"1\"]\n[FEN \"6k1/5ppp/4n3/8/8/8/PPP2PPP/3R2K1 b - - 0 1\"]\n\n"
                                 "1... Ng5 2. Rd8# 1-0\n");
    const GameAnalysis a = analyseGame(pgn.start, pgn.moves, smallBudget());
    REQUIRE(a.moves.size() == 2);
    CHECK(a.positions[0].mateIn == 0);
    CHECK(a.positions[0].whiteCp > 300);
    CHECK(a.positions[0].whiteCp < 700);
    CHECK(a.positions[1].mateIn == 1);
    CHECK(a.moves[0].judgement == MoveJudgement::Blunder);
    CHECK(a.moves[1].judgement == MoveJudgement::Good);
}
