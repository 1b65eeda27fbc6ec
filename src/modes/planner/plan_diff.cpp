// Plan diffs: tasks matched by id, edges as (task, dependency) pairs.
#include "src/modes/planner/plan_diff.h"

#include "src/modes/planner/plan_text.h"

#include <algorithm>
#include <map>
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

namespace {

// A task's lines in the plan format.
std::vector<std::string> taskLines(const Task& task) {
    const std::string text = serializePlan(PlanGraph{{task}});
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

// Lines of `a` not matched in `b` (as multisets, in the order of `a`).
std::vector<std::string> linesMissing(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<bool> used(b.size(), false);
    std::vector<std::string> out;
    for (const std::string& line : a) {
        bool found = false;
        for (size_t i = 0; i < b.size() && !found; ++i)
            if (!used[i] && b[i] == line) used[i] = found = true;
        if (!found) out.push_back(line);
    }
    return out;
}

} // namespace

const char* changeKindName(TaskChange::Kind kind) {
    switch (kind) {
    case TaskChange::Kind::Added: return "added";
    case TaskChange::Kind::Removed: return "removed";
    case TaskChange::Kind::Changed: return "changed";
    }
    return "changed";
}

std::vector<TaskChange> taskChanges(const PlanGraph& before, const PlanGraph& after) {
    std::vector<TaskChange> out;
    for (const Task& t : after.tasks) {
        const Task* old = before.find(t.id);
        if (old && *old == t) continue;
        TaskChange c;
        c.id = t.id;
        c.kind = old ? TaskChange::Kind::Changed : TaskChange::Kind::Added;
        const std::vector<std::string> now = taskLines(t);
        const std::vector<std::string> was = old ? taskLines(*old) : std::vector<std::string>{};
        c.removedLines = linesMissing(was, now);
        c.addedLines = linesMissing(now, was);
        out.push_back(std::move(c));
    }
    for (const Task& t : before.tasks)
        if (!after.find(t.id)) out.push_back(TaskChange{t.id, TaskChange::Kind::Removed, taskLines(t), {}});
    return out;
}

PlanResult applyChanges(const PlanGraph& before, const PlanGraph& after, const std::vector<std::string>& accepted,
                        const PlanContext& ctx) {
    auto isAccepted = [&](const std::string& id) {
        return std::find(accepted.begin(), accepted.end(), id) != accepted.end();
    };
    PlanGraph out;
    // The tasks of `after` in its order, each as accepted or as it was; then the removals that
    // were not accepted, where they stood among the tasks before them.
    for (const Task& t : after.tasks) {
        const Task* old = before.find(t.id);
        if (isAccepted(t.id)) out.tasks.push_back(t);
        else if (old) out.tasks.push_back(*old);
    }
    for (size_t i = 0; i < before.tasks.size(); ++i) {
        const Task& t = before.tasks[i];
        if (after.find(t.id) || isAccepted(t.id)) continue;
        size_t at = out.tasks.size();
        for (size_t j = i + 1; j < before.tasks.size() && at == out.tasks.size(); ++j)
            if (const int k = out.indexOf(before.tasks[j].id); k >= 0) at = size_t(k);
        if (i == 0) at = 0; // the root stays first
        out.tasks.insert(out.tasks.begin() + std::ptrdiff_t(at), t);
    }
    if (out.tasks.empty()) return PlanResult::success(std::move(out));
    if (std::optional<PlanProblem> problem = validatePlan(out, ctx)) {
        // Name the change that would make it whole when one is missing.
        std::string hint;
        for (const TaskChange& c : taskChanges(before, after))
            if (!isAccepted(c.id) && problem->message.find("'" + c.id + "'") != std::string::npos) {
                hint = "; accept the change to '" + c.id + "' with it";
                break;
            }
        return PlanResult::fail("only these changes would not make a valid plan: " + problem->message + hint);
    }
    return PlanResult::success(std::move(out));
}

ReviewView reviewView(const PlanGraph& before, const PlanGraph& after) {
    ReviewView v;
    v.graph = after;
    for (const Task& t : before.tasks)
        if (!after.find(t.id)) v.graph.tasks.push_back(t);
    const PlanDiff diff = diffPlans(before, after);
    v.addedEdges.insert(diff.addedEdges.begin(), diff.addedEdges.end());
    v.removedEdges.insert(diff.removedEdges.begin(), diff.removedEdges.end());
    for (const PlanEdge& e : diff.removedEdges) {
        const int i = v.graph.indexOf(e.first);
        if (i >= 0 && v.graph.find(e.second)) {
            std::vector<std::string>& deps = v.graph.tasks[size_t(i)].dependsOn;
            if (std::find(deps.begin(), deps.end(), e.second) == deps.end()) deps.push_back(e.second);
        }
    }
    for (const TaskChange& c : taskChanges(before, after)) v.marks[c.id] = c.kind;
    return v;
}

} // namespace chaiba::planner
