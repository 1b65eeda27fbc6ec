// Game analysis with the built-in engine: every position of a game scored at a fixed,
// deterministic budget, then every move judged (centipawn loss, inaccuracy/mistake/blunder) and
// an accuracy figure per side. The formulas are lichess's (win-percent based), written out below.
// Standard library only: the CLI (`chaiba analyse`), the page and the arena share it.
#pragma once

#include "engine/chess/position.h"
#include "engine/chess/types.h"
#include "engine/search/search.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace chaiba::search {

// How hard each position is searched. A node cap (not a time) makes the result the same on every
// machine; the table is reset before each position so the order of analysis does not matter
// (a position scored live in the worker scores the same as after the game).
struct AnalysisBudget {
    int maxDepth = 12;
    uint64_t maxNodes = 150000;
    std::size_t hashMb = 8;
};

// One position's score, from White's side (what a chess player reads: + is good for White).
struct PositionEval {
    int whiteCp = 0;   // centipawns for White; for mates, ±kMateScore-like (see mateIn)
    int mateIn = 0;    // moves to mate: > 0 White mates, < 0 Black mates, 0 none (or already over)
    bool terminal = false; // checkmate or stalemate on the board: not searched
    int depth = 0;
    uint64_t nodes = 0;
    std::vector<chess::Move> pv; // best line from this position (empty when terminal)
};

// A move's verdict, as lichess names them. NAGs in PGN: $6, $2, $4.
enum class MoveJudgement : uint8_t { Good, Inaccuracy, Mistake, Blunder };
const char* judgementName(MoveJudgement j); // "good", "inaccuracy", "mistake", "blunder"
int judgementNag(MoveJudgement j);          // 0, 6, 2, 4
const char* judgementSymbol(MoveJudgement j); // "", "?!", "?", "??"

struct MoveQuality {
    chess::Color mover = chess::Color::White;
    int cpLoss = 0;          // max(0, best - played) from the mover's side, evals clamped to ±1000
    double winLoss = 0;      // drop of the mover's win percent (0-100)
    double accuracy = 100;   // this move's accuracy, 0-100 (formula below)
    MoveJudgement judgement = MoveJudgement::Good;
};

// Per side (index 0 White, 1 Black).
struct SideSummary {
    int moves = 0;
    double averageCpLoss = 0;
    double accuracy = 100;
    int inaccuracies = 0;
    int mistakes = 0;
    int blunders = 0;
};

struct GameAnalysis {
    std::vector<PositionEval> positions; // moves.size() + 1: before each move, then the final one
    std::vector<MoveQuality> moves;
    std::array<SideSummary, 2> sides{};
};

// Scores one position (restored on return). `priorHashes` as in SearchLimits (repetitions).
PositionEval evaluatePosition(chess::Position& position, const std::vector<uint64_t>& priorHashes,
                              const AnalysisBudget& budget, Searcher& searcher);

// Scores position `moves.size()` of a game (after every move of `moves` from `start`; the earlier
// positions count for repetitions) exactly as analyseGame scores it: what the page's engine worker
// computes, one position per request. The moves must be legal from `start`.
PositionEval evaluateGamePosition(const chess::Position& start, const std::vector<chess::Move>& moves,
                                  const AnalysisBudget& budget, Searcher& searcher);

// Scores every position of a game and judges its moves. The moves must be legal from `start`.
GameAnalysis analyseGame(const chess::Position& start, const std::vector<chess::Move>& moves,
                         const AnalysisBudget& budget = {});

// The judging step alone, from the scores (`positions.size() == movers.size() + 1`): what the page
// calls when its positions were scored one by one, live.
GameAnalysis judgeMoves(std::vector<PositionEval> positions, const std::vector<chess::Color>& movers);

// Formulas (lichess, lila/modules/analyse AccuracyPercent and Advice):
//   win%(cp)       = 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1), cp clamped to ±1000, a mate
//                    counted as ±1000;
//   move accuracy  = clamp(103.1668 * exp(-0.04354 * (win%before - win%after)) - 3.1669 + 1, 0, 100)
//                    with both win% from the mover's side;
//   judgement      = win% drop >= 15 blunder, >= 10 mistake, >= 5 inaccuracy (winning chances
//                    -1..1 dropping by 0.3 / 0.2 / 0.1) between two centipawn scores; when a mate
//                    appears or goes, lichess's MateAdvice: a move that lets the opponent mate is
//                    a blunder unless the mover stood below -7.00 (mistake) or -9.99 (inaccuracy);
//                    a move that loses the mover's mate is a blunder unless more than +7.00 remains
//                    (mistake) or +9.99 (inaccuracy); a delayed mate is not judged;
//   side accuracy  = (volatility-weighted mean + harmonic mean) / 2 of its move accuracies, where a
//                    move's weight is the standard deviation (clamped 0.5..12) of the win% over a
//                    sliding window of clamp(moves / 10, 2, 8) positions around it.
double winPercent(int whiteCpOrMate); // from White's side, for a clamped score
int clampedCp(const PositionEval& e); // ±1000 clamp, mates at ±1000

// "+0.35", "-1.20", "#3" (White mates in 3), "#-2" (Black mates in 2), "1-0"/"0-1"/"½-½" when over.
std::string formatEval(const PositionEval& e, const chess::Position& position);
// A line in SAN with move numbers: "12...Nf6 13. c4 e6". Stops at the first illegal move.
std::string sanLine(const chess::Position& position, const std::vector<chess::Move>& line, int maxMoves = 8);
// A search score from the side to move turned to White's side, as a PositionEval (no PV).
PositionEval evalFromSearchScore(int scoreSideToMove, chess::Color sideToMove);
// An engine's thought as chess players read it, for the position before its move:
// "+0.35 · depth 8 · 12345 nodes · 12...Nf6 13. c4 e6" (score from White's side, mate as #N).
std::string thinkingLine(const chess::Position& position, int scoreSideToMove, int depth, uint64_t nodes,
                         const std::vector<chess::Move>& pv);

} // namespace chaiba::search

namespace chaiba::chess {
struct PgnGame;
}
namespace chaiba::search {
// Writes the analysis into a PGN game: a NAG per judged move ($6 ?!, $2 ?, $4 ??) and a lichess
// style "[%eval 0.35]" / "[%eval #3]" comment after every move (kept after any existing comment).
void annotatePgn(chess::PgnGame& game, const GameAnalysis& analysis);
} // namespace chaiba::search
