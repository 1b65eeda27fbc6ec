// Game status: checkmate, stalemate, insufficient material, fifty/seventy-five moves, threefold
// (claimable) and fivefold (automatic) repetition, results and claims.
#include "engine/chess/game.h"
#include "engine/chess/notation.h"

#include <doctest/doctest.h>

using namespace chaiba::chess;

namespace {
GameStatus statusOf(const char* fen) {
    return positionStatus(*Position::fromFen(fen).position);
}

void play(Game& g, std::initializer_list<const char*> sans) {
    for (const char* san : sans) {
        const MoveResult r = parseSan(g.position(), san);
        REQUIRE_MESSAGE(r.ok(), san << ": " << r.error);
        REQUIRE(g.play(r.move));
    }
}
} // namespace

TEST_CASE("rules game: checkmate and stalemate") {
    Game g;
    play(g, {"f3", "e5", "g4", "Qh4#"});
    CHECK(g.status() == GameStatus::Checkmate);
    CHECK(g.result() == "0-1");
    CHECK(g.termination() == "checkmate");
    CHECK_FALSE(g.play(Move(A2, A3))); // over
    CHECK(g.undo());
    CHECK(g.status() == GameStatus::Ongoing);
    CHECK(g.result() == "*");
    CHECK(statusOf("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1") == GameStatus::Stalemate);
    CHECK(statusOf("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1") == GameStatus::Checkmate);
}

TEST_CASE("rules game: insufficient material") {
    CHECK(statusOf("8/8/8/4k3/8/8/8/4K3 w - - 0 1") == GameStatus::InsufficientMaterial);
    CHECK(statusOf("8/8/8/4k3/8/8/8/4KB2 w - - 0 1") == GameStatus::InsufficientMaterial);
    CHECK(statusOf("8/8/8/4k3/8/8/8/4KN2 w - - 0 1") == GameStatus::InsufficientMaterial);
    CHECK(statusOf("8/8/8/3bk3/8/8/8/4KB2 w - - 0 1") == GameStatus::InsufficientMaterial); // same colour
    CHECK(statusOf("8/8/8/2b1k3/8/8/8/4KB2 w - - 0 1") == GameStatus::Ongoing);             // opposite
    CHECK(statusOf("8/8/8/3nk3/8/8/8/4KN2 w - - 0 1") == GameStatus::Ongoing);
    CHECK(statusOf("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1") == GameStatus::Ongoing);
    CHECK(statusOf("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1") == GameStatus::Ongoing);
}

TEST_CASE("rules game: fifty and seventy-five moves") {
    CHECK(statusOf("8/8/8/3k4/8/8/4R3/4K3 w - - 99 80") == GameStatus::Ongoing);
    CHECK(statusOf("8/8/8/3k4/8/8/4R3/4K3 w - - 100 80") == GameStatus::FiftyMoveClaimable);
    CHECK(statusOf("8/8/8/3k4/8/8/4R3/4K3 w - - 150 80") == GameStatus::SeventyFiveMove);
    // Mate on the move that reaches 150 plies is still mate.
    CHECK(statusOf("7k/6Q1/6K1/8/8/8/8/8 b - - 150 90") == GameStatus::Checkmate);
    Game g(*Position::fromFen("8/8/8/3k4/8/8/4R3/4K3 w - - 100 80").position);
    CHECK(isClaimable(g.status()));
    CHECK(g.claimDraw());
    CHECK(g.result() == "1/2-1/2");
    CHECK(g.termination() == "fifty-move rule claimed");
}

TEST_CASE("rules game: threefold is claimable, fivefold ends the game") {
    Game g;
    play(g, {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"});
    CHECK(g.status() == GameStatus::Ongoing);
    CHECK(g.repetitionCount() == 2); // the position after 1.Nf3 Nf6 2.Ng1 occurred twice
    play(g, {"Ng8"});
    CHECK(g.repetitionCount() == 3);
    CHECK(g.status() == GameStatus::ThreefoldClaimable);
    CHECK(g.result() == "*");
    play(g, {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"});
    CHECK(g.repetitionCount() == 5);
    CHECK(g.status() == GameStatus::FivefoldRepetition);
    CHECK(g.result() == "1/2-1/2");
    CHECK_FALSE(g.claimDraw());
}

TEST_CASE("rules game: castling rights make positions different") {
    Game g;
    // The king walks out and back: same placement, but white has lost castling rights.
    play(g, {"e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8", "Ke2", "Ke7", "Ke1", "Ke8"});
    CHECK(g.repetitionCount() == 2); // positions after Ke1 Ke8 (no rights) repeat twice
    CHECK(g.status() == GameStatus::Ongoing);
    g.setResult("1-0", "black resigned");
    CHECK(g.result() == "1-0");
    CHECK(g.termination() == "black resigned");
}
