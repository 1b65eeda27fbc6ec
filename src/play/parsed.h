// Parsed<T>: a value or a clear message, the result type of every input boundary of play and the
// modes (seat specs, configs, bundles).
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace chaiba::play {

// A value or a clear message (input boundaries: specs, configs, bundles).
template <class T> struct Parsed {
    std::optional<T> value;
    std::string error; // empty on success
    bool ok() const { return value.has_value(); }
    static Parsed fail(std::string message) { return Parsed{std::nullopt, std::move(message)}; }
};

} // namespace chaiba::play
