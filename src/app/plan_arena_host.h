// The planner's StageHost over the arena screen: a plan stage becomes an arena tournament through
// the arena's own automation commands (reset, configure, start), and its leaderboard becomes the
// stage's ranking. The app composes the two modes here so neither includes the other.
#pragma once

#include "src/modes/planner/plan_run.h"
#include "src/ui/screen.h"

#include <functional>
#include <string>
#include <vector>

namespace chaiba {

class PlanArenaHost final : public planner::StageHost {
public:
    // `arena` outlives the host; `showArena` brings the arena to the front when a stage starts.
    PlanArenaHost(ui::Screen& arena, std::function<void()> showArena)
        : arena_(arena), showArena_(std::move(showArena)) {}

    std::optional<std::string> startStage(const planner::StageLaunch& launch) override;
    Poll pollStage() override;
    void stopStage() override;

private:
    ui::Screen& arena_;
    std::function<void()> showArena_;
    bool started_ = false;
};

} // namespace chaiba
