// Tapered PeSTO evaluation; see evaluation.h.
#include "engine/search/evaluation.h"

#include "engine/search/board_glue.h"
#include "engine/search/pesto_tables.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace chaiba::search {

namespace {
constexpr int kBishopPairMg = 25;
constexpr int kBishopPairEg = 45;
constexpr int kTempo = 10;

// A middle-game and an end-game value in one integer, end game in the high half: sums of packed
// values are the packed sums, so one addition per piece serves both phases. Exact while each
// half of a sum stays within int16 (a whole board is under 10 000 centipawns).
constexpr int32_t pack(int mg, int eg) {
    return static_cast<int32_t>(static_cast<uint32_t>(eg) << 16) + mg;
}
int mgOf(int32_t s) {
    return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint32_t>(s)));
}
int egOf(int32_t s) {
    return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint32_t>(s + 0x8000) >> 16));
}

// PeSTO's tables packed, with White's values positive and Black's negative (squares mirrored),
// indexed [color][piece][square].
struct SignedTables {
    std::array<std::array<std::array<int32_t, 64>, 6>, 2> v{};
    SignedTables() {
        const PestoTables& t = pestoTables();
        for (int piece = 0; piece < 6; ++piece)
            for (int sq = 0; sq < 64; ++sq) {
                v[0][piece][sq] = pack(t.middleGame[piece][sq], t.endGame[piece][sq]);
                v[1][piece][sq] = -pack(t.middleGame[piece][sq ^ 56], t.endGame[piece][sq ^ 56]);
            }
    }
};
const SignedTables kSigned;

} // namespace

int evaluate(const chess::Position& position) {
    int32_t packed = 0; // White minus Black
    int phase = 0;
    int bishops[2] = {0, 0};
    glue::forEachPiece(position, [&](int color, int piece, int square) {
        packed += kSigned.v[color][piece][square];
        phase += kPhaseWeight[piece];
        if (piece == static_cast<int>(PestoPiece::Bishop)) ++bishops[color];
    });
    if (bishops[0] >= 2) packed += pack(kBishopPairMg, kBishopPairEg);
    if (bishops[1] >= 2) packed -= pack(kBishopPairMg, kBishopPairEg);
    const int sign = glue::sideIndex(position) == 0 ? 1 : -1;
    const int mgPhase = std::min(phase, kFullPhase);
    const int score = sign * (mgOf(packed) * mgPhase + egOf(packed) * (kFullPhase - mgPhase)) / kFullPhase;
    return score + kTempo;
}

} // namespace chaiba::search
