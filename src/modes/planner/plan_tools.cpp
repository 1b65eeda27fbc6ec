// Tool dispatch for the planner: JSON arguments are decoded here, once, into typed mutations; every
// problem (bad JSON, a missing or mistyped field, a refused mutation) becomes an error text that
// says what to change, and every success returns the plan's summary and a card for the UI.
#include "src/modes/planner/plan_tools.h"

#include "src/modes/planner/plan_diff.h"
#include "src/modes/planner/plan_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <tuple>

namespace chaiba::planner {

namespace {

using json = nlohmann::json;

constexpr std::array<std::string_view, 9> kToolNames = {"get_graph",         "add_task",     "remove_task",
                                                        "set_status",        "update_task",  "add_dependency",
                                                        "remove_dependency", "replace_graph", "list_models"};

std::string inQuotes(std::string_view s) {
    std::string out(1, '\'');
    out.append(s);
    out += '\'';
    return out;
}

// Model text into plan text: tabs become spaces, carriage returns go; one-line fields are trimmed.
std::string cleanText(std::string s, bool oneLine) {
    std::string out;
    for (char c : s)
        if (c == '\t')
            out += ' ';
        else if (c != '\r')
            out += c;
    if (oneLine) {
        size_t first = out.find_first_not_of(' ');
        if (first == std::string::npos) return {};
        out = out.substr(first, out.find_last_not_of(' ') - first + 1);
    }
    return out;
}

std::string typeName(const json& value) {
    if (value.is_number_integer()) return "an integer";
    if (value.is_number()) return "a number";
    if (value.is_string()) return "a string";
    if (value.is_boolean()) return "a boolean";
    if (value.is_array()) return "an array";
    if (value.is_object()) return "an object";
    return "null";
}

// Reads typed fields of one JSON object; the first problem is kept in error().
class Fields {
public:
    Fields(const json& object, std::string where) : object_(object), where_(std::move(where)) {}

    const std::string& error() const { return error_; }
    bool failed() const { return !error_.empty(); }
    bool has(std::string_view key) const { return object_.contains(key); }
    bool isNull(std::string_view key) const { return has(key) && object_.at(key).is_null(); }

    // Refuses keys outside `allowed` (a typo such as "dependsOn" should not pass unnoticed).
    void onlyKeys(std::initializer_list<std::string_view> allowed) {
        for (auto it = object_.begin(); it != object_.end(); ++it) {
            bool known = false;
            for (std::string_view key : allowed) known = known || key == it.key();
            if (known || failed()) continue;
            std::string list;
            for (std::string_view key : allowed) list += (list.empty() ? "" : ", ") + std::string(key);
            fail("unknown field " + inQuotes(it.key()) +
                 (list.empty() ? " (this tool takes no arguments)" : " (fields: " + list + ")"));
        }
    }

    std::optional<std::string> string(std::string_view key, bool required, bool oneLine = true) {
        const json* v = get(key, required, "a string");
        if (!v) return std::nullopt;
        if (!v->is_string()) return wrongType(key, *v, "a string"), std::nullopt;
        return cleanText(v->get<std::string>(), oneLine);
    }

    std::optional<std::vector<std::string>> strings(std::string_view key, bool required) {
        const json* v = get(key, required, "an array of strings");
        if (!v) return std::nullopt;
        if (!v->is_array()) return wrongType(key, *v, "an array of strings"), std::nullopt;
        std::vector<std::string> out;
        for (const json& item : *v) {
            if (!item.is_string())
                return fail("field " + inQuotes(key) + " must hold strings only, got " + typeName(item)),
                       std::nullopt;
            out.push_back(cleanText(item.get<std::string>(), true));
        }
        return out;
    }

    std::optional<int> integer(std::string_view key, bool required, int min, int max) {
        const json* v = get(key, required, "an integer");
        if (!v) return std::nullopt;
        double d = v->is_number() ? v->get<double>() : NAN;
        if (!v->is_number() || std::floor(d) != d) return wrongType(key, *v, "an integer"), std::nullopt;
        if (d < min || d > max)
            return fail("field " + inQuotes(key) + " must be in " + std::to_string(min) + ".." +
                        std::to_string(max)),
                   std::nullopt;
        return static_cast<int>(d);
    }

    std::optional<double> number(std::string_view key, bool required) {
        const json* v = get(key, required, "a number");
        if (!v) return std::nullopt;
        if (!v->is_number()) return wrongType(key, *v, "a number"), std::nullopt;
        return v->get<double>();
    }

    std::optional<bool> boolean(std::string_view key, bool required) {
        const json* v = get(key, required, "a boolean");
        if (!v) return std::nullopt;
        if (!v->is_boolean()) return wrongType(key, *v, "a boolean"), std::nullopt;
        return v->get<bool>();
    }

    const json* object(std::string_view key, bool required) {
        const json* v = get(key, required, "an object");
        if (v && !v->is_object()) return wrongType(key, *v, "an object"), nullptr;
        return v;
    }

    void fail(const std::string& message) {
        if (error_.empty()) error_ = where_ + message;
    }

private:
    const json* get(std::string_view key, bool required, const char* expected) {
        if (failed()) return nullptr;
        auto it = object_.find(key);
        if (it == object_.end()) {
            if (required) fail("missing required field " + inQuotes(key) + " (" + expected + ")");
            return nullptr;
        }
        return &*it;
    }
    void wrongType(std::string_view key, const json& value, const char* expected) {
        fail("field " + inQuotes(key) + " must be " + expected + ", got " + typeName(value));
    }

    const json& object_;
    std::string where_; // "stage: " inside a stage object
    std::string error_;
};

// A stage object {game, format, participants, games, tempo, ticker_seconds, budget_usd, chess960,
// rules, roles}.
std::optional<Stage> readStage(const json& object, Fields& outer) {
    Fields f(object, "stage: ");
    f.onlyKeys(
        {"game", "format", "participants", "games", "tempo", "ticker_seconds", "budget_usd", "chess960", "rules",
         "roles"});
    Stage stage;
    auto game = f.string("game", true);
    if (game && !parseGame(*game)) f.fail("unknown game " + inQuotes(*game) + " (chess or werewolf)");
    auto format = f.string("format", true);
    if (format && !parseStageFormat(*format))
        f.fail("unknown format " + inQuotes(*format) + " (arena, roundrobin, double-roundrobin, gauntlet)");
    auto participants = f.strings("participants", true);
    auto games = f.integer("games", true, 1, 10000);
    auto tempo = f.string("tempo", false);
    if (tempo && *tempo != "max-speed" && *tempo != "ticker")
        f.fail("unknown tempo " + inQuotes(*tempo) + " (max-speed or ticker)");
    auto ticker = f.integer("ticker_seconds", false, 1, 86400);
    auto budget = f.number("budget_usd", false);
    auto chess960 = f.boolean("chess960", false);
    auto rules = f.string("rules", false);
    if (rules && !werewolf::parseRulesPreset(*rules))
        f.fail("unknown rules " + inQuotes(*rules) + " (" + std::string(werewolf::kRulesPresetChoices) + ")");
    auto roles = f.string("roles", false);
    if (roles && roles->find_first_of(" \t\n") != std::string::npos)
        f.fail("roles must be written without spaces, e.g. \"werewolf:2,seer,doctor,villager:4\"");
    if (participants)
        for (const std::string& p : *participants) {
            auto entrant = parseEntrant(p);
            if (!entrant.ok())
                f.fail("participant " + inQuotes(p) + ": " + entrant.error);
            else
                stage.entrants.push_back(*entrant.value);
        }
    if (f.failed()) return outer.fail(f.error()), std::nullopt;
    stage.game = *parseGame(*game);
    stage.format = *parseStageFormat(*format);
    stage.games = *games;
    if (tempo && *tempo == "ticker") stage.tickerSeconds = ticker.value_or(60);
    stage.budgetUsd = budget.value_or(0);
    stage.chess960 = chess960.value_or(false);
    stage.rules = rules ? *werewolf::parseRulesPreset(*rules) : werewolf::RulesPreset::Balanced;
    stage.roles = roles.value_or("");
    return stage;
}

std::string stageText(const std::optional<Stage>& stage) {
    if (!stage) return "no stage";
    return std::string(gameName(stage->game)) + ' ' + std::string(stageFormatName(stage->format)) + ", " +
           std::to_string(stage->participantCount()) + " players, " + std::to_string(stage->games) +
           " games, " + numberText(stage->budgetUsd) + " USD";
}

std::string needsText(const Task& task) {
    std::string out;
    for (const std::string& d : task.dependsOn) out += (out.empty() ? "" : ", ") + d;
    return task.id + " needs " + (out.empty() ? "nothing" : out);
}

std::string countText(size_t n, const char* noun) {
    return std::to_string(n) + ' ' + noun + (n == 1 ? "" : "s");
}

// The changed fields of a task as (before, after) texts joined by "; ".
std::pair<std::string, std::string> taskChange(const Task& a, const Task& b) {
    std::string before, after;
    auto add = [&](const std::string& x, const std::string& y) {
        before += (before.empty() ? "" : "; ") + x;
        after += (after.empty() ? "" : "; ") + y;
    };
    if (a.name != b.name) add("name " + inQuotes(a.name), "name " + inQuotes(b.name));
    if (a.description != b.description)
        add("description (" + countText(a.description.size(), "char") + ")",
            "description (" + countText(b.description.size(), "char") + ")");
    if (a.decisions != b.decisions)
        add(countText(a.decisions.size(), "decision"), countText(b.decisions.size(), "decision"));
    if (a.stage != b.stage) add(stageText(a.stage), stageText(b.stage));
    if (a.budgetCapUsd != b.budgetCapUsd)
        add(a.budgetCapUsd ? "cap " + numberText(*a.budgetCapUsd) + " USD" : "no cap",
            b.budgetCapUsd ? "cap " + numberText(*b.budgetCapUsd) + " USD" : "no cap");
    if (before.empty()) before = after = "unchanged";
    return {before, after};
}

PlannerToolResult errorResult(ToolCard card, const std::string& message) {
    PlannerToolResult r;
    r.isError = true;
    r.text = "Error: " + message;
    r.card = std::move(card);
    return r;
}

PlannerToolResult applied(const PlanResult& result, ToolCard card) {
    if (!result.ok()) {
        std::string message = card.tool + ": " + result.error;
        return errorResult(std::move(card), message);
    }
    PlannerToolResult r;
    r.text = "OK: " + card.text() + "\n" + planSummary(*result.value);
    r.graph = *result.value;
    r.card = std::move(card);
    return r;
}

} // namespace

std::string ToolCard::text() const {
    std::string out = tool;
    if (!target.empty()) out += ' ' + target;
    if (!before.empty() && !after.empty())
        out += ": " + before + " → " + after;
    else if (!after.empty())
        out += ": " + after;
    else if (!before.empty())
        out += ": was " + before;
    return out;
}

std::span<const std::string_view> plannerToolNames() {
    return kToolNames;
}

std::string planSummary(const PlanGraph& graph) {
    std::string out = "Plan: " + countText(graph.tasks.size(), "task");
    if (!graph.tasks.empty() && graph.root().budgetCapUsd)
        out += ", stage budgets " + numberText(graph.stageBudgetUsd()) + " of " +
               numberText(*graph.root().budgetCapUsd) + " USD";
    out += '\n';
    for (const Task& t : graph.tasks) {
        out += "- " + t.id + " [" + std::string(statusName(t.status)) + "] " + t.name;
        if (!t.dependsOn.empty()) out += "; " + needsText(t).substr(t.id.size() + 1);
        if (t.stage) out += "; " + stageText(t.stage);
        out += '\n';
    }
    return out;
}

PlannerToolResult runPlannerTool(const PlanGraph& graph, std::string_view name,
                                 std::string_view argumentsJson, const PlanContext& ctx) {
    ToolCard card{std::string(name), {}, {}, {}};
    bool known = false;
    for (std::string_view n : kToolNames) known = known || n == name;
    if (!known) {
        std::string list;
        for (std::string_view n : kToolNames) list += (list.empty() ? "" : ", ") + std::string(n);
        return errorResult(card, "unknown tool " + inQuotes(name) + " (tools: " + list + ")");
    }
    std::string_view body = argumentsJson;
    while (!body.empty() && (body.front() == ' ' || body.front() == '\n')) body.remove_prefix(1);
    json args = body.empty() ? json::object() : json::parse(body, nullptr, false);
    if (args.is_discarded())
        return errorResult(card, card.tool + ": the arguments are not valid JSON; send one JSON object");
    if (!args.is_object())
        return errorResult(card, card.tool + ": the arguments must be a JSON object, got " + typeName(args));
    Fields f(args, card.tool + ": ");

    if (name == "list_models") {
        f.onlyKeys({"contains", "tools_only", "max_usd_per_million", "sort", "limit"});
        const std::string contains = f.string("contains", false).value_or("");
        const bool toolsOnly = f.boolean("tools_only", false).value_or(false);
        const std::optional<double> maxPrice = f.has("max_usd_per_million") ? f.number("max_usd_per_million", true)
                                                                              : std::nullopt;
        const std::string sort = f.string("sort", false).value_or("price");
        const int limit = f.integer("limit", false, 1, 100).value_or(20);
        if (!f.failed() && sort != "price" && sort != "id" && sort != "context")
            f.fail("field 'sort' must be price, id or context");
        if (f.failed()) return errorResult(card, f.error());
        if (!ctx.models) return errorResult(card, "list_models: the model catalog is not available here; name models by their OpenRouter ids");
        auto lower = [](std::string t) {
            for (char& c : t) c = char(std::tolower(static_cast<unsigned char>(c)));
            return t;
        };
        // Prices per million tokens, the prompt's and the completion's (what a request costs most).
        auto perMillion = [](double usdPerToken) { return usdPerToken * 1e6; };
        std::vector<llm::ModelInfo> all = ctx.models(), found;
        for (const llm::ModelInfo& m : all) {
            if (!contains.empty() && lower(m.id + " " + m.name).find(lower(contains)) == std::string::npos) continue;
            if (toolsOnly && !m.supportsTools) continue;
            if (maxPrice && perMillion(m.pricing.promptUsdPerToken) > *maxPrice) continue;
            found.push_back(m);
        }
        std::stable_sort(found.begin(), found.end(), [&](const llm::ModelInfo& a, const llm::ModelInfo& b) {
            if (sort == "id") return a.id < b.id;
            if (sort == "context") return a.contextLength > b.contextLength;
            return a.pricing.promptUsdPerToken + a.pricing.completionUsdPerToken <
                   b.pricing.promptUsdPerToken + b.pricing.completionUsdPerToken;
        });
        PlannerToolResult r;
        card.target = contains.empty() ? std::string() : inQuotes(contains);
        card.after = std::to_string(found.size()) + " of " + std::to_string(all.size()) + " models";
        r.card = card;
        r.text = std::to_string(found.size()) + " of " + std::to_string(all.size()) + " models match" +
                 (found.size() > size_t(limit) ? " (the first " + std::to_string(limit) + " by " + sort + ")" : "") +
                 "; USD per million tokens in/out, context, tools:";
        for (size_t i = 0; i < found.size() && i < size_t(limit); ++i) {
            const llm::ModelInfo& m = found[i];
            char line[160];
            std::snprintf(line, sizeof line, "\n- %s: %.3g/%.3g, %lldk, %s", m.id.c_str(),
                          perMillion(m.pricing.promptUsdPerToken), perMillion(m.pricing.completionUsdPerToken),
                          m.contextLength / 1000, m.supportsTools ? "tools" : "no tools");
            r.text += line;
        }
        return r;
    }
    if (name == "get_graph") {
        f.onlyKeys({});
        if (f.failed()) return errorResult(card, f.error());
        PlannerToolResult r;
        r.text = serializePlan(graph);
        r.card = card;
        return r;
    }
    if (name == "add_task") {
        f.onlyKeys({"id", "name", "description", "status", "decisions", "depends_on", "stage"});
        Task task;
        auto id = f.string("id", true);
        auto taskName = f.string("name", true);
        auto description = f.string("description", false, false);
        auto status = f.string("status", false);
        if (status && !parseStatus(*status))
            f.fail("unknown status " + inQuotes(*status) +
                   " (planned, ready, running, done, failed, skipped)");
        auto decisions = f.strings("decisions", false);
        auto dependsOn = f.strings("depends_on", false);
        const json* stageJson = f.object("stage", false);
        std::optional<Stage> stage = stageJson ? readStage(*stageJson, f) : std::nullopt;
        if (f.failed()) return errorResult(card, f.error());
        task.id = *id;
        task.name = *taskName;
        task.description = description.value_or("");
        task.status = status ? *parseStatus(*status) : TaskStatus::Planned;
        task.decisions = decisions.value_or(std::vector<std::string>{});
        task.dependsOn = dependsOn.value_or(std::vector<std::string>{});
        task.stage = stage;
        card.target = task.id;
        card.after = task.name;
        return applied(addTask(graph, task, ctx), card);
    }
    if (name == "remove_task" || name == "set_status") {
        bool remove = name == "remove_task";
        remove ? f.onlyKeys({"id"}) : f.onlyKeys({"id", "status"});
        auto id = f.string("id", true);
        auto status = remove ? std::nullopt : f.string("status", true);
        if (status && !parseStatus(*status))
            f.fail("unknown status " + inQuotes(*status) +
                   " (planned, ready, running, done, failed, skipped)");
        if (f.failed()) return errorResult(card, f.error());
        card.target = *id;
        const Task* task = graph.find(*id);
        if (remove) {
            if (task) card.before = task->name;
            return applied(removeTask(graph, *id, ctx), card);
        }
        if (task) card.before = statusName(task->status);
        card.after = *status;
        return applied(setStatus(graph, *id, *parseStatus(*status), ctx), card);
    }
    if (name == "update_task") {
        f.onlyKeys({"id", "name", "description", "decisions", "add_decision", "stage", "budget_cap_usd"});
        TaskUpdate update;
        auto id = f.string("id", true);
        update.name = f.string("name", false);
        update.description = f.string("description", false, false);
        update.decisions = f.strings("decisions", false);
        update.addDecision = f.string("add_decision", false);
        if (f.isNull("stage")) {
            update.stage = std::optional<Stage>{};
        } else if (const json* stageJson = f.object("stage", false)) {
            if (auto stage = readStage(*stageJson, f)) update.stage = stage;
        }
        if (f.isNull("budget_cap_usd"))
            update.budgetCapUsd = std::optional<double>{};
        else if (auto cap = f.number("budget_cap_usd", false))
            update.budgetCapUsd = cap;
        if (f.failed()) return errorResult(card, f.error());
        card.target = *id;
        PlanResult result = updateTask(graph, *id, update, ctx);
        if (result.ok())
            std::tie(card.before, card.after) = taskChange(*graph.find(*id), *result.value->find(*id));
        return applied(result, card);
    }
    if (name == "add_dependency" || name == "remove_dependency") {
        f.onlyKeys({"task", "depends_on"});
        auto task = f.string("task", true);
        auto dependency = f.string("depends_on", true);
        if (f.failed()) return errorResult(card, f.error());
        card.target = *task + " → " + *dependency;
        PlanResult result = name == "add_dependency" ? addDependency(graph, *task, *dependency, ctx)
                                                     : removeDependency(graph, *task, *dependency, ctx);
        if (result.ok()) {
            card.before = needsText(*graph.find(*task));
            card.after = needsText(*result.value->find(*task));
        }
        return applied(result, card);
    }
    // replace_graph
    f.onlyKeys({"text"});
    auto text = f.string("text", true, false);
    if (f.failed()) return errorResult(card, f.error());
    PlanResult result = replacePlan(graph, *text, ctx);
    if (result.ok()) {
        card.before = countText(graph.tasks.size(), "task");
        card.after = countText(result.value->tasks.size(), "task") + " (" +
                     diffPlans(graph, *result.value).text() + ")";
    }
    return applied(result, card);
}

} // namespace chaiba::planner
