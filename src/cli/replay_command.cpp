// `chaiba replay [--fen FEN] [--960]`: batch mode for oracle tests. Reads games from stdin, one
// per line as space-separated SAN or UCI moves, and prints for the start and after every ply:
// `<FEN>\t<status>\t<sorted legal SAN moves, space-separated>`, then a line `end` per game.
#include "engine/chess/game.h"
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "src/cli/rules_cli.h"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace chaiba::cli {

namespace {
void printState(const chess::Game& game) {
    const chess::Position& pos = game.position();
    chess::MoveList moves;
    chess::generateLegal(pos, moves);
    std::vector<std::string> sans;
    for (const chess::Move m : moves) sans.push_back(chess::toSan(pos, m));
    std::sort(sans.begin(), sans.end());
    std::string line = pos.fen() + "\t" + std::string(chess::statusName(game.status())) + "\t";
    for (size_t i = 0; i < sans.size(); ++i) line += (i ? " " : "") + sans[i];
    std::cout << line << '\n';
}
} // namespace

const Usage& replayUsage() {
    static const Usage usage{"replay",
                             "[--fen FEN] [--960] < GAMES",
                             "batch for oracle tests: FEN, status and legal SANs after each ply of each game",
                             {{"fen", "FEN", "every game's start position (default: the start position)"},
                              chess960Option()},
                             "GAMES: one game per stdin line, space-separated SAN or UCI moves; a line `end` "
                             "closes each game."};
    return usage;
}

int runReplay(const std::vector<std::string>& argv) {
    Args args(argv, replayUsage());
    if (args.error()) return fail(*args.error(), kExitBadInput);
    const auto start = positionFromArgs(args);
    if (!start) return kExitBadInput;
    std::string line;
    int lineNumber = 0;
    while (std::getline(std::cin, line)) {
        ++lineNumber;
        chess::Game game(*start);
        printState(game);
        std::istringstream in(line);
        std::string text;
        while (in >> text) {
            const chess::MoveResult r = chess::parseSanOrUci(game.position(), text);
            if (!r.ok() || !game.play(r.move)) {
                std::cout << "error: line " << lineNumber << ": " << (r.ok() ? "game already over" : r.error)
                          << '\n';
                break;
            }
            printState(game);
        }
        std::cout << "end" << std::endl;
    }
    return kExitOk;
}

} // namespace chaiba::cli
