// The node-budget clock (kFeatureNodeTime, engine/search/node_time.h): when it stops an iteration,
// and what the search does with it: a settled move stops early, an unsettled one goes on, the cap
// holds, an interrupted iteration's better root move is played, and nothing is lost of the mates.
#include "engine/search/board_glue.h"
#include "engine/search/node_time.h"
#include "engine/search/search.h"
#include "tests/search_test_util.h"

#include <doctest/doctest.h>
#include <string>

using namespace chaiba;
using namespace chaiba::search;

namespace {

chess::Position fromFen(const std::string& fen) {
    return test::searchPosition(fen);
}

chess::Move uci(const chess::Position& pos, const char* text) {
    auto m = glue::parseUciMove(pos, text, false);
    REQUIRE(m.has_value());
    return *m;
}

} // namespace

TEST_CASE("node time: a settled best move stops at the soft budget, an unsettled one goes on") {
    const auto pos = fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    const chess::Move a = uci(pos, "f1b5"), b = uci(pos, "d2d4");
    const uint64_t cap = 1000000;
    const auto soft = static_cast<uint64_t>(NodeTimeManager::kSoftShare * double(cap));

    // The same move at every depth, nearly all of the iteration under it: stops below the soft share.
    NodeTimeManager settled(cap);
    for (int d = 1; d <= 6; ++d) CHECK_FALSE(settled.stopAfter(d, a, 30, soft / 4, 1000, 950));
    CHECK(settled.lastFactor() < 1);
    CHECK(settled.stopAfter(7, a, 30, soft, 1000, 950));

    // The best move changing at every depth, the work spread over the moves: the same node count
    // does not stop it, and its budget grows past the soft share.
    NodeTimeManager unsettled(cap);
    for (int d = 1; d <= 6; ++d) CHECK_FALSE(unsettled.stopAfter(d, d % 2 ? a : b, 30, soft / 4, 1000, 300));
    CHECK_FALSE(unsettled.stopAfter(7, b, 30, soft, 1000, 300));
    CHECK(unsettled.lastFactor() > 1);

    // A falling score asks for more than the same search with a steady one.
    NodeTimeManager steady(cap), falling(cap);
    for (int d = 1; d <= 6; ++d) {
        steady.stopAfter(d, a, 30, 1000, 1000, 600);
        falling.stopAfter(d, a, 30 - 40 * d, 1000, 1000, 600);
    }
    CHECK(falling.lastFactor() > steady.lastFactor());

    // Never before depth 4, and never without a cap.
    NodeTimeManager shallow(cap);
    CHECK_FALSE(shallow.stopAfter(3, a, 0, cap, 1000, 1000));
    NodeTimeManager uncapped(0);
    for (int d = 1; d <= 10; ++d) CHECK_FALSE(uncapped.stopAfter(d, a, 0, 1u << 30, 1000, 1000));
}

TEST_CASE("node time: the search spends less than the cap where the move is clear and never more") {
    // A queen hangs to a bishop: one move stands out, so the search stops well short of the cap.
    auto clear = fromFen("rnb1kbnr/pppp1ppp/8/4p1q1/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 3");
    SearchLimits limits;
    limits.maxNodes = 400000;
    limits.features = kSearchStrongest | kFeatureNodeTime;
    Searcher searcher(8);
    const auto r = searcher.search(clear, limits);
    REQUIRE(r.hasMove);
    CHECK(glue::moveToUci(clear, r.bestMove, false) == "c1g5");
    CHECK(r.nodes < limits.maxNodes * 6 / 10); // 216 743: the iteration after the clock's soft budget
    // Without the bit the same cap is spent to the end.
    limits.features = kSearchStrongest;
    CHECK(searcher.search(clear, limits).nodes >= limits.maxNodes);

    // Every search stays within the cap (and plays the same on a second run).
    auto open = fromFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    limits.features = kSearchStrongest | kFeatureNodeTime;
    limits.maxNodes = 150000;
    Searcher a(8), b(8);
    const auto ra = a.search(open, limits);
    const auto rb = b.search(open, limits);
    CHECK(ra.nodes <= limits.maxNodes + 64);
    CHECK(ra.nodes == rb.nodes);
    CHECK(ra.bestMove == rb.bestMove);
}

TEST_CASE("node time: a move that beat the first in an interrupted iteration is played") {
    // Cut every search of a position at each node count from 3 000 to 60 000: with the bit, the move
    // played is the last completed iteration's or one that beat it in the cut iteration (the
    // principal variation starts with it), and at some count it differs from the completed one.
    auto pos = fromFen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R1BQ1RK1 w - - 0 9");
    bool sawImproved = false;
    for (uint64_t n = 3000; n <= 60000; n += 3000) {
        CAPTURE(n);
        SearchLimits withBit;
        withBit.maxNodes = n;
        withBit.features = kSearchStrongest | kFeatureNodeTime;
        SearchLimits completed = withBit;
        Searcher s1(8), s2(8);
        const auto r = s1.search(pos, withBit);
        REQUIRE(r.hasMove);
        REQUIRE_FALSE(r.pv.empty());
        CHECK(r.pv.front() == r.bestMove);
        // The completed iteration alone: the same search to the depth it finished.
        completed.features = kSearchStrongest | kFeatureNodeTime;
        completed.maxNodes = 0;
        completed.maxDepth = r.completedDepth;
        const auto full = s2.search(pos, completed);
        if (!(full.bestMove == r.bestMove)) sawImproved = true;
    }
    CHECK(sawImproved);
}
