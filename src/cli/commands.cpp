// The command table: one block per area, one line per command.
#include "src/cli/commands.h"

#include <vector>

namespace chaiba::cli {

// Rules (engine/chess).

// Built-in engine (engine/search).

// LLM players and arena.
int runPlayCommand(const std::vector<std::string>& args);

namespace {
const std::vector<Command>& table() {
    static const std::vector<Command> kCommands = {
        // Rules.
        // Built-in engine.
        // LLM players and arena.
        {"play", "play --white SPEC --black SPEC [--games N] [--960] [--seed S] [--pgn FILE] [--base-url URL]",
         "games between llm:MODEL, engine:LEVEL and random players (key: OPENROUTER_API_KEY)", runPlayCommand},
    };
    return kCommands;
}
} // namespace

std::span<const Command> commands() { return table(); }

} // namespace chaiba::cli
