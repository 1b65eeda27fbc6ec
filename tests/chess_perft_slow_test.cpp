// The deep perft suite (CTest label "slow"): every table entry to its deepest stockfish depth.
#include "engine/chess/movegen.h"
#include "tests/chess_test_util.h"

#include <doctest/doctest.h>

using namespace chaiba::chess;

TEST_CASE("rules perft slow: deepest depths match stockfish") {
    for (const char* file : {"perft_standard.txt", "perft_960.txt"}) {
        const bool chess960 = std::string(file) == "perft_960.txt";
        for (const auto& e : chaiba::test::loadPerftTable(file)) {
            Position pos = *Position::fromFen(e.fen, chess960).position;
            CHECK_MESSAGE(perft(pos, int(e.nodes.size())) == e.nodes.back(), e.fen);
        }
    }
}
