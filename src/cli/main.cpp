// chaiba: the native command-line tool (perft, moves, bench, uci, play, arena, ...).
// Dispatches to the command table in commands.cpp; `chaiba help` lists it.
#include "src/cli/commands.h"

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    using namespace chaiba::cli;
    if (argc < 2) {
        std::fputs(overviewText().c_str(), stdout);
        return 2;
    }
    std::string name = argv[1];
    if (name == "--help" || name == "-h") name = "help";
    if (name == "--version") name = "version";
    const std::vector<std::string> args(argv + 2, argv + argc);
    if (const Command* command = findCommand(name)) return runCommand(*command, args);
    std::fprintf(stderr, "error: unknown command '%s' (try: chaiba help)\n", terminalSafe(name).c_str());
    return 2;
}
