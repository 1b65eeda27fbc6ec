// Tapered piece-square tables: material plus square bonus for the middle game and the end game,
// indexed [pieceType][square] with a1 = 0 from White's side (flip the square with ^56 for Black).
// Values are PeSTO's (Ronald Friederich, published on the Chess Programming Wiki).
#pragma once

#include <array>
#include <cstdint>

namespace chaiba::search {

// Piece types in table order.
enum class PestoPiece : int { Pawn, Knight, Bishop, Rook, Queen, King };

struct PestoTables {
    // material + square bonus, in centipawns, for a White piece on square (a1 = 0)
    std::array<std::array<int16_t, 64>, 6> middleGame{};
    std::array<std::array<int16_t, 64>, 6> endGame{};
};

// Built once on first use (a function-local static).
const PestoTables& pestoTables();

// Game-phase weight of each piece type (knight 1, bishop 1, rook 2, queen 4); 24 is a full board.
inline constexpr std::array<int, 6> kPhaseWeight = {0, 1, 1, 2, 4, 0};
inline constexpr int kFullPhase = 24;

// Plain material values (middle game) for move ordering and pruning margins.
inline constexpr std::array<int, 6> kPieceValue = {82, 337, 365, 477, 1025, 20000};

} // namespace chaiba::search
