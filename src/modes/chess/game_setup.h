// What a new game starts from and who plays it, as the New Game dialog edits it, validated into
// a start position (and moves, for a pasted PGN) with clear errors. Player SPECs are the CLI's
// (play/seat.h): "llm:MODEL_ID", "engine:LEVEL", "random", and here "human".
#pragma once

#include "engine/chess/position.h"
#include "engine/chess/types.h"
#include "src/play/parsed.h"
#include "src/play/seat.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba {

// A side of a game: play's one seat spec. "engine" is resolved to the strongest level here, so a
// match always names its level.
using PlayerSpec = play::SeatSpec;
using PlayerKind = play::SeatKind;

// The match's seats: chess's (tournament.h) and a person; "engine" reads as maxEngineLevel.
// Errors are the seat parser's ("engine level must be a number from 0 to 8, got 9 in 'engine:9'").
play::Parsed<PlayerSpec> parsePlayerSpec(std::string_view text, int maxEngineLevel);

enum class StartMode { Standard, Chess960, Fen, Pgn };

struct GameSetup {
    PlayerSpec white{PlayerKind::Engine, "", 4};
    PlayerSpec black{PlayerKind::Engine, "", 2};
    StartMode mode = StartMode::Standard;
    int chess960Number = 518;  // -1: random at start
    std::string fen;
    std::string pgn;
    std::string whiteInstructions;  // custom instructions for an LLM player, per side
    std::string blackInstructions;
};

struct ValidatedStart {
    std::optional<chess::Position> start;  // set on success
    std::vector<chess::Move> moves;         // from a PGN: played on top of `start`
    std::string error;                      // set on failure, e.g. "FEN: rank 3 has 9 squares"
    int chess960Number = -1;                // the number used, when mode is Chess960
};

// Validates the setup; `randomSeed` picks the Chess960 number when it is -1.
ValidatedStart validateStart(const GameSetup& setup, uint64_t randomSeed);

} // namespace chaiba
