// The shared JSON reader for stored and imported documents (bundles, configs, saved games):
// typed fields out of untrusted JSON, the first error kept with its path ("games[3].moves[7].uci:
// expected a string"), and key-like members refused. nlohmann is used without exceptions.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace chaiba::persist {

using Json = nlohmann::json;

// Reads typed fields out of untrusted JSON; keeps the first error with its path.
class JsonDecoder {
public:
    bool failed() const { return !error_.empty(); }
    const std::string& error() const { return error_; }
    void fail(const std::string& path, const std::string& what) {
        if (error_.empty()) error_ = path.empty() ? what : path + ": " + what;
    }
    // Fails (true) when the object has a key-like member ("apiKey", "authorization", ...).
    bool refuseKeyFields(const Json& obj, const std::string& path);

    // The member, or null (with an error when required) if it is missing.
    const Json* member(const Json& obj, const char* key, const std::string& path, bool required = true) {
        auto it = obj.find(key);
        if (it == obj.end() || (!required && it->is_null())) {
            if (required) fail(join(path, key), "missing");
            return nullptr;
        }
        return &*it;
    }
    static std::string join(const std::string& path, const char* key) {
        return path.empty() ? std::string(key) : path + "." + key;
    }

    // Where a value stands, named only when an error needs it: a member (path.key) or an element
    // of a list read by position (path[index]).
    struct At {
        const std::string& path;
        const char* key = nullptr;
        int index = -1;
        std::string text() const { return key ? join(path, key) : path + "[" + std::to_string(index) + "]"; }
    };
    void value(const Json& v, const At& at, std::string& out) {
        if (!v.is_string()) return fail(at.text(), "expected a string");
        out = v.get<std::string>();
    }
    void value(const Json& v, const At& at, bool& out) {
        if (!v.is_boolean()) return fail(at.text(), "expected true or false");
        out = v.get<bool>();
    }
    void value(const Json& v, const At& at, double& out) {
        if (!v.is_number()) return fail(at.text(), "expected a number");
        out = v.get<double>();
        if (!std::isfinite(out)) fail(at.text(), "expected a finite number");
    }
    void value(const Json& v, const At& at, long long& out, long long lo, long long hi) {
        if (!v.is_number_integer()) return fail(at.text(), "expected a whole number");
        if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(std::numeric_limits<long long>::max()))
            return fail(at.text(), "number out of range");
        const long long n = v.get<long long>();
        if (n < lo || n > hi)
            return fail(at.text(), "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                                       ", got " + std::to_string(n));
        out = n;
    }
    void value(const Json& v, const At& at, int& out, int lo, int hi) {
        long long n = out;
        value(v, at, n, lo, hi);
        out = int(n);
    }

    void read(const Json& obj, const char* key, const std::string& path, std::string& out,
              bool required = true) {
        if (const Json* v = member(obj, key, path, required)) value(*v, {path, key}, out);
    }
    void read(const Json& obj, const char* key, const std::string& path, bool& out, bool required = true) {
        if (const Json* v = member(obj, key, path, required)) value(*v, {path, key}, out);
    }
    void read(const Json& obj, const char* key, const std::string& path, double& out, bool required = true) {
        if (const Json* v = member(obj, key, path, required)) value(*v, {path, key}, out);
    }
    void read(const Json& obj, const char* key, const std::string& path, long long& out, long long lo,
              long long hi, bool required = true) {
        if (const Json* v = member(obj, key, path, required)) value(*v, {path, key}, out, lo, hi);
    }
    void read(const Json& obj, const char* key, const std::string& path, int& out, int lo, int hi,
              bool required = true) {
        if (const Json* v = member(obj, key, path, required)) value(*v, {path, key}, out, lo, hi);
    }
    void read(const Json& obj, const char* key, const std::string& path, uint64_t& out,
              bool required = true) {
        const Json* v = member(obj, key, path, required);
        if (!v) return;
        if (!v->is_number_unsigned()) return fail(join(path, key), "expected a non-negative whole number");
        out = v->get<uint64_t>();
    }
    // An array member; null (with an error) if missing or not an array.
    const Json* array(const Json& obj, const char* key, const std::string& path, bool required = true) {
        const Json* v = member(obj, key, path, required);
        if (v && !v->is_array()) {
            fail(join(path, key), "expected a list");
            return nullptr;
        }
        return v;
    }
    const Json* object(const Json& obj, const char* key, const std::string& path, bool required = true) {
        const Json* v = member(obj, key, path, required);
        if (v && !v->is_object()) {
            fail(join(path, key), "expected an object");
            return nullptr;
        }
        return v;
    }

private:
    std::string error_;
};

} // namespace chaiba::persist
