// Move generation: perft against stockfish's counts (standard, Kiwipete, positions 3-6, edge cases,
// 64 Chess960 positions) plus invariant cross-checks at every node of smaller trees.
#include "engine/chess/bitboard.h"
#include "engine/chess/movegen.h"
#include "tests/chess_test_util.h"

#include <doctest/doctest.h>

using namespace chaiba::chess;
using chaiba::test::loadPerftTable;

namespace {
// Fast depths only: the deepest entries run in the "slow" suite (chaiba_rules_slow).
constexpr uint64_t kUnitNodeLimit = 2'000'000;

void runTable(const char* file, bool chess960) {
    const auto table = loadPerftTable(file);
    REQUIRE(table.size() >= (chess960 ? 50u : 7u));
    for (const auto& e : table) {
        FenResult r = Position::fromFen(e.fen, chess960);
        REQUIRE_MESSAGE(r.ok(), e.fen << ": " << r.error);
        Position pos = *r.position;
        for (size_t d = 1; d <= e.nodes.size() && e.nodes[d - 1] <= kUnitNodeLimit; ++d)
            CHECK_MESSAGE(perft(pos, int(d)) == e.nodes[d - 1], e.fen << " depth " << d);
        CHECK(pos.fen() == Position::fromFen(e.fen, chess960).position->fen());
    }
}
} // namespace

TEST_CASE("rules perft: standard positions match stockfish") {
    runTable("perft_standard.txt", false);
}

TEST_CASE("rules perft: Chess960 positions match stockfish") {
    runTable("perft_960.txt", true);
}

TEST_CASE("rules perft: invariants hold at every node") {
    for (const char* file : {"perft_standard.txt", "perft_960.txt"}) {
        const bool chess960 = std::string(file) == "perft_960.txt";
        for (const auto& e : loadPerftTable(file)) {
            Position pos = *Position::fromFen(e.fen, chess960).position;
            chaiba::test::CheckedPerft checked;
            const int depth = e.nodes.size() >= 3 && e.nodes[2] < 120'000 ? 3 : 2;
            CHECK_MESSAGE(checked.run(pos, depth) == e.nodes[size_t(depth) - 1], e.fen);
            CHECK_MESSAGE(checked.failure.empty(), checked.failure);
        }
    }
}

TEST_CASE("rules movegen: isLegal agrees with the generator") {
    Position pos =
        *Position::fromFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").position;
    MoveList moves;
    generateLegal(pos, moves);
    for (const Move m : moves) CHECK(isLegal(pos, m));
    CHECK_FALSE(isLegal(pos, Move(E1, E2))); // own piece... e2 holds a bishop
    CHECK_FALSE(isLegal(pos, Move(A1, A8))); // blocked
    CHECK_FALSE(isLegal(pos, Move()));
    CHECK_FALSE(isLegal(pos, Move(A7, A6))); // opponent's pawn
}

// The slider tables (stored magic multipliers, bitboard.cpp) against a walk along the rays: every
// square, 2000 seeded occupancies each of sparse to dense boards, and the empty and full boards.
TEST_CASE("rules movegen: rook and bishop attacks equal a walk along the rays") {
    using namespace chaiba::chess;
    auto walk = [](Square s, Bitboard occupied, bool rook) {
        static constexpr int kRook[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        static constexpr int kBishop[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
        Bitboard out = 0;
        for (const auto& d : rook ? kRook : kBishop)
            for (int f = fileOf(s) + d[0], r = rankOf(s) + d[1]; f >= 0 && f < 8 && r >= 0 && r < 8; f += d[0], r += d[1]) {
                out |= squareBit(makeSquare(f, r));
                if (occupied & squareBit(makeSquare(f, r))) break;
            }
        return out;
    };
    uint64_t state = 0x9E3779B97F4A7C15ull;
    auto next = [&state] {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 2685821657736338717ull;
    };
    int mismatches = 0;
    for (Square s = 0; s < 64; ++s)
        for (int i = 0; i < 2002; ++i) {
            const Bitboard occupied = i == 0 ? 0 : i == 1 ? ~Bitboard{0} : i % 3 == 0 ? next() : i % 3 == 1 ? next() & next() : next() & next() & next();
            if (rookAttacks(s, occupied) != walk(s, occupied, true)) ++mismatches;
            if (bishopAttacks(s, occupied) != walk(s, occupied, false)) ++mismatches;
            if (queenAttacks(s, occupied) != (walk(s, occupied, true) | walk(s, occupied, false))) ++mismatches;
        }
    CHECK(mismatches == 0);
}
