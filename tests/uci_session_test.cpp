// UCI conversations held in-process through string streams.
#include "src/cli/uci_session.h"

#include "engine/search/board_glue.h"
#include "engine/search/levels.h"

#include <doctest/doctest.h>
#include <chrono>
#include <future>
#include <sstream>
#include <string>
#include <vector>

using namespace chaiba::cli;

namespace {

std::string converse(const std::string& script) {
    std::istringstream in(script);
    std::ostringstream out;
    runUci(in, out);
    return out.str();
}

std::string lastLineStartingWith(const std::string& text, const std::string& prefix) {
    std::istringstream in(text);
    std::string found;
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) found = line;
    return found;
}

} // namespace

TEST_CASE("uci: handshake lists the options") {
    const auto out = converse("uci\nisready\nquit\n");
    CHECK(out.find("id name CHAIBA") != std::string::npos);
    CHECK(out.find("option name Level type spin") != std::string::npos);
    CHECK(out.find("option name UCI_Chess960 type check default false") != std::string::npos);
    CHECK(out.find("option name Hash type spin") != std::string::npos);
    CHECK(out.find("uciok\nreadyok\n") != std::string::npos);
}

TEST_CASE("uci: go depth finds the mate and reports it") {
    const auto out = converse("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo depth 3\n");
    CHECK(lastLineStartingWith(out, "bestmove") == "bestmove d1d8");
    CHECK(out.find("score mate 1") != std::string::npos);
}

TEST_CASE("uci: position startpos moves, go nodes") {
    const auto out = converse("ucinewgame\nposition startpos moves e2e4 e7e5 g1f3\ngo nodes 5000\nisready\n");
    const auto best = lastLineStartingWith(out, "bestmove");
    REQUIRE(best.size() >= 13);
    // Black to move after 1.e4 e5 2.Nf3: a black piece moves from rank 7 or 8.
    CHECK((best[10] == '7' || best[10] == '8'));
    CHECK(out.find("readyok") != std::string::npos);
}

TEST_CASE("uci: errors are reported, not fatal") {
    const auto out =
        converse("position fen not a fen\nposition startpos moves e2e5\nsetoption name Level value 99\n"
                 "frobnicate\ngo depth 1\n");
    CHECK(out.find("info string error: bad FEN") != std::string::npos);
    CHECK(out.find("info string error: illegal move e2e5") != std::string::npos);
    CHECK(out.find("info string error: Level must be") != std::string::npos);
    CHECK(out.find("info string unknown command: frobnicate") != std::string::npos);
    CHECK(lastLineStartingWith(out, "bestmove").size() >= 13);
}

TEST_CASE("uci: go infinite answers only after stop") {
    std::ostringstream out;
    UciSession session(out);
    session.handleLine("position startpos");
    session.handleLine("go infinite");
    session.handleLine("isready");
    session.handleLine("stop");
    const auto text = out.str();
    CHECK(text.find("readyok") != std::string::npos);
    CHECK(lastLineStartingWith(text, "bestmove").size() >= 13);
    CHECK(text.find("readyok") < text.find("bestmove"));
}

TEST_CASE("uci: levels and Chess960 castling") {
    auto out = converse("setoption name Level value 0\nposition startpos\ngo depth 5\n");
    CHECK(lastLineStartingWith(out, "bestmove").size() >= 13);
    // Chess960: king on g1, rook on h1, f1 empty: castling is written king-takes-rook (g1h1).
    out =
        converse("setoption name UCI_Chess960 value true\n"
                 "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BN1KR w Hhf - 2 9 moves g1h1\n"
                 "go depth 1\n");
    CHECK(out.find("error") == std::string::npos);
    CHECK(lastLineStartingWith(out, "bestmove").size() >= 13);
}

TEST_CASE("uci: clock-based go and the Hash option") {
    const auto out = converse("setoption name Hash value 8\nposition startpos moves d2d4\n"
                              "go wtime 300 btime 300 winc 10 binc 10\n");
    CHECK(out.find("error") == std::string::npos);
    CHECK(out.find("unknown") == std::string::npos);
    const auto best = lastLineStartingWith(out, "bestmove");
    REQUIRE(best.size() >= 13);
    CHECK((best[10] == '7' || best[10] == '8')); // a black move
    CHECK(converse("setoption name Hash value 0\n").find("info string error: Hash") != std::string::npos);
}

TEST_CASE("uci: a bare go at full strength plays the strongest level's node budget") {
    // Without depth, nodes, movetime, a clock or infinite, the search stops by itself after the
    // strongest level's budget (it used to search until `stop`).
    const auto out = converse("position startpos moves e2e4\ngo\n");
    const auto best = lastLineStartingWith(out, "bestmove");
    REQUIRE(best.size() >= 13);
    const auto info = lastLineStartingWith(out, "info depth");
    const auto at = info.find(" nodes ");
    REQUIRE(at != std::string::npos);
    const unsigned long long nodes = std::stoull(info.substr(at + 7));
    CHECK(nodes > 0);
    CHECK(nodes <= chaiba::search::levelSpec(chaiba::search::maxLevel())->maxNodes);
}

TEST_CASE("uci: full strength by the GUI's limits searches with the strongest search") {
    // `go depth 6` at full strength: the same tree as the strongest search with the evaluation
    // network on a fresh table of the Hash option's default size (it once searched with the
    // classic search of levels 1-7, then without the network).
    std::ostringstream text;
    UciSession session(text);
    session.handleLine("position startpos moves e2e4");
    session.handleLine("go depth 6");
    session.finishSearch();
    const auto out = text.str();
    const auto info = lastLineStartingWith(out, "info depth 6");
    const auto at = info.find(" nodes ");
    REQUIRE(at != std::string::npos);
    const unsigned long long nodes = std::stoull(info.substr(at + 7));
    auto position = chaiba::search::glue::startPosition();
    const chaiba::chess::Move e4 = *chaiba::search::glue::parseUciMove(position, "e2e4", false);
    position.makeMove(e4);
    std::vector<uint64_t> before{chaiba::search::glue::startPosition().hash()};
    chaiba::search::SearchLimits limits;
    limits.maxDepth = 6;
    limits.priorPositionHashes = &before;
    limits.features = chaiba::search::kSearchStrongest | chaiba::search::kFeatureNnue;
    chaiba::search::Searcher strongest(16);
    CHECK(nodes == strongest.search(position, limits).nodes);
    limits.features = chaiba::search::kSearchStrongest;
    chaiba::search::Searcher noNetwork(16);
    CHECK(nodes != noNetwork.search(position, limits).nodes);
    limits.features = chaiba::search::kSearchClassic;
    chaiba::search::Searcher classic(16);
    CHECK(nodes != classic.search(position, limits).nodes);
}

TEST_CASE("uci: end of input is quit, even under a deep search") {
    // `go depth 99` would search for hours; end of input stops it, and the answer is a move from a
    // completed iteration. (The wait is a hang guard, not a speed check.)
    auto answer = std::async(std::launch::async, [] { return converse("position startpos\ngo depth 99\n"); });
    REQUIRE(answer.wait_for(std::chrono::minutes(2)) == std::future_status::ready);
    const std::string out = answer.get();
    CHECK(lastLineStartingWith(out, "bestmove").size() >= 13);
    CHECK(out.find("info depth 1 ") != std::string::npos);
}

TEST_CASE("uci: stop right after go still answers with a searched move") {
    const auto out = converse("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo infinite\nstop\n");
    CHECK(lastLineStartingWith(out, "bestmove") == "bestmove d1d8");
}
