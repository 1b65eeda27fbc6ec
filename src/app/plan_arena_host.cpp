// PlanArenaHost: a plan stage played as an arena tournament, followed through typed progress.
#include "src/app/plan_arena_host.h"

#include "src/modes/chess/arena_screen.h"
#include "src/modes/werewolf/ui/tournament_screen.h"

namespace chaiba {

namespace {
constexpr int kStageConcurrency = 4;

// The stage as the arena's config (the same as `chaiba plan --run` plays).
chessmode::TournamentConfig chessConfigOf(const planner::StageLaunch& launch) {
    const planner::Stage& stage = launch.stage;
    return chessmode::stageConfig({launch.name.empty() ? launch.taskId : launch.name, launch.seats,
                                   planner::stageFormatName(stage.format), stage.games, kStageConcurrency, stage.chess960,
                                   stage.tickerSeconds, launch.budgetUsd.value_or(0)});
}

} // namespace

std::optional<std::string> PlanArenaHost::startStage(const planner::StageLaunch& launch) {
    std::optional<std::string> refused;
    const bool werewolf = launch.stage.game == planner::GameKind::Werewolf;
    if (werewolf) {
        const planner::Stage& stage = launch.stage;
        llm::Result<werewolfmode::TournamentConfig> config = werewolfmode::stageConfig(
            {launch.seats, stage.roles, stage.plainRules, stage.games, 1, kStageConcurrency, launch.budgetUsd.value_or(0)});
        refused = config.isOk() ? werewolfArena_.startTournament(*config.value)
                                : std::optional<std::string>("the Werewolf Arena refused the setup: " + config.error);
    } else {
        refused = arena_.startTournament(chessConfigOf(launch));
    }
    if (refused) return refused;
    active_ = werewolf ? Active::Werewolf : Active::Chess;
    if (show_) show_(werewolf ? werewolfArena_.id() : arena_.id());
    return std::nullopt;
}

planner::StageHost::Poll PlanArenaHost::pollStage() {
    Poll poll;
    if (active_ == Active::None) return poll;
    const bool werewolf = active_ == Active::Werewolf;
    play::TournamentProgress progress = werewolf ? werewolfArena_.tournamentProgress() : arena_.tournamentProgress();
    poll.spentUsd = progress.spentUsd;
    const std::string games = std::to_string(progress.finished) + "/" + std::to_string(progress.total) + " games";
    if (progress.phase == play::HostedPhase::Running || progress.phase == play::HostedPhase::Stopping) {
        poll.state = State::Running;
        poll.detail = games;
        return poll;
    }
    active_ = Active::None;
    if (progress.phase != play::HostedPhase::Finished) {
        poll.state = State::Failed;
        poll.detail = std::string(werewolf ? "the Werewolf Arena's" : "the arena's") + " tournament ended " +
                      std::string(play::hostedPhaseName(progress.phase)) +
                      (progress.error.empty() ? "" : ": " + progress.error) +
                      (progress.notice.empty() ? "" : " (" + progress.notice + ")");
        return poll;
    }
    poll.state = State::Finished;
    poll.detail = games;
    poll.ranking = std::move(progress.ranking);
    for (const play::TournamentProgress::Standing& row : progress.standings)
        poll.standings.push_back({row.seat, row.rating, row.games, row.score});
    poll.tieRule = std::move(progress.tieRule);
    poll.games = progress.finished;
    return poll;
}

std::string PlanArenaHost::replacedByRun(const planner::PlanGraph& plan) const {
    bool chess = false, werewolf = false;
    for (const planner::Task& task : plan.tasks) {
        if (!task.stage || task.status == planner::TaskStatus::Done || task.status == planner::TaskStatus::Skipped) continue;
        (task.stage->game == planner::GameKind::Werewolf ? werewolf : chess) = true;
    }
    std::string out;
    auto add = [&out](const char* where, const play::TournamentProgress& p) {
        if (p.phase == play::HostedPhase::Setup || p.finished == 0) return;
        out += std::string(out.empty() ? "" : " and ") + where + " tournament (" + std::to_string(p.finished) + " of " +
               std::to_string(p.total) + " games played, " + std::string(play::hostedPhaseName(p.phase)) + ")";
    };
    if (chess) add("the arena's", arena_.tournamentProgress());
    if (werewolf) add("the Werewolf Arena's", werewolfArena_.tournamentProgress());
    return out;
}

void PlanArenaHost::stopStage() {
    if (active_ == Active::Werewolf) werewolfArena_.stopTournament();
    if (active_ == Active::Chess) arena_.stopTournament();
}

} // namespace chaiba
