// The command table: one block per area, one line per command.
#include "src/cli/commands.h"

#include <vector>

namespace chaiba::cli {

// Rules (engine/chess).
int runPerft(const std::vector<std::string>& args);
int runMoves(const std::vector<std::string>& args);
int runFen(const std::vector<std::string>& args);
int runStatus(const std::vector<std::string>& args);
int runParseMove(const std::vector<std::string>& args);
int runReplay(const std::vector<std::string>& args);

// Built-in engine (engine/search).

// LLM players and arena.

namespace {
const std::vector<Command>& table() {
    static const std::vector<Command> kCommands = {
        // Rules.
        {"perft", "perft DEPTH [--fen FEN] [--960] [--divide]", "count leaf nodes of the move tree",
         runPerft},
        {"moves", "moves --fen FEN [--uci] [--960]", "list the legal moves, sorted", runMoves},
        {"fen", "fen --fen FEN --apply \"MOVE MOVE ...\" [--960]", "apply SAN/UCI moves, print the FEN",
         runFen},
        {"status", "status --fen FEN [--960]", "ongoing, checkmate, stalemate, ... (+ check)", runStatus},
        {"parse-move", "parse-move --fen FEN TEXT [--960]", "read one move from free text: SAN UCI",
         runParseMove},
        {"replay", "replay [--fen FEN] [--960] < games", "batch: FEN, status, legal SANs after each ply",
         runReplay},
        // Built-in engine.
        // LLM players and arena.
    };
    return kCommands;
}
} // namespace

std::span<const Command> commands() { return table(); }

} // namespace chaiba::cli
