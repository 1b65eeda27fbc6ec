// Running a plan's stages: the order (a dependency before its dependents), the status moves a run
// makes, and PlanRunner, the state machine that starts each stage on a game-agnostic StageHost
// (the app wires it to the arena), feeds the top K of a finished stage into the next and keeps the
// plan's statuses in step. Shared by `chaiba plan --run` and the page's "Run plan".
#pragma once

#include "src/modes/planner/plan.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::planner {

// The stage tasks in dependency order (a dependency before its dependents, else file order).
std::vector<std::string> stageOrder(const PlanGraph& plan);

// Moves a task's status step by step along the allowed path to `to` (planned → ready → running →
// done); false with the reason when a step is refused.
bool moveStatus(PlanGraph& plan, const std::string& id, TaskStatus to, std::string& why);

// One stage as the host runs it: its seats resolved (the top K replaced by the specs ranked).
struct StageLaunch {
    std::string taskId;
    std::string name;
    Stage stage;                    // entrants as written in the plan
    // What the stage may spend in this run (stageAllowance): its tournament's budget cap; none:
    // no limit (no cap on the plan and no budget of its own, or no model seat).
    std::optional<double> budgetUsd;
    // Resolved seat specs in entrant order: chess, each once; werewolf, one per seat of the table
    // ("bot*3" gives three "bot", "random" is "bot"), a top-K player once.
    std::vector<std::string> seats;
};

// Where a stage is played. The planner knows no arena: the app implements this over its screen.
class StageHost {
public:
    enum class State { Idle, Running, Finished, Failed };
    struct Poll {
        State state = State::Idle;
        std::vector<std::string> ranking; // Finished: seat specs, best first
        std::string detail;               // Running: "3/6 games"; Failed: why
        double spentUsd = 0;              // what the stage's tournament spent so far
    };
    virtual ~StageHost() = default;
    // Starts a stage; an error sentence when it cannot (the arena is busy, a seat is unknown).
    virtual std::optional<std::string> startStage(const StageLaunch& launch) = 0;
    virtual Poll pollStage() = 0;
    // Stops the stage being played (the plan run was stopped).
    virtual void stopStage() = 0;
    // What a run of `plan` would replace where its stages play (a tournament the person played or
    // imported there), in words; empty when nothing would be lost. Run plan asks first.
    virtual std::string replacedByRun(const PlanGraph& /*plan*/) const { return {}; }
};

// What stage `id` may spend in a run of the plan that has spent `spentUsd` so far. Without a cap on
// the root: its own budget (none without one). With a cap: its own budget within what the cap
// leaves; a stage without a budget gets an equal share, with the later stages without one, of
// what the cap leaves after the budgets of the later stages (so money a stage did not spend passes
// to the next). `spent`: the cap is used up (then a stage with a model seat is not started).
struct StageAllowance {
    std::optional<double> usd;
    bool spent = false;
    std::string text; // "0.004 USD of the plan's 0.01 USD cap (0.002 spent)", "" without a limit
};
StageAllowance stageAllowance(const PlanGraph& plan, const std::string& id, double spentUsd);
// True when a resolved seat is a model (it may cost money).
bool seatsCostMoney(const std::vector<std::string>& seats);

// "Run plan": one stage at a time, in stageOrder, on a host.
class PlanRunner {
public:
    // Checks that the plan has a stage left to play; the run starts at the next tick.
    std::optional<std::string> start(const PlanGraph& plan);
    // Stops after the stage being played (it is marked failed: stopped by the person).
    void stop(StageHost& host);
    bool running() const { return running_; }
    // Advances the run; returns the plan with new statuses when it changed them.
    std::optional<PlanGraph> tick(const PlanGraph& plan, StageHost& host);

    const std::string& currentTask() const { return current_; }
    // What the run is doing or how it ended ("stage qual: 2/6 games", "plan done", an error).
    const std::string& status() const { return status_; }
    bool failed() const { return failed_; }
    const std::map<std::string, std::vector<std::string>>& rankings() const { return rankings_; }
    // What the run's stages spent: the finished ones and the one in play.
    double spentUsd() const { return spentUsd_ + currentSpentUsd_; }

private:
    std::optional<PlanGraph> finish(PlanGraph plan, std::string status, bool failed);

    bool running_ = false;
    bool failed_ = false;
    bool stopRequested_ = false;
    std::string current_; // the stage being played, "" between stages
    std::string status_;
    std::map<std::string, std::vector<std::string>> rankings_; // stage task → seats, best first
    double spentUsd_ = 0;        // stages that ended in this run
    double currentSpentUsd_ = 0; // the stage in play, as its last poll said
};

// The seats of a stage (see StageLaunch::seats): seat specs, "top K of X" from X's ranking; an
// error when a ranking is not known.
Result<std::vector<std::string>> resolveSeats(const Stage& stage,
                                              const std::map<std::string, std::vector<std::string>>& rankings);

} // namespace chaiba::planner
