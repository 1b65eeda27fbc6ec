// A key-value store like the page's IndexedDB store, for unit tests: a released key's value leaves
// memory (get() says nothing of it) and readMany() answers only at deliver(), as the browser's
// event loop would.
#pragma once

#include "src/persist/key_value_store.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace chaiba::fakes {

struct ColdStore final : KeyValueStore {
    MemoryStore data;
    std::set<std::string> released;
    std::vector<std::pair<std::vector<std::string>, ReadCallback>> reads;
    bool failReads = false;
    bool forgetReleased = false; // released values are gone (as memory goes: nothing to read back)
    std::optional<std::string> get(std::string_view key) const override {
        if (released.count(std::string(key))) return std::nullopt;
        return data.get(key);
    }
    std::optional<std::string> set(std::string_view key, std::string_view value) override {
        released.erase(std::string(key));
        return data.set(key, value);
    }
    void remove(std::string_view key) override {
        released.erase(std::string(key));
        data.remove(key);
    }
    void release(std::string_view key) override {
        if (forgetReleased) data.remove(key);
        else released.insert(std::string(key));
    }
    void readMany(std::vector<std::string> keys, ReadCallback done) override {
        reads.emplace_back(std::move(keys), std::move(done));
    }
    // Answers the reads asked so far (the disk's error when failReads); how many.
    int deliver() {
        auto now = std::move(reads);
        reads.clear();
        for (auto& [keys, done] : now) {
            if (failReads) {
                done({}, "the disk is gone");
                continue;
            }
            std::vector<std::optional<std::string>> values;
            for (const std::string& k : keys) values.push_back(data.get(k));
            done(std::move(values), {});
        }
        return int(now.size());
    }
};

} // namespace chaiba::fakes
