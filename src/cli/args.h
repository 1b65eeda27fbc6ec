// Tiny argument reader for the CLI commands: flags (--name value, --switch) and positionals,
// with an error message instead of guessing when a flag lacks its value.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::cli {

class Args {
public:
    // valueFlags take a value (--fen X); switches do not (--960). Anything else starting with
    // "--" is an error; everything else is positional.
    Args(const std::vector<std::string>& argv, std::set<std::string> valueFlags,
         std::set<std::string> switches);

    const std::optional<std::string>& error() const { return error_; }
    bool has(std::string_view flag) const;
    std::optional<std::string> value(std::string_view flag) const;
    const std::vector<std::string>& positional() const { return positional_; }

    // Parses a flag's value as an integer in [lo, hi]; on failure sets an error and returns fallback.
    long long integer(std::string_view flag, long long fallback, long long lo, long long hi);

private:
    std::vector<std::pair<std::string, std::string>> values_;
    std::set<std::string> present_;
    std::vector<std::string> positional_;
    std::optional<std::string> error_;
};

// Text fit for a terminal: control characters (escape sequences, bells, carriage returns) shown as
// \xNN instead of acting on the terminal; printable text and UTF-8 unchanged.
std::string terminalSafe(std::string_view text);

// Parses a whole decimal integer; nothing on junk or overflow.
std::optional<long long> parseInteger(std::string_view text);

} // namespace chaiba::cli
