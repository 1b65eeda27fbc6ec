// Static evaluation: tapered PeSTO material + piece-square tables (see pesto_tables.h) plus a
// bishop-pair bonus and a small side-to-move bonus. Centipawns from the side to move's view.
// The full evaluation (level 8 and up) adds mobility, pawn structure, passed pawns, rooks on open
// files and king safety, with hand-set numbers (Full) or numbers fitted to positions labelled by
// stockfish (FullTuned, eval_params.h); levels 1-7 were calibrated with PeSTO alone and keep it.
#pragma once

#include "engine/chess/position.h"

namespace chaiba::search {

// FullPlus: Full with threats (pieces attacked by lesser pieces or left hanging), passed pawns
// weighed by the kings' distance to their path, and end games scaled towards a draw when the side
// ahead cannot win by material (no pawns and at most a minor piece up, opposite bishops).
// FullMore: FullPlus with connected pawns (defended or side by side, by rank, less when opposed),
// minor-piece outposts, rooks on the 7th, and passed pawns whose next square is taken.
// FullKing: FullMore with safe checks (a square a piece could check the enemy king from, unguarded).
// FullKingTuned: FullKing with the fitted numbers (FullTuned's) in place of the hand-set ones.
enum class EvalTerms : uint8_t { Pesto, Full, FullTuned, FullPlus, FullMore, FullKing, FullKingTuned };

int evaluate(const chess::Position& position, EvalTerms terms = EvalTerms::Pesto);

// An evaluation before its taper, for the tuning tool (tests/calibrate/texel_tune.cpp): the
// middle-game and end-game sums (White minus Black), the phase (0-24, the middle game's weight)
// and the end game's scale in 64ths. evaluate() is, for White to move,
// (mg * phase + eg * egScale / 64 * (24 - phase)) / 24 plus the side to move's bonus.
struct EvalParts {
    int mg = 0;
    int eg = 0;
    int phase = 0;
    int egScale = 64;
};
EvalParts evaluateParts(const chess::Position& position, EvalTerms terms);
// Starts loading the cache slot of the position with this hash (Position::hash()), for a search
// that knows the key of a position it is about to evaluate; a hint only, the score is the same.
void prefetchEvaluation(uint64_t positionKey, EvalTerms terms);

} // namespace chaiba::search
