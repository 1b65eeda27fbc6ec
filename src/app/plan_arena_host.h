// The planner's StageHost over the arena screens: a chess stage becomes an arena tournament through
// the arena's own automation commands (reset, configure, start), a werewolf stage a Werewolf Arena
// tournament (setup, start), and the leaderboard becomes the stage's ranking. The app composes the
// modes here so none includes another.
#pragma once

#include "src/modes/planner/plan_run.h"
#include "src/ui/screen.h"

#include <functional>
#include <string>
#include <vector>

namespace chaiba {

class PlanArenaHost final : public planner::StageHost {
public:
    // The screens outlive the host; `show(id)` brings a screen to the front when a stage starts.
    PlanArenaHost(ui::Screen& arena, ui::Screen& werewolfArena, std::function<void(std::string_view)> show)
        : arena_(arena), werewolfArena_(werewolfArena), show_(std::move(show)) {}

    std::optional<std::string> startStage(const planner::StageLaunch& launch) override;
    Poll pollStage() override;
    void stopStage() override;

private:
    std::optional<std::string> startChess(const planner::StageLaunch& launch);
    std::optional<std::string> startWerewolf(const planner::StageLaunch& launch);

    ui::Screen& arena_;
    ui::Screen& werewolfArena_;
    std::function<void(std::string_view)> show_;
    ui::Screen* active_ = nullptr; // the screen playing the stage; null when none was started
};

} // namespace chaiba
