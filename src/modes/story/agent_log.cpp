// The agent log of a turn as JSON (see agent_log.h).
#include "src/modes/story/agent_log.h"

#include <nlohmann/json.hpp>

namespace chaiba::story {

namespace {

using json = nlohmann::json;

json usageJson(const llm::Usage& usage) {
    json j{{"promptTokens", usage.promptTokens},
           {"completionTokens", usage.completionTokens},
           {"cachedTokens", usage.cachedTokens},
           {"reasoningTokens", usage.reasoningTokens}};
    if (usage.costUsd) j["reportedCostUsd"] = *usage.costUsd;
    return j;
}

} // namespace

const char* stepStatusName(StepStatus status) {
    switch (status) {
    case StepStatus::Ok: return "ok";
    case StepStatus::Refused: return "refused";
    case StepStatus::Failed: return "failed";
    }
    return "ok";
}

std::string turnLogPath(std::string_view conversationId, int turn) {
    return "logs/" + std::string(conversationId) + "/turn-" + std::to_string(turn) + ".json";
}

std::string turnLogToJson(const TurnLog& log) {
    json steps = json::array();
    for (const AgentStep& step : log.steps) {
        json input = json::array();
        for (const llm::ChatMessage& message : step.input) {
            json m{{"role", llm::roleName(message.role)}, {"content", message.content}};
            if (!message.toolCallId.empty()) m["toolCallId"] = message.toolCallId;
            input.push_back(std::move(m));
        }
        json calls = json::array();
        for (const LoggedToolCall& call : step.toolCalls)
            calls.push_back({{"name", call.name},
                             {"arguments", call.arguments},
                             {"result", call.result},
                             {"error", call.isError}});
        steps.push_back({{"agent", agentKindName(step.agent)},
                         {"label", step.label},
                         {"model", step.model},
                         {"status", stepStatusName(step.status)},
                         {"error", step.error},
                         {"rounds", step.rounds},
                         {"startMs", step.startMs},
                         {"endMs", step.endMs},
                         {"costUsd", step.costUsd},
                         {"usage", usageJson(step.usage)},
                         {"toolCalls", calls},
                         {"output", step.output},
                         {"input", input}});
    }
    const json doc{{"conversation", log.conversationId},
                   {"turn", log.turn},
                   {"timing",
                    {{"orchestratorMs", log.timing.orchestratorMs},
                     {"preStepsMs", log.timing.preStepsMs},
                     {"narratorFirstTokenMs", log.timing.narratorFirstTokenMs},
                     {"totalMs", log.timing.totalMs}}},
                   {"costUsd", log.costUsd},
                   {"usage", usageJson(log.usage)},
                   {"contextTokens", log.contextTokens},
                   {"notes", log.notes},
                   {"steps", steps}};
    return doc.dump(1, ' ', false, json::error_handler_t::replace);
}

} // namespace chaiba::story
