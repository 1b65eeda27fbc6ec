// PlanArenaHost: a plan stage played as an arena tournament, read back from the arena's state.
#include "src/app/plan_arena_host.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba {

using nlohmann::json;

namespace {
constexpr int kStageConcurrency = 4;
}

std::optional<std::string> PlanArenaHost::startStage(const planner::StageLaunch& launch) {
    const planner::Stage& stage = launch.stage;
    if (stage.game != planner::GameKind::Chess)
        return std::string("the arena plays chess stages only for now (") + std::string(planner::gameName(stage.game)) +
               " is not playable here yet)";
    const json state = json::parse(arena_.stateJson(), nullptr, false);
    const std::string phase = state.is_object() && state.contains("phase") && state["phase"].is_string()
                                  ? state["phase"].get<std::string>()
                                  : std::string("setup");
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
    started_ = true;
    if (showArena_) showArena_();
    return std::nullopt;
}

planner::StageHost::Poll PlanArenaHost::pollStage() {
    Poll poll;
    if (!started_) return poll;
    const json state = json::parse(arena_.stateJson(), nullptr, false);
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
    started_ = false;
    if (phase != "finished") {
        poll.state = State::Failed;
        const std::string error = state.value("error", std::string());
        poll.detail = "the arena's tournament ended " + phase + (error.empty() ? "" : ": " + error);
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
    poll.state = State::Finished;
    poll.detail = std::to_string(finished) + "/" + std::to_string(total) + " games";
    return poll;
}

void PlanArenaHost::stopStage() {
    if (started_) arena_.command("stop", "", nullptr);
}

} // namespace chaiba
