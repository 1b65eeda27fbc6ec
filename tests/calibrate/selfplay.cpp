// Self-play match between two builds of the built-in engine's search in one process: engine A and
// engine B differ only by their SearchFeature bits and node (or time) budgets, so a technique is
// measured by A = with it, B = without it. Openings: the arena's suite (assets/chess/openings)
// plus a few seeded random plies among near-best moves, each opening played with both colours.
// With --stockfish, engine B is Debian's stockfish at a fixed UCI_Elo instead (the calibration
// games of a level, printed as `chaiba calibrate --fit` reads them; src/cli/engine_process.cpp
// runs it). tests/calibrate/selfplay.sh builds and runs it.
#include "engine/chess/game.h"
#include "engine/search/board_glue.h"
#include "engine/search/elo_fit.h"
#include "engine/search/levels.h"
#include "engine/search/player.h"
#include "src/cli/engine_process.h"
#include "tests/calibrate/opening_suite.h"
#include "tests/calibrate/tool_options.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace chaiba;

namespace {

struct Side {
    search::LevelSpec spec{};
    cli::EngineProcess* stockfish = nullptr; // B only: stockfish plays this side
    int stockfishMs = 0;    // a fixed time a move, or
    int64_t stockfishNodes = 0; // a fixed node count a move, or
    int stockfishDepth = 0; // a fixed depth (the default: where its UCI_Elo mode picks its move)
    int64_t moveTimeMs = 0;
    uint64_t nodes = 0;
    double ms = 0;
    int moves = 0;
};

struct Options {
    int games = 100;
    uint64_t seed = 1;
    int bookPlies = 4;
    int maxPlies = 300;
    int openingOffset = 0; // the first game's opening: lets short runs (resumable) walk the suite
    std::string openings = "assets/chess/openings/classical.json";
};

const char* kUsage =
    "usage: selfplay [--a-features MASK] [--a-nodes N] [--a-ms MS] [--a-hash MB]\n"
    "                [--b-features MASK] [--b-nodes N] [--b-ms MS] [--b-hash MB]\n"
    "                [--games G] [--seed S] [--book-plies K] [--openings FILE] [--opening-offset N]\n"
    "                [--level L] [--stockfish PATH --sf-elo E [--sf-ms MS | --sf-nodes N]]\n"
    "Plays G games of engine A against engine B (pairs of games on one opening, colours swapped)\n"
    "and prints A's W/D/L, score and Elo difference with a 95% interval. MASK: SearchFeature bits\n"
    "(0 = the classic search of levels 1-7); default budget 20000 nodes a move. --level L: A is\n"
    "level L's recipe. --stockfish: B is stockfish at UCI_Elo E, MS ms a move, or by default\n"
    "`go depth D` with D = 1 + int(((E - 1346.6) / 143.4)^(1 / 0.806)), the depth at which\n"
    "stockfish 15.1's UCI_Elo mode picks its move: its strength then does not depend on the load.\n";

// The opening of pair `pair`: a line of the suite, then `plies` moves drawn among those within
// 30 cp of the best at depth 2 (classic search), the same for both games of the pair.
bool openingGame(chess::Game& game, const std::vector<std::vector<std::string>>& suite, int pair, int plies,
                 uint64_t seed) {
    for (const auto& m : suite[static_cast<std::size_t>(pair) % suite.size()]) {
        const auto mv = search::glue::parseUciMove(game.position(), m, false);
        if (!mv) return false;
        game.play(*mv);
    }
    search::SplitMix64 rng(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(pair) * 7919);
    search::Searcher searcher(4);
    for (int i = 0; i < plies; ++i) {
        chess::Position pos = game.position();
        search::SearchLimits limits;
        auto scored = searcher.scoreRootMoves(pos, 2, limits);
        if (scored.empty()) return false;
        std::stable_sort(scored.begin(), scored.end(),
                         [](const auto& a, const auto& b) { return a.score > b.score; });
        std::size_t n = 0;
        while (n < scored.size() && scored[n].score >= scored.front().score - 30) ++n;
        game.play(scored[rng.below(n)].move);
    }
    return true;
}

// A's score in one game: 1, 0.5 or 0.
double playGame(Side& a, Side& b, bool aWhite, const chess::Game& opening, const Options& o, uint64_t gameSeed) {
    chess::Game game = opening;
    search::Searcher sa(a.spec.hashMb), sb(b.spec.hashMb);
    int lopsided = 0; // plies in a row where both sides agreed one side is winning by far
    for (int ply = 0; ply < o.maxPlies; ++ply) {
        const chess::GameStatus status = game.status();
        if (chess::isGameOver(status) || chess::isClaimable(status)) {
            if (status != chess::GameStatus::Checkmate) return 0.5;
            const bool whiteMated = game.position().sideToMove() == chess::Color::White;
            return whiteMated == aWhite ? 0.0 : 1.0;
        }
        const bool whiteToMove = game.position().sideToMove() == chess::Color::White;
        Side& side = whiteToMove == aWhite ? a : b;
        if (side.stockfish) {
            std::string cmd = "position fen " + opening.position().fen() + " moves";
            chess::Position replay = opening.position();
            for (std::size_t i = opening.moves().size(); i < game.moves().size(); ++i) {
                cmd += " " + search::glue::moveToUci(replay, game.moves()[i], false);
                replay.makeMove(game.moves()[i]);
            }
            side.stockfish->send(cmd);
            side.stockfish->send(side.stockfishMs      ? "go movetime " + std::to_string(side.stockfishMs)
                                 : side.stockfishNodes ? "go nodes " + std::to_string(side.stockfishNodes)
                                                       : "go depth " + std::to_string(side.stockfishDepth));
            const auto line = side.stockfish->waitFor("bestmove", side.stockfishMs * 20 + 600000);
            if (!line) return -1;
            std::istringstream in(*line);
            std::string word, uci;
            in >> word >> uci;
            const auto mv = search::glue::parseUciMove(game.position(), uci, false);
            if (!mv) return -1;
            game.play(*mv);
            lopsided = 0;
            continue;
        }
        search::SearchLimits limits;
        limits.moveTimeMs = side.moveTimeMs;
        const auto t0 = std::chrono::steady_clock::now();
        const auto c = search::chooseMove(game, side.spec, gameSeed + static_cast<uint64_t>(ply), limits,
                                          whiteToMove == aWhite ? &sa : &sb);
        side.ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        side.nodes += c.nodes;
        ++side.moves;
        if (!c.hasMove) return 0.5;
        // Adjudication: 8 plies in a row scored beyond 1000 cp by the side to move's view, same
        // winner, end the game (both engines see it).
        const bool moverWinning = c.score > 1000, moverLosing = c.score < -1000;
        if (moverWinning || moverLosing) {
            ++lopsided;
            if (lopsided >= 8) {
                const bool whiteWins = whiteToMove == moverWinning;
                return whiteWins == aWhite ? 1.0 : 0.0;
            }
        } else {
            lopsided = 0;
        }
        game.play(c.move);
    }
    return 0.5;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    Side a, b;
    for (Side* s : {&a, &b}) {
        s->spec.level = 99;
        s->spec.name = "selfplay";
        s->spec.maxDepth = 64;
        s->spec.maxNodes = 20000;
        s->spec.hashMb = 16;
        s->spec.searchFeatures = search::kSearchClassic;
    }
    std::string stockfishPath;
    int sfElo = 0;
    int level = -1;
    const auto stop = calibrate::readOptions(argc, argv, kUsage,
                                             [&](const std::string& k, const std::string& v, long long n) {
                                                 if (k == "--a-features")
                                                     a.spec.searchFeatures = static_cast<uint32_t>(n);
                                                 else if (k == "--b-features")
                                                     b.spec.searchFeatures = static_cast<uint32_t>(n);
                                                 else if (k == "--a-nodes")
                                                     a.spec.maxNodes = static_cast<uint64_t>(n);
                                                 else if (k == "--b-nodes")
                                                     b.spec.maxNodes = static_cast<uint64_t>(n);
                                                 else if (k == "--a-ms")
                                                     a.moveTimeMs = n;
                                                 else if (k == "--b-ms")
                                                     b.moveTimeMs = n;
                                                 else if (k == "--a-hash")
                                                     a.spec.hashMb = static_cast<std::size_t>(n);
                                                 else if (k == "--b-hash")
                                                     b.spec.hashMb = static_cast<std::size_t>(n);
                                                 else if (k == "--games")
                                                     o.games = static_cast<int>(n);
                                                 else if (k == "--seed")
                                                     o.seed = static_cast<uint64_t>(n);
                                                 else if (k == "--book-plies")
                                                     o.bookPlies = static_cast<int>(n);
                                                 else if (k == "--openings")
                                                     o.openings = v;
                                                 else if (k == "--opening-offset")
                                                     o.openingOffset = static_cast<int>(n);
                                                 else if (k == "--stockfish")
                                                     stockfishPath = v;
                                                 else if (k == "--sf-elo")
                                                     sfElo = static_cast<int>(n);
                                                 else if (k == "--sf-ms")
                                                     b.stockfishMs = static_cast<int>(n);
                                                 else if (k == "--sf-nodes")
                                                     b.stockfishNodes = static_cast<int64_t>(n);
                                                 else if (k == "--level")
                                                     level = static_cast<int>(n);
                                                 else
                                                     return false;
                                                 return true;
                                             });
    if (stop) return *stop;
    if (level >= 0) {
        const auto spec = search::levelSpec(level);
        if (!spec) {
            std::fprintf(stderr, "error: no level %d\n", level);
            return 2;
        }
        a.spec = *spec;
    }
    cli::EngineProcess stockfish;
    if (!stockfishPath.empty()) {
        if (sfElo < 1350 || sfElo > 2850) {
            std::fprintf(stderr, "error: --sf-elo must be 1350..2850\n");
            return 2;
        }
        if (auto error = stockfish.start(stockfishPath)) {
            std::fprintf(stderr, "error: %s\n", error->c_str());
            return 1;
        }
        for (const char* option : {"Threads value 1", "Hash value 16", "UCI_LimitStrength value true"})
            stockfish.send(std::string("setoption name ") + option);
        stockfish.send("setoption name UCI_Elo value " + std::to_string(sfElo));
        // Stockfish 15.1 (search.cpp, Skill): level = ((Elo - 1346.6) / 143.4)^(1 / 0.806), clamped
        // to [0, 20]; the weakened move is picked when iterative deepening reaches 1 + int(level).
        const double skill = std::clamp(std::pow((sfElo - 1346.6) / 143.4, 1 / 0.806), 0.0, 20.0);
        b.stockfishDepth = 1 + static_cast<int>(skill);
        b.stockfish = &stockfish;
        o.maxPlies = 400; // as `chaiba calibrate`; no adjudication by our own scores against stockfish
    }
    const auto suite = calibrate::readOpenings(o.openings);
    if (suite.empty()) {
        std::fprintf(stderr, "error: no openings read from %s\n", o.openings.c_str());
        return 2;
    }
    int w = 0, d = 0, l = 0;
    for (int g = 0; g < o.games; ++g) {
        chess::Game opening;
        if (!openingGame(opening, suite, o.openingOffset + g / 2, o.bookPlies, o.seed)) {
            std::fprintf(stderr, "error: opening %d\n", g / 2);
            return 1;
        }
        const bool aWhite = g % 2 == 0;
        if (b.stockfish) {
            stockfish.send("ucinewgame");
            stockfish.send("isready");
            stockfish.waitFor("readyok", 10000);
        }
        const double r = playGame(a, b, aWhite, opening, o, o.seed * 1000003 + static_cast<uint64_t>(g) * 1009);
        if (r < 0) {
            std::fprintf(stderr, "error: game %d: stockfish did not answer with a legal move\n", g + 1);
            return 1;
        }
        (r > 0.75 ? w : r < 0.25 ? l : d) += 1;
        std::printf("game %d: A as %s: %s  (A %d-%d-%d)\n", g + 1, aWhite ? "white" : "black",
                    r > 0.75 ? "win" : r < 0.25 ? "loss" : "draw", w, d, l);
        std::fflush(stdout);
    }
    const search::AnchorResult res[] = {{0.0, w, d, l}};
    const auto e = search::fitElo(res);
    std::printf("A: features=%u nodes=%llu ms=%lld: %.0f nodes/move, %.1f ms/move, %.0f knps\n",
                a.spec.searchFeatures, static_cast<unsigned long long>(a.spec.maxNodes),
                static_cast<long long>(a.moveTimeMs), a.moves ? double(a.nodes) / a.moves : 0.0,
                a.moves ? a.ms / a.moves : 0.0, a.ms > 0 ? double(a.nodes) / a.ms : 0.0);
    std::printf("B: features=%u nodes=%llu ms=%lld: %.0f nodes/move, %.1f ms/move, %.0f knps\n",
                b.spec.searchFeatures, static_cast<unsigned long long>(b.spec.maxNodes),
                static_cast<long long>(b.moveTimeMs), b.moves ? double(b.nodes) / b.moves : 0.0,
                b.moves ? b.ms / b.moves : 0.0, b.ms > 0 ? double(b.nodes) / b.ms : 0.0);
    if (b.stockfish) {
        const std::string how = b.stockfishMs      ? "movetime " + std::to_string(b.stockfishMs)
                                : b.stockfishNodes ? "nodes " + std::to_string(b.stockfishNodes)
                                                   : "depth " + std::to_string(b.stockfishDepth);
        std::printf("# stockfish %s\n", how.c_str());
        std::printf("time level=%d moves=%d avg_ms=%.0f\n", level, a.moves, a.moves ? a.ms / a.moves : 0.0);
        std::printf("result level=%d anchor=stockfish:%d wins=%d draws=%d losses=%d\n", level, sfElo, w, d, l);
    }
    std::printf("selfplay games=%d seed=%llu book-plies=%d: A W/D/L %d/%d/%d, score %.1f%%, Elo %s\n", o.games,
                static_cast<unsigned long long>(o.seed), o.bookPlies, w, d, l,
                100.0 * (w + 0.5 * d) / std::max(1, w + d + l), e ? search::eloEstimateText(*e).c_str() : "-");
    return 0;
}
