// Layer assignment by longest path (Kahn's order over dependencies), then a few barycenter sweeps
// down and up; the ordering with the fewest crossings seen is kept, so sweeping never makes the
// initial (task order) layout worse.
#include "src/modes/planner/plan_layout.h"

#include <algorithm>
#include <numeric>

namespace chaiba::planner {

namespace {

using Layers = std::vector<std::vector<int>>; // task indices per layer, in display order

std::vector<LayoutSlot> slotsOf(const Layers& layers, size_t taskCount) {
    std::vector<LayoutSlot> slots(taskCount);
    for (size_t l = 0; l < layers.size(); ++l)
        for (size_t i = 0; i < layers[l].size(); ++i)
            slots[static_cast<size_t>(layers[l][i])] = LayoutSlot{static_cast<int>(l), static_cast<int>(i)};
    return slots;
}

// Reorders one layer by the mean position of each task's neighbours (a task without any keeps its
// place as its key).
void sortByBarycenter(std::vector<int>& layer, const std::vector<std::vector<int>>& neighbours,
                      const std::vector<LayoutSlot>& slots) {
    std::vector<std::pair<double, int>> keyed;
    for (size_t i = 0; i < layer.size(); ++i) {
        const auto& ns = neighbours[static_cast<size_t>(layer[i])];
        double key = static_cast<double>(i);
        if (!ns.empty()) {
            double sum = 0;
            for (int n : ns) sum += slots[static_cast<size_t>(n)].index;
            key = sum / static_cast<double>(ns.size());
        }
        keyed.emplace_back(key, layer[i]);
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 0; i < layer.size(); ++i) layer[i] = keyed[i].second;
}

} // namespace

std::vector<LayoutSlot> layoutPlan(const PlanGraph& graph) {
    size_t n = graph.tasks.size();
    std::vector<std::vector<int>> deps(n), dependents(n);
    for (size_t i = 0; i < n; ++i)
        for (const std::string& d : graph.tasks[i].dependsOn) {
            int j = graph.indexOf(d);
            if (j < 0 || static_cast<size_t>(j) == i) continue;
            deps[i].push_back(j);
            dependents[static_cast<size_t>(j)].push_back(static_cast<int>(i));
        }

    // Step 1. Longest path from the tasks without dependencies, in Kahn's order.
    std::vector<int> layer(n, 0), waiting(n);
    std::vector<int> queue;
    for (size_t i = 0; i < n; ++i) {
        waiting[i] = static_cast<int>(deps[i].size());
        if (waiting[i] == 0) queue.push_back(static_cast<int>(i));
    }
    std::vector<bool> placed(n, false);
    for (size_t head = 0; head < queue.size(); ++head) {
        auto at = static_cast<size_t>(queue[head]);
        placed[at] = true;
        for (int up : dependents[at]) {
            auto u = static_cast<size_t>(up);
            layer[u] = std::max(layer[u], layer[at] + 1);
            if (--waiting[u] == 0) queue.push_back(up);
        }
    }
    int top = n == 0 ? -1 : *std::max_element(layer.begin(), layer.end());
    for (size_t i = 0; i < n; ++i)
        if (!placed[i]) layer[i] = top + 1; // on a cycle

    // Step 2. Layers in task order, then barycenter sweeps; keep the best ordering.
    int layerCount = n == 0 ? 0 : *std::max_element(layer.begin(), layer.end()) + 1;
    Layers layers(static_cast<size_t>(layerCount));
    for (size_t i = 0; i < n; ++i) layers[static_cast<size_t>(layer[i])].push_back(static_cast<int>(i));
    std::vector<LayoutSlot> best = slotsOf(layers, n);
    int bestCrossings = layoutCrossings(graph, best);
    for (int sweep = 0; sweep < 4 && bestCrossings > 0; ++sweep) {
        std::vector<LayoutSlot> slots = slotsOf(layers, n);
        for (size_t l = 1; l < layers.size(); ++l) {
            sortByBarycenter(layers[l], deps, slots);
            slots = slotsOf(layers, n);
        }
        for (size_t l = layers.size(); l-- > 1;) {
            sortByBarycenter(layers[l - 1], dependents, slots);
            slots = slotsOf(layers, n);
        }
        int crossings = layoutCrossings(graph, slots);
        if (crossings < bestCrossings) bestCrossings = crossings, best = slots;
    }
    return best;
}

int layoutCrossings(const PlanGraph& graph, const std::vector<LayoutSlot>& slots) {
    struct Edge {
        LayoutSlot from, to;
    };
    std::vector<Edge> edges;
    for (size_t i = 0; i < graph.tasks.size() && i < slots.size(); ++i)
        for (const std::string& d : graph.tasks[i].dependsOn) {
            int j = graph.indexOf(d);
            if (j >= 0 && static_cast<size_t>(j) < slots.size())
                edges.push_back({slots[i], slots[static_cast<size_t>(j)]});
        }
    // Two edges between the same pair of layers cross when their ends are in opposite orders.
    int crossings = 0;
    for (size_t a = 0; a < edges.size(); ++a)
        for (size_t b = a + 1; b < edges.size(); ++b) {
            const Edge& x = edges[a];
            const Edge& y = edges[b];
            if (x.from.layer != y.from.layer || x.to.layer != y.to.layer) continue;
            if ((x.from.index - y.from.index) * (x.to.index - y.to.index) < 0) ++crossings;
        }
    return crossings;
}

GraphFit fitGraph(float viewW, float viewH, int layers, int rows) {
    using G = GraphGeometry;
    const float across = float(std::max(0, layers - 1)), within = float(std::max(0, rows - 1));
    // The orientation that draws the graph larger, judged before the zoom bounds (at the smallest
    // zoom both may be clamped to the same size: a chain on a phone still runs top to bottom).
    auto rawZoom = [&](float w, float h) {
        if (w <= 0 || h <= 0) return 1.0f;
        return std::min((viewW - 2 * G::kPad) / w, (viewH - 2 * G::kPad) / h);
    };
    GraphFit flat{false, 0, layers * G::kNodeW + across * G::kLayerGap, rows * G::kNodeH + within * G::kSiblingGap};
    GraphFit tall{true, 0, rows * G::kNodeW + within * G::kSiblingGapV, layers * G::kNodeH + across * G::kLayerGapV};
    const float flatRaw = rawZoom(flat.worldW, flat.worldH), tallRaw = rawZoom(tall.worldW, tall.worldH);
    GraphFit pick = tallRaw > flatRaw * 1.125f ? tall : flat;
    pick.zoom = std::clamp(pick.vertical ? tallRaw : flatRaw, G::kMinZoom, G::kMaxZoom);
    return pick;
}

} // namespace chaiba::planner
