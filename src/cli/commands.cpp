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
int runUciCommand(const std::vector<std::string>& args);
int runBenchCommand(const std::vector<std::string>& args);
int runCalibrateCommand(const std::vector<std::string>& args);
int runAnalyseCommand(const std::vector<std::string>& args);

// LLM players and arena.
int runPlayCommand(const std::vector<std::string>& args);
int runModelsCommand(const std::vector<std::string>& args);
int runKeyCommand(const std::vector<std::string>& args);
int runRatingBenchCommand(const std::vector<std::string>& args);
int runPairingBenchCommand(const std::vector<std::string>& args);
int runArenaCommand(const std::vector<std::string>& args);

// Werewolf.
int runWerewolfCommand(const std::vector<std::string>& args);
// Story.
int runStoryCommand(const std::vector<std::string>& args);
// Planner.
int runPlanCommand(const std::vector<std::string>& args);

namespace {
const std::vector<Command>& table() {
    static const std::vector<Command> kCommands = {
        // Rules.
        {"perft", "perft DEPTH [--fen FEN] [--960] [--divide]", "count leaf nodes of the move tree",
         runPerft},
        {"moves", "moves --fen FEN [--uci] [--960] | --stdin", "list the legal moves, sorted (--stdin: a line of moves per FEN line)", runMoves},
        {"fen", "fen --fen FEN --apply \"MOVE MOVE ...\" [--960]", "apply SAN/UCI moves, print the FEN",
         runFen},
        {"status", "status --fen FEN [--960]", "ongoing, checkmate, stalemate, ... (+ check)", runStatus},
        {"parse-move", "parse-move --fen FEN TEXT [--960]", "read one move from free text: SAN UCI",
         runParseMove},
        {"replay", "replay [--fen FEN] [--960] < games", "batch: FEN, status, legal SANs after each ply",
         runReplay},
        // Built-in engine.
        {"uci", "uci", "the built-in engine as a UCI engine on stdin/stdout", runUciCommand},
        {"bench", "bench [--depth D] [--hash MB]", "fixed-depth search benchmark (node signature, nps)",
         runBenchCommand},
        {"calibrate",
         "calibrate --level L (--elo E | --vs-level K) [--games N] [--movetime-ms M] [--stockfish PATH] "
         "[--960] "
         "[--seed S] | --fit FILE",
         "play a level against stockfish at UCI_Elo E; fit ratings", runCalibrateCommand},
        {"analyse", "analyse --pgn FILE [--nodes N] [--depth D] [--format text|pgn|tsv]",
         "judge every move (centipawn loss, ?!/?/??, accuracy) with the built-in engine", runAnalyseCommand},
        // LLM players and arena.
        {"play",
         "play --white SPEC --black SPEC [--games N] [--960] [--seed S] [--pgn FILE] [--base-url URL] "
         "[--context full|stateless]",
         "games between llm:MODEL, engine:LEVEL and random players (key: OPENROUTER_API_KEY)",
         runPlayCommand},
        {"models", "models [--base-url URL] [--tools]",
         "the server's model catalog: prices, tools, reasoning", runModelsCommand},
        {"key", "key [--base-url URL]", "check OPENROUTER_API_KEY: label and remaining credit",
         runKeyCommand},
        {"rating-bench", "rating-bench [--players N] [--games N] [--samples N] [--seed S] [--game-ends N]",
         "time the Bradley-Terry fit with bootstrap intervals (50 players, 10k games)",
         runRatingBenchCommand},
        {"pairing-bench", "pairing-bench [--seeds N] [--max-games G] [--first-level L] [--last-level L]",
         "games to separate the engine ladder: nearest-rating vs most-informative arena pairing",
         runPairingBenchCommand},
        {"arena",
         "arena (--config FILE | --players SPEC,...) [--format F] [--games N] [--concurrency N] [--budget-usd X] "
         "[--960] [--out DIR] [--resume DIR]",
         "a headless tournament: bundle, PGN and leaderboard (key: OPENROUTER_API_KEY)", runArenaCommand},
        // Werewolf.
        {"werewolf",
         "werewolf --players SPEC,... [--roles R:N,...] [--rules balanced|plain] [--games N] [--seed S] [--mirror] "
         "[--out DIR] [--resume DIR] [--base-url URL]",
         "headless Werewolf games between bots and LLMs: a line per game, the leaderboard", runWerewolfCommand},
        // Story.
        {"story",
         "story --world DIR (--say TEXT [--simple] [--model M] [--orchestrator M] [--base-url URL] | --undo | "
         "--branch TURN | --export FILE | --import FILE | --list) [--conversation ID]",
         "play one Story turn on a folder of markdown files (key: OPENROUTER_API_KEY)", runStoryCommand},
        // Planner.
        {"plan",
         "plan --plan FILE --say TEXT [--provider openrouter|anthropic] [--model M] [--base-url URL] | --check FILE "
         "| --run FILE [--out DIR]",
         "plan with AI on a plan file; check a plan; run its chess and werewolf stages", runPlanCommand},
    };
    return kCommands;
}
} // namespace

std::span<const Command> commands() {
    return table();
}

} // namespace chaiba::cli
