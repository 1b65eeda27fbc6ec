// The folder of a headless tournament run of any mode (a command's --out DIR): a lock
// that keeps a second process out, and DIR/tournament.log, an append-only log of checksummed
// records whose first record is the run's manifest ({"format": "chaiba-tournament-log",
// "version": 1, "mode": "<the mode's name>", "config": {...}}) and whose other records are finished games
// ({"game": {...}}, each fsynced before the game is reported), a game's whole record for viewers
// ({"record": {...}}, written after its game; resume skips them) or a later manifest
// ({"manifest": {...}}: the run grown, e.g. more games; the latest counts). The mode decodes the
// config and each game (persist::RecordReader); a record it cannot decode, or that the manifest
// makes impossible, is dropped with a note naming it, so the game is played again and never counted.
#pragma once

#include "src/persist/durable_file.h"
#include "src/persist/record_reader.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::persist {

inline constexpr const char* kRunLogName = "tournament.log";
inline constexpr const char* kRunLogFormat = "chaiba-tournament-log";
inline constexpr int kRunLogVersion = 1;

class RunFolder {
public:
    // True when dir holds a run's log.
    static bool hasLog(const std::string& dir);

    // --out DIR: a new run. Takes the lock, then refuses a folder holding a run's log or any of
    // `runFiles` (files an older build wrote; they are removed with overwrite) unless overwrite,
    // saying how to continue or replace it; writes the manifest, then `games` (a migrated run).
    std::optional<std::string> create(const std::string& dir, const std::string& mode, const std::string& configJson,
                                      bool overwrite, const std::vector<std::string>& runFiles = {},
                                      const std::vector<std::pair<int, std::string>>& games = {});
    // Takes the folder's lock only (a mode migrating an older folder before create()).
    std::optional<std::string> lock(const std::string& dir);
    // --resume DIR: takes the lock and reads the log of a `mode` run through the mode's reader
    // (the one the page's store uses: readConfig for the manifest and each later one, read and
    // keep for each game record kept, in log order; a game logged again comes again and the
    // latest counts). Dropped and torn records are explained in notes(); the log is cut back to
    // its last intact record.
    std::optional<std::string> resume(const std::string& dir, const std::string& mode, RecordReader& reader);

    // A finished game, on disk (fsynced) when this returns: call it before reporting the game.
    std::optional<std::string> appendGame(int id, std::string_view gameJson);
    // The same, staged: on disk only after flush() (one write and one fsync for every staged
    // record), so report a staged game only after the flush that stored it.
    std::optional<std::string> stageGame(int id, std::string_view gameJson);
    // A game's whole record ({"record": recordJson}), staged; resume skips it, viewers read it.
    std::optional<std::string> stageRecord(std::string_view recordJson);
    std::optional<std::string> flush() { return log_.flush(); }
    std::size_t stagedRecords() const { return log_.stagedRecords(); }
    std::size_t stagedBytes() const { return log_.stagedBytes(); }
    // The run's settings changed (grown): the new manifest counts from here on.
    std::optional<std::string> appendManifest(const std::string& configJson);
    // A logged game's latest record read back (checked against its checksum); flushed games only.
    std::optional<std::string> readGame(int id, std::string& gameJson) const;

    // Lets the run go: the log closed, the lock released (create or resume may follow).
    void close();

    const std::string& dir() const { return dir_; }
    const std::string& mode() const { return mode_; }
    const std::string& configJson() const { return configJson_; } // the latest manifest's
    const std::vector<std::string>& notes() const { return notes_; }
    bool logged(int id) const { return place(id) != nullptr; }

private:
    std::optional<std::string> appendRecord(std::string_view payload, int id, bool stage = false);

    struct Place {
        std::uint64_t offset = 0; // the record line's start
        std::size_t bytes = 0;    // the payload's length
        std::size_t prefix = 0;   // bytes of the payload before the game's JSON ({"game":)
    };
    FolderLock lock_;
    RecordLog log_;
    std::string dir_, mode_, configJson_;
    std::vector<std::string> notes_;
    // Where each game's latest record is: by id in a vector (a million games in 24 MB, where a map
    // took 80), ids outside [0, kDenseIds) in the map. bytes == 0: not logged.
    static constexpr int kDenseIds = 1 << 24;
    const Place* place(int id) const;
    void setPlace(int id, Place p);
    std::vector<Place> densePlaces_;
    std::map<int, Place> places_;
};

} // namespace chaiba::persist
