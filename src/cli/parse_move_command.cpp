// `chaiba parse-move --fen FEN TEXT`: reads one move out of free text (as an LLM would answer) and
// prints `<SAN> <UCI>`, or `error: <reason>` and exits 1.
#include "engine/chess/move_reader.h"
#include "engine/chess/notation.h"
#include "src/cli/rules_cli.h"

#include <cstdio>
#include <string>
#include <vector>

namespace chaiba::cli {

const Usage& parseMoveUsage() {
    static const Usage usage{"parse-move",
                             "[--fen FEN] [--960] TEXT",
                             "read one move from free text (an LLM's answer): prints `<SAN> <UCI>`",
                             {fenOption(), chess960Option()},
                             "TEXT may be several words; an unreadable or illegal move: `error: <reason>`, exit 1."};
    return usage;
}

int runParseMove(const std::vector<std::string>& argv) {
    Args args(argv, parseMoveUsage());
    if (args.error()) return fail(*args.error(), kExitBadInput);
    if (args.positional().empty()) return failUsage(parseMoveUsage());
    const auto pos = positionFromArgs(args);
    if (!pos) return kExitBadInput;
    std::string text;
    for (const auto& p : args.positional()) text += (text.empty() ? "" : " ") + p;
    const chess::MoveReading r = chess::readMove(*pos, text);
    if (!r.ok()) return fail(r.error, kExitIllegal);
    std::printf("%s %s\n", chess::toSan(*pos, r.move).c_str(), chess::toUci(*pos, r.move).c_str());
    return kExitOk;
}

} // namespace chaiba::cli
