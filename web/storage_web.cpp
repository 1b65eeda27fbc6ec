// LocalStorageStore: localStorage through EM_JS; every call is guarded, since storage can throw
// (quota exceeded, disabled cookies, sandboxed frames).
#include "web/storage_web.h"

#include <emscripten.h>

#include <cstdlib>
#include <string>

namespace {

// 2: readable and writable; 1: readable, a write is refused (full: QuotaExceededError); 0: unusable.
EM_JS(int, js_storage_probe, (), {
    var ls;
    try {
        ls = window.localStorage;
        ls.getItem('__chaiba_probe__');
    } catch (e) {
        return 0;
    }
    try {
        var k = '__chaiba_probe__';
        ls.setItem(k, '1');
        ls.removeItem(k);
        return 2;
    } catch (e) {
        return 1;
    }
});

// Returns a malloc'd UTF-8 copy of the value, or 0 when missing or unreadable.
EM_JS(char*, js_storage_get, (const char* keyPtr), {
    var value = null;
    try { value = window.localStorage.getItem(UTF8ToString(keyPtr)); } catch (e) { value = null; }
    if (value === null) return 0;
    var len = lengthBytesUTF8(value) + 1;
    var ptr = _malloc(len);
    stringToUTF8(value, ptr, len);
    return ptr;
});

// Returns 0 on success, else a malloc'd error message.
EM_JS(char*, js_storage_set, (const char* keyPtr, const char* valuePtr, int valueLen), {
    try {
        window.localStorage.setItem(UTF8ToString(keyPtr), UTF8ToString(valuePtr, valueLen));
        return 0;
    } catch (e) {
        var msg = 'the browser refused to store data (' + (e && e.name ? e.name : e) + ')';
        var len = lengthBytesUTF8(msg) + 1;
        var ptr = _malloc(len);
        stringToUTF8(msg, ptr, len);
        return ptr;
    }
});

EM_JS(void, js_storage_remove, (const char* keyPtr), {
    try { window.localStorage.removeItem(UTF8ToString(keyPtr)); } catch (e) {}
});

} // namespace

namespace chaiba::web {

LocalStorageStore::Probe LocalStorageStore::probe() {
    const int state = js_storage_probe();
    return {state >= 1, state == 2};
}

bool LocalStorageStore::available() { return probe().writable; }

std::optional<std::string> LocalStorageStore::get(std::string_view key) const {
    const std::string k(key);
    char* value = js_storage_get(k.c_str());
    if (!value) return std::nullopt;
    std::string result(value);
    std::free(value);
    return result;
}

std::optional<std::string> LocalStorageStore::set(std::string_view key, std::string_view value) {
    const std::string k(key);
    const std::string v(value);
    char* error = js_storage_set(k.c_str(), v.c_str(), static_cast<int>(v.size()));
    if (!error) return std::nullopt;
    std::string message(error);
    std::free(error);
    return message;
}

void LocalStorageStore::remove(std::string_view key) {
    const std::string k(key);
    js_storage_remove(k.c_str());
}

} // namespace chaiba::web
