// Shared helpers for the rules commands: see rules_cli.h.
#include "src/cli/rules_cli.h"

#include <cstdio>

namespace chaiba::cli {

int fail(const std::string& message, int code) {
    std::printf("error: %s\n", terminalSafe(message).c_str());
    return code;
}

int failUsage(const Usage& usage) {
    return fail("usage: chaiba " + usage.name + " " + usage.synopsis, kExitBadInput);
}

std::optional<chess::Position> positionFromArgs(const Args& args) {
    const bool is960 = args.has("960");
    const auto fen = args.value("fen");
    if (!fen) {
        chess::Position p = chess::Position::startPosition();
        p.setChess960(is960);
        return p;
    }
    chess::FenResult r = chess::Position::fromFen(*fen, is960);
    if (!r.ok()) {
        fail(r.error, kExitBadInput);
        return std::nullopt;
    }
    return *r.position;
}

} // namespace chaiba::cli
