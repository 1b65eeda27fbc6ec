// The folder of a `chaiba arena` tournament (--out / --resume DIR). The store is an append-only log,
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

#include <optional>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace chaiba::cli {

inline constexpr const char* kArenaLogName = "tournament.log";
inline constexpr const char* kArenaSnapshotName = "tournament.json";
inline constexpr const char* kArenaPgnName = "games.pgn";
// The log's header record: {"format": kArenaLogFormat, "version": 1, "mode": "chess", "config": {...}}.
inline constexpr const char* kArenaLogFormat = "chaiba-tournament-log";
inline constexpr int kArenaLogVersion = 1;

// What --resume found: the config, the finished games (log order) then the unfinished ones of the
// last snapshot, and what people should be told (dropped records, a migration).
struct ArenaResume {
    chessmode::TournamentConfig config;
    std::vector<chessmode::GameRecord> games;
    std::vector<std::string> notes;
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
    const std::string& dir() const { return dir_; }

private:
    std::optional<std::string> startLog(const chessmode::TournamentConfig& config,
                                        const std::vector<chessmode::GameRecord>& finished);

    // Where a game's latest record lies in the log: its line's offset and its payload's length.
    struct LogPlace {
        std::uint64_t offset = 0;
        std::size_t bytes = 0;
    };
    persist::FolderLock lock_;
    persist::RecordLog log_;
    std::string dir_;
    std::optional<chessmode::TournamentConfig> config_; // the log's
    std::map<int, LogPlace> logged_; // the finished games in the log, by id
};

} // namespace chaiba::cli
