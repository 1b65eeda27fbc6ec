// The CLI's argument reader: flags with values, switches, positionals, --help and clear errors,
// all read from the command's Usage (the same list its --help prints).
#include "src/cli/args.h"

#include <doctest/doctest.h>

using chaiba::cli::Args;
using chaiba::cli::Usage;

namespace {
const Usage kPerftLike{"perft",
                       "DEPTH [--fen FEN] [--960] [--divide]",
                       "count leaf nodes",
                       {{"fen", "FEN", "the position"},
                        {"depth", "D", "a depth"},
                        {"divide", "", "per move"},
                        {"960", "", "Chess960"}},
                       "A note."};
} // namespace

TEST_CASE("cli args: values, switches, positionals") {
    Args a({"5", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1", "--divide", "--depth=3"}, kPerftLike);
    REQUIRE_FALSE(a.error());
    CHECK_FALSE(a.helpWanted());
    CHECK(a.positional() == std::vector<std::string>{"5"});
    CHECK(*a.value("fen") == "8/8/8/8/8/8/8/K6k w - - 0 1");
    CHECK(a.has("divide"));
    CHECK_FALSE(a.has("960"));
    CHECK(a.integer("depth", 0, 1, 10) == 3);
}

TEST_CASE("cli args: errors name the flag and point at --help") {
    CHECK(*Args({"--fen"}, kPerftLike).error() == "--fen needs a value (chaiba perft --help lists the options)");
    CHECK(*Args({"--bogus"}, kPerftLike).error() == "unknown option --bogus (chaiba perft --help lists the options)");
    CHECK(*Args({"--divide=1"}, kPerftLike).error() == "--divide takes no value (chaiba perft --help lists the options)");
    Args a({"--depth", "x9"}, kPerftLike);
    CHECK(a.integer("depth", 1, 1, 10) == 1);
    CHECK(a.error()->find("--depth must be a whole number") == 0);
    CHECK_FALSE(chaiba::cli::parseInteger("12a"));
    CHECK_FALSE(chaiba::cli::parseInteger(""));
    CHECK(*chaiba::cli::parseInteger("-7") == -7);
}

TEST_CASE("cli args: --help and -h ask for the usage, a flag's value never does") {
    CHECK(Args({"--help"}, kPerftLike).helpWanted());
    CHECK(Args({"3", "-h"}, kPerftLike).helpWanted());
    CHECK(Args({"--bogus", "--help"}, kPerftLike).helpWanted()); // help wins over an error
    Args value({"--fen", "--help"}, kPerftLike);
    CHECK_FALSE(value.helpWanted());
    CHECK(*value.value("fen") == "--help");
}

TEST_CASE("cli args: the usage lists every option with its help, one line per form") {
    const std::string text = chaiba::cli::usageText(kPerftLike);
    CHECK(text.rfind("usage: chaiba perft DEPTH [--fen FEN] [--960] [--divide]\n\ncount leaf nodes\n\noptions:\n", 0) == 0);
    CHECK(text.find("\n  --fen FEN   the position\n") != std::string::npos);
    CHECK(text.find("\n  --divide    per move\n") != std::string::npos);
    CHECK(text.find("\n  -h, --help  print this help and exit\n") != std::string::npos);
    CHECK(text.find("\nA note.\n") != std::string::npos);
    Usage twoForms = kPerftLike;
    twoForms.synopsis = "--say TEXT\n--list";
    CHECK(chaiba::cli::usageLines(twoForms) == "usage: chaiba perft --say TEXT\n       chaiba perft --list\n");
}
