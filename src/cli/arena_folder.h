// The folder of a `chaiba arena` tournament (--out / --resume DIR), a run folder as every mode has
// (src/persist/run_folder.h) with the snapshots chess adds. The store is an append-only log,
// DIR/tournament.log: a header record with the config, then one record per finished game, each
// fsynced before the game is printed; a game's move quality, judged after the run, appends the game
// again (the latest record of a game counts). The run holds its finished games folded and reads
// them back from the log when it needs them whole (the analysis, the snapshots). DIR/tournament.json and DIR/games.pgn are snapshots
// assembled from the games (at the end, on a stop or a pause), each replaced atomically. A lock
// keeps a second process out; an old folder (tournament.json only) is migrated to the log.
#pragma once

#include "src/modes/chess/bundle.h"
#include "src/modes/chess/tournament.h"
#include "src/persist/durable_file.h"
#include "src/persist/run_folder.h"

#include <optional>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace chaiba::cli {

inline constexpr const char* kArenaLogName = persist::kRunLogName;
inline constexpr const char* kArenaLogMode = "chess"; // the manifest's mode
inline constexpr const char* kArenaSnapshotName = "tournament.json";
inline constexpr const char* kArenaPgnName = "games.pgn";
// The log is a run folder's (src/persist/run_folder.h): its manifest {"format":
// "chaiba-tournament-log", "version": 1, "mode": "chess", "config": {...}}, then the games.

// What --resume found: the config, the finished games (log order) then the unfinished ones of the
// last snapshot, and what people should be told (dropped records, a migration).
struct ArenaResume {
    chessmode::TournamentConfig config;
    std::vector<chessmode::GameRecord> games;
    std::vector<std::string> notes;
    // The move-quality budget the stored run chose (--analyse-nodes), as its last snapshot tells:
    // the judge's nodes a position when it judged its games, 0 when it finished games it did not
    // judge (a run judges every finished game before it writes the snapshot); nothing when the
    // snapshot does not tell (none, or no finished game with a move).
    std::optional<long long> judgeNodes;
};

class ArenaFolder {
public:
    // --out DIR: a new tournament. Refuses a folder that holds one (pointing to --resume and
    // --overwrite) unless overwrite; takes the lock and writes the log's header.
    std::optional<std::string> create(const std::string& dir, const chessmode::TournamentConfig& config,
                                      bool overwrite);
    // --resume DIR: takes the lock, reads the log (dropping a torn or damaged record with a note),
    // adds the snapshot's unfinished games, migrates a folder without a log. The finished games
    // come folded (chessmode::foldRecord) when foldFinished: readGame has them whole.
    std::optional<std::string> resume(const std::string& dir, ArenaResume& out, bool foldFinished = false);
    // A finished game, on disk (fsynced) when this returns: call it before printing the game.
    // A game already in the log is appended again (its analysed record), and that one counts.
    std::optional<std::string> appendFinished(const chessmode::GameRecord& game, const std::string& apiKey);
    // A finished game's latest record, read back whole from the log.
    chessmode::Parsed<chessmode::GameRecord> readGame(const chessmode::GameRecord& folded) const;
    // tournament.json and games.pgn from the bundle, each replaced atomically; folded games are
    // read back from the log a game at a time.
    std::optional<std::string> writeSnapshot(const chessmode::TournamentBundle& bundle, const std::string& apiKey);
    // Lets the folder go: the log closed, the lock released (create or resume may follow).
    void close() {
        run_.close();
        config_.reset();
    }
    const std::string& dir() const { return dir_; }

private:
    std::optional<std::string> startLog(const chessmode::TournamentConfig& config,
                                        const std::vector<chessmode::GameRecord>& finished);

    persist::RunFolder run_; // the lock and the log (the run folder every mode's runs share)
    std::string dir_;
    std::optional<chessmode::TournamentConfig> config_; // the log's
};

} // namespace chaiba::cli
