// `chaiba plan --run`: a plan's werewolf stage played headless as a Werewolf tournament (the page's
// Werewolf Arena game plan: seats rotate one per game, the same sessions and leaderboard).
#pragma once

#include "src/cli/args.h"
#include "src/modes/planner/plan.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::cli {

// Plays `stage` with `seats` (one player per seat: "bot" or "llm:MODEL"); with `outDir`, logs each
// game there as it ends (a run folder, as `chaiba werewolf --out`) and writes summary.json (the
// leaderboard, every result). continueUnfinished (the stage was left running): the games its
// folder already holds with these settings count, the rest are played. Fills `ranked` with the
// leaderboard's players, best first; adds what the games cost to `spentUsd`. `budgetUsd`: the
// stage's cap in this run (planner::stageAllowance), 0 none. Returns 0, or an exit code after
// printing why (2: set-up; 1 also when the budget stopped it before every game: what was played is
// kept in summary.json).
int runPlanWerewolfStage(const Args& args, const planner::Stage& stage, const std::vector<std::string>& seats,
                         std::uint64_t seed, int concurrency, const std::optional<std::string>& outDir,
                         bool continueUnfinished, double budgetUsd, std::vector<std::string>& ranked, double& spentUsd);

// The ranking a werewolf stage left in its folder (summary.json), best first; empty when absent.
std::vector<std::string> werewolfStageRanking(const std::string& outDir);

} // namespace chaiba::cli
