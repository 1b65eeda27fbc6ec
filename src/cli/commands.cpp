// The command table: one block per area, one line per command.
#include "src/cli/commands.h"

#include <vector>

namespace chaiba::cli {

// Rules (engine/chess).

// Built-in engine (engine/search).

// LLM players and arena.

namespace {
const std::vector<Command>& table() {
    static const std::vector<Command> kCommands = {
        // Rules.
        // Built-in engine.
        // LLM players and arena.
    };
    return kCommands;
}
} // namespace

std::span<const Command> commands() { return table(); }

} // namespace chaiba::cli
