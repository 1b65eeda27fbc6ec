// `chaiba calibrate`: plays one of our levels against stockfish at a fixed UCI_Elo (or against
// another of our levels) and prints W/D/L; `--fit FILE` turns collected result lines into
// rating estimates. tests/calibrate/calibrate.sh drives the whole ladder.
#include "src/cli/args.h"
#include "src/cli/engine_process.h"
#include "src/cli/progress.h"
#include "src/persist/bounded_read.h"

#include "engine/search/board_glue.h"
#include "engine/search/elo_fit.h"
#include "engine/search/levels.h"
#include "engine/search/player.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace chaiba::cli {

namespace {

// Short, varied openings (UCI moves from the start position); each is played with both colours.
constexpr const char* kOpenings[] = {
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",           // Ruy Lopez
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6", // Sicilian
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",           // Queen's Gambit Declined
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6", // King's Indian
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6",           // French
    "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5",           // Caro-Kann
    "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5",           // English
    "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6",           // Reti
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5",           // Italian
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",           // Queen's Indian
};
constexpr int kMaxPlies = 400;

// The side that is not our level: stockfish in a child process, or another of our levels.
struct Opponent {
    EngineProcess* stockfish = nullptr;
    int stockfishMoveTimeMs = 100;
    const search::LevelSpec* level = nullptr;
    search::Searcher* searcher = nullptr;
};

struct GameResult {
    double ourScore = 0; // 1, 0.5, 0
    std::string reason;
    bool error = false;
};

// Our level's think time: moves it chose (not the opening book's), their wall time, the slowest.
struct ThinkTime {
    int moves = 0;
    double ms = 0;
    double maxMs = 0;
    void add(double moveMs) {
        ++moves;
        ms += moveMs;
        maxMs = std::max(maxMs, moveMs);
    }
    void add(const ThinkTime& other) {
        moves += other.moves;
        ms += other.ms;
        maxMs = std::max(maxMs, other.maxMs);
    }
    double average() const { return moves ? ms / moves : 0.0; }
};

GameResult playGame(const search::LevelSpec& ours, const Opponent& them, bool weAreWhite, int gameIndex,
                    bool chess960, uint64_t seed, search::Searcher& ourSearcher, ThinkTime& time) {
    const int startNumber = static_cast<int>((seed + static_cast<uint64_t>(gameIndex / 2) * 7919) % 960);
    chess::Game game(chess960 ? search::glue::chess960Position(startNumber) : search::glue::startPosition());
    const std::string startFen = game.position().fen();
    std::vector<std::string> played;
    if (!chess960) {
        std::istringstream opening(kOpenings[static_cast<std::size_t>(gameIndex / 2) % std::size(kOpenings)]);
        for (std::string m; opening >> m;) {
            const auto mv = search::glue::parseUciMove(game.position(), m, false);
            if (!mv) return {0, "bad opening move " + m, true};
            game.play(*mv);
            played.push_back(m);
        }
    }
    if (them.stockfish) {
        them.stockfish->send("ucinewgame");
        them.stockfish->send("isready");
        them.stockfish->waitFor("readyok", 10000);
    }
    for (int ply = 0; ply < kMaxPlies; ++ply) {
        // Adjudication by our rules; claimable draws (fifty moves, threefold) are claimed.
        const chess::GameStatus status = game.status();
        if (chess::isGameOver(status) || chess::isClaimable(status)) {
            const bool whiteToMove = game.position().sideToMove() == chess::Color::White;
            double white = 0.5;
            if (status == chess::GameStatus::Checkmate) white = whiteToMove ? 0.0 : 1.0;
            return {weAreWhite ? white : 1 - white, std::string(chess::statusName(status)), false};
        }
        const bool ourTurn = (game.position().sideToMove() == chess::Color::White) == weAreWhite;
        const uint64_t moveSeed =
            seed * 1000003 + static_cast<uint64_t>(gameIndex) * 1009 + static_cast<uint64_t>(ply);
        std::optional<chess::Move> move;
        if (ourTurn || them.level) {
            const auto& spec = ourTurn ? ours : *them.level;
            auto& searcher = ourTurn ? ourSearcher : *them.searcher;
            const auto t0 = std::chrono::steady_clock::now();
            const auto c = search::chooseMove(game, spec, moveSeed, {}, &searcher);
            if (ourTurn)
                time.add(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            if (c.hasMove) move = c.move;
        } else {
            std::string cmd = "position fen " + startFen + " moves";
            for (const auto& m : played) cmd += " " + m;
            them.stockfish->send(cmd);
            them.stockfish->send("go movetime " + std::to_string(them.stockfishMoveTimeMs));
            const auto line = them.stockfish->waitFor("bestmove", them.stockfishMoveTimeMs * 20 + 5000);
            if (!line) return {0, "stockfish did not answer", true};
            std::istringstream in(*line);
            std::string word, uci;
            in >> word >> uci;
            move = search::glue::parseUciMove(game.position(), uci, chess960);
            if (!move) return {0, "stockfish played an illegal move: " + uci, true};
        }
        if (!move) return {0, "no move", true};
        played.push_back(search::glue::moveToUci(game.position(), *move, chess960));
        game.play(*move);
    }
    return {0.5, "move limit", false};
}

// --fit: result lines "result level=L anchor=stockfish:E|level:K wins=W draws=D losses=L".
int fit(const std::string& path) {
    const persist::ReadResult read = persist::readFileBounded(path, persist::kMaxDocumentBytes);
    if (!read.ok()) {
        std::fprintf(stderr, "error: %s\n", read.error.c_str());
        return 2;
    }
    std::istringstream in(read.text);
    struct Row {
        int level;
        bool anchorIsLevel;
        int anchor;
        int w, d, l;
    };
    std::vector<Row> rows;
    for (std::string line; std::getline(in, line);) {
        Row r{};
        char kind[16] = {};
        if (std::sscanf(line.c_str(), "result level=%d anchor=%15[a-z]:%d wins=%d draws=%d losses=%d",
                        &r.level, kind, &r.anchor, &r.w, &r.d, &r.l) == 6) {
            r.anchorIsLevel = std::string(kind) == "level";
            rows.push_back(r);
        }
    }
    std::map<int, search::EloEstimate> rated;
    // Levels rated against stockfish first, then those whose anchors are already-rated levels.
    for (int pass = 0; pass < 8; ++pass) {
        std::map<int, std::vector<search::AnchorResult>> byLevel;
        std::map<int, bool> ready;
        for (const auto& r : rows) {
            if (rated.count(r.level)) continue;
            if (!ready.count(r.level)) ready[r.level] = true;
            double anchorElo = r.anchor;
            if (r.anchorIsLevel) {
                const auto it = rated.find(r.anchor);
                if (it == rated.end() || it->second.unboundedAbove || it->second.unboundedBelow) {
                    ready[r.level] = false;
                    continue;
                }
                anchorElo = it->second.elo;
            }
            byLevel[r.level].push_back({anchorElo, r.w, r.d, r.l});
        }
        bool progress = false;
        for (const auto& [level, results] : byLevel)
            if (ready[level])
                if (auto e = search::fitElo(results)) {
                    rated[level] = *e;
                    progress = true;
                }
        if (!progress) break;
    }
    std::printf("| level | games | score | rating (95%% interval) |\n|---|---|---|---|\n");
    for (const auto& [level, e] : rated)
        std::printf("| %d | %d | %.1f | %s |\n", level, e.games, e.score, search::eloEstimateText(e).c_str());
    return 0;
}

} // namespace

const Usage& calibrateUsage() {
    const std::string levels = "0-" + std::to_string(search::maxLevel());
    static const Usage usage{
        "calibrate",
        "--level L (--elo E | --vs-level K) [--games N] [--movetime-ms M] [--stockfish PATH] [--960] [--seed S]\n"
        "--fit FILE",
        "play a level against stockfish at UCI_Elo E (or another level); fit ratings from the results",
        {{"level", "L", "our engine level to play, " + levels},
         {"elo", "E", "stockfish's UCI_Elo, 1350-2850 (the opponent; or --vs-level)"},
         {"vs-level", "K", "play our level K instead of stockfish, " + levels},
         {"games", "N", "games, colours alternating over 10 openings, 1-10000 (default 2)"},
         {"movetime-ms", "M", "stockfish's time per move in ms, 1-60000 (default 100)"},
         {"stockfish", "PATH", "the stockfish binary (default /usr/games/stockfish)"},
         {"seed", "S", "our engine's seed (default 1)"},
         {"960", "", "play Chess960 openings"},
         {"fit", "FILE", "read `result level=...` lines from FILE and print a rating per level"}},
        "A line per game, then `time level=...` and `result level=L anchor=... wins=W draws=D losses=L`.\n"
        "tests/calibrate/calibrate.sh drives the whole ladder."};
    return usage;
}

int runCalibrateCommand(const std::vector<std::string>& argv) {
    Args args(argv, calibrateUsage());
    if (args.error()) {
        std::fprintf(stderr, "error: %s\n", args.error()->c_str());
        return 2;
    }
    if (auto file = args.value("fit")) return fit(*file);
    const int level = static_cast<int>(args.integer("level", -1, 0, search::maxLevel()));
    const int elo = static_cast<int>(args.integer("elo", 0, 1350, 2850));
    const int vsLevel = static_cast<int>(args.integer("vs-level", -1, 0, search::maxLevel()));
    const int games = static_cast<int>(args.integer("games", 2, 1, 10000));
    const int moveTimeMs = static_cast<int>(args.integer("movetime-ms", 100, 1, 60000));
    const uint64_t seed = static_cast<uint64_t>(args.integer("seed", 1, 0, 1LL << 62));
    const std::string stockfishPath = args.value("stockfish").value_or("/usr/games/stockfish");
    const bool chess960 = args.has("960");
    if (args.error()) {
        std::fprintf(stderr, "error: %s\n", args.error()->c_str());
        return 2;
    }
    if (level < 0 || (elo == 0) == (vsLevel < 0)) {
        std::fprintf(stderr,
                     "error: need --level L and exactly one of --elo E (1350..2850) or --vs-level K\n");
        return 2;
    }
    const search::LevelSpec ours = *search::levelSpec(level);
    EngineProcess stockfish;
    search::Searcher ourSearcher(16);
    search::Searcher theirSearcher(16);
    search::LevelSpec theirLevel{};
    Opponent them;
    std::string anchor;
    if (vsLevel >= 0) {
        theirLevel = *search::levelSpec(vsLevel);
        them.level = &theirLevel;
        them.searcher = &theirSearcher;
        anchor = "level:" + std::to_string(vsLevel);
    } else {
        if (auto error = stockfish.start(stockfishPath)) {
            std::fprintf(stderr, "error: %s\n", error->c_str());
            return 1;
        }
        stockfish.send("setoption name Threads value 1");
        stockfish.send("setoption name Hash value 16");
        stockfish.send("setoption name UCI_LimitStrength value true");
        stockfish.send("setoption name UCI_Elo value " + std::to_string(elo));
        if (chess960) stockfish.send("setoption name UCI_Chess960 value true");
        them.stockfish = &stockfish;
        them.stockfishMoveTimeMs = moveTimeMs;
        anchor = "stockfish:" + std::to_string(elo);
    }
    int wins = 0, draws = 0, losses = 0;
    ThinkTime total;
    TerminalProgress live("calibrate", 0, games);
    for (int g = 0; g < games; ++g) {
        live.update(g);
        const bool weAreWhite = g % 2 == 0;
        ThinkTime time;
        const auto r = playGame(ours, them, weAreWhite, g, chess960, seed, ourSearcher, time);
        live.clear();
        if (r.error) {
            std::fprintf(stderr, "error: game %d: %s\n", g + 1, r.reason.c_str());
            return 1;
        }
        if (r.ourScore > 0.75)
            ++wins;
        else if (r.ourScore < 0.25)
            ++losses;
        else
            ++draws;
        total.add(time);
        std::printf("game %d: level %d as %s vs %s: %s (%s); level %d: %d moves, %.0f ms/move, max %.0f ms\n",
                    g + 1, level, weAreWhite ? "white" : "black", anchor.c_str(),
                    r.ourScore > 0.75   ? "win"
                    : r.ourScore < 0.25 ? "loss"
                                        : "draw",
                    r.reason.c_str(), level, time.moves, time.average(), time.maxMs);
        std::fflush(stdout);
    }
    std::printf("time level=%d moves=%d avg_ms=%.0f max_ms=%.0f\n", level, total.moves, total.average(),
                total.maxMs);
    std::printf("result level=%d anchor=%s wins=%d draws=%d losses=%d\n", level, anchor.c_str(), wins, draws,
                losses);
    return 0;
}

} // namespace chaiba::cli
