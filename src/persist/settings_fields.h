// Reading a person's settings out of the one stored settings blob (a flat JSON object, each layer
// or mode owning some of its keys): each value is decoded on its own, so one bad value never costs
// the others. A missing value keeps its default silently; a value of the wrong type or out of range
// keeps its default with a warning naming the setting.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace chaiba::persist {

class SettingsFields {
public:
    SettingsFields(const nlohmann::json& blob, std::vector<std::string>& warnings) : doc_(blob), warnings_(warnings) {}

    void warn(const char* name, const std::string& why) {
        warnings_.push_back(std::string("setting '") + name + "' " + why + "; using the default");
    }
    void text(const char* name, std::string& out) {
        if (const nlohmann::json* v = find(name)) {
            if (v->is_string()) out = v->get<std::string>();
            else warn(name, "is not text");
        }
    }
    void flag(const char* name, bool& out) {
        if (const nlohmann::json* v = find(name)) {
            if (v->is_boolean()) out = v->get<bool>();
            else warn(name, "is not true/false");
        }
    }
    void integer(const char* name, int& out, int lo, int hi) {
        const nlohmann::json* v = find(name);
        if (!v) return;
        if (!v->is_number_integer()) return warn(name, "is not a whole number");
        const long long n = v->get<long long>();
        if (n < lo || n > hi)
            return warn(name, "is " + std::to_string(n) + ", outside " + std::to_string(lo) + ".." + std::to_string(hi));
        out = static_cast<int>(n);
    }
    // `unset` (e.g. -1: the model's default) is taken as it is, outside the range.
    void number(const char* name, double& out, double lo, double hi, double unset) {
        const nlohmann::json* v = find(name);
        if (!v) return;
        if (!v->is_number()) return warn(name, "is not a number");
        const double x = v->get<double>();
        if (x == unset) {
            out = x;
            return;
        }
        if (!std::isfinite(x) || x < lo || x > hi) return warn(name, "is out of range");
        out = x;
    }
    // A list of non-empty strings (model ids).
    void stringList(const char* name, std::vector<std::string>& out) {
        const nlohmann::json* v = find(name);
        if (!v) return;
        if (!v->is_array()) return warn(name, "is not a list");
        std::vector<std::string> items;
        for (const nlohmann::json& item : *v) {
            if (!item.is_string() || item.get<std::string>().empty())
                return warn(name, "has an entry that is not a model id");
            items.push_back(item.get<std::string>());
        }
        out = std::move(items);
    }
    // One of `options`, by its stored name (nameOf).
    template <typename Enum, size_t N>
    void choice(const char* name, Enum& out, const Enum (&options)[N], const char* (*nameOf)(Enum)) {
        const nlohmann::json* v = find(name);
        if (!v) return;
        if (v->is_string()) {
            for (Enum option : options)
                if (v->get<std::string>() == nameOf(option)) {
                    out = option;
                    return;
                }
        }
        warn(name, "is not one of the known choices");
    }

private:
    const nlohmann::json* find(const char* name) const {
        if (!doc_.is_object()) return nullptr;
        auto it = doc_.find(name);
        return it == doc_.end() ? nullptr : &*it;
    }
    const nlohmann::json& doc_;
    std::vector<std::string>& warnings_;
};

} // namespace chaiba::persist
