// A small evaluation network on top of the full evaluation (kFeatureNnue, RESULTS.md sitting 17):
// 768 inputs (a piece of either colour on a square, seen from each side, squares mirrored for
// Black), H hidden units a side sharing their weights, clipped to [0, 1], and one output in
// centipawns that is added to EvalTerms::FullKing. Trained by tests/calibrate/nnue_train.cpp on
// positions labelled by Debian stockfish's static evaluation; the weights are compiled in
// (nnue_weights.cpp, written by the trainer).
//
// The search keeps the first layer (the accumulator) a ply and updates it by the two to four
// inputs a move changes (nnueDelta, nnueApply) instead of summing every piece again.
#pragma once

#include "engine/chess/position.h"

#include <cstdint>

namespace chaiba::search {

inline constexpr int kNnueMaxHidden = 256;

struct NnueAccumulator {
    alignas(64) int16_t v[2][kNnueMaxHidden]; // [White's view, Black's view]
};

// What a move takes off the board and puts on it: (colour, piece 0-5 pawn..king, square).
struct NnueDelta {
    uint8_t adds = 0, subs = 0;
    uint8_t add[2][3] = {};
    uint8_t sub[2][3] = {};
};

// The network's hidden units a side; 0 in a build without it (the page's copy of the engine), where
// the search ignores kFeatureNnue and nothing below may be called.
int nnueHidden();
NnueDelta nnueDelta(const chess::Position& before, chess::Move m);
void nnueRefresh(const chess::Position& position, NnueAccumulator& acc);
void nnueApply(const NnueAccumulator& from, const NnueDelta& delta, NnueAccumulator& to);
// The network's output (centipawns, the side to move's view) from a position's accumulator.
int nnueOutput(const NnueAccumulator& acc, int sideToMove);
// The same from scratch.
int nnueEvaluate(const chess::Position& position);

} // namespace chaiba::search
