// The planner's tools: one per mutation (get_graph, add_task, remove_task, set_status,
// update_task, add_dependency, remove_dependency, replace_graph). runPlannerTool decodes a tool
// call's JSON arguments, applies the mutation and says what happened, for the model and the UI.
#pragma once

#include "src/modes/planner/plan.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace chaiba::planner {

// What the UI shows for one tool call: the mutation and old → new.
struct ToolCard {
    std::string tool;         // "set_status"
    std::string target;       // task id, "a → b" for an edge, empty for the whole graph
    std::string before;       // old value ("planned"); empty when there is none
    std::string after;        // new value ("ready"); empty when there is none
    std::string text() const; // "set_status finals: planned → ready"
    bool operator==(const ToolCard&) const = default;
};

struct PlannerToolResult {
    bool isError = false;
    std::string text;               // for the model: the new plan's summary, or what to fix
    std::optional<PlanGraph> graph; // the new graph when the call changed it
    ToolCard card;
};

// The tool names, in the order of the schema files assets/planner/tools/<name>.json.
std::span<const std::string_view> plannerToolNames();

// Runs one tool call. Unknown tools, malformed JSON, missing or wrongly typed fields and refused
// mutations are errors (isError) whose text tells the model what to change.
PlannerToolResult runPlannerTool(const PlanGraph& graph, std::string_view name,
                                 std::string_view argumentsJson, const PlanContext& ctx);

// A compact view of the plan for the model, one line per task:
// "- finals [planned] Finals; needs groups; chess double-roundrobin, 5 players, 2 games, 1.5 USD".
std::string planSummary(const PlanGraph& graph);

} // namespace chaiba::planner
