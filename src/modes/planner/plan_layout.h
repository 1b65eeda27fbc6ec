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

// The graph view's geometry, in world units (1 = 1 px at zoom 1): a node's size and the gaps
// between layers (room for the edges' curves) and between the tasks of one layer, for layers
// left to right (flat) and top to bottom (tall).
struct GraphGeometry {
    static constexpr float kNodeW = 150, kNodeH = 46;
    static constexpr float kLayerGap = 56, kSiblingGap = 18;   // flat
    static constexpr float kLayerGapV = 40, kSiblingGapV = 14; // tall
    static constexpr float kPad = 16;                          // around a fitted graph
    // A fit's bounds: never smaller than 1, where labels are at the body text's size (a larger
    // plan scrolls instead).
    static constexpr float kMinZoom = 1.0f, kMaxZoom = 1.5f;
};

struct GraphFit {
    bool vertical = false;          // layers top to bottom
    float zoom = 1;                 // world units to pixels
    float worldW = 0, worldH = 0;   // the laid-out graph's size in world units
};

// How a graph of `layers` x `rows` fits a view of viewW x viewH pixels: top to bottom when that
// draws it clearly larger (by an eighth, so a near tie stays left to right), as a long chain in a
// narrow view (a phone) does.
GraphFit fitGraph(float viewW, float viewH, int layers, int rows);

} // namespace chaiba::planner
