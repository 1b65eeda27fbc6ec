// KeyValueStore over the browser's IndexedDB (database "chaiba", object store "kv"): the arena's
// tournaments, which outgrow localStorage. web/idb_preload.js loads every record into memory
// before main(); reads are served from memory, writes update memory at once and IndexedDB in the
// background. The API key never goes here (it stays in localStorage with the settings).
#pragma once

#include "src/persist/key_value_store.h"

#include <optional>
#include <string>

namespace chaiba::web {

class IndexedDbStore final : public KeyValueStore {
public:
    // Nothing when the database was loaded; else why it is not usable (the app then keeps the
    // arena in memory only and says so).
    static std::optional<std::string> unavailableReason();

    std::optional<std::string> get(std::string_view key) const override;
    // Queues the write (the writes of one turn of the event loop go to IndexedDB together, in one
    // transaction, when it ends); an error only when the write could not even be queued (no
    // storage loader). A refused or failed transaction is reported by takeWriteError().
    std::optional<std::string> set(std::string_view key, std::string_view value) override;
    void remove(std::string_view key) override;
    // Writes are numbered; a number counts as committed when IndexedDB confirmed its transaction.
    // A released key's value leaves memory once committed; readMany reads it back from IndexedDB
    // (one read-only transaction; the answer comes from the event loop).
    void release(std::string_view key) override;
    void readMany(std::vector<std::string> keys, ReadCallback done) override;
    uint64_t lastWriteTicket() const override;
    uint64_t committedTicket() const override;
    // The oldest background write failure not yet taken ("quota exceeded ..."), if any.
    static std::optional<std::string> takeWriteError();
};

} // namespace chaiba::web
