// What changed between two plans (tasks added, removed or changed; edges added or removed), for
// the undo summary and the replace_graph card.
#pragma once

#include "src/modes/planner/plan.h"

#include <string>
#include <utility>
#include <vector>

namespace chaiba::planner {

using PlanEdge = std::pair<std::string, std::string>; // (task, the task it depends on)

struct PlanDiff {
    std::vector<std::string> addedTasks;   // in the order of `after`
    std::vector<std::string> removedTasks; // in the order of `before`
    std::vector<std::string> changedTasks; // in both, with another field than dependencies changed
    std::vector<PlanEdge> addedEdges;
    std::vector<PlanEdge> removedEdges;
    bool empty() const;
    // "+2 tasks, −1 edge, 1 changed"; "no changes" when empty.
    std::string text() const;
    bool operator==(const PlanDiff&) const = default;
};

PlanDiff diffPlans(const PlanGraph& before, const PlanGraph& after);

} // namespace chaiba::planner
