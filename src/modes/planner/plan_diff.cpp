// Plan diffs: tasks matched by id, edges as (task, dependency) pairs.
#include "src/modes/planner/plan_diff.h"

#include <algorithm>
#include <set>

namespace chaiba::planner {

namespace {

std::set<PlanEdge> edgesOf(const PlanGraph& graph) {
    std::set<PlanEdge> edges;
    for (const Task& t : graph.tasks)
        for (const std::string& dep : t.dependsOn) edges.emplace(t.id, dep);
    return edges;
}

std::string counted(const char* sign, size_t n, const char* noun) {
    return std::string(sign) + std::to_string(n) + ' ' + noun + (n == 1 ? "" : "s");
}

} // namespace

bool PlanDiff::empty() const {
    return addedTasks.empty() && removedTasks.empty() && changedTasks.empty() && addedEdges.empty() &&
           removedEdges.empty();
}

std::string PlanDiff::text() const {
    if (empty()) return "no changes";
    std::vector<std::string> parts;
    if (!addedTasks.empty()) parts.push_back(counted("+", addedTasks.size(), "task"));
    if (!removedTasks.empty()) parts.push_back(counted("−", removedTasks.size(), "task"));
    if (!addedEdges.empty()) parts.push_back(counted("+", addedEdges.size(), "edge"));
    if (!removedEdges.empty()) parts.push_back(counted("−", removedEdges.size(), "edge"));
    if (!changedTasks.empty()) parts.push_back(std::to_string(changedTasks.size()) + " changed");
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
}

PlanDiff diffPlans(const PlanGraph& before, const PlanGraph& after) {
    PlanDiff diff;
    for (const Task& t : after.tasks) {
        const Task* old = before.find(t.id);
        if (!old) {
            diff.addedTasks.push_back(t.id);
            continue;
        }
        Task a = *old, b = t;
        a.dependsOn.clear();
        b.dependsOn.clear();
        if (a != b) diff.changedTasks.push_back(t.id);
    }
    for (const Task& t : before.tasks)
        if (!after.find(t.id)) diff.removedTasks.push_back(t.id);
    std::set<PlanEdge> oldEdges = edgesOf(before), newEdges = edgesOf(after);
    std::set_difference(newEdges.begin(), newEdges.end(), oldEdges.begin(), oldEdges.end(),
                        std::back_inserter(diff.addedEdges));
    std::set_difference(oldEdges.begin(), oldEdges.end(), newEdges.begin(), newEdges.end(),
                        std::back_inserter(diff.removedEdges));
    return diff;
}

} // namespace chaiba::planner
