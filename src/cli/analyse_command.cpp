// `chaiba analyse --pgn FILE`: every move of every game judged by the built-in engine at a fixed
// node budget (engine/search/analysis.h, the same code the page runs): a table per game with the
// evaluation from White's side, centipawn loss and inaccuracy/mistake/blunder marks, then the
// accuracy per side; --format pgn writes the games back with NAGs and [%eval] comments; --format tsv
// is for scripts (tests/oracle/stockfish_analysis_diff.py).
#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "engine/search/analysis.h"
#include "src/cli/args.h"
#include "src/cli/progress.h"
#include "src/cli/rules_cli.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace chaiba::cli {

namespace {

std::string oneDecimal(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", x);
    return text;
}

void printSummary(const char* side, const search::SideSummary& s) {
    std::printf("%s: accuracy %.1f%%, average centipawn loss %.0f, %d inaccuracies, %d mistakes, %d blunders "
                "(%d moves)\n",
                side, s.accuracy, s.averageCpLoss, s.inaccuracies, s.mistakes, s.blunders, s.moves);
}

void printTable(const chess::PgnGame& pgn, const search::GameAnalysis& a) {
    std::printf("%s - %s (%s), %zu plies\n", terminalSafe(pgn.tag("White")).c_str(),
                terminalSafe(pgn.tag("Black")).c_str(), pgn.result.c_str(), pgn.moves.size());
    std::printf("%5s  %-12s %8s %6s  %-10s %s\n", "ply", "move", "eval", "loss", "verdict", "best line");
    chess::Position pos = pgn.start;
    for (std::size_t i = 0; i < pgn.moves.size(); ++i) {
        const chess::Move m = pgn.moves[i];
        const search::MoveQuality& q = a.moves[i];
        std::string label = std::to_string(pos.fullmoveNumber()) +
                            (pos.sideToMove() == chess::Color::White ? ". " : "... ") + chess::toSan(pos, m) +
                            search::judgementSymbol(q.judgement);
        const search::PositionEval& before = a.positions[i];
        const std::string best = q.judgement == search::MoveJudgement::Good ? "" : search::sanLine(pos, before.pv, 4);
        pos.makeMove(m);
        std::printf("%5zu  %-12s %8s %6d  %-10s %s\n", i + 1, label.c_str(),
                    search::formatEval(a.positions[i + 1], pos).c_str(), q.cpLoss,
                    q.judgement == search::MoveJudgement::Good ? "" : search::judgementName(q.judgement),
                    best.c_str());
    }
    printSummary("White", a.sides[0]);
    printSummary("Black", a.sides[1]);
}

void printTsv(std::size_t gameIndex, const chess::PgnGame& pgn, const search::GameAnalysis& a) {
    chess::Position pos = pgn.start;
    for (std::size_t i = 0; i < pgn.moves.size(); ++i) {
        const search::MoveQuality& q = a.moves[i];
        const std::string san = chess::toSan(pos, pgn.moves[i]);
        std::printf("%zu\t%zu\t%s\t%s\t%d\t%d\t%.2f\t%s\n", gameIndex + 1, i + 1, pos.fen().c_str(), san.c_str(),
                    search::clampedCp(a.positions[i]), q.cpLoss, q.winLoss, search::judgementName(q.judgement));
        pos.makeMove(pgn.moves[i]);
    }
}

} // namespace

const Usage& analyseUsage() {
    static const Usage usage{
        "analyse",
        "--pgn FILE [--nodes N] [--depth D] [--format text|pgn|tsv]",
        "judge every move (centipawn loss, ?!/?/??, accuracy) with the built-in engine",
        {{"pgn", "FILE", "the games to judge (required)"},
         {"nodes", "N", "node budget per position, 1000-100000000 (default 150000)"},
         {"depth", "D", "depth limit per position, 1-" + std::to_string(search::kMaxPly - 1) + " (default 12)"},
         {"format", "F", "text (a table per game), pgn (NAGs and [%eval] comments) or tsv (default text)"}},
        ""};
    return usage;
}

int runAnalyseCommand(const std::vector<std::string>& argv) {
    Args args(argv, analyseUsage());
    const long long nodes = args.integer("nodes", 150000, 1000, 100000000);
    const long long depth = args.integer("depth", 12, 1, search::kMaxPly - 1);
    if (args.error()) return fail(*args.error(), kExitBadInput);
    const std::string format = args.value("format").value_or("text");
    if (!args.value("pgn") || !args.positional().empty() || (format != "text" && format != "pgn" && format != "tsv"))
        return failUsage(analyseUsage());
    std::ifstream in(*args.value("pgn"), std::ios::binary);
    if (!in) return fail("cannot read " + *args.value("pgn"), kExitBadInput);
    std::ostringstream text;
    text << in.rdbuf();
    const chess::PgnReadResult read = chess::readPgn(text.str());
    if (!read.ok()) return fail(read.error, kExitBadInput);
    search::AnalysisBudget budget;
    budget.maxNodes = static_cast<uint64_t>(nodes);
    budget.maxDepth = static_cast<int>(depth);
    if (format == "text")
        std::printf("Analysis by the built-in engine: %llu nodes, depth <= %d per position, scores from White's side\n",
                    static_cast<unsigned long long>(budget.maxNodes), budget.maxDepth);
    TerminalProgress live("analyse", 0, static_cast<int>(read.games.size()));
    for (std::size_t g = 0; g < read.games.size(); ++g) {
        live.update(static_cast<int>(g));
        chess::PgnGame pgn = read.games[g];
        const search::GameAnalysis a = search::analyseGame(pgn.start, pgn.moves, budget);
        live.clear();
        if (format == "tsv") {
            printTsv(g, pgn, a);
        } else if (format == "pgn") {
            search::annotatePgn(pgn, a);
            pgn.setTag("WhiteAccuracy", oneDecimal(a.sides[0].accuracy));
            pgn.setTag("BlackAccuracy", oneDecimal(a.sides[1].accuracy));
            std::printf("%s\n", chess::writePgn(pgn).c_str());
        } else {
            std::printf("\nGame %zu: ", g + 1);
            printTable(pgn, a);
        }
    }
    return kExitOk;
}

} // namespace chaiba::cli
