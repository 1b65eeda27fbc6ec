// Match-screen view-model: move navigation and number formatting.
#include "src/modes/chess/reasoning_model.h"
#include "src/ui/format.h"

#include <doctest/doctest.h>

using namespace chaiba;

TEST_CASE("navigator: live view follows new moves, a fixed view stays") {
    MoveNavigator nav;
    CHECK(nav.isLive());
    nav.setPlyCount(3);
    CHECK(nav.viewPly() == 3);
    nav.stepBack();
    CHECK_FALSE(nav.isLive());
    CHECK(nav.viewPly() == 2);
    nav.setPlyCount(5);  // moves keep arriving while the user looks back
    CHECK(nav.viewPly() == 2);
    nav.stepForward();
    nav.stepForward();
    CHECK(nav.viewPly() == 4);
    CHECK_FALSE(nav.isLive());
    nav.stepForward();  // reaching the last ply goes live
    CHECK(nav.isLive());
    nav.setPlyCount(6);
    CHECK(nav.viewPly() == 6);
}

TEST_CASE("navigator: bounds and jumps") {
    MoveNavigator nav;
    nav.setPlyCount(4);
    nav.toStart();
    CHECK(nav.viewPly() == 0);
    nav.stepBack();
    CHECK(nav.viewPly() == 0);
    nav.select(2);
    CHECK(nav.viewPly() == 2);
    nav.select(99);
    CHECK(nav.isLive());
    CHECK(nav.viewPly() == 4);
    nav.select(1);
    nav.setPlyCount(0);  // a new game
    CHECK(nav.viewPly() == 0);
    nav.goLive();
    CHECK(nav.isLive());
}

TEST_CASE("format: elapsed time") {
    CHECK(formatElapsed(0) == "0.0 s");
    CHECK(formatElapsed(430) == "0.4 s");
    CHECK(formatElapsed(9949) == "9.9 s");
    CHECK(formatElapsed(12000) == "12 s");
    CHECK(formatElapsed(65000) == "1:05");
    CHECK(formatElapsed(3723000) == "1:02:03");
    CHECK(formatElapsed(-5) == "0.0 s");
}

TEST_CASE("format: cost and tokens") {
    CHECK(formatCost(0) == "$0");
    CHECK(formatCost(0.00004) == "<$0.0001");
    CHECK(formatCost(0.0012) == "$0.0012");
    CHECK(formatCost(0.4213) == "$0.42");
    CHECK(formatCost(12.3) == "$12.30");
    CHECK(formatTokens(0) == "0");
    CHECK(formatTokens(950) == "950");
    CHECK(formatTokens(1234) == "1.2k");
    CHECK(formatTokens(12345) == "12k");
    CHECK(formatTokens(1500000) == "1.5M");
}

TEST_CASE("format: move number labels") {
    CHECK(moveNumberLabel(0) == "1.");
    CHECK(moveNumberLabel(1) == "1...");
    CHECK(moveNumberLabel(2) == "2.");
    CHECK(moveNumberLabel(0, 12, true) == "12...");
    CHECK(moveNumberLabel(1, 12, true) == "13.");
}
