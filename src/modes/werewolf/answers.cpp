// Answer decoding and validation for the AI players.
#include "src/modes/werewolf/answers.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace chaiba::werewolfmode {

using nlohmann::json;
using werewolf::seatName;

namespace {
std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::optional<int> seatOf(const json& value) {
    if (value.is_number_integer()) {
        const long long n = value.get<long long>();
        if (n < 1 || n > 99) return std::nullopt;
        return static_cast<int>(n - 1);
    }
    if (value.is_string()) return readSeatRef(value.get<std::string>());
    return std::nullopt;
}

std::string lowerTrimmed(const std::string& s) {
    std::string out = trim(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string stringField(const json& object, const char* name) {
    auto it = object.find(name);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}
} // namespace

std::optional<int> readSeatRef(const std::string& raw) {
    std::string text = trim(raw);
    std::string low;
    for (char c : text) low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (low.rfind("player", 0) == 0) low = trim(low.substr(6));
    if (!low.empty() && low[0] == 'p') low = low.substr(1);
    if (low.empty() || low.size() > 2) return std::nullopt;
    int n = 0;
    for (char c : low) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
        n = n * 10 + (c - '0');
    }
    if (n < 1) return std::nullopt;
    return n - 1;
}

llm::StructuredSpec lenientSpec(const llm::StructuredSpec& spec, const std::string& requiredField) {
    json schema = json::parse(spec.schemaJson, nullptr, false);
    if (schema.is_discarded() || !schema.is_object()) schema = json::object();
    schema["required"] = json::array({requiredField});
    return {spec.name, spec.description, schema.dump()};
}

llm::Result<TargetAnswer> parseTargetAnswer(const std::string& objectJson, const werewolf::Game& game,
                                            const std::vector<int>& allowed, bool abstain) {
    using R = llm::Result<TargetAnswer>;
    const json object = json::parse(objectJson, nullptr, false);
    if (object.is_discarded() || !object.is_object()) return R::fail("the answer is not a JSON object");
    const std::string choices = " Choose one of: " + [&] {
        std::string out;
        for (std::size_t i = 0; i < allowed.size(); ++i) out += (i ? ", " : "") + seatName(allowed[i]);
        return out;
    }() + (abstain ? ", or \"abstain\"." : ".");
    auto target = object.find("target");
    if (target == object.end()) return R::fail("the answer has no \"target\"." + choices);
    if (target->is_string() && lowerTrimmed(target->get<std::string>()) == "abstain") {
        if (!abstain) return R::fail("abstaining is not allowed for this decision." + choices);
        return R::ok(TargetAnswer{werewolf::kAbstain, stringField(object, "reasoning")});
    }
    const std::optional<int> seat = seatOf(*target);
    if (!seat)
        return R::fail("\"target\" must name a player like \"P3\", not " + target->dump() + "." + choices);
    if (*seat >= game.seats())
        return R::fail("there is no player " + seatName(*seat) + " at this table." + choices);
    if (!game.isAlive(*seat)) return R::fail(seatName(*seat) + " is dead." + choices);
    if (std::find(allowed.begin(), allowed.end(), *seat) == allowed.end())
        return R::fail(seatName(*seat) + " is not an allowed target for this decision." + choices);
    return R::ok(TargetAnswer{*seat, stringField(object, "reasoning")});
}

llm::Result<ChatAnswer> parseChatAnswer(const std::string& objectJson, const werewolf::Game& game) {
    using R = llm::Result<ChatAnswer>;
    const json object = json::parse(objectJson, nullptr, false);
    if (object.is_discarded() || !object.is_object()) return R::fail("the answer is not a JSON object");
    ChatAnswer out;
    auto send = object.find("send");
    if (send == object.end()) return R::fail("the answer has no \"send\" (true or false)");
    if (send->is_boolean())
        out.send = send->get<bool>();
    else if (send->is_string() && (*send == "true" || *send == "false"))
        out.send = *send == "true";
    else
        return R::fail("\"send\" must be true or false");
    out.message = trim(stringField(object, "message"));
    out.reasoning = stringField(object, "reasoning");
    if (out.send && out.message.empty()) return R::fail("\"send\" is true but \"message\" is empty");
    if (out.send && out.message.size() > werewolf::kMaxChatChars)
        return R::fail("the message is longer than " + std::to_string(werewolf::kMaxChatChars) +
                       " characters");
    if (!out.send) out.message.clear();
    auto add = [&](const json& who, const json& level) {
        const std::optional<int> seat = seatOf(who);
        if (!seat || *seat >= game.seats() || !level.is_number()) return;
        out.suspicions.push_back({*seat, std::clamp(level.get<double>(), 0.0, 1.0)});
    };
    if (auto s = object.find("suspicions"); s != object.end()) {
        if (s->is_array()) {
            for (const json& item : *s)
                if (item.is_object() && item.contains("player") && item.contains("level"))
                    add(item["player"], item["level"]);
        } else if (s->is_object()) { // {"P3": 0.7}, the original's form
            for (auto it = s->begin(); it != s->end(); ++it) add(json(it.key()), it.value());
        }
    }
    return R::ok(std::move(out));
}

llm::Result<std::string> parseNotesAnswer(const std::string& content, std::size_t maxChars) {
    std::string notes = trim(content);
    if (notes.empty()) return llm::Result<std::string>::fail("the notes are empty");
    if (notes.size() > maxChars) {
        std::size_t cut = notes.rfind('\n', maxChars);
        if (cut == std::string::npos || cut < maxChars / 2) cut = maxChars;
        notes = notes.substr(0, cut) + "\n[notes cut at " + std::to_string(maxChars) + " characters]";
    }
    return llm::Result<std::string>::ok(std::move(notes));
}

} // namespace chaiba::werewolfmode
