// Running a plan's stages: the order (a dependency before its dependents), the status moves a run
// makes, and PlanRunner, the state machine that starts each stage on a game-agnostic StageHost
// (the app wires it to the arena), feeds the top K of a finished stage into the next and keeps the
// plan's statuses in step. Shared by `chaiba plan --run` and the page's "Run plan".
#pragma once

#include "src/modes/planner/plan.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
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

// One place of a finished stage's table.
struct StageStanding {
    std::string seat;
    double rating = 0;
    int games = 0;
    double score = 0; // chess: wins + draws / 2; werewolf: wins
    bool operator==(const StageStanding&) const = default;
};

// What a finished stage left: its table, best first, the rule that ordered equal ratings, what it
// spent. Kept with the plan (a stopped run resumes from it) and shown on the stage's node.
struct StageResult {
    std::vector<std::string> ranking; // seat specs, best first
    std::vector<StageStanding> standings;
    std::string tieRule;
    int games = 0;
    double spentUsd = 0;
    bool operator==(const StageResult&) const = default;
};

// Who went forward from `result` into a stage that takes its top `k`, and, when places k and k+1
// have the same rating, how that tie was broken ("engine:2 and random share 1512; engine:2 goes
// on: the table's rule, ...").
struct Advance {
    std::vector<std::string> seats;
    std::string tieNote; // "" without a tie at the cut
};
Advance advanceFrom(const StageResult& result, int k);

// Stage results as versioned JSON, and back (a bad or newer document: nothing, with why).
std::string stageResultsJson(const std::map<std::string, StageResult>& results);
std::optional<std::map<std::string, StageResult>> readStageResults(std::string_view json, std::string* why);

// Where a stage is played. The planner knows no arena: the app implements this over its screen.
class StageHost {
public:
    enum class State { Idle, Running, Finished, Failed };
    struct Poll {
        State state = State::Idle;
        std::vector<std::string> ranking; // Finished: seat specs, best first
        std::vector<StageStanding> standings; // Finished: the table behind the ranking (may be empty)
        std::string tieRule;
        int games = 0;                    // Finished: games played
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
    // A finished stage's tournament kept by the host (the page: the arena's bundle in the
    // browser's storage) to be opened again from the stage's node: whether stage `taskId` has one.
    virtual bool keptStage(const std::string& /*taskId*/) const { return false; }
    // What showing the kept tournament of stage `taskId` would replace on its screen (a tournament
    // the person has there), in words; empty when nothing would be lost.
    virtual std::string replacedByOpen(const std::string& /*taskId*/) const { return {}; }
    // Shows the kept tournament of stage `taskId` on its screen. `replace`: the person agreed to
    // replace the tournament that screen holds (else such an open is refused, saying which).
    virtual std::optional<std::string> openStage(const std::string& /*taskId*/, bool /*replace*/) {
        return std::string("this host keeps no stage tournaments");
    }
    // Forgets every kept stage tournament (a new plan).
    virtual void forgetStages() {}
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
    // Every finished stage's result (this run's and those restored).
    const std::map<std::string, StageResult>& results() const { return results_; }
    // The results of an earlier run (stored with the plan): a run then starts from them, a stage
    // done there is not played again and its ranking seats the next. Not while running.
    void restore(std::map<std::string, StageResult> results);
    // Forgets every result (a new plan).
    void clearResults();
    uint64_t resultChanges() const { return resultChanges_; } // grows with every stage result
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
    std::map<std::string, StageResult> results_;
    uint64_t resultChanges_ = 0;
    double spentUsd_ = 0;        // stages that ended in this run
    double currentSpentUsd_ = 0; // the stage in play, as its last poll said
};

// The seats of a stage (see StageLaunch::seats): seat specs, "top K of X" from X's ranking; an
// error when a ranking is not known.
Result<std::vector<std::string>> resolveSeats(const Stage& stage,
                                              const std::map<std::string, std::vector<std::string>>& rankings);

} // namespace chaiba::planner
