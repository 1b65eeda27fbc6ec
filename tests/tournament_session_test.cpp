// play::TournamentSession (the page side of every arena): the phase a runner's state maps to, the
// commit gate (a finished game is let through once the store confirmed its record, or past the
// patience with a warning), the spend floor, the error with its typed failure, the fits refined
// with the settled widths, and reset.
#include "src/play/tournament_session.h"

#include <doctest/doctest.h>

using namespace chaiba;
using namespace chaiba::play;

namespace {

// Commits in the background like IndexedDB: writes number themselves, committed on commit().
class DeferredStore final : public KeyValueStore {
public:
    std::optional<std::string> get(std::string_view key) const override { return mem_.get(key); }
    std::optional<std::string> set(std::string_view key, std::string_view value) override {
        ++ticket_;
        return mem_.set(key, value);
    }
    void remove(std::string_view key) override {
        ++ticket_;
        mem_.remove(key);
    }
    uint64_t lastWriteTicket() const override { return ticket_; }
    uint64_t committedTicket() const override { return committed_; }
    void commit() { committed_ = ticket_; }

private:
    MemoryStore mem_;
    uint64_t ticket_ = 0, committed_ = 0;
};

std::vector<Encounter> games(int n) {
    std::vector<Encounter> out;
    for (int g = 0; g < n; ++g) out.push_back(encounterOf(g % 3, (g + 1) % 3, Outcome(g % 3)));
    return out;
}

} // namespace

TEST_CASE("tournament session: a runner's state maps to the phase the page shows") {
    TournamentSession s({});
    CHECK(s.phase() == HostedPhase::Setup);
    CHECK_FALSE(s.hasTournament());
    const uint64_t before = s.revision();
    s.followRunner(RunnerState::Idle, false);
    CHECK(s.phase() == HostedPhase::Running);
    CHECK(s.revision() != before);
    CHECK(s.playing());
    s.followRunner(RunnerState::Stopping, false);
    CHECK(s.phase() == HostedPhase::Stopping);
    CHECK(s.playing());
    s.followRunner(RunnerState::Paused, false);
    CHECK(s.phase() == HostedPhase::Paused);
    CHECK_FALSE(s.playing());
    s.followRunner(RunnerState::Finished, false);
    CHECK(s.phase() == HostedPhase::Stopped);
    s.followRunner(RunnerState::Finished, true);
    CHECK(s.phase() == HostedPhase::Finished);
    CHECK(hostedPhaseName(s.phase()) == "finished");
    s.reset();
    CHECK(s.phase() == HostedPhase::Setup);
}

TEST_CASE(
    "tournament session: a finished game waits for the store's commit and the tournament reads as running") {
    DeferredStore store;
    TournamentSession s({&store, std::nullopt, {}});
    s.setPhase(HostedPhase::Finished);
    store.set("game.0", "{}");
    s.commits().wrote(0);
    store.set("game.1", "{}");
    s.commits().wrote(1);
    CHECK(s.heldBack() == 2);
    CHECK(s.shownPhase() == HostedPhase::Running);
    CHECK_FALSE(s.commits().anyConfirmed());
    // Without a patience a game waits however long.
    CHECK(s.takeCommitted(0).empty());
    CHECK(s.takeCommitted(1e9).empty());
    CHECK(s.commits().waiting(1));
    store.commit();
    CHECK(s.commits().anyConfirmed());
    CHECK(s.takeCommitted(1e9) == std::vector<int>{0, 1});
    CHECK(s.heldBack() == 0);
    CHECK(s.shownPhase() == HostedPhase::Finished);
    CHECK(s.error().empty());
}

TEST_CASE("tournament session: a game the store never confirms is let through after the patience, with the "
          "risk said") {
    DeferredStore store;
    TournamentSession s({&store, 10000, {}});
    store.set("game.4", "{}");
    s.commits().wrote(4);
    CHECK(s.takeCommitted(1000).empty()); // the patience counts from here
    CHECK(s.takeCommitted(10999).empty());
    CHECK(s.takeCommitted(11000) == std::vector<int>{4});
    CHECK(
        s.error() ==
        "This browser's storage has not confirmed game 4 after 10 s: it may be lost if the page is closed.");
    // A store that commits at once (or none) lets a game through at the next take.
    TournamentSession direct({});
    direct.commits().wrote(7);
    CHECK(direct.heldBack() == 0);
    MemoryStore memory;
    TournamentSession sync({&memory, std::nullopt, {}});
    sync.commits().wrote(7);
    CHECK(sync.commits().anyConfirmed());
    CHECK(sync.takeCommitted(0) == std::vector<int>{7});
    // A rewritten record waits for its newest write; a forgotten one no more.
    s.commits().wrote(5);
    store.set("game.5", "{}");
    s.commits().wrote(5);
    store.set("game.6", "{}");
    s.commits().wrote(6);
    s.commits().forget(6);
    CHECK(s.heldBack() == 1);
}

TEST_CASE(
    "tournament session: spent never goes down, and the typed failure holds while its sentence is shown") {
    TournamentSession s({});
    s.noteSpent(0.25);
    CHECK(s.spentUsd(0.10) == doctest::Approx(0.25));
    CHECK(s.spentUsd(0.40) == doctest::Approx(0.40));
    s.noteSpent(0.20);
    CHECK(s.spentUsd(0) == doctest::Approx(0.25));

    s.setFailure("the key was refused", FailureKind::Unauthorized);
    CHECK(s.errorFailure() == FailureKind::Unauthorized);
    s.setError("the store refused a write");
    CHECK_FALSE(s.errorFailure());
    s.setError("the key was refused"); // the pause's sentence again (a resume that failed)
    CHECK(s.errorFailure() == FailureKind::Unauthorized);
    s.setFailure("paused: a seat could not be made", std::nullopt);
    CHECK_FALSE(s.errorFailure());
    s.clearError();
    CHECK(s.error().empty());

    s.reset();
    CHECK(s.spentUsd(0) == doctest::Approx(0));
}

TEST_CASE("tournament session: fits show their point estimate framed by the last settled widths, and reset "
          "forgets them") {
    TournamentSession s({});
    std::vector<std::pair<BradleyTerryFit, bool>> shown;
    s.addRatings([&](const BradleyTerryFit& fit, bool settled) { shown.emplace_back(fit, settled); });
    int other = 0;
    s.addRatings([&](const BradleyTerryFit&, bool) { ++other; });
    const BradleyTerryFit whole = fitBradleyTerry(3, games(30));
    s.startRatings(0, std::make_unique<BradleyTerryRun>(3, games(30))); // at rest: whole at once
    REQUIRE(shown.size() == 1);
    CHECK(shown[0].second);
    CHECK(shown[0].first.low == whole.low);
    s.setPhase(HostedPhase::Running); // games run: the point estimate first
    s.startRatings(0, std::make_unique<BradleyTerryRun>(3, games(31)));
    REQUIRE(shown.size() == 2);
    CHECK_FALSE(shown[1].second);
    const BradleyTerryFit point = fitBradleyTerry(3, games(31), BradleyTerryOptions{{}, 1.0, false, 0});
    CHECK(shown[1].first.low == withSettledWidths(point, whole).low);
    CHECK(s.ratingsRefining());
    CHECK(s.refineProgress().second > 0);
    for (int polls = 0; s.ratingsRefining() && polls < 100000;) s.pollRatings(++polls, 1000);
    CHECK(shown.back().second);
    CHECK(shown.back().first.low == fitBradleyTerry(3, games(31)).low);
    CHECK(other == 0);                // the other fit never started
    CHECK(s.ratingStats().sent == 0); // no runner: drawn here

    s.reset(); // nothing settled since: the next point estimate as it is
    s.setPhase(HostedPhase::Running);
    s.startRatings(1, std::make_unique<BradleyTerryRun>(3, games(31)));
    CHECK(other == 1);
    s.startRatings(0, std::make_unique<BradleyTerryRun>(3, games(31)));
    CHECK(shown.back().first.low == withSettledWidths(point, BradleyTerryFit{}).low);
    s.finishRatings();
    CHECK_FALSE(s.ratingsRefining());
}
