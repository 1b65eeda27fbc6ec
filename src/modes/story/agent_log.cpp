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

std::string turnLogPath(std::string_view conversationId, int turn, int variant) {
    return "logs/" + std::string(conversationId) + "/turn-" + std::to_string(turn) +
           (variant ? ".v" + std::to_string(variant) : std::string()) + ".json";
}

bool isTurnLogPath(std::string_view path) {
    const std::size_t slash = path.find('/', 5);
    return path.rfind("logs/", 0) == 0 && slash != std::string_view::npos && path.compare(slash, 6, "/turn-") == 0 &&
           path.size() > 5 && path.substr(path.size() - 5) == ".json";
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

namespace {

// Typed reads of one field; `ok` turns false at the first wrong type.
struct Reader {
    bool ok = true;
    std::string text(const json& j, const char* key) {
        if (!j.contains(key)) return "";
        if (!j[key].is_string()) ok = false;
        return j[key].is_string() ? j[key].get<std::string>() : "";
    }
    std::int64_t integer(const json& j, const char* key) {
        if (!j.contains(key)) return 0;
        if (!j[key].is_number_integer()) ok = false;
        return j[key].is_number_integer() ? j[key].get<std::int64_t>() : 0;
    }
    double number(const json& j, const char* key) {
        if (!j.contains(key)) return 0;
        if (!j[key].is_number()) ok = false;
        return j[key].is_number() ? j[key].get<double>() : 0;
    }
    llm::Usage usage(const json& j) {
        llm::Usage u;
        if (!j.contains("usage")) return u;
        if (!j["usage"].is_object()) {
            ok = false;
            return u;
        }
        const json& x = j["usage"];
        u.promptTokens = integer(x, "promptTokens");
        u.completionTokens = integer(x, "completionTokens");
        u.cachedTokens = integer(x, "cachedTokens");
        u.reasoningTokens = integer(x, "reasoningTokens");
        return u;
    }
};

} // namespace

llm::Result<TurnLog> turnLogFromJson(std::string_view text) {
    using R = llm::Result<TurnLog>;
    const json doc = json::parse(text, nullptr, false);
    if (!doc.is_object()) return R::fail("the agent log is not a JSON object");
    Reader r;
    TurnLog log;
    log.conversationId = r.text(doc, "conversation");
    log.turn = static_cast<int>(r.integer(doc, "turn"));
    if (doc.contains("timing") && doc["timing"].is_object()) {
        const json& t = doc["timing"];
        log.timing.orchestratorMs = r.integer(t, "orchestratorMs");
        log.timing.preStepsMs = r.integer(t, "preStepsMs");
        log.timing.narratorFirstTokenMs = r.integer(t, "narratorFirstTokenMs");
        log.timing.totalMs = r.integer(t, "totalMs");
    }
    log.costUsd = r.number(doc, "costUsd");
    log.usage = r.usage(doc);
    log.contextTokens = r.integer(doc, "contextTokens");
    if (doc.contains("notes") && doc["notes"].is_array())
        for (const json& note : doc["notes"])
            if (note.is_string()) log.notes.push_back(note.get<std::string>());
    if (!doc.contains("steps") || !doc["steps"].is_array()) return R::fail("the agent log has no steps list");
    for (const json& s : doc["steps"]) {
        if (!s.is_object()) return R::fail("an agent log step is not an object");
        AgentStep step;
        const std::string agent = r.text(s, "agent");
        bool known = false;
        for (AgentKind kind : {AgentKind::Orchestrator, AgentKind::WorldAdvance, AgentKind::FactionTurn,
                               AgentKind::Narrator, AgentKind::Image, AgentKind::Person, AgentKind::Memory})
            if (agent == agentKindName(kind)) {
                step.agent = kind;
                known = true;
            }
        if (!known) return R::fail("an agent log step names an unknown agent \"" + agent + "\"");
        const std::string status = r.text(s, "status");
        step.status = status == "refused" ? StepStatus::Refused : status == "failed" ? StepStatus::Failed : StepStatus::Ok;
        step.label = r.text(s, "label");
        step.model = r.text(s, "model");
        step.error = r.text(s, "error");
        step.output = r.text(s, "output");
        step.rounds = static_cast<int>(r.integer(s, "rounds"));
        step.startMs = r.integer(s, "startMs");
        step.endMs = r.integer(s, "endMs");
        step.costUsd = r.number(s, "costUsd");
        step.usage = r.usage(s);
        if (s.contains("toolCalls") && s["toolCalls"].is_array())
            for (const json& c : s["toolCalls"]) {
                if (!c.is_object()) return R::fail("an agent log tool call is not an object");
                step.toolCalls.push_back({r.text(c, "name"), r.text(c, "arguments"), r.text(c, "result"),
                                          c.contains("error") && c["error"].is_boolean() && c["error"].get<bool>()});
            }
        if (s.contains("input") && s["input"].is_array())
            for (const json& m : s["input"]) {
                if (!m.is_object()) return R::fail("an agent log input message is not an object");
                llm::ChatMessage message;
                const std::string role = r.text(m, "role");
                message.role = role == "system"      ? llm::Role::System
                               : role == "assistant" ? llm::Role::Assistant
                               : role == "tool"      ? llm::Role::Tool
                                                     : llm::Role::User;
                message.content = r.text(m, "content");
                message.toolCallId = r.text(m, "toolCallId");
                step.input.push_back(std::move(message));
            }
        log.steps.push_back(std::move(step));
    }
    if (!r.ok) return R::fail("the agent log has a field of the wrong type");
    return R::ok(std::move(log));
}

} // namespace chaiba::story
