// Tapered PeSTO evaluation; see evaluation.h.
#include "engine/search/evaluation.h"

#include "engine/search/board_glue.h"
#include "engine/search/pesto_tables.h"

#include <algorithm>

namespace chaiba::search {

namespace {
constexpr int kBishopPairMg = 25;
constexpr int kBishopPairEg = 45;
constexpr int kTempo = 10;
} // namespace

int evaluate(const chess::Position& position) {
    const PestoTables& t = pestoTables();
    int mg[2] = {0, 0};
    int eg[2] = {0, 0};
    int bishops[2] = {0, 0};
    int phase = 0;
    glue::forEachPiece(position, [&](int color, int piece, int square) {
        const int sq = color == 0 ? square : square ^ 56; // tables are from White's side
        mg[color] += t.middleGame[piece][sq];
        eg[color] += t.endGame[piece][sq];
        phase += kPhaseWeight[piece];
        if (piece == static_cast<int>(PestoPiece::Bishop)) ++bishops[color];
    });
    for (int c = 0; c < 2; ++c)
        if (bishops[c] >= 2) {
            mg[c] += kBishopPairMg;
            eg[c] += kBishopPairEg;
        }
    const int us = glue::sideIndex(position);
    const int them = 1 - us;
    const int mgPhase = std::min(phase, kFullPhase);
    const int score =
        ((mg[us] - mg[them]) * mgPhase + (eg[us] - eg[them]) * (kFullPhase - mgPhase)) / kFullPhase;
    return score + kTempo;
}

} // namespace chaiba::search
