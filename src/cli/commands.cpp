// The command table: one block per area, one line per command; and the one way a command is run
// (its --help, its unknown options).
#include "src/cli/commands.h"

#include <cstdio>
#include <vector>

namespace chaiba::cli {

using Argv = std::vector<std::string>;

// Help and version (help_command.cpp).
const Usage& helpUsage();
int runHelp(const Argv& args);
const Usage& versionUsage();
int runVersion(const Argv& args);

// Rules (engine/chess).
const Usage& perftUsage();
int runPerft(const Argv& args);
const Usage& movesUsage();
int runMoves(const Argv& args);
const Usage& fenUsage();
int runFen(const Argv& args);
const Usage& statusUsage();
int runStatus(const Argv& args);
const Usage& parseMoveUsage();
int runParseMove(const Argv& args);
const Usage& replayUsage();
int runReplay(const Argv& args);

// Built-in engine (engine/search).
const Usage& uciUsage();
int runUciCommand(const Argv& args);
const Usage& benchUsage();
int runBenchCommand(const Argv& args);
const Usage& calibrateUsage();
int runCalibrateCommand(const Argv& args);
const Usage& analyseUsage();
int runAnalyseCommand(const Argv& args);

// LLM players and arena.
const Usage& playUsage();
int runPlayCommand(const Argv& args);
const Usage& modelsUsage();
int runModelsCommand(const Argv& args);
const Usage& keyUsage();
int runKeyCommand(const Argv& args);
const Usage& ratingBenchUsage();
int runRatingBenchCommand(const Argv& args);
const Usage& pairingBenchUsage();
int runPairingBenchCommand(const Argv& args);
const Usage& arenaUsage();
int runArenaCommand(const Argv& args);

// Werewolf.
const Usage& werewolfUsage();
int runWerewolfCommand(const Argv& args);
// Story.
const Usage& storyUsage();
int runStoryCommand(const Argv& args);
// Planner.
const Usage& planUsage();
int runPlanCommand(const Argv& args);

namespace {
const std::vector<Command>& table() {
    static const std::vector<Command> kCommands = {
        // Rules.
        {perftUsage, runPerft},
        {movesUsage, runMoves},
        {fenUsage, runFen},
        {statusUsage, runStatus},
        {parseMoveUsage, runParseMove},
        {replayUsage, runReplay},
        // Built-in engine.
        {uciUsage, runUciCommand},
        {benchUsage, runBenchCommand},
        {calibrateUsage, runCalibrateCommand},
        {analyseUsage, runAnalyseCommand},
        // LLM players and arena.
        {playUsage, runPlayCommand},
        {modelsUsage, runModelsCommand},
        {keyUsage, runKeyCommand},
        {ratingBenchUsage, runRatingBenchCommand},
        {pairingBenchUsage, runPairingBenchCommand},
        {arenaUsage, runArenaCommand},
        // Werewolf.
        {werewolfUsage, runWerewolfCommand},
        // Story.
        {storyUsage, runStoryCommand},
        // Planner.
        {planUsage, runPlanCommand},
        // This tool.
        {helpUsage, runHelp},
        {versionUsage, runVersion},
    };
    return kCommands;
}
} // namespace

std::span<const Command> commands() {
    return table();
}

const Command* findCommand(std::string_view name) {
    for (const Command& c : table())
        if (c.usage().name == name) return &c;
    return nullptr;
}

int runCommand(const Command& command, const std::vector<std::string>& args) {
    const Usage& usage = command.usage();
    const Args parsed(args, usage);
    if (parsed.helpWanted()) {
        std::fputs(usageText(usage).c_str(), stdout);
        return 0;
    }
    if (parsed.error()) {
        std::fprintf(stderr, "error: %s\n", terminalSafe(*parsed.error()).c_str());
        return 2;
    }
    return command.run(args);
}

} // namespace chaiba::cli
