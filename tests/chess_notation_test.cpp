// Notation: SAN with minimal disambiguation and check marks, strict SAN parsing (round trip over
// every legal move of many positions), UCI in standard and Chess960 modes.
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "tests/chess_test_util.h"

#include <doctest/doctest.h>

#include <random>

using namespace chaiba::chess;

namespace {
Position fromFen(const char* fen) {
    return *Position::fromFen(fen).position;
}

std::string sanOf(const char* fen, const char* uci) {
    const Position p = fromFen(fen);
    const MoveResult r = parseUci(p, uci);
    return r.ok() ? toSan(p, r.move) : "(bad uci: " + r.error + ")";
}
} // namespace

TEST_CASE("rules san: disambiguation, captures, promotions, checks") {
    CHECK(sanOf("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3") == "Nf3");
    // Knights on b1 and f3 both reach d2: file disambiguation.
    CHECK(sanOf("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2") == "Nbd2");
    // Rooks on a1 and a5 both reach a3: rank disambiguation.
    CHECK(sanOf("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3") == "R1a3");
    // Queens on e4, h4 and h1 all reach e1? square disambiguation when file and rank both clash.
    CHECK(sanOf("1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1") == "Qh4e1");
    // A pinned knight does not count for disambiguation.
    CHECK(sanOf("4k3/8/8/b7/8/2N5/8/4K1N1 w - - 0 1", "g1e2") == "Ne2");
    CHECK(sanOf("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1", "g1e2") == "Nge2");
    CHECK(sanOf("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5") == "exd5");
    CHECK(sanOf("8/4P1k1/8/8/8/8/8/K7 w - - 0 1", "e7e8q") == "e8=Q");
    CHECK(sanOf("5r1k/4P3/8/8/8/8/8/K7 w - - 0 1", "e7f8n") == "exf8=N");
    CHECK(sanOf("rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "d1h5") == "Qh5#");
    CHECK(sanOf("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1") == "O-O-O");
    CHECK(sanOf("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8") == "Ra8+");
}

TEST_CASE("rules san: strict parsing errors") {
    const Position start = Position::startPosition();
    CHECK(parseSan(start, "Nf3").ok());
    CHECK(parseSan(start, "Nf3!?").ok());
    CHECK(parseSan(start, "Ngf3").ok()); // redundant but consistent disambiguation
    CHECK(parseSan(start, "Nf4").error == "Nf4 is not legal: no knight of yours can reach f4");
    CHECK(parseSan(start, "Nxf3").error == "Nxf3 is not a capture");
    CHECK(parseSan(start, "e5").error == "e5 is not legal: no pawn of yours can reach e5");
    CHECK(parseSan(start, "Zf3").error == "'Zf3' is not SAN");
    CHECK(parseSan(start, "").error == "empty move");
    CHECK(parseSan(start, "O-O").error == "O-O is not legal: castling on that side is not possible now");
    const Position twoKnights = fromFen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    CHECK(parseSan(twoKnights, "Nd2").error == "Nd2 is ambiguous: Nbd2 or Nfd2");
    const Position promo = fromFen("8/4P1k1/8/8/8/8/8/K7 w - - 0 1");
    CHECK(parseSan(promo, "e8").error == "'e8' needs a promotion piece, e.g. e8=Q");
    CHECK(parseSan(promo, "e8=K").error == "'e8=K' is not SAN: bad promotion piece");
    CHECK(toSan(promo, parseSan(promo, "e8=R").move) == "e8=R");
}

TEST_CASE("rules uci: standard and Chess960 castling") {
    Position p = fromFen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    const MoveResult oo = parseUci(p, "e1g1");
    REQUIRE(oo.ok());
    CHECK(oo.move.isCastling());
    CHECK(toUci(p, oo.move) == "e1g1");
    CHECK_FALSE(parseUci(p, "e1h1").ok()); // king-to-rook is only for Chess960 mode
    p.setChess960(true);
    CHECK(toUci(p, oo.move) == "e1h1");
    CHECK(parseUci(p, "e1h1").move == oo.move);
    CHECK_FALSE(parseUci(p, "e1g1").ok());
    CHECK_FALSE(parseUci(p, "e1").ok());
    CHECK_FALSE(parseUci(p, "e1e9").ok());
    CHECK(parseSanOrUci(p, "Kd1").ok());
    CHECK(parseSanOrUci(p, "e1d1").ok());
}

TEST_CASE("rules san: parseSan(toSan(m)) == m and parseUci(toUci(m)) == m for every legal move") {
    std::vector<Position> positions;
    for (const char* file : {"perft_standard.txt", "perft_960.txt"})
        for (const auto& e : chaiba::test::loadPerftTable(file))
            positions.push_back(*Position::fromFen(e.fen, std::string(file) == "perft_960.txt").position);
    // Plus positions from seeded random games (promotions, checks and mates come up often enough).
    std::mt19937 rng(20261122);
    for (int game = 0; game < 60; ++game) {
        Position p = game % 2 ? Position::chess960(int(rng() % 960)) : Position::startPosition();
        for (int ply = 0; ply < 160; ++ply) {
            MoveList moves;
            generateLegal(p, moves);
            if (moves.empty()) break;
            positions.push_back(p);
            p.makeMove(moves[rng() % moves.size()]);
        }
    }
    size_t checked = 0;
    for (const Position& p : positions) {
        MoveList moves;
        generateLegal(p, moves);
        for (const Move m : moves) {
            const std::string san = toSan(p, m);
            const MoveResult back = parseSan(p, san);
            REQUIRE_MESSAGE(back.ok(), p.fen() << " " << san << ": " << back.error);
            REQUIRE_MESSAGE(back.move == m, p.fen() << " " << san);
            REQUIRE(parseUci(p, toUci(p, m)).move == m);
            ++checked;
        }
    }
    CHECK(checked > 100000);
}
