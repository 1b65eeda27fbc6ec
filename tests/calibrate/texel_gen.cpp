// Texel tuning data: quiet positions from seeded self-play games of the built-in engine, each
// labelled by Debian's stockfish at a small fixed depth (and the game's result). Reproducible:
// the same options give the same file (the engine plays by node caps, stockfish single-threaded
// at a fixed depth in the same order). tests/calibrate/texel_tune.sh builds and runs it.
//
// Output, one position a line:  FEN;STOCKFISH_CP_WHITE;RESULT_WHITE (1, 0.5 or 0)
#include "engine/chess/game.h"
#include "engine/search/board_glue.h"
#include "engine/search/player.h"
#include "src/cli/engine_process.h"
#include "tests/calibrate/opening_suite.h"
#include "tests/calibrate/tool_options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace chaiba;

namespace {

struct Options {
    int games = 800;
    uint64_t seed = 1;
    uint64_t nodes = 2000; // the self-play engine's budget a move
    // The self-play engine's SearchFeature bits: by default the classic search, whose moves are
    // pinned by `chaiba bench`, so a tuned full evaluation does not change the data set.
    uint32_t features = 0;
    int randomPlies = 8;    // after the suite's line: near-best moves drawn at random
    int keepPermille = 500; // chance that a quiet position is kept
    int depth = 8;          // stockfish's depth for the label
    std::string stockfish = "/usr/games/stockfish";
    std::string openings = "assets/chess/openings/classical.json";
    std::string out = "build/engine/texel_positions.txt";
};

const char* kUsage =
    "usage: texel_gen [--games G] [--seed S] [--nodes N] [--features MASK] [--random-plies K]\n"
    "                 [--keep-permille P] [--depth D] [--stockfish PATH] [--openings FILE] [--out FILE]\n"
    "Plays G seeded self-play games (the search with SearchFeature bits MASK, default 0, the classic\n"
    "search, at N nodes a move; the suite's openings\n"
    "plus K random near-best plies), keeps quiet positions (not in check, the move played and\n"
    "stockfish's best move neither a capture nor a promotion) with chance P/1000, and writes each\n"
    "with stockfish's score at depth D (centipawns, White's view) and the game's result.\n";

struct Candidate {
    std::string fen;
    bool whiteToMove = true;
};

// Stockfish's score (side to move) at the depth, and whether its best move is quiet.
struct Label {
    bool ok = false;
    int cp = 0;
    bool bestQuiet = false;
};

Label labelPosition(cli::EngineProcess& sf, const std::string& fen, int depth) {
    Label label;
    sf.send("position fen " + fen);
    sf.send("go depth " + std::to_string(depth));
    bool mate = false;
    for (;;) {
        const auto line = sf.readLine(120000);
        if (!line) return label;
        if (line->rfind("info", 0) == 0) {
            const std::size_t at = line->find(" score ");
            if (at == std::string::npos) continue;
            std::istringstream in(line->substr(at + 7));
            std::string kind;
            int value = 0;
            in >> kind >> value;
            if (kind == "cp") {
                label.cp = value;
                mate = false;
            } else if (kind == "mate") {
                mate = true;
            }
            continue;
        }
        if (line->rfind("bestmove", 0) == 0) {
            std::istringstream in(*line);
            std::string word, uci;
            in >> word >> uci;
            const auto parsed = chess::Position::fromFen(fen, false);
            if (!parsed.ok()) return label;
            const auto mv = search::glue::parseUciMove(*parsed.position, uci, false);
            label.bestQuiet = mv && !search::glue::isCaptureOrPromotion(*parsed.position, *mv);
            label.ok = !mate;
            return label;
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    const auto stop = calibrate::readOptions(argc, argv, kUsage,
                                             [&o](const std::string& k, const std::string& v, long long n) {
                                                 if (k == "--games")
                                                     o.games = static_cast<int>(n);
                                                 else if (k == "--seed")
                                                     o.seed = static_cast<uint64_t>(n);
                                                 else if (k == "--nodes")
                                                     o.nodes = static_cast<uint64_t>(n);
                                                 else if (k == "--features")
                                                     o.features = static_cast<uint32_t>(n);
                                                 else if (k == "--random-plies")
                                                     o.randomPlies = static_cast<int>(n);
                                                 else if (k == "--keep-permille")
                                                     o.keepPermille = static_cast<int>(n);
                                                 else if (k == "--depth")
                                                     o.depth = static_cast<int>(n);
                                                 else if (k == "--stockfish")
                                                     o.stockfish = v;
                                                 else if (k == "--openings")
                                                     o.openings = v;
                                                 else if (k == "--out")
                                                     o.out = v;
                                                 else
                                                     return false;
                                                 return true;
                                             });
    if (stop) return *stop;
    const auto suite = calibrate::readOpenings(o.openings);
    if (suite.empty()) {
        std::fprintf(stderr, "error: no openings read from %s\n", o.openings.c_str());
        return 2;
    }
    cli::EngineProcess sf;
    if (auto error = sf.start(o.stockfish)) {
        std::fprintf(stderr, "error: %s\n", error->c_str());
        return 1;
    }
    sf.send("setoption name Threads value 1");
    sf.send("setoption name Hash value 16");
    std::ofstream out(o.out);
    if (!out) {
        std::fprintf(stderr, "error: cannot write %s\n", o.out.c_str());
        return 1;
    }
    search::LevelSpec spec;
    spec.level = 99;
    spec.name = "texel";
    spec.maxDepth = 64;
    spec.maxNodes = o.nodes;
    spec.hashMb = 4;
    spec.searchFeatures = o.features;
    search::Searcher searcher(4);
    long written = 0;
    for (int g = 0; g < o.games; ++g) {
        search::SplitMix64 rng(o.seed * 0x9E3779B97F4A7C15ull +
                               static_cast<uint64_t>(g) * 0xD1B54A32D192ED03ull);
        chess::Game game;
        bool ok = true;
        for (const auto& m : suite[static_cast<std::size_t>(g) % suite.size()]) {
            const auto mv = search::glue::parseUciMove(game.position(), m, false);
            if (!mv) ok = false;
            if (!ok) break;
            game.play(*mv);
        }
        // Random plies: any move within 60 cp of the best at depth 1, so openings fan out.
        for (int i = 0; ok && i < o.randomPlies; ++i) {
            chess::Position pos = game.position();
            auto scored = searcher.scoreRootMoves(pos, 1, search::SearchLimits{});
            if (scored.empty()) ok = false;
            if (!ok) break;
            std::stable_sort(scored.begin(), scored.end(),
                             [](const auto& a, const auto& b) { return a.score > b.score; });
            std::size_t n = 0;
            while (n < scored.size() && scored[n].score >= scored.front().score - 60) ++n;
            game.play(scored[rng.below(n)].move);
        }
        if (!ok) continue;
        std::vector<Candidate> kept;
        double whiteScore = 0.5;
        int lopsided = 0;
        for (int ply = 0; ply < 300; ++ply) {
            const chess::GameStatus status = game.status();
            if (chess::isGameOver(status) || chess::isClaimable(status)) {
                if (status == chess::GameStatus::Checkmate)
                    whiteScore = game.position().sideToMove() == chess::Color::White ? 0.0 : 1.0;
                break;
            }
            const auto c = search::chooseMove(game, spec, o.seed + static_cast<uint64_t>(g) * 1009 + ply);
            if (!c.hasMove) break;
            const chess::Position& pos = game.position();
            if (!pos.inCheck() && !search::glue::isCaptureOrPromotion(pos, c.move) &&
                static_cast<int>(rng.below(1000)) < o.keepPermille)
                kept.push_back({pos.fen(), pos.sideToMove() == chess::Color::White});
            // The same adjudication as selfplay.cpp: 8 plies in a row beyond 1000 cp.
            if (c.score > 1000 || c.score < -1000) {
                if (++lopsided >= 8) {
                    const bool whiteToMove = pos.sideToMove() == chess::Color::White;
                    whiteScore = (whiteToMove == (c.score > 0)) ? 1.0 : 0.0;
                    break;
                }
            } else {
                lopsided = 0;
            }
            game.play(c.move);
        }
        for (const auto& cand : kept) {
            const Label label = labelPosition(sf, cand.fen, o.depth);
            if (!label.ok || !label.bestQuiet || std::abs(label.cp) > 3000) continue;
            const int whiteCp = cand.whiteToMove ? label.cp : -label.cp;
            out << cand.fen << ';' << whiteCp << ';' << whiteScore << '\n';
            ++written;
        }
        out.flush();
        if (!out) { // a full disk, or a reader that stopped (nnue_train.sh cuts the stream with head)
            std::fprintf(stderr, "error: cannot write %s after %ld positions\n", o.out.c_str(), written);
            return 1;
        }
        if ((g + 1) % 20 == 0) std::fprintf(stderr, "games %d/%d, positions %ld\n", g + 1, o.games, written);
    }
    std::fprintf(stderr, "done: %ld positions in %s\n", written, o.out.c_str());
    return 0;
}
