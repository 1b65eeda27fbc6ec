// RatingRefiner: one fit at a time, its bootstrap elsewhere or in slices here.
#include "src/play/rating_refiner.h"

#include <chrono>

namespace chaiba::play {

namespace {
constexpr const char* kHere = "the rating intervals are refined on the page: ";
}

RatingRefiner::RatingRefiner(RunnerMaker makeRunner, FitShown onFit)
    : makeRunner_(std::move(makeRunner)), onFit_(std::move(onFit)) {}

RatingRefiner::~RatingRefiner() { *alive_ = false; }

void RatingRefiner::start(std::unique_ptr<BradleyTerryRun> run, bool busy) {
    run_ = std::move(run);
    ++serial_; // a reply still on its way belongs to the previous games
    if (busy) {
        onFit_(run_->fit(), run_->done());
        send();
    } else {
        refine(1 << 30);
    }
}

bool RatingRefiner::poll(double nowMs, double budgetMs) {
    lastPollMs_ = nowMs;
    if (sentMs_ < 0) sentMs_ = nowMs; // sent since the last poll
    if (elsewhere() && runner_ && runner_->busy() && sentMs_ >= 0 && nowMs - sentMs_ > kPatienceMs) {
        stats_.error = std::string(kHere) + "the worker did not answer in " + std::to_string(int(kPatienceMs / 1000)) + " s";
        runner_.reset(); // its reply, if it ever comes, is dropped with it
    }
    // The latest games' job, held back while the last one left less than kEveryMs ago.
    if (due_ && sentMs_ >= 0 && nowMs - sentMs_ >= kEveryMs) {
        due_ = false;
        send();
    }
    if (!refining() || elsewhere()) return false;
    const auto start = std::chrono::steady_clock::now();
    do refine(1);
    while (refining() && std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < budgetMs);
    return !refining();
}

void RatingRefiner::finish() {
    if (refining()) refine(1 << 30);
}

void RatingRefiner::reset() {
    run_.reset();
    ++serial_;
}

std::pair<int, int> RatingRefiner::progress() const {
    if (!run_) return {0, 0};
    return {run_->samplesDrawn(), run_->samplesWanted()};
}

// One job at a time, and at most one every kEveryMs: while the runner is busy with games that are
// no longer the latest, the latest wait for its reply (dropped) and go next, once the interval has
// passed; a run finished here meanwhile sends nothing.
void RatingRefiner::send() {
    if (!elsewhere() || !run_ || run_->done()) return;
    if (!runner_) runner_ = makeRunner_();
    if (!runner_) {
        stats_.error = std::string(kHere) + "no worker to draw them";
        return;
    }
    if (runner_->busy()) return;
    if (stats_.sent > 0 && (sentMs_ < 0 || lastPollMs_ - sentMs_ < kEveryMs)) {
        due_ = true; // a poll sends it once the interval has passed
        return;
    }
    due_ = false;
    const std::uint64_t serial = serial_;
    ++stats_.sent;
    sentMs_ = -1; // stamped by the next poll (a job may leave from start())
    runner_->run(encodeBootstrapJob(*run_), [this, serial, alive = alive_](const std::string& reply, const std::string& error) {
        if (*alive) onReply(serial, reply, error);
    });
}

void RatingRefiner::onReply(std::uint64_t serial, const std::string& reply, const std::string& error) {
    if (serial != serial_) return send(); // for games since replaced: the latest go now
    if (!run_ || run_->done()) return;    // made here meanwhile (the arena came to rest)
    std::optional<std::string> problem;
    if (!error.empty()) problem = error;
    else problem = adoptBootstrapReply(reply, *run_);
    if (problem) {
        // Refined here from now on, a slice per poll; the reason is in stats().
        stats_.error = std::string(kHere) + *problem;
        return; // (the runner stays, unused: this is its own callback)
    }
    ++stats_.adopted;
    onFit_(run_->fit(), true);
}

void RatingRefiner::refine(int samples) {
    if (!run_) return;
    if (run_->step(samples)) onFit_(run_->fit(), true);
}

BradleyTerryFit withSettledWidths(const BradleyTerryFit& fit, const BradleyTerryFit& settled) {
    BradleyTerryFit shown = fit;
    if (settled.ratings.size() != fit.ratings.size() || settled.low.size() != fit.ratings.size() ||
        settled.high.size() != fit.ratings.size() || shown.low.size() != fit.ratings.size() ||
        shown.high.size() != fit.ratings.size())
        return shown;
    for (size_t i = 0; i < fit.ratings.size(); ++i) {
        shown.low[i] = fit.ratings[i] - (settled.ratings[i] - settled.low[i]);
        shown.high[i] = fit.ratings[i] + (settled.high[i] - settled.ratings[i]);
    }
    return shown;
}

} // namespace chaiba::play
