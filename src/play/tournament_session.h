// The page side of a tournament, the same under every mode's arena: its phase, the gate that shows
// a finished game only once the store confirmed its record, the spend floor, the error sentence,
// the rating fits refined off the main thread, and a revision for redraws. The mode keeps its
// runner, its records, its stores' key layouts and its leaderboard; nothing here knows a game.
#pragma once

#include "src/persist/key_value_store.h"
#include "src/play/failure.h"
#include "src/play/rating_refiner.h"
#include "src/play/tournament_host.h"
#include "src/play/tournament_runner.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace chaiba::play {

// Finished games whose records were written but not yet confirmed by a store that commits in the
// background (IndexedDB): a game the page reported must survive a closed tab. A synchronous store
// (or none) confirms at once.
class CommitGate {
public:
    // patienceMs: a game waiting this long is let through anyway (a storage that fails silently);
    // none: it waits however long.
    CommitGate(KeyValueStore* store, std::optional<double> patienceMs)
        : store_(store), patienceMs_(patienceMs) {}

    // The game's record (and whatever names it) was just written: it waits for the store's latest
    // write. Its patience counts from the next take().
    void wrote(int gameId);
    void forget(int gameId) { waiting_.erase(gameId); }
    void clear() { waiting_.clear(); }
    bool waiting(int gameId) const { return waiting_.count(gameId) != 0; }
    size_t size() const { return waiting_.size(); }
    bool anyConfirmed() const; // take() would let a game through (patience aside)
    // The games let through now, forgotten here, in id order: those the store confirmed, and
    // (`late`) those past the patience.
    struct Through {
        int gameId = -1;
        bool late = false;
    };
    std::vector<Through> take(double nowMs);
    std::optional<double> patienceMs() const { return patienceMs_; }

private:
    struct Waiting {
        uint64_t ticket = 0;
        double sinceMs = -1; // -1: stamped by the next take()
    };
    uint64_t committed() const { return store_ ? store_->committedTicket() : UINT64_MAX; }
    KeyValueStore* store_;
    std::optional<double> patienceMs_;
    std::map<int, Waiting> waiting_;
};

class TournamentSession {
public:
    struct Options {
        KeyValueStore* store = nullptr;                 // where the mode keeps the tournament
        std::optional<double> commitPatienceMs;         // CommitGate's
        RatingRefiner::RunnerMaker makeBootstrapRunner; // empty: intervals drawn here
    };
    explicit TournamentSession(Options options)
        : makeBootstrapRunner_(std::move(options.makeBootstrapRunner)),
          commits_(options.store, options.commitPatienceMs) {}

    // ---- phase: Setup, Running, Stopping, Paused, Stopped, Finished -----------------------------
    HostedPhase phase() const { return phase_; }
    // As the page shows it: Finished only once no finished game waits for the store.
    HostedPhase shownPhase() const {
        return phase_ == HostedPhase::Finished && heldBack() > 0 ? HostedPhase::Running : phase_;
    }
    bool hasTournament() const { return phase_ != HostedPhase::Setup; }
    bool playing() const { return phase_ == HostedPhase::Running || phase_ == HostedPhase::Stopping; }
    bool underWay() const { return playing() || phase_ == HostedPhase::Paused; } // TournamentProgress::busy
    void setPhase(HostedPhase phase);
    // A finished runner is Finished when every game of the schedule was played, else Stopped.
    void followRunner(RunnerState state, bool allPlayed);

    // ---- finished games not shown until the store confirmed them --------------------------------
    CommitGate& commits() { return commits_; }
    const CommitGate& commits() const { return commits_; }
    size_t heldBack() const { return commits_.size(); }
    // CommitGate::take's ids; one let through unconfirmed sets error() to the risk.
    std::vector<int> takeCommitted(double nowMs);

    // ---- spend: never less than seen (a stop or a resume must not make it go down on screen) ----
    double spentUsd(double nowUsd) const { return std::max(spentFloorUsd_, nowUsd); }
    void noteSpent(double usd) { spentFloorUsd_ = std::max(spentFloorUsd_, usd); }

    // ---- error: a pause, a storage failure, a stored tournament that did not read -----------------
    const std::string& error() const { return error_; }
    void setError(std::string text) { error_ = std::move(text); }
    void clearError() { error_.clear(); }
    // A pause's sentence and its typed failure (401, 402; none for another reason), which holds
    // while this sentence is the error.
    void setFailure(std::string text, std::optional<FailureKind> failure);
    std::optional<FailureKind> errorFailure() const {
        return failure_ && error_ == failureText_ ? failure_ : std::nullopt;
    }

    // ---- rating fits, numbered from 0 in the order added ----------------------------------------
    // `shown` gets the fit to show: a settled one, else the point estimate with the last settled
    // fit's interval widths (RatingRefiner draws the intervals elsewhere, or a slice per poll).
    using FitShown = std::function<void(const BradleyTerryFit& shown, bool settled)>;
    void addRatings(FitShown shown);
    // A new fit of the games shown: while playing() the intervals follow, else all at once.
    void startRatings(size_t fit, std::unique_ptr<BradleyTerryRun> run);
    void finishRatings(); // every fit's intervals whole now
    void pollRatings(double nowMs, double budgetMs);
    bool ratingsRefining() const;
    std::pair<int, int> refineProgress() const; // samples drawn, wanted
    RatingRefiner::Stats ratingStats() const;   // summed; the first error

    // ---- redraws: changes whenever something visible changes ------------------------------------
    uint64_t revision() const { return revision_; }
    void changed() const { ++revision_; }

    // Back to Setup: nothing waits, nothing was spent, no error, the fits forgotten.
    void reset();

private:
    struct Ratings {
        std::unique_ptr<RatingRefiner> refiner;
        BradleyTerryFit settled; // the last whole fit
    };
    RatingRefiner::RunnerMaker makeBootstrapRunner_;
    HostedPhase phase_ = HostedPhase::Setup;
    CommitGate commits_;
    double spentFloorUsd_ = 0;
    std::string error_;
    std::optional<FailureKind> failure_; // with the text it came with
    std::string failureText_;
    std::vector<std::unique_ptr<Ratings>> ratings_;
    mutable uint64_t revision_ = 1;
};

} // namespace chaiba::play
