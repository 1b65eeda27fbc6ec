// The command table: one block per area, one line per command.
#include "src/cli/commands.h"

#include <vector>

namespace chaiba::cli {

// Rules (engine/chess).

// Built-in engine (engine/search).

// LLM players and arena.
int ratingBenchCommand(const std::vector<std::string>& args);

namespace {
const std::vector<Command>& table() {
    static const std::vector<Command> kCommands = {
        // Rules.
        // Built-in engine.
        // LLM players and arena.
        {"rating-bench", "rating-bench [--players N] [--games N] [--samples N] [--seed S]",
         "time the Bradley-Terry fit with bootstrap intervals (50 players, 10k games)", ratingBenchCommand},
    };
    return kCommands;
}
} // namespace

std::span<const Command> commands() { return table(); }

} // namespace chaiba::cli
