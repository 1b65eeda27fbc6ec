// Tiny argument reader for the CLI commands: flags (--name value, --switch) and positionals, read
// against the command's Usage (its options, each with a line of help), so the parser and
// `chaiba COMMAND --help` read one list and cannot drift apart.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::cli {

// One option of a command: --name VALUE (a value flag) or --name (a switch, value empty).
struct Option {
    std::string name;  // without the dashes: "fen" for --fen
    std::string value; // the value's placeholder ("FEN"); empty for a switch
    std::string help;  // one line: what it does, its range and default
};

// What `chaiba NAME --help` prints, and the options the parser accepts.
struct Usage {
    std::string name;     // "perft"
    std::string synopsis; // after "chaiba NAME"; one form per line: "DEPTH [--fen FEN] [--960] [--divide]"
    std::string summary;  // one line for `chaiba help`
    std::vector<Option> options;
    std::string notes; // optional lines after the options (grammar of a SPEC, where keys come from)
};

// The "usage: chaiba NAME ..." lines, one per form of the synopsis, each ending in a newline.
std::string usageLines(const Usage& usage);

// The help text: usage lines, the summary, every option with its help (and -h/--help), the notes.
std::string usageText(const Usage& usage);

class Args {
public:
    // Options of usage with a value take one (--fen X or --fen=X); switches do not (--960).
    // --help and -h ask for the usage (helpWanted); any other "--" word is an error that names
    // it and points at `chaiba NAME --help`; everything else is positional.
    Args(const std::vector<std::string>& argv, const Usage& usage);

    const std::optional<std::string>& error() const { return error_; }
    bool helpWanted() const { return helpWanted_; }
    bool has(std::string_view flag) const;
    std::optional<std::string> value(std::string_view flag) const;
    const std::vector<std::string>& positional() const { return positional_; }

    // Parses a flag's value as an integer in [lo, hi]; on failure sets an error and returns fallback.
    long long integer(std::string_view flag, long long fallback, long long lo, long long hi);

private:
    std::vector<std::pair<std::string, std::string>> values_;
    std::vector<std::string> present_;
    std::vector<std::string> positional_;
    std::optional<std::string> error_;
    bool helpWanted_ = false;
};

// Text fit for a terminal: control characters (escape sequences, bells, carriage returns) shown as
// \xNN instead of acting on the terminal; printable text and UTF-8 unchanged.
std::string terminalSafe(std::string_view text);

// Parses a whole decimal integer; nothing on junk or overflow.
std::optional<long long> parseInteger(std::string_view text);

} // namespace chaiba::cli
