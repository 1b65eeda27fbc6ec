// The planner's StageHost over the arena screens: a chess stage becomes an arena tournament, a
// werewolf stage a Werewolf Arena tournament, each started with the mode's own config type and
// followed through the screens' typed progress (play::TournamentProgress: phase, games, ranking),
// never by reading their state JSON. The app composes the modes here so none includes another.
#pragma once

#include "src/modes/planner/plan_run.h"

#include "src/persist/key_value_store.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace chaiba {

class ArenaScreen;
class WerewolfArenaScreen;

class PlanArenaHost final : public planner::StageHost {
public:
    // The screens outlive the host; `show(id)` brings a screen to the front when a stage starts.
    // `keep`: where each finished stage's tournament is kept (the browser's large store); none:
    // stages are not kept.
    PlanArenaHost(ArenaScreen& arena, WerewolfArenaScreen& werewolfArena, std::function<void(std::string_view)> show,
                  KeyValueStore* keep = nullptr);

    std::optional<std::string> startStage(const planner::StageLaunch& launch) override;
    Poll pollStage() override;
    void stopStage() override;
    std::string replacedByRun(const planner::PlanGraph& plan) const override;
    bool keptStage(const std::string& taskId) const override;
    std::string replacedByOpen(const std::string& taskId) const override;
    std::optional<std::string> openStage(const std::string& taskId, bool replace) override;
    void forgetStages() override;

private:
    enum class Active { None, Chess, Werewolf };
    ArenaScreen& arena_;
    WerewolfArenaScreen& werewolfArena_;
    std::function<void(std::string_view)> show_;
    Active active_ = Active::None; // the screen playing the stage
    std::string activeTask_;       // its task
    // The finished stage's bundle on its way out of the arena (read back from storage first).
    struct Export {
        bool done = false;
        std::string text, error;
    };
    std::shared_ptr<Export> export_;
    KeyValueStore* keep_ = nullptr;
    std::map<std::string, std::string> kept_; // task id -> "chess" or "werewolf", as stored in the index
    std::string keepStage(const std::string& game, const std::string& text); // why not kept, or ""
    void saveIndex();
    // What showing a kept tournament on that game's screen would replace ("" when nothing).
    std::string replacedOn(bool werewolf) const;
};

} // namespace chaiba
