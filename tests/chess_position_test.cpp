// Position: strict FEN (one message per malformation), round trips, X-FEN/Shredder-FEN castling,
// Chess960 numbering, null moves, SEE and givesCheck edge cases.
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace chaiba::chess;

namespace {
std::string fenError(const std::string& fen) {
    FenResult r = Position::fromFen(fen);
    return r.ok() ? "(accepted)" : r.error;
}
} // namespace

TEST_CASE("rules fen: round trips") {
    for (const char* fen : {
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
             "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
             "8/8/8/8/8/8/8/K6k b - - 99 120",
             "r1k1r3/8/8/8/8/8/8/R1K1R3 w KQkq - 0 1",
             "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1",
             "rk2r3/8/8/8/8/8/8/RK2R3 w Qq - 0 1",
         }) {
        FenResult r = Position::fromFen(fen);
        REQUIRE_MESSAGE(r.ok(), fen << ": " << r.error);
        CHECK(r.position->fen() == fen);
    }
}

TEST_CASE("rules fen: every kind of malformation has its own message") {
    CHECK(fenError("") == "empty FEN");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq") ==
          "FEN has 3 fields; expected 6 (placement, side, castling, en passant, halfmove, fullmove)");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1") ==
          "bad piece character 'X' in the placement");
    CHECK(fenError("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") ==
          "rank 7 of the placement has 7 squares; expected 8");
    CHECK(fenError("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") ==
          "rank 7 of the placement has more than 8 squares");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/RNBQKBNR w KQkq - 0 1") == "placement has 7 ranks; expected 8");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") ==
          "placement has more than 8 ranks");
    CHECK(fenError("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1") == "missing black king");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1") == "missing white king");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1") == "white has 2 kings");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/PNBQKBNR w kq - 0 1") ==
          "pawn on a1 (pawns cannot stand on the first or last rank)");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1") ==
          "white has more than 8 pawns");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1") ==
          "side to move must be 'w' or 'b', not 'x'");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1") ==
          "bad castling character 'x'");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1") ==
          "castling right 'K' but no white rook to castle with on that side");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1") == "missing white king");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w KQkq - 0 1") ==
          "castling right 'K' but the white king is not on its first rank");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1") ==
          "castling right 'K' given twice");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1") ==
          "en-passant square e4 is impossible with black to move (must be on rank 3)");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1") ==
          "en-passant square e3 but no white pawn on e4");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1") ==
          "en-passant square e3 but e3 or e2 is not empty");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1") ==
          "bad en-passant field 'z9'");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1") ==
          "halfmove clock 'x' is not a number >= 0");
    CHECK(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0") ==
          "fullmove number '0' is not a number >= 1");
    CHECK(fenError("rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 1") ==
          "the side not to move (black) is in check");
    CHECK(fenError("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra") ==
          "FEN has 7 fields; expected 6 (placement, side, castling, en passant, halfmove, fullmove)");
}

TEST_CASE("rules fen: four fields default the clocks, useless en-passant squares are dropped") {
    CHECK(Position::fromFen("  4k3/8/8/8/8/8/8/4K3 w - - 0 1\n").ok()); // any whitespace separates
    FenResult r = Position::fromFen("4k3/8/8/8/8/8/8/4K3 w - -");
    REQUIRE(r.ok());
    CHECK(r.position->fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    // After 1.e4 no black pawn can capture en passant: the square is not kept (as after makeMove).
    r = Position::fromFen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    REQUIRE(r.ok());
    CHECK(r.position->epSquare() == NoSquare);
    Position start = Position::startPosition();
    start.makeMove(Move(E2, E4));
    CHECK(start.hash() == r.position->hash());
}

TEST_CASE("rules fen: Shredder-FEN and X-FEN castling select the right rooks") {
    // Two rooks on the king side: 'K' means the outermost (h1); 'F' names the inner one.
    FenResult outer = Position::fromFen("4k3/8/8/8/8/8/8/4KR1R w K - 0 1");
    FenResult inner = Position::fromFen("4k3/8/8/8/8/8/8/4KR1R w F - 0 1");
    REQUIRE(outer.ok());
    REQUIRE(inner.ok());
    CHECK(outer.position->castlingRook(WhiteKingSide) == H1);
    CHECK(inner.position->castlingRook(WhiteKingSide) == F1);
    CHECK(inner.position->isChess960());
    CHECK(inner.position->fen() == "4k3/8/8/8/8/8/8/4KR1R w F - 0 1");
    FenResult shredder = Position::fromFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    REQUIRE(shredder.ok());
    CHECK_FALSE(shredder.position->isChess960());
    CHECK(shredder.position->fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

TEST_CASE("rules chess960: Scharnagl numbering") {
    CHECK(Position::chess960(0).fen() == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    CHECK(Position::chess960(518).fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    CHECK(Position::chess960(959).fen() == "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1");
    CHECK(Position::chess960(518).isChess960());
    // All 960 are distinct, have bishops on opposite colours and the king between the rooks.
    std::set<std::string> seen;
    for (int n = 0; n < 960; ++n) {
        const Position p = Position::chess960(n);
        const std::string rank = p.fen().substr(p.fen().rfind('/') + 1, 8);
        seen.insert(rank);
        const size_t b1 = rank.find('B'), b2 = rank.rfind('B');
        CHECK((b1 + b2) % 2 == 1);
        CHECK(rank.find('R') < rank.find('K'));
        CHECK(rank.find('K') < rank.rfind('R'));
    }
    CHECK(seen.size() == 960);
}

TEST_CASE("rules chess960: castling when king or rook already stand on their targets") {
    // King b1, rook a1: O-O-O puts the king on c1 and the rook on d1.
    Position p = *Position::fromFen("1k6/8/8/8/8/8/8/RK5R w AH - 0 1").position;
    const MoveResult r = parseSan(p, "O-O-O");
    REQUIRE(r.ok());
    CHECK(toUci(p, r.move) == "b1a1");
    p.makeMove(r.move);
    CHECK(p.fen() == "1k6/8/8/8/8/8/8/2KR3R b - - 1 1");
    // King g1 and rook h1 already in place: O-O is legal and changes nothing but the rights.
    Position q = *Position::fromFen("2k5/8/8/8/8/8/8/R5KR w HA - 0 1").position;
    const MoveResult oo = parseSan(q, "O-O");
    REQUIRE(oo.ok());
    q.makeMove(oo.move);
    CHECK(q.fen() == "2k5/8/8/8/8/8/8/R4RK1 b - - 1 1");
    // The castling rook is pinned on the first rank: castling would expose the king.
    Position pinned = *Position::fromFen("k7/8/8/8/8/8/8/rRK5 w B - 0 1").position;
    CHECK_FALSE(parseSan(pinned, "O-O-O").ok());
}

TEST_CASE("rules position: null move and givesCheck edge cases") {
    Position p = Position::startPosition();
    const uint64_t h = p.hash();
    const Undo u = p.makeNullMove();
    CHECK(p.sideToMove() == Color::Black);
    CHECK(p.hash() == p.computeHash());
    CHECK(p.hash() != h);
    p.unmakeNullMove(u);
    CHECK(p.hash() == h);
    CHECK(p.fen() == Position::startPosition().fen());
    // Discovered check by en passant and check by castling rook.
    Position ep = *Position::fromFen("8/8/8/R2pP2k/8/8/8/K7 w - d6 0 1").position;
    CHECK(ep.givesCheck(Move::make(E5, D6, Move::Kind::EnPassant)));
    Position castle = *Position::fromFen("5k2/8/8/8/8/8/8/4K2R w K - 0 1").position;
    CHECK(castle.givesCheck(Move::make(E1, H1, Move::Kind::Castling)));
}

namespace {
// Every legal move to `depth` plies: the check test from checkInfo() agrees with the full one and
// with the king in check after the move, and keyAfter() is the hash after it for every plain move
// (the search prefetches with it; castling, promotions and en passant it does not claim).
void walkCheckAndKey(Position& p, int depth, long& moves) {
    if (depth == 0) return;
    MoveList list;
    generateLegal(p, list);
    const CheckInfo info = p.checkInfo();
    for (const Move m : list) {
        ++moves;
        const bool fast = p.givesCheck(m, info);
        CHECK(fast == p.givesCheck(m));
        const uint64_t predicted = p.keyAfter(m);
        const bool doublePush = typeOf(p.pieceOn(m.from())) == PieceType::Pawn &&
                                (m.to() - m.from() == 16 || m.from() - m.to() == 16);
        const Undo u = p.makeMove(m);
        CHECK(fast == p.inCheck());
        if (m.kind() == Move::Kind::Normal && !(doublePush && p.epSquare() != NoSquare))
            CHECK(predicted == p.hash());
        walkCheckAndKey(p, depth - 1, moves);
        p.unmakeMove(m, u);
    }
}
} // namespace

TEST_CASE("rules position: the fast check test and the hash after a move agree with playing it") {
    long moves = 0;
    for (const char* fen : {
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
             "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
             "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
             "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
             "8/8/8/R2pP2k/8/8/8/K7 w - d6 0 1",
             "4k3/8/8/1b6/8/3N4/4K3/8 w - - 0 1",
         }) {
        CAPTURE(fen);
        Position p = *Position::fromFen(fen).position;
        walkCheckAndKey(p, 3, moves);
    }
    CHECK(moves > 100000);
}

TEST_CASE("rules position: static exchange evaluation") {
    Position p = *Position::fromFen("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1").position;
    CHECK(p.seeGe(Move(E1, E5), 0)); // wins a pawn
    Position q = *Position::fromFen("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1").position;
    CHECK_FALSE(q.seeGe(Move(D3, E5), 0)); // knight for pawn
}
