// `chaiba help [COMMAND]`: the command list, or one command's usage (as `chaiba COMMAND --help`);
// `chaiba version`.
#include "src/cli/commands.h"

#include <algorithm>
#include <cstdio>

namespace chaiba::cli {

const Usage& helpUsage() {
    static const Usage usage{"help", "[COMMAND]", "list the commands, or print one command's options", {}, ""};
    return usage;
}

const Usage& versionUsage() {
    static const Usage usage{"version", "", "print the version", {}, ""};
    return usage;
}

std::string overviewText() {
    std::string text = std::string("chaiba ") + CHAIBA_VERSION +
                       ": language models play games, from the command line.\n\n"
                       "usage: chaiba COMMAND [OPTIONS]\n\ncommands:\n";
    size_t width = 0;
    for (const Command& c : commands()) width = std::max(width, c.usage().name.size());
    for (const Command& c : commands()) {
        const Usage& u = c.usage();
        text += "  " + u.name + std::string(width - u.name.size() + 2, ' ') + u.summary + "\n";
    }
    text += "\n`chaiba COMMAND --help` (or `chaiba help COMMAND`) prints a command's options.\n";
    return text;
}

int runHelp(const std::vector<std::string>& args) {
    if (args.empty()) {
        std::fputs(overviewText().c_str(), stdout);
        return 0;
    }
    const Command* command = args.size() == 1 ? findCommand(args[0]) : nullptr;
    if (!command) {
        std::fprintf(stderr, "error: %s (try: chaiba help)\n",
                     args.size() == 1 ? ("unknown command '" + terminalSafe(args[0]) + "'").c_str()
                                      : "help takes one COMMAND");
        return 2;
    }
    std::fputs(usageText(command->usage()).c_str(), stdout);
    return 0;
}

int runVersion(const std::vector<std::string>& args) {
    if (!args.empty()) {
        std::fprintf(stderr, "error: version takes no arguments\n");
        return 2;
    }
    std::printf("chaiba %s\n", CHAIBA_VERSION);
    return 0;
}

} // namespace chaiba::cli
