// `chaiba moves --fen FEN [--uci] [--960]`: every legal move, one per line, sorted (SAN by default).
// `chaiba moves --stdin [--uci] [--960]`: a FEN per input line, a line of its sorted legal moves
// (space-separated, empty when there is none) or "error: <why>" per FEN, flushed at once; for a
// process that asks many positions (the OpenRouter stand-in) without starting one per position.
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "src/cli/rules_cli.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace chaiba::cli {

namespace {

std::vector<std::string> sortedMoves(const chess::Position& pos, bool uci) {
    chess::MoveList moves;
    chess::generateLegal(pos, moves);
    std::vector<std::string> out;
    for (const chess::Move m : moves) out.push_back(uci ? chess::toUci(pos, m) : chess::toSan(pos, m));
    std::sort(out.begin(), out.end());
    return out;
}

constexpr size_t kMaxFenLine = 512; // a FEN is under 100 characters

int movesFromStdin(bool uci, bool is960) {
    std::string line;
    for (int c; (c = std::getchar()) != EOF;) {
        if (c != '\n') {
            if (line.size() <= kMaxFenLine) line += char(c);
            continue;
        }
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::string out;
        if (line.size() > kMaxFenLine) {
            out = "error: the line is over " + std::to_string(kMaxFenLine) + " characters, not a FEN";
        } else {
            chess::FenResult r = chess::Position::fromFen(line, is960);
            if (!r.ok()) {
                out = "error: " + terminalSafe(r.error);
            } else {
                for (const std::string& m : sortedMoves(*r.position, uci)) out += (out.empty() ? "" : " ") + m;
            }
        }
        std::printf("%s\n", out.c_str());
        std::fflush(stdout);
        line.clear();
    }
    return kExitOk;
}

} // namespace

const Usage& movesUsage() {
    static const Usage usage{
        "moves",
        "[--fen FEN | --stdin] [--uci] [--960]",
        "list the legal moves, sorted (--stdin: a line of moves per FEN line)",
        {fenOption(),
         {"stdin", "", "read a FEN per input line; answer a line of its moves (or `error: ...`) per FEN"},
         {"uci", "", "write moves in UCI (e2e4) instead of SAN (e4)"},
         chess960Option()},
        ""};
    return usage;
}

int runMoves(const std::vector<std::string>& argv) {
    Args args(argv, movesUsage());
    if (args.error()) return fail(*args.error(), kExitBadInput);
    if (!args.positional().empty() || (args.has("stdin") && args.value("fen"))) return failUsage(movesUsage());
    if (args.has("stdin")) return movesFromStdin(args.has("uci"), args.has("960"));
    const auto pos = positionFromArgs(args);
    if (!pos) return kExitBadInput;
    for (const auto& l : sortedMoves(*pos, args.has("uci"))) std::printf("%s\n", l.c_str());
    return kExitOk;
}

} // namespace chaiba::cli
