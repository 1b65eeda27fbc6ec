// PlanArenaHost: a plan stage played as an arena tournament, read back from the arena's state.
#include "src/app/plan_arena_host.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba {

using nlohmann::json;

namespace {
constexpr int kStageConcurrency = 4;

// A screen's tournament phase from its state ("setup" when the state does not say).
std::string phaseOf(const ui::Screen& screen) {
    const json state = json::parse(screen.stateJson(), nullptr, false);
    return state.is_object() && state.contains("phase") && state["phase"].is_string() ? state["phase"].get<std::string>()
                                                                                       : std::string("setup");
}
} // namespace

std::optional<std::string> PlanArenaHost::startStage(const planner::StageLaunch& launch) {
    const bool werewolf = launch.stage.game == planner::GameKind::Werewolf;
    std::optional<std::string> refused = werewolf ? startWerewolf(launch) : startChess(launch);
    if (refused) return refused;
    active_ = werewolf ? &werewolfArena_ : &arena_;
    if (show_) show_(active_->id());
    return std::nullopt;
}

std::optional<std::string> PlanArenaHost::startWerewolf(const planner::StageLaunch& launch) {
    const planner::Stage& stage = launch.stage;
    const std::string phase = phaseOf(werewolfArena_);
    if (phase == "running" || phase == "paused")
        return std::string("the Werewolf Arena is busy with a tournament (") + phase + "): finish or reset it first";
    json config = {{"players", launch.seats},
                   {"roles", stage.roles},
                   {"rules", stage.plainRules ? "plain" : "balanced"},
                   {"games", stage.games},
                   {"concurrency", kStageConcurrency}};
    if (stage.budgetUsd > 0) config["budgetUsd"] = stage.budgetUsd;
    if (auto error = werewolfArena_.command("setup", config.dump(), nullptr))
        return "the Werewolf Arena refused the setup: " + *error;
    if (auto error = werewolfArena_.command("start", "", nullptr)) return "the Werewolf Arena did not start: " + *error;
    return std::nullopt;
}

std::optional<std::string> PlanArenaHost::startChess(const planner::StageLaunch& launch) {
    const planner::Stage& stage = launch.stage;
    const std::string phase = phaseOf(arena_);
    if (phase == "running" || phase == "stopping" || phase == "paused")
        return std::string("the arena is busy with a tournament (") + phase + "): finish or reset it first";
    if (phase != "setup")
        if (auto error = arena_.command("reset", "", nullptr)) return "the arena could not be reset: " + *error;
    json config = {{"name", launch.name.empty() ? launch.taskId : launch.name},
                   {"participants", launch.seats},
                   {"format", std::string(planner::stageFormatName(stage.format))},
                   {"games", stage.games},
                   {"concurrency", kStageConcurrency},
                   {"chess960", stage.chess960}};
    if (stage.tickerSeconds) {
        config["tempo"] = "ticker";
        config["tickerSeconds"] = *stage.tickerSeconds;
    }
    if (stage.budgetUsd > 0) config["budgetUsd"] = stage.budgetUsd;
    if (auto error = arena_.command("configure", config.dump(), nullptr)) return "the arena refused the setup: " + *error;
    if (auto error = arena_.command("start", "", nullptr)) return "the arena did not start: " + *error;
    return std::nullopt;
}

planner::StageHost::Poll PlanArenaHost::pollStage() {
    Poll poll;
    if (!active_) return poll;
    const bool werewolf = active_ == &werewolfArena_;
    const json state = json::parse(active_->stateJson(), nullptr, false);
    if (!state.is_object()) {
        poll.state = State::Failed;
        poll.detail = "the arena's state could not be read";
        return poll;
    }
    const std::string phase = state.value("phase", std::string("setup"));
    const int finished = state.value("gamesFinished", 0), total = state.value("totalGames", 0);
    if (phase == "running" || phase == "stopping") {
        poll.state = State::Running;
        poll.detail = std::to_string(finished) + "/" + std::to_string(total) + " games";
        return poll;
    }
    const std::string where = werewolf ? "the Werewolf Arena's" : "the arena's";
    active_ = nullptr;
    if (phase != "finished") {
        poll.state = State::Failed;
        const std::string error = state.value("error", std::string());
        const std::string notice = state.value("notice", std::string());
        poll.detail = where + " tournament ended " + phase + (error.empty() ? "" : ": " + error) +
                      (notice.empty() ? "" : " (" + notice + ")");
        return poll;
    }
    poll.state = State::Finished;
    poll.detail = std::to_string(finished) + "/" + std::to_string(total) + " games";
    if (werewolf) {
        // Werewolf rows are players ("bot", "llm:MODEL"), already best first.
        for (const json& row : state.value("leaderboard", json::array()))
            if (row.is_object() && row.contains("player") && row["player"].is_string())
                poll.ranking.push_back(row["player"].get<std::string>());
        return poll;
    }
    // The ranking: leaderboard rows by rank, each row's participant as its seat spec.
    std::vector<std::pair<int, std::string>> ranked;
    const json& participants = state["config"]["participants"];
    for (const json& row : state.value("leaderboard", json::array())) {
        const int index = row.value("participant", -1);
        if (index < 0 || !participants.is_array() || size_t(index) >= participants.size()) continue;
        const json& p = participants[size_t(index)];
        const std::string spec = p.is_object() ? p.value("spec", std::string()) : p.is_string() ? p.get<std::string>() : "";
        ranked.emplace_back(row.value("rank", 0), spec);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& r : ranked) poll.ranking.push_back(r.second);
    return poll;
}

void PlanArenaHost::stopStage() {
    if (active_) active_->command("stop", "", nullptr);
}

} // namespace chaiba
