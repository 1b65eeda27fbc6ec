// Rating fit: expected scores and maximum-likelihood estimates against closed-form values.
#include "engine/search/elo_fit.h"

#include <cmath>
#include <doctest/doctest.h>
#include <vector>

using namespace chaiba::search;

TEST_CASE("elo fit: expected score of the logistic model") {
    CHECK(expectedScore(1500, 1500) == doctest::Approx(0.5));
    CHECK(expectedScore(1900, 1500) == doctest::Approx(10.0 / 11.0));
    CHECK(expectedScore(1500, 1900) == doctest::Approx(1.0 / 11.0));
}

TEST_CASE("elo fit: one anchor has the closed-form maximum") {
    // 75% against 1500: 1500 + 400 * log10(3).
    const std::vector<AnchorResult> r = {{1500, 6, 0, 2}};
    const auto e = fitElo(r);
    REQUIRE(e);
    CHECK(e->elo == doctest::Approx(1500 + 400 * std::log10(3.0)).epsilon(1e-6));
    CHECK(e->low95 < e->elo);
    CHECK(e->high95 > e->elo);
    CHECK_FALSE(e->unboundedAbove);
    CHECK(e->games == 8);
    CHECK(e->score == doctest::Approx(6));
}

TEST_CASE("elo fit: draws count half and the estimate is symmetric") {
    const std::vector<AnchorResult> even = {{1400, 1, 2, 1}, {1600, 1, 2, 1}};
    const auto e = fitElo(even);
    REQUIRE(e);
    CHECK(e->elo == doctest::Approx(1500).epsilon(1e-6));
    CHECK((e->elo - e->low95) == doctest::Approx(e->high95 - e->elo).epsilon(1e-3));
}

TEST_CASE("elo fit: more games give a narrower interval") {
    const std::vector<AnchorResult> few = {{1500, 3, 0, 1}};
    const std::vector<AnchorResult> many = {{1500, 30, 0, 10}};
    const auto a = fitElo(few);
    const auto b = fitElo(many);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->elo == doctest::Approx(b->elo).epsilon(1e-6));
    CHECK(b->high95 - b->low95 < a->high95 - a->low95);
}

TEST_CASE("elo fit: all wins or all losses give one-sided bounds") {
    const std::vector<AnchorResult> won = {{1500, 4, 0, 0}};
    const auto w = fitElo(won);
    REQUIRE(w);
    CHECK(w->unboundedAbove);
    CHECK(w->low95 > 1500);
    CHECK(eloEstimateText(*w).rfind("> ", 0) == 0);
    const std::vector<AnchorResult> lost = {{1500, 0, 0, 4}};
    const auto l = fitElo(lost);
    REQUIRE(l);
    CHECK(l->unboundedBelow);
    CHECK(l->high95 < 1500);
    CHECK_FALSE(fitElo(std::vector<AnchorResult>{}).has_value());
}
