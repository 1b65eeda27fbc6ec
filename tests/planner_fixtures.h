// Shared plans for the planner tests: a small tournament plan built in code, and a model catalog.
#pragma once

#include "src/modes/planner/plan.h"

#include <doctest/doctest.h>

namespace chaiba::planner::testing {

inline PlanContext catalog() {
    return PlanContext::withModels({"openai/gpt-4o-mini", "openai/gpt-4o", "deepseek/deepseek-chat"});
}

inline Stage chessStage(StageFormat format, std::vector<Entrant> entrants, double budgetUsd) {
    Stage s;
    s.format = format;
    s.entrants = std::move(entrants);
    s.games = 2;
    s.budgetUsd = budgetUsd;
    return s;
}

// root (cap 10) needs finals; finals needs groups and takes its top 2; groups has 4 players;
// notes needs nothing.
inline PlanGraph samplePlan() {
    PlanGraph g;
    Task root{"plan",
              "Find the best cheap model",
              "Cheap and strong.",
              TaskStatus::Planned,
              {"Chess first."},
              {"finals"},
              std::nullopt,
              10.0};
    Task groups{"groups", "Group stage", "", TaskStatus::Planned, {}, {}, std::nullopt, std::nullopt};
    groups.stage =
        chessStage(StageFormat::RoundRobin,
                   {Entrant::seatSpec("llm:openai/gpt-4o-mini"), Entrant::seatSpec("llm:openai/gpt-4o"),
                    Entrant::seatSpec("engine:3"), Entrant::seatSpec("random")},
                   4);
    Task finals{"finals", "Finals", "", TaskStatus::Planned, {}, {"groups"}, std::nullopt, std::nullopt};
    finals.stage = chessStage(StageFormat::DoubleRoundRobin,
                              {Entrant::topOf(2, "groups"), Entrant::seatSpec("engine:5")}, 2);
    Task notes{"notes", "Write up the results", "", TaskStatus::Planned, {}, {}, std::nullopt, std::nullopt};
    g.tasks = {root, groups, finals, notes};
    REQUIRE_FALSE(validatePlan(g, catalog()).has_value());
    return g;
}

} // namespace chaiba::planner::testing
