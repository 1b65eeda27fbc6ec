// IndexedDbStore: the in-memory copy (Module.chaibaIdb.map) and background IndexedDB writes
// through EM_JS; every call is guarded, since storage can throw (quota, closed database).
#include "web/idb_store.h"

#include <emscripten.h>

#include <cstdlib>

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

} // namespace

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

uint64_t IndexedDbStore::lastWriteTicket() const { return uint64_t(js_idb_ticket(0)); }

uint64_t IndexedDbStore::committedTicket() const { return uint64_t(js_idb_ticket(1)); }

std::optional<std::string> IndexedDbStore::takeWriteError() { return takeString(js_idb_take_error()); }

} // namespace chaiba::web
