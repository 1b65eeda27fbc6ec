// A string key-value store: localStorage on the web (web/storage_web.cpp), a JSON file natively
// (file_store.h), memory in tests. Typed settings sit on top of it (settings.h).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba {

class KeyValueStore {
public:
    virtual ~KeyValueStore() = default;
    virtual std::optional<std::string> get(std::string_view key) const = 0;
    // Returns an error message when the store refused the write (quota, read-only disk).
    virtual std::optional<std::string> set(std::string_view key, std::string_view value) = 0;
    virtual void remove(std::string_view key) = 0;
    // A store that commits in the background (IndexedDB) numbers its writes: the ticket of the
    // latest set()/remove(), and the newest ticket known committed (every earlier one is too, as
    // writes commit in order). A synchronous store has committed when set() returns: 0 and 0.
    virtual uint64_t lastWriteTicket() const { return 0; }
    virtual uint64_t committedTicket() const { return 0; }

    // Values that need not stay in memory: a store that mirrors its data in memory (IndexedDB)
    // may drop a released key's value once its write is committed; get() then says nothing of
    // it, and readMany() reads it back. A later set() of the key holds it again until released.
    virtual void release(std::string_view key) { (void)key; }
    // Each key's value (nothing for a key without one), or why the store could not be read, in
    // the keys' order. The callback runs inside the call when every value is at hand (a store in
    // memory), else later (IndexedDB's read, from the browser's event loop).
    using ReadCallback = std::function<void(std::vector<std::optional<std::string>> values, std::string error)>;
    virtual void readMany(std::vector<std::string> keys, ReadCallback done) {
        std::vector<std::optional<std::string>> values;
        values.reserve(keys.size());
        for (const std::string& k : keys) values.push_back(get(k));
        done(std::move(values), {});
    }
};

// For tests and for a session without persistent storage.
class MemoryStore final : public KeyValueStore {
public:
    std::optional<std::string> get(std::string_view key) const override {
        auto it = values_.find(std::string(key));
        if (it == values_.end()) return std::nullopt;
        return it->second;
    }
    std::optional<std::string> set(std::string_view key, std::string_view value) override {
        values_[std::string(key)] = std::string(value);
        return std::nullopt;
    }
    void remove(std::string_view key) override { values_.erase(std::string(key)); }
    const std::map<std::string, std::string>& values() const { return values_; }

private:
    std::map<std::string, std::string> values_;
};

} // namespace chaiba
