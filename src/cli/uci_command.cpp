// `chaiba uci`: the built-in engine as a UCI engine on stdin/stdout.
#include "src/cli/uci_session.h"

#include <iostream>
#include <string>
#include <vector>

namespace chaiba::cli {

int runUciCommand(const std::vector<std::string>& args) {
    if (!args.empty()) {
        std::cerr << "error: uci takes no arguments (options are set with 'setoption')\n";
        return 2;
    }
    std::ios::sync_with_stdio(false);
    return runUci(std::cin, std::cout);
}

} // namespace chaiba::cli
