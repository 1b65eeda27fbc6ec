// The Werewolf tournament run of `chaiba werewolf`, shared with `chaiba plan --run`'s werewolf
// stages: the games on WerewolfTournament (the page's Werewolf Arena runner) with the LLM plumbing
// when models play, each finished game's result and whole record appended to the run's log
// (persist::RunFolder) in batches, each batch fsynced before its games are reported, and reading
// a run's folder back (damaged or impossible records named and played again).
#pragma once

#include "src/cli/args.h"
#include "src/modes/werewolf/results.h"
#include "src/modes/werewolf/tournament.h"
#include "src/persist/run_folder.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::cli {

inline constexpr const char* kWerewolfRunMode = "werewolf";

// DIR/game-0012.json: a finished game's whole record (events, decisions, notes, result), as an
// older build wrote it beside its log (still read when such a folder is resumed).
std::string werewolfGamePath(const std::string& dir, int index);

// When finished games are written and fsynced (one write, one fsync per batch, by a writer thread
// while the games go on): a batch closes at kFlushGames games, kFlushBytes bytes, kFlushMs after
// its first game, when the run waits on a model, and at the end; it goes to the writer when the
// writer is free (a full batch waits for it). A game's line is printed only after its batch is on
// disk, so a kill loses at most the batch being written and the open one, none of them reported.
inline constexpr std::size_t kFlushGames = 4096;
inline constexpr std::size_t kFlushBytes = 16u << 20;
inline constexpr double kFlushMs = 500;



// A Werewolf run's folder read back: its settings (the latest manifest) and its finished games
// (records that do not read, or that the settings make impossible, are dropped and named in
// folder.notes()). The folder must hold a log (RunFolder::hasLog).
std::optional<std::string> resumeWerewolfRun(persist::RunFolder& folder, const std::string& dir,
                                             werewolfmode::TournamentConfig& plan,
                                             std::map<int, werewolfmode::GameResult>& results);

struct WerewolfRunOptions {
    persist::RunFolder* folder = nullptr; // each finished game's result and whole record logged here
    bool printGames = true;               // a line per game as they finish in order (else none)
    bool quiet = false;                   // only the last game's line; no fallback lines
    bool keepResults = true;              // WerewolfRun::results filled (else the tally and rows only)
};

// The counts of a run's summary line and summary.json.
struct WerewolfTally {
    int villagerWins = 0, wolfWins = 0, unfinished = 0, fallbacks = 0, asks = 0; // every ask
    int notesFallbacks = 0, notesAsks = 0; // of those, the notes rewrites
    long long tokens = 0;
    double costUsd = 0;
    void add(const werewolfmode::GameResult& r);
};

struct WerewolfRun {
    int exitCode = 0; // 0 every game played (maybe unfinished) and kept, 1 a game not played or not kept, 2 set-up
    std::map<int, werewolfmode::GameResult> results; // all, resumed ones included (with keepResults)
    int finished = 0;                                // games with a result, resumed ones included
    WerewolfTally tally;                             // over them
    std::vector<werewolfmode::PlayerStanding> rows;  // the leaderboard
    double seconds = 0;
    double spentUsd = 0;
    bool budgetReached = false;
};

// Plays the games `resumed` lacks to the end (or the budget cap); args supplies --base-url and
// --assets, the key comes from the environment. Prints the lines, then the leaderboard is the caller's.
WerewolfRun runWerewolfGames(const Args& args, const werewolfmode::TournamentConfig& plan,
                             std::map<int, werewolfmode::GameResult> resumed, const WerewolfRunOptions& options);

WerewolfTally tallyWerewolfRun(const std::map<int, werewolfmode::GameResult>& results);

// DIR/summary.json ({"format": "chaiba-werewolf-summary", the tally, "rules", "leaderboard" as the
// page's rows, with `withResults` every game's result too), replaced atomically: the error, or nothing.
std::optional<std::string> writeWerewolfSummary(const std::string& dir, const werewolfmode::TournamentConfig& plan,
                                                const WerewolfRun& run, bool withResults);

} // namespace chaiba::cli
