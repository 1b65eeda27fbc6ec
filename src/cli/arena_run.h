// The tournament run of `chaiba arena`, shared with `chaiba plan --run`: players from the config's
// specs, the LLM plumbing when models play, the runner's loop with its output, the log and bundle in its folder.
#pragma once

#include "src/cli/args.h"
#include "src/modes/chess/bundle.h"
#include "src/modes/chess/tournament.h"

#include <optional>
#include <string>
#include <vector>

namespace chaiba::cli {

class ArenaFolder;

struct ArenaRunOptions {
    // The tournament's folder (--out/--resume): each finished game is logged there before it is
    // printed; tournament.json and games.pgn are written at the end. Opened (locked) by the caller.
    ArenaFolder* folder = nullptr;
    bool quiet = false;
    int timeoutMs = 300000;
    bool resuming = false; // the records passed in come from --resume
    // Move quality: finished games judged by the built-in engine at this node budget after the
    // run (chessmode::analyseRecord); 0 = none.
    long long analyseNodes = 0;
};

struct ArenaRun {
    int exitCode = 0; // 0 done, 1 output failed, 2 bad config or flags, 3 paused, 130 interrupted
    std::optional<chessmode::Leaderboard> leaderboard;
    double spentUsd = 0;
    ArenaRun& fail(int code) {
        exitCode = code;
        return *this;
    }
};

// Runs a validated config to its end (or a pause, a budget stop, Ctrl-C), printing a line per game
// and the leaderboard. args supplies --base-url and --assets; the key comes from the environment.
ArenaRun runTournament(const Args& args, const chessmode::TournamentConfig& config,
                       std::vector<chessmode::GameRecord> resumed, const ArenaRunOptions& options);

} // namespace chaiba::cli
