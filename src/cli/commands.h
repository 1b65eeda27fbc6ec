// The CLI's command table. Each command lives in its own <name>_command.cpp, with its Usage (the
// options its parser reads and their help) next to its parser, and is listed once in commands.cpp.
// A command returns the process exit code.
#pragma once

#include "src/cli/args.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::cli {

using CommandFn = int (*)(const std::vector<std::string>& args);
using UsageFn = const Usage& (*)();

struct Command {
    UsageFn usage; // name, synopsis, summary and options (`chaiba help`, `chaiba NAME --help`)
    CommandFn run;
};

std::span<const Command> commands();
const Command* findCommand(std::string_view name);

// Runs a command the same way for every command: --help or -h prints its usage on stdout and
// exits 0; an option it does not take (or a value flag without its value) is refused on stderr
// with exit 2 and a pointer to --help, before the command runs; anything else is the command's.
int runCommand(const Command& command, const std::vector<std::string>& args);

// `chaiba help`: every command with its summary.
std::string overviewText();

} // namespace chaiba::cli
