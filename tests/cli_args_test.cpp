// The CLI's argument reader: flags with values, switches, positionals and clear errors.
#include "src/cli/args.h"

#include <doctest/doctest.h>

using chaiba::cli::Args;

TEST_CASE("cli args: values, switches, positionals") {
    Args a({"5", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1", "--divide", "--depth=3"}, {"fen", "depth"},
           {"divide", "960"});
    REQUIRE_FALSE(a.error());
    CHECK(a.positional() == std::vector<std::string>{"5"});
    CHECK(*a.value("fen") == "8/8/8/8/8/8/8/K6k w - - 0 1");
    CHECK(a.has("divide"));
    CHECK_FALSE(a.has("960"));
    CHECK(a.integer("depth", 0, 1, 10) == 3);
}

TEST_CASE("cli args: errors name the flag") {
    CHECK(*Args({"--fen"}, {"fen"}, {}).error() == "--fen needs a value");
    CHECK(*Args({"--bogus"}, {"fen"}, {}).error() == "unknown option --bogus");
    Args a({"--depth", "x9"}, {"depth"}, {});
    CHECK(a.integer("depth", 1, 1, 10) == 1);
    CHECK(a.error()->find("--depth must be a whole number") == 0);
    CHECK_FALSE(chaiba::cli::parseInteger("12a"));
    CHECK_FALSE(chaiba::cli::parseInteger(""));
    CHECK(*chaiba::cli::parseInteger("-7") == -7);
}
