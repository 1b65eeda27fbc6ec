// PGN: reading the fixtures in tests/data/pgn (good and broken), writing, and round trips.
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "tests/chess_test_util.h"

#include <doctest/doctest.h>

#include <random>

using namespace chaiba::chess;
using chaiba::test::dataPath;
using chaiba::test::readFile;

namespace {
std::string errorOf(const char* file) {
    return readPgn(readFile(dataPath(std::string("pgn/") + file))).error;
}
} // namespace

TEST_CASE("rules pgn: multi-game file with comments, NAGs, variations, escapes and Chess960") {
    const PgnReadResult r = readPgn(readFile(dataPath("pgn/games.pgn")));
    REQUIRE_MESSAGE(r.ok(), r.error);
    REQUIRE(r.games.size() == 3);
    const PgnGame& opera = r.games[0];
    CHECK(opera.tag("White") == "Morphy, Paul");
    CHECK(opera.tag("ECO") == "C41");
    CHECK(opera.moves.size() == 33);
    CHECK(opera.result == "1-0");
    CHECK(opera.preComment == "Philidor Defence.");
    CHECK(opera.comments[5] == "A dubious pin.");
    const Game g = toGame(opera);
    CHECK(g.status() == GameStatus::Checkmate);
    CHECK(g.result() == "1-0");
    CHECK(g.position().fen() == "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17");

    const PgnGame& endgame = r.games[1];
    CHECK(endgame.start.fen() == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    CHECK(endgame.moves.size() == 6);
    CHECK(endgame.comments[5] == "and the king holds. Braces (like these) are fine.");

    const PgnGame& fischer = r.games[2];
    CHECK(fischer.start.isChess960());
    REQUIRE(fischer.moves.size() == 7);
    CHECK(fischer.moves[4].isCastling());
    CHECK(toUci(fischer.start, fischer.moves[4]) == "e1h1"); // king takes rook in Chess960 mode
    CHECK(toGame(fischer).position().fen() ==
          "rbbq1rk1/pppppppp/4nn2/8/3P4/4NN2/PPP1PPPP/RBBQ1RK1 b - - 0 4");
}

TEST_CASE("rules pgn: from a Game") {
    Game g;
    for (const char* san : {"f3", "e5", "g4", "Qh4#"}) g.play(parseSan(g.position(), san).move);
    const PgnGame pgn = pgnFromGame(g);
    CHECK(pgn.result == "0-1");
    CHECK(pgn.tag("Termination") == "checkmate");
    const std::string text = writePgn(pgn);
    CHECK(text.find("1. f3 e5 2. g4 Qh4# 0-1\n") != std::string::npos);
    CHECK(text.find("[Result \"0-1\"]") != std::string::npos);
}

TEST_CASE("rules pgn: broken files name the game and the move") {
    CHECK(errorOf("broken_illegal_move.pgn") ==
          "game 2 (Carlsen - Nakamura), move 2. Ke3: Ke3 is not legal: no king of yours can reach e3");
    CHECK(errorOf("broken_unterminated_comment.pgn") == "game 1: unterminated comment");
    CHECK(errorOf("broken_tag.pgn") == "game 1: unterminated tag value for Event");
    CHECK(errorOf("broken_result_mismatch.pgn") ==
          "game 1 (A - B): Result tag 1-0 differs from the movetext result 0-1");
    CHECK(errorOf("broken_fen.pgn") ==
          "game 1 (A - B): bad FEN tag: castling right 'K' but no white rook to castle with on that side");
    CHECK(errorOf("broken_ambiguous.pgn") == "game 1 (A - B), move 1. Nd2: Nd2 is ambiguous: Nbd2 or Nfd2");
    // The good game before a broken one is still returned.
    CHECK(readPgn(readFile(dataPath("pgn/broken_illegal_move.pgn"))).games.size() == 1);
}

TEST_CASE("rules pgn: a huge tag section is bounded, repeated tags stay linear") {
    std::string many;
    for (int i = 0; i < 200000; ++i) many += "[T" + std::to_string(i) + " \"v\"]\n";
    const PgnReadResult refused = readPgn(many + "\n1. e4 e5 *\n");
    CHECK(refused.games.empty());
    CHECK(refused.error == "game 1: more than 1000 tags");

    std::string repeated = "[White \"A\"]\n[Black \"B\"]\n";
    for (int i = 0; i < 200000; ++i) repeated += "[Round \"" + std::to_string(i) + "\"]\n";
    const PgnReadResult read = readPgn(repeated + "\n1. e4 e5 *\n");
    REQUIRE_MESSAGE(read.error.empty(), read.error);
    REQUIRE(read.games.size() == 1);
    CHECK(read.games[0].tag("Round") == "199999");
    CHECK(read.games[0].tags.size() == 3);
}

TEST_CASE("rules pgn: writer output, escaping and round trip") {
    PgnGame game;
    game.setTag("White", "GPT \"the\" model");
    game.setTag("Black", "stockfish");
    game.setTag("TimeControl", "60+1");
    Position p = game.start;
    for (const char* san : {"e4", "e5", "Nf3"}) {
        const Move m = parseSan(p, san).move;
        game.moves.push_back(m);
        game.comments.push_back(std::string(san) == "e5" ? "I {think} e5 is } best" : "");
        p.makeMove(m);
    }
    game.result = "*";
    const std::string text = writePgn(game);
    CHECK(text == "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"GPT "
                  "\\\"the\\\" model\"]\n"
                  "[Black \"stockfish\"]\n[Result \"*\"]\n[TimeControl \"60+1\"]\n\n"
                  "1. e4 e5 {I (think) e5 is ) best} 2. Nf3 *\n");
    const PgnReadResult back = readPgn(text);
    REQUIRE_MESSAGE(back.ok(), back.error);
    REQUIRE(back.games.size() == 1);
    CHECK(back.games[0].tag("White") == "GPT \"the\" model");
    CHECK(back.games[0].moves == game.moves);
    CHECK(back.games[0].comments[1] == "I (think) e5 is ) best");

    // Random games (standard and Chess960) survive write -> read unchanged.
    std::mt19937 rng(7);
    for (int i = 0; i < 40; ++i) {
        PgnGame g;
        g.start = i % 2 ? Position::chess960(int(rng() % 960)) : Position::startPosition();
        Position pos = g.start;
        for (int ply = 0; ply < 120; ++ply) {
            MoveList moves;
            generateLegal(pos, moves);
            if (moves.empty()) break;
            const Move m = moves[rng() % moves.size()];
            g.moves.push_back(m);
            g.comments.push_back(ply % 7 == 0 ? "note " + std::to_string(ply) : "");
            pos.makeMove(m);
        }
        const PgnReadResult r = readPgn(writePgn(g));
        REQUIRE_MESSAGE(r.ok(), r.error);
        CHECK(r.games[0].moves == g.moves);
        CHECK(r.games[0].comments == g.comments);
        CHECK(r.games[0].start.fen() == g.start.fen());
    }
}
