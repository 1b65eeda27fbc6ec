// The plan's text format (spec: assets/planner/format.md): one "task ID: NAME" line per task, then
// one "key value" line per field. serializePlan writes the canonical form; parsePlan reads it back
// (parsePlan(serializePlan(g)) == g for every valid g) and names the line of the first problem.
#pragma once

#include "src/modes/planner/plan.h"

#include <string>
#include <string_view>

namespace chaiba::planner {

// The canonical text of a plan (fields in a fixed order, a blank line between tasks).
std::string serializePlan(const PlanGraph& graph);

// One task's text: its block of serializePlan.
std::string taskText(const Task& task);

// The plan with task `id` replaced by the one task `text` describes in the plan format (`id`
// empty: the task is added at the end; the root's text may not add a second root), validated
// like every mutation. Errors name the line of `text` ("line 3: games must be a whole number").
PlanResult replaceTaskText(const PlanGraph& plan, std::string_view id, std::string_view text, const PlanContext& ctx);

// Reads a plan and validates it (validatePlan with ctx). Errors name the line:
// "line 7: unknown key 'stauts' ...", "line 12: task 'finals': depends on a missing task: ...".
Result<PlanGraph> parsePlan(std::string_view text, const PlanContext& ctx = {});

// The replace-the-whole-graph mutation: the plan the text describes, or why it is refused. The
// current graph is not changed (it is only there so every mutation has the same shape).
PlanResult replacePlan(const PlanGraph& current, std::string_view text, const PlanContext& ctx);

} // namespace chaiba::planner
