// The evaluation network (engine/search/nnue.h): the first layer a move updates equals the one
// summed afresh, through captures, promotions, en passant and both kinds of castling, and the
// search that keeps it a ply evaluates what a fresh sum gives (checked by an assert in debug
// builds, which the sanitizer build runs).
#include "engine/search/board_glue.h"
#include "engine/search/evaluation.h"
#include "engine/search/nnue.h"
#include "engine/search/search.h"
#include "tests/search_test_util.h"

#include <doctest/doctest.h>
#include <string>

using namespace chaiba;
using namespace chaiba::search;

namespace {

bool sameLayer(const NnueAccumulator& a, const NnueAccumulator& b) {
    for (int v = 0; v < 2; ++v)
        for (int j = 0; j < nnueHidden(); ++j)
            if (a.v[v][j] != b.v[v][j]) return false;
    return true;
}

// Every legal move of the position: its delta applied to the position's layer gives the layer
// of the position after it. Returns how many moves of each kind were seen.
struct Kinds {
    int moves = 0, captures = 0, promotions = 0, enPassant = 0, castling = 0;
};
void checkEveryMove(chess::Position pos, Kinds& kinds) {
    NnueAccumulator before;
    nnueRefresh(pos, before);
    glue::MoveBuffer moves;
    glue::generateLegal(pos, moves);
    for (int i = 0; i < moves.size(); ++i) {
        const chess::Move m = moves[i];
        CAPTURE(pos.fen());
        CAPTURE(glue::moveToUci(pos, m, true));
        const NnueDelta delta = nnueDelta(pos, m);
        kinds.moves++;
        kinds.captures += glue::isCaptureOrPromotion(pos, m) && !m.isPromotion();
        kinds.promotions += m.isPromotion();
        kinds.enPassant += m.isEnPassant();
        kinds.castling += m.isCastling();
        const chess::Undo undo = pos.makeMove(m);
        NnueAccumulator updated, fresh;
        nnueApply(before, delta, updated);
        nnueRefresh(pos, fresh);
        CHECK(sameLayer(updated, fresh));
        CHECK(nnueOutput(updated, glue::sideIndex(pos)) == nnueEvaluate(pos));
        pos.unmakeMove(m, undo);
    }
}

} // namespace

TEST_CASE("nnue: a move's update of the first layer equals the layer summed afresh") {
    REQUIRE(nnueHidden() >= 16);
    Kinds kinds;
    for (const char* fen : {
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", // perft's "kiwipete"
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
             "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", // en passant
             "r1bq1b1r/pP1kpppp/8/8/8/8/1PPPPPpP/RNBQKB1R w KQ - 0 1",        // promotions, captures
             "r1bq1b1r/pP1kpppp/8/8/8/8/1PPPPPpP/RNBQKB1R b KQ - 0 1",
         })
        checkEveryMove(test::searchPosition(fen), kinds);
    // Chess960: the king takes its own rook, which may stand where the king lands.
    checkEveryMove(test::searchPosition("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", true), kinds);
    checkEveryMove(test::searchPosition("1r2k1r1/8/8/8/8/8/8/1R2K1R1 b GBgb - 0 1", true), kinds);
    CHECK(kinds.captures > 20);
    CHECK(kinds.promotions >= 8);
    CHECK(kinds.enPassant == 1);
    CHECK(kinds.castling >= 6);
}

TEST_CASE("nnue: the network corrects the full evaluation, the same for both colours") {
    // A position and its colour-mirrored twin score the same for the side to move.
    const auto pos =
        test::searchPosition("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    const auto twin =
        test::searchPosition("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
    CHECK(nnueEvaluate(pos) == nnueEvaluate(twin));
    // The start position is level, the network says so within a few centipawns; a queen up is
    // still a queen up after its correction.
    CHECK(std::abs(nnueEvaluate(
              test::searchPosition("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"))) < 40);
    const auto queenUp = test::searchPosition("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    CHECK(evaluate(queenUp, EvalTerms::FullKing) + nnueEvaluate(queenUp) > 600);
}

TEST_CASE("nnue: the search with the network plays the same move twice and differs from the one without it") {
    auto pos =
        test::searchPosition("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10");
    SearchLimits limits;
    limits.maxNodes = 60000;
    limits.features = kSearchStrongest | kFeatureNnue;
    Searcher searcher(16);
    const SearchResult a = searcher.search(pos, limits);
    searcher.clear();
    const SearchResult b = searcher.search(pos, limits);
    REQUIRE(a.hasMove);
    CHECK(a.bestMove == b.bestMove);
    CHECK(a.score == b.score);
    CHECK(a.nodes == b.nodes);
    limits.features = kSearchStrongest;
    searcher.clear();
    CHECK(searcher.search(pos, limits).nodes != a.nodes);
}
