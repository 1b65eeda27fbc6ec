// The rating intervals of a tournament refined without freezing the page: a new fit's point
// estimate is shown at once, its bootstrap (1000 resamples: ~0.2-0.35 s in WebAssembly over 10 000
// games) is drawn somewhere else (a BootstrapRunner: the page's worker) or, without one, a slice
// per poll here; at rest the whole fit is made at once. A newer fit replaces an older one (a reply
// for the older is dropped, the newer's job leaves next). Every arena of every mode uses it.
#pragma once

#include "src/play/rating.h"
#include "src/play/rating_job.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace chaiba::play {

class RatingRefiner {
public:
    // A job unanswered this long gives the runner up (a worker that died says nothing).
    static constexpr double kPatienceMs = 30000;
    // While games end quickly, a job leaves at most this often (the point ratings are shown at once
    // at every game end; the intervals of the latest games follow): back to back, the jobs kept the
    // worker busy all the time.
    static constexpr double kEveryMs = 1000;

    // The jobs sent elsewhere, their intervals taken, and why the runner was given up (then the
    // intervals are refined here); for the state JSON and the tests.
    struct Stats {
        int sent = 0;
        int adopted = 0;
        std::string error;
    };
    using RunnerMaker = std::function<std::unique_ptr<BootstrapRunner>()>;
    // The fit to show: `settled`, its intervals are whole; else the point estimate (the intervals
    // still those of the fit before). Called from start(), poll() and a runner's reply.
    using FitShown = std::function<void(const BradleyTerryFit& fit, bool settled)>;

    // makeRunner may be empty (always here); `prefix` starts the error sentences ("the rating
    // intervals are refined on the page: ...").
    RatingRefiner(RunnerMaker makeRunner, FitShown onFit);
    ~RatingRefiner();
    RatingRefiner(const RatingRefiner&) = delete;
    RatingRefiner& operator=(const RatingRefiner&) = delete;

    // A new fit of the games now shown. busy (games run): the point estimate now, the intervals
    // later (elsewhere, else a slice per poll); at rest: all of it now.
    void start(std::unique_ptr<BradleyTerryRun> run, bool busy);
    // Once per poll: gives a silent runner up, sends a held-back job, and without a runner draws
    // samples here for up to budgetMs (at least one). True when the intervals became whole here.
    bool poll(double nowMs, double budgetMs);
    // At rest: the intervals of the current fit whole now, here.
    void finish();
    // Forgets the fit (a reply on its way is dropped).
    void reset();

    bool refining() const { return run_ && !run_->done(); }
    std::pair<int, int> progress() const; // samples drawn, wanted
    const Stats& stats() const { return stats_; }
    bool elsewhere() const { return makeRunner_ && stats_.error.empty(); }

private:
    void send();
    void onReply(std::uint64_t serial, const std::string& reply, const std::string& error);
    void refine(int samples);

    RunnerMaker makeRunner_;
    FitShown onFit_;
    std::unique_ptr<BradleyTerryRun> run_;
    std::unique_ptr<BootstrapRunner> runner_;
    std::uint64_t serial_ = 0; // the run the next reply must belong to
    double sentMs_ = 0;        // when the last job was sent (the poll's time; -1: stamp at the next poll)
    bool due_ = false;         // a job for the latest games waits for kEveryMs to pass
    double lastPollMs_ = 0;
    Stats stats_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true); // a reply after destruction is dropped
};

// The fit to show while its intervals are drawn: each rating with the interval of the last whole
// fit (`settled`) moved along with it, the same widths; a settled fit of another size: as it is.
BradleyTerryFit withSettledWidths(const BradleyTerryFit& fit, const BradleyTerryFit& settled);

} // namespace chaiba::play
