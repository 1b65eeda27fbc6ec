// The arena's move-quality analysis in the browser: each position is scored by an engine worker
// (engine_worker.cpp, engine_analyse_position) from the page's pool, so the main thread never
// searches; a request is sent only while enough cores are left beside the running engine searches.
// The arena's rating intervals the same way: the bootstrap job (rating_job.h) runs in a pool
// worker (engine_bootstrap_ratings), so a game end costs the page only the point estimate.
#pragma once

#include "src/modes/chess/arena_analysis.h"
#include "src/play/rating_job.h"
#include "web/engine_client_web.h"

namespace chaiba::web {

class WorkerPositionScorer final : public chessmode::PositionScorer {
public:
    // Idle, and fewer engine searches running than cores minus one (at least: none running), so
    // the live games' engines keep a core each on the machines that have them.
    bool ready() const override;
    void request(const chessmode::ScoreRequest& request, Callback callback) override;
    // Requests sent by every scorer of the page (window.chaiba.stats().workerScoreRequests: the
    // browser tests see that the analysis ran in workers, not on the main thread).
    static unsigned long long requestsSent();
    // The analysis's share of a core while games run (ArenaEnvironment::analysisShareWhileRunning):
    // a quarter with fewer than 4 cores, else all it can take.
    static double shareWhileGamesRun();

private:
    WorkerCall call_; // a worker busy with our search goes with the scorer
};

class WorkerBootstrapRunner final : public play::BootstrapRunner {
public:
    void run(const std::string& job, Callback callback) override;
    bool busy() const override { return call_.busy(); }

private:
    WorkerCall call_;
};

} // namespace chaiba::web
