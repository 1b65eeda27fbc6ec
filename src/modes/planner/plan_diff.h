// What changed between two plans (tasks added, removed or changed; edges added or removed), for
// the undo summary and the replace_graph card.
#pragma once

#include "src/modes/planner/plan.h"

#include <cstdint>
#include <map>
#include <set>
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

// One task's part of a change, the unit a person accepts or rejects in review: added, removed, or
// changed in any field (its dependencies included), with the lines of its text (plan format)
// that went and came: the field-level before/after.
struct TaskChange {
    enum class Kind : std::uint8_t { Added, Removed, Changed };
    std::string id;
    Kind kind = Kind::Changed;
    std::vector<std::string> removedLines; // "  games 2" (the task's own line "task x: Name" included)
    std::vector<std::string> addedLines;
    bool operator==(const TaskChange&) const = default;
};
const char* changeKindName(TaskChange::Kind kind); // "added", "removed", "changed"
// The changes from `before` to `after`, tasks in the order of `after`, removed ones last.
std::vector<TaskChange> taskChanges(const PlanGraph& before, const PlanGraph& after);

// What the graph draws while a proposal waits: the proposal with the tasks it removes kept in (and
// the edges it removes), each changed task's mark and the edges added and removed.
struct ReviewView {
    PlanGraph graph;
    std::map<std::string, TaskChange::Kind> marks;
    std::set<PlanEdge> addedEdges, removedEdges;
};
ReviewView reviewView(const PlanGraph& before, const PlanGraph& after);

// `before` with only the changes of the tasks in `accepted` taken from `after` (an added task
// added, a removed one removed, a changed one replaced), the rest as it was; validated, and refused
// with a reason the person can act on when that part alone is not a valid plan ("...; accept
// the change to 'qual' with it").
PlanResult applyChanges(const PlanGraph& before, const PlanGraph& after, const std::vector<std::string>& accepted,
                        const PlanContext& ctx);

} // namespace chaiba::planner
