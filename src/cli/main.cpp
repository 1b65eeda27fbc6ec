// chaiba: the native command-line tool (perft, moves, bench, uci, play, arena, ...).
// Dispatches to the command table in commands.cpp; `chaiba help` lists it.
#include "src/cli/commands.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {

void printHelp() {
    std::printf("chaiba %s: language models play games, from the command line.\n\n", CHAIBA_VERSION);
    std::printf("usage: chaiba COMMAND [ARGS]\n\ncommands:\n");
    for (const auto& c : chaiba::cli::commands())
        std::printf("  %-58.*s %.*s\n", static_cast<int>(c.usage.size()), c.usage.data(),
                    static_cast<int>(c.summary.size()), c.summary.data());
    std::printf("  %-58s %s\n  %-58s %s\n", "help", "this list", "version", "print the version");
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        printHelp();
        return 2;
    }
    const std::string name = argv[1];
    if (name == "help" || name == "--help" || name == "-h") {
        printHelp();
        return 0;
    }
    if (name == "version" || name == "--version") {
        std::printf("chaiba %s\n", CHAIBA_VERSION);
        return 0;
    }
    const std::vector<std::string> args(argv + 2, argv + argc);
    for (const auto& c : chaiba::cli::commands())
        if (c.name == name) return c.run(args);
    std::fprintf(stderr, "error: unknown command '%s' (try: chaiba help)\n", name.c_str());
    return 2;
}
