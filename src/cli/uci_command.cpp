// `chaiba uci`: the built-in engine as a UCI engine on stdin/stdout.
#include "src/cli/args.h"
#include "src/cli/uci_session.h"

#include "engine/search/levels.h"

#include <iostream>
#include <string>
#include <vector>

namespace chaiba::cli {

const Usage& uciUsage() {
    static const Usage usage{"uci",
                             "",
                             "the built-in engine as a UCI engine on stdin/stdout",
                             {},
                             "Options are set with UCI `setoption`: Level (0-" + std::to_string(search::maxLevel()) +
                                 ", default " + std::to_string(search::maxLevel()) +
                                 ": full strength), UCI_Chess960, Hash."};
    return usage;
}

int runUciCommand(const std::vector<std::string>& args) {
    if (!args.empty()) {
        std::cerr << "error: uci takes no arguments (options are set with 'setoption')\n";
        return 2;
    }
    std::ios::sync_with_stdio(false);
    return runUci(std::cin, std::cout);
}

} // namespace chaiba::cli
