// What a new game starts from and who plays it, as the New Game dialog edits it, validated into
// a start position (and moves, for a pasted PGN) with clear errors. Player SPECs are the CLI's:
// "llm:MODEL_ID", "engine:LEVEL", "random", "human".
#pragma once

#include "engine/chess/position.h"
#include "engine/chess/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba {

enum class PlayerKind { Llm, Engine, Human, Random };

struct PlayerSpec {
    PlayerKind kind = PlayerKind::Engine;
    std::string model;  // Llm: the model id
    int level = 4;      // Engine: the level
    std::string text() const;  // back to "llm:...", "engine:4", "human", "random"
};

struct PlayerSpecResult {
    std::optional<PlayerSpec> spec;
    std::string error;
};

// Parses a SPEC; errors name what is wrong ("engine level must be 0..N", "llm: needs a model id").
PlayerSpecResult parsePlayerSpec(std::string_view text, int maxEngineLevel);

enum class StartMode { Standard, Chess960, Fen, Pgn };

struct GameSetup {
    PlayerSpec white;
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
