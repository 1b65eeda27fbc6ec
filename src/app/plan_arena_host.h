// The planner's StageHost over the arena screens: a chess stage becomes an arena tournament, a
// werewolf stage a Werewolf Arena tournament, each started with the mode's own config type and
// followed through the screens' typed progress (play::TournamentProgress: phase, games, ranking),
// never by reading their state JSON. The app composes the modes here so none includes another.
#pragma once

#include "src/modes/planner/plan_run.h"

#include <functional>
#include <string>
#include <vector>

namespace chaiba {

class ArenaScreen;
class WerewolfArenaScreen;

class PlanArenaHost final : public planner::StageHost {
public:
    // The screens outlive the host; `show(id)` brings a screen to the front when a stage starts.
    PlanArenaHost(ArenaScreen& arena, WerewolfArenaScreen& werewolfArena, std::function<void(std::string_view)> show)
        : arena_(arena), werewolfArena_(werewolfArena), show_(std::move(show)) {}

    std::optional<std::string> startStage(const planner::StageLaunch& launch) override;
    Poll pollStage() override;
    void stopStage() override;
    std::string replacedByRun(const planner::PlanGraph& plan) const override;

private:
    enum class Active { None, Chess, Werewolf };
    ArenaScreen& arena_;
    WerewolfArenaScreen& werewolfArena_;
    std::function<void(std::string_view)> show_;
    Active active_ = Active::None; // the screen playing the stage
};

} // namespace chaiba
