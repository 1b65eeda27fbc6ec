// The CLI's command table. Each command lives in its own <name>_command.cpp and is listed once
// in commands.cpp. A command returns the process exit code.
#pragma once

#include <span>
#include <vector>
#include <string>
#include <string_view>

namespace chaiba::cli {

using CommandFn = int (*)(const std::vector<std::string>& args);

struct Command {
    std::string_view name;
    std::string_view usage;    // e.g. "perft DEPTH [--fen FEN] [--960] [--divide]"
    std::string_view summary;  // one line for `chaiba help`
    CommandFn run;
};

std::span<const Command> commands();

} // namespace chaiba::cli
