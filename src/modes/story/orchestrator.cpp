// Decoding and checking the orchestrator's decision (see orchestrator.h).
#include "src/modes/story/orchestrator.h"

#include <nlohmann/json.hpp>

namespace chaiba::story {

namespace {

using json = nlohmann::json;

// Lowercase letters and digits only, without a leading "the".
std::string normalized(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c >= 'A' && c <= 'Z')
            out += static_cast<char>(c - 'A' + 'a');
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out += c;
        else if (!out.empty() && out.back() != ' ')
            out += ' ';
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    if (out.rfind("the ", 0) == 0) out.erase(0, 4);
    return out;
}

std::string trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return std::string(text);
}

// The string field key of object, or an error naming where.
bool readString(const json& object, const char* key, std::string& out, std::string& error,
                const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string()) {
        error = where + " needs '" + key + "' as a string";
        return false;
    }
    out = it->get<std::string>();
    return true;
}

} // namespace

const char* preStepKindName(PreStepKind kind) {
    return kind == PreStepKind::WorldAdvance ? "world_advance" : "faction_turn";
}

llm::Result<OrchestratorDecision> decodeDecision(std::string_view objectJson) {
    using R = llm::Result<OrchestratorDecision>;
    const json doc = json::parse(objectJson.begin(), objectJson.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return R::fail("the decision is not a JSON object");
    OrchestratorDecision decision;
    std::string error;
    if (auto steps = doc.find("preSteps"); steps != doc.end() && !steps->is_null()) {
        if (!steps->is_array()) return R::fail("preSteps must be an array");
        for (std::size_t i = 0; i < steps->size(); ++i) {
            const json& step = (*steps)[i];
            const std::string where = "preSteps[" + std::to_string(i) + "]";
            if (!step.is_object()) return R::fail(where + " must be an object");
            std::string type;
            if (!readString(step, "type", type, error, where)) return R::fail(error);
            PreStep out;
            if (type == "world_advance") {
                out.kind = PreStepKind::WorldAdvance;
                if (!readString(step, "description", out.description, error, where)) return R::fail(error);
            } else if (type == "faction_turn") {
                out.kind = PreStepKind::FactionTurn;
                if (!readString(step, "faction", out.faction, error, where) ||
                    !readString(step, "situation", out.situation, error, where))
                    return R::fail(error);
            } else {
                return R::fail(where + ": unknown type '" + type + "' (world_advance or faction_turn)");
            }
            decision.preSteps.push_back(std::move(out));
        }
    }
    if (auto twists = doc.find("suggestedTwists"); twists != doc.end() && !twists->is_null()) {
        if (!twists->is_array()) return R::fail("suggestedTwists must be an array");
        for (std::size_t i = 0; i < twists->size(); ++i) {
            const json& twist = (*twists)[i];
            const std::string where = "suggestedTwists[" + std::to_string(i) + "]";
            if (!twist.is_object()) return R::fail(where + " must be an object");
            SuggestedTwist out;
            if (!readString(twist, "situation", out.situation, error, where)) return R::fail(error);
            if (auto reason = twist.find("reason"); reason != twist.end() && reason->is_string())
                out.reason = reason->get<std::string>();
            decision.suggestedTwists.push_back(std::move(out));
        }
    }
    if (auto reasoning = doc.find("reasoning"); reasoning != doc.end() && reasoning->is_string())
        decision.reasoning = reasoning->get<std::string>();
    return R::ok(std::move(decision));
}

std::string decisionToJson(const OrchestratorDecision& decision) {
    json steps = json::array();
    for (const PreStep& step : decision.preSteps) {
        if (step.kind == PreStepKind::WorldAdvance)
            steps.push_back({{"type", "world_advance"}, {"description", step.description}});
        else
            steps.push_back(
                {{"type", "faction_turn"}, {"faction", step.faction}, {"situation", step.situation}});
    }
    json twists = json::array();
    for (const SuggestedTwist& twist : decision.suggestedTwists)
        twists.push_back({{"situation", twist.situation}, {"reason", twist.reason}});
    return json{{"preSteps", steps}, {"suggestedTwists", twists}, {"reasoning", decision.reasoning}}.dump(
        -1, ' ', false, json::error_handler_t::replace);
}

std::vector<std::string> knownActors(const WorldFiles& files) {
    std::vector<std::string> actors;
    if (const ReadResult factions = files.read("factions.md"); factions.ok()) {
        std::size_t start = 0;
        const std::string& text = factions.content;
        while (start < text.size()) {
            std::size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            const std::string_view line(text.data() + start, end - start);
            if (line.rfind("## ", 0) == 0) actors.push_back(trimmed(line.substr(3)));
            start = end + 1;
        }
    }
    for (const std::string& path : files.listWorld()) {
        if (path.rfind("NPCs/", 0) != 0 || path.size() < 9 || path.substr(path.size() - 3) != ".md") continue;
        const std::size_t slash = path.rfind('/');
        actors.push_back(path.substr(slash + 1, path.size() - slash - 4));
        const ReadResult npc = files.read(path);
        if (npc.ok() && npc.content.rfind("# ", 0) == 0)
            actors.push_back(trimmed(std::string_view(npc.content).substr(2, npc.content.find('\n') - 2)));
    }
    return actors;
}

bool isKnownActor(std::string_view name, const std::vector<std::string>& actors) {
    const std::string wanted = normalized(name);
    if (wanted.size() < 3) return false;
    for (const std::string& actor : actors) {
        const std::string known = normalized(actor);
        if (known == wanted || known.find(wanted) != std::string::npos) return true;
    }
    return false;
}

std::vector<std::string> dropUnknownFactions(OrchestratorDecision& decision,
                                             const std::vector<std::string>& actors) {
    std::vector<std::string> lines;
    std::vector<PreStep> kept;
    for (PreStep& step : decision.preSteps) {
        if (step.kind == PreStepKind::FactionTurn && !isKnownActor(step.faction, actors)) {
            lines.push_back("dropped faction_turn for '" + step.faction +
                            "': no such faction or NPC in factions.md or NPCs/");
            continue;
        }
        kept.push_back(std::move(step));
    }
    decision.preSteps = std::move(kept);
    return lines;
}

std::string offScreenMessage(const std::vector<std::string>& summaries,
                             const std::vector<SuggestedTwist>& twists) {
    std::string text = "# What Happened Off-Screen\n\n";
    if (summaries.empty()) text += "Nothing of note.\n";
    for (const std::string& summary : summaries) text += "- " + summary + "\n";
    text += "\n# Suggested Dice Rolls\n\n";
    if (twists.empty()) text += "None.\n";
    for (const SuggestedTwist& twist : twists)
        text += "- " + twist.situation + (twist.reason.empty() ? "" : " (" + twist.reason + ")") + "\n";
    return text;
}

std::string describeDecision(const OrchestratorDecision& decision) {
    std::string text = "pre-steps: ";
    if (decision.preSteps.empty()) text += "none";
    for (std::size_t i = 0; i < decision.preSteps.size(); ++i) {
        const PreStep& step = decision.preSteps[i];
        text += (i ? ", " : "") + std::string(preStepKindName(step.kind)) + "(" +
                (step.kind == PreStepKind::WorldAdvance ? step.description
                                                        : step.faction + ": " + step.situation) +
                ")";
    }
    text += "; twists: ";
    if (decision.suggestedTwists.empty()) text += "none";
    for (std::size_t i = 0; i < decision.suggestedTwists.size(); ++i)
        text += (i ? ", " : "") + decision.suggestedTwists[i].situation;
    return text;
}

} // namespace chaiba::story
