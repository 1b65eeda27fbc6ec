// IndexedDbStore: the in-memory copy (Module.chaibaIdb.map) and background IndexedDB writes
// through EM_JS; every call is guarded, since storage can throw (quota, closed database).
#include "web/idb_store.h"

#include <emscripten.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <map>

namespace {

// malloc'd UTF-8 copies (0 for none): the caller frees them.
EM_JS(char*, js_idb_unavailable, (), {
    var s = Module['chaibaIdb'];
    var msg = !s ? 'the storage loader did not run' : (s.db ? "" : (s.error || 'IndexedDB is not available'));
    if (!msg) return 0;
    var len = lengthBytesUTF8(msg) + 1;
    var ptr = _malloc(len);
    stringToUTF8(msg, ptr, len);
    return ptr;
});

EM_JS(char*, js_idb_get, (const char* keyPtr), {
    var s = Module['chaibaIdb'];
    if (!s) return 0;
    var value = s.map.get(UTF8ToString(keyPtr));
    if (typeof value !== 'string') return 0;
    var len = lengthBytesUTF8(value) + 1;
    var ptr = _malloc(len);
    stringToUTF8(value, ptr, len);
    return ptr;
});

// value null: delete. Returns 0 when queued, else a malloc'd error message. The writes of one turn
// of the event loop (a main-loop tick stores a few moves at once) go out together, in order, as one
// IndexedDB transaction when the tick's JavaScript returns (a microtask), made by the I/O worker
// (web/io_client.js; by the page while the worker cannot): a transaction per write cost the page
// ~0.3 ms each under load, one made on the page ~0.9 ms. A write is numbered (a ticket) at once;
// what is shown as stored waits for its transaction to commit, wherever it was made.
EM_JS(char*, js_idb_write, (const char* keyPtr, const char* valuePtr, int valueLen, int remove), {
    var s = Module['chaibaIdb'];
    var key = UTF8ToString(keyPtr);
    if (!s) {
        var msg = 'the storage loader did not run';
        var len = lengthBytesUTF8(msg) + 1;
        var ptr = _malloc(len);
        stringToUTF8(msg, ptr, len);
        return ptr;
    }
    var value = remove ? null : UTF8ToString(valuePtr, valueLen);
    if (remove) s.map.delete(key); else s.map.set(key, value);
    if (s.released) s.released.delete(key); // held again until released again
    if (!s.db) return 0; // memory only: the app said so at start
    s.ticket = (s.ticket || 0) + 1;
    if (!s.batch) {
        s.batch = [];
        queueMicrotask(function() {
            var started = performance.now();
            var batch = s.batch;
            s.batch = null;
            Module['chaibaIo'].write(batch, s.ticket);
            // Main-thread time outside the loop's tick, for the soak's figures.
            var spent = performance.now() - started;
            s.flushes = (s.flushes || 0) + 1;
            s.flushMs = (s.flushMs || 0) + spent;
            s.flushWorstMs = Math.max(s.flushWorstMs || 0, spent);
        });
    }
    s.batch.push([key, value]);
    return 0;
});

// A released key's value leaves the memory copy once the write that holds it is committed (the
// I/O client sweeps s.released when a commit is confirmed; web/io_client.js); memory only: kept.
EM_JS(void, js_idb_release, (const char* keyPtr), {
    var s = Module['chaibaIdb'];
    if (!s || !s.db) return;
    var key = UTF8ToString(keyPtr);
    if (!s.map.has(key)) return;
    s.released = s.released || new Map();
    s.released.set(key, s.ticket || 0);
    if ((s.committed || 0) >= (s.ticket || 0)) { // nothing pending: at once
        s.map.delete(key);
        s.released.delete(key);
    }
});

// Reads keys from IndexedDB (one read-only transaction); the answer goes to chaiba_idb_read_done:
// a JSON array of the values (null: none), or an error message.
EM_JS(void, js_idb_read, (double id, const char* keysJson), {
    var s = Module['chaibaIdb'];
    var keys = JSON.parse(UTF8ToString(keysJson));
    var answer = function(values, error) {
        var text = error ? error : JSON.stringify(values);
        var len = lengthBytesUTF8(text) + 1;
        var ptr = _malloc(len);
        stringToUTF8(text, ptr, len);
        _chaiba_idb_read_done(id, ptr, error ? 1 : 0);
    };
    var later = function(values, error) { setTimeout(function() { answer(values, error); }, 0); };
    if (!s || !s.db) return later(keys.map(function() { return null; }), '');
    try {
        var tx = s.db.transaction('kv', 'readonly');
        var os = tx.objectStore('kv');
        var values = new Array(keys.length).fill(null);
        keys.forEach(function(k, i) {
            var r = os.get(k);
            r.onsuccess = function() { values[i] = typeof r.result === 'string' ? r.result : null; };
        });
        var done = false;
        tx.oncomplete = function() { if (!done) { done = true; answer(values, ''); } };
        tx.onerror = tx.onabort = function() {
            if (done) return;
            done = true;
            answer(null, 'IndexedDB could not be read (' + ((tx.error && tx.error.name) || 'aborted') + ')');
        };
    } catch (e) {
        later(null, 'IndexedDB could not be read (' + ((e && e.name) || e) + ')');
    }
});

// The latest write's number and the newest one committed (every earlier one is too).
EM_JS(double, js_idb_ticket, (int committed), {
    var s = Module['chaibaIdb'];
    if (!s) return 0;
    if (!s.db) return s.ticket || 0; // memory only: nothing is pending
    return committed ? (s.committed || 0) : (s.ticket || 0);
});

EM_JS(char*, js_idb_take_error, (), {
    var s = Module['chaibaIdb'];
    if (!s || !s.writeErrors.length) return 0;
    var msg = s.writeErrors.shift();
    var len = lengthBytesUTF8(msg) + 1;
    var ptr = _malloc(len);
    stringToUTF8(msg, ptr, len);
    return ptr;
});

std::optional<std::string> takeString(char* ptr) {
    if (!ptr) return std::nullopt;
    std::string text(ptr);
    std::free(ptr);
    return text;
}

// Reads on their way: the values found in memory, where the read ones go, and the caller.
struct PendingRead {
    std::vector<std::optional<std::string>> values;
    std::vector<size_t> missing; // indices of values read from IndexedDB
    chaiba::KeyValueStore::ReadCallback done;
};
std::map<double, PendingRead>& pendingReads() {
    static std::map<double, PendingRead> reads;
    return reads;
}

} // namespace

extern "C" EMSCRIPTEN_KEEPALIVE void chaiba_idb_read_done(double id, char* text, int failed) {
    const std::string answer = takeString(text).value_or("");
    const auto it = pendingReads().find(id);
    if (it == pendingReads().end()) return;
    PendingRead read = std::move(it->second);
    pendingReads().erase(it);
    if (failed) return read.done({}, answer);
    const nlohmann::json values = nlohmann::json::parse(answer, nullptr, false);
    if (!values.is_array() || values.size() != read.missing.size())
        return read.done({}, "IndexedDB gave an answer that does not read");
    for (size_t i = 0; i < read.missing.size(); ++i)
        if (values[i].is_string()) read.values[read.missing[i]] = values[i].get<std::string>();
    read.done(std::move(read.values), {});
}

namespace chaiba::web {

std::optional<std::string> IndexedDbStore::unavailableReason() { return takeString(js_idb_unavailable()); }

std::optional<std::string> IndexedDbStore::get(std::string_view key) const {
    const std::string k(key);
    return takeString(js_idb_get(k.c_str()));
}

std::optional<std::string> IndexedDbStore::set(std::string_view key, std::string_view value) {
    const std::string k(key);
    const std::string v(value);
    return takeString(js_idb_write(k.c_str(), v.c_str(), static_cast<int>(v.size()), 0));
}

void IndexedDbStore::remove(std::string_view key) {
    const std::string k(key);
    if (auto error = takeString(js_idb_write(k.c_str(), "", 0, 1))) {
        // Removal failures surface like background write failures.
        EM_ASM({ var s = Module['chaibaIdb']; if (s) s.writeErrors.push(UTF8ToString($0)); }, error->c_str());
    }
}

void IndexedDbStore::release(std::string_view key) {
    const std::string k(key);
    js_idb_release(k.c_str());
}

void IndexedDbStore::readMany(std::vector<std::string> keys, ReadCallback done) {
    PendingRead read;
    read.done = std::move(done);
    nlohmann::json missingKeys = nlohmann::json::array();
    for (size_t i = 0; i < keys.size(); ++i) {
        read.values.push_back(get(keys[i]));
        if (read.values.back()) continue;
        read.missing.push_back(i);
        missingKeys.push_back(keys[i]);
    }
    if (read.missing.empty()) return read.done(std::move(read.values), {}); // all in memory
    static double nextId = 0;
    const double id = ++nextId;
    pendingReads()[id] = std::move(read);
    js_idb_read(id, missingKeys.dump().c_str());
}

uint64_t IndexedDbStore::lastWriteTicket() const { return uint64_t(js_idb_ticket(0)); }

uint64_t IndexedDbStore::committedTicket() const { return uint64_t(js_idb_ticket(1)); }

std::optional<std::string> IndexedDbStore::takeWriteError() { return takeString(js_idb_take_error()); }

} // namespace chaiba::web
