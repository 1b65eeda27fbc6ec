// The mode's part of reading a tournament back, whichever store kept it: the page's key-value
// store (play::TournamentStore) or a headless run's append-only log (RunFolder). The store reads
// its own layout and hands the mode each piece; the mode decodes and checks it.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::persist {

class RecordReader {
public:
    virtual ~RecordReader() = default;
    // The tournament's settings (a config's JSON text): nothing when this build can run them (the
    // reader adopts them: the games after them are read under them), else why not (a run folder's
    // later manifest refused keeps the one before; a head refused is set aside).
    virtual std::optional<std::string> readConfig(const std::string& configJson) = 0;
    // The page's head beyond its config (the rating options, the spend): nothing, or why not.
    virtual std::optional<std::string> readHead(const nlohmann::json& head) {
        (void)head;
        return std::nullopt;
    }
    // The steps inside a running game's record (the page keeps later steps as records of their own).
    virtual size_t baseSteps(std::string_view record) const {
        (void)record;
        return 0;
    }
    struct Read {
        int id = -1;           // also with an error, when the record still says which game it is
        bool finished = false;
        std::string error;     // non-empty: damaged or impossible, not counted (played again)
    };
    // A record (a running one with its later steps): what it is. The reader holds the game until
    // keep() or the next read().
    virtual Read read(std::string_view record, const std::vector<std::string>& steps) = 0;
    // The last game read belongs to the tournament (in the store's order; a run folder's game
    // logged again comes again, and the latest counts).
    virtual void keep() = 0;
    // A game as people know it, in what the store says of a record it could not use.
    virtual std::string gameName(int id) const { return "game " + std::to_string(id + 1); }
};

} // namespace chaiba::persist
