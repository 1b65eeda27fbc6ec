// Layered layout of the plan for the graph view (pure math): each task's layer is the longest
// dependency path below it (tasks without dependencies are layer 0, a task sits above everything
// it needs), and tasks within a layer are ordered by barycenter sweeps to reduce edge crossings.
#pragma once

#include "src/modes/planner/plan.h"

#include <vector>

namespace chaiba::planner {

struct LayoutSlot {
    int layer = 0; // 0 = no dependencies; layer(task) > layer(each dependency)
    int index = 0; // position within the layer, 0-based and dense
    bool operator==(const LayoutSlot&) const = default;
};

// One slot per task, in the graph's task order. Tasks on a cycle (an invalid graph) are placed on
// a layer after every other task rather than looping.
std::vector<LayoutSlot> layoutPlan(const PlanGraph& graph);

// Edge crossings between adjacent layers of a layout (for tests and for judging the ordering).
int layoutCrossings(const PlanGraph& graph, const std::vector<LayoutSlot>& slots);

} // namespace chaiba::planner
