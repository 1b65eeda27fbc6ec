// The command table: one block per area, one line per command.
#include "src/cli/commands.h"

#include <vector>

namespace chaiba::cli {

// Rules (engine/chess).

// Built-in engine (engine/search).
int runUciCommand(const std::vector<std::string>& args);
int runBenchCommand(const std::vector<std::string>& args);
int runCalibrateCommand(const std::vector<std::string>& args);

// LLM players and arena.

namespace {
const std::vector<Command>& table() {
    static const std::vector<Command> kCommands = {
        // Rules.
        // Built-in engine.
        {"uci", "uci", "the built-in engine as a UCI engine on stdin/stdout", runUciCommand},
        {"bench", "bench [--depth D] [--hash MB]", "fixed-depth search benchmark (node signature, nps)",
         runBenchCommand},
        {"calibrate",
         "calibrate --level L (--elo E | --vs-level K) [--games N] [--movetime-ms M] [--stockfish PATH] [--960] "
         "[--seed S] | --fit FILE",
         "play a level against stockfish at UCI_Elo E; fit ratings", runCalibrateCommand},
        // LLM players and arena.
    };
    return kCommands;
}
} // namespace

std::span<const Command> commands() { return table(); }

} // namespace chaiba::cli
