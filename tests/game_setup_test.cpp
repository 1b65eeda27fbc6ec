// New-game setup: start validation with the rules engine's messages.
#include "src/modes/chess/game_setup.h"

#include "engine/chess/position.h"

#include <doctest/doctest.h>

using namespace chaiba;

TEST_CASE("start: standard, Chess960 by number and at random") {
    GameSetup s;
    ValidatedStart v = validateStart(s, 1);
    REQUIRE(v.start);
    CHECK(v.start->fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    s.mode = StartMode::Chess960;
    s.chess960Number = 0;
    v = validateStart(s, 1);
    REQUIRE(v.start);
    CHECK(v.start->isChess960());
    CHECK(v.start->fen().rfind("bbqnnrkr/pppppppp", 0) == 0);  // Scharnagl position 0
    s.chess960Number = -1;
    v = validateStart(s, 960 * 5 + 123);
    CHECK(v.chess960Number == 123);
    s.chess960Number = 960;
    CHECK(validateStart(s, 1).error.find("0 to 959") != std::string::npos);
}

TEST_CASE("start: FEN errors come back named, good FEN is taken as is") {
    GameSetup s;
    s.mode = StartMode::Fen;
    s.fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
    ValidatedStart v = validateStart(s, 1);
    REQUIRE(v.start);
    CHECK(v.start->fen() == s.fen);
    s.fen = "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    v = validateStart(s, 1);
    CHECK_FALSE(v.start);
    CHECK(v.error.rfind("FEN: ", 0) == 0);
    CHECK(v.error.size() > 6);
}

TEST_CASE("start: a PGN gives its start and moves, a broken one names the move") {
    GameSetup s;
    s.mode = StartMode::Pgn;
    s.pgn = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n";
    ValidatedStart v = validateStart(s, 1);
    REQUIRE(v.start);
    CHECK(v.moves.size() == 4);
    s.pgn = "1. e4 e5 2. Ke3 *\n";
    v = validateStart(s, 1);
    CHECK_FALSE(v.start);
    CHECK(v.error.rfind("PGN: ", 0) == 0);
    CHECK(v.error.find("Ke3") != std::string::npos);
}
