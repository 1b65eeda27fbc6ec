// The one seat-spec parser and the API-key detector.
#include "src/play/seat.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

namespace chaiba::play {

namespace {

constexpr size_t kMaxTextLength = 200;

std::optional<int> parseSmallInt(std::string_view text) {
    int n = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
    return n;
}

// 'text' for messages, cut to a readable length.
std::string quoted(std::string_view text) {
    std::string out = "'";
    out.append(text.substr(0, kMaxTextLength));
    out += '\'';
    return out;
}

bool printableWord(std::string_view text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return std::isgraph(static_cast<unsigned char>(c)) != 0; });
}

} // namespace

std::string SeatSpec::text() const {
    switch (kind) {
    case Kind::Model: return "llm:" + modelId;
    case Kind::Engine: return level < 0 ? "engine" : "engine:" + std::to_string(level);
    case Kind::Random: return "random";
    case Kind::Bot: return "bot";
    case Kind::Person: return "human";
    }
    return "random";
}

bool SeatGrammar::accepts(SeatKind kind) const {
    switch (kind) {
    case SeatKind::Model: return model;
    case SeatKind::Engine: return engine;
    case SeatKind::Random: return random;
    case SeatKind::Bot: return bot;
    case SeatKind::Person: return person;
    }
    return false;
}

std::string SeatGrammar::forms() const {
    std::vector<std::string> forms;
    if (model) forms.push_back("llm:MODEL_ID");
    if (engine) forms.insert(forms.end(), {"engine:LEVEL", "engine"});
    if (random) forms.push_back("random");
    if (bot) forms.push_back("bot");
    if (person) forms.push_back("human");
    std::string out;
    for (size_t i = 0; i < forms.size(); ++i) {
        if (i > 0) out += i + 1 == forms.size() ? " or " : ", ";
        out += forms[i];
    }
    if (maxRepeat > 1) out += ", each maybe *N";
    return out;
}

Parsed<SeatSpec> parseSeatSpec(std::string_view text, const SeatGrammar& grammar) {
    using Result = Parsed<SeatSpec>;
    SeatSpec spec;
    auto unknown = [&] {
        return Result::fail("unknown player spec " + quoted(text) + " (expected " + grammar.forms() + ")");
    };
    if (text == "random") {
        if (!grammar.random) return unknown();
        return {spec, {}};
    }
    if (text == "human") {
        if (!grammar.person) return unknown();
        spec.kind = SeatKind::Person;
        return {spec, {}};
    }
    if (text == "engine" || text.substr(0, 7) == "engine:") {
        if (!grammar.engine) return unknown();
        spec.kind = SeatKind::Engine;
        if (text == "engine") return {spec, {}};
        const std::string range =
            std::to_string(grammar.minEngineLevel) + " to " + std::to_string(grammar.maxEngineLevel);
        const std::optional<int> level = parseSmallInt(text.substr(7));
        if (!level) return Result::fail("engine level must be a number from " + range + " in " + quoted(text));
        if (*level < grammar.minEngineLevel || *level > grammar.maxEngineLevel)
            return Result::fail("engine level must be a number from " + range + ", got " +
                                std::to_string(*level) + " in " + quoted(text));
        spec.level = *level;
        return {spec, {}};
    }
    if (text == "bot") {
        if (!grammar.bot) return unknown();
        spec.kind = SeatKind::Bot;
        return {spec, {}};
    }
    if (text.substr(0, 4) == "llm:") {
        if (!grammar.model) return unknown();
        const std::string_view model = text.substr(4);
        if (model.empty() || model.size() > kMaxTextLength || !printableWord(model))
            return Result::fail(quoted(text) + " needs a model id without spaces after llm:");
        spec.kind = SeatKind::Model;
        spec.modelId = std::string(model);
        return {spec, {}};
    }
    return unknown();
}

Parsed<SeatEntry> parseSeatEntry(std::string_view text, const SeatGrammar& grammar) {
    using Result = Parsed<SeatEntry>;
    SeatEntry entry;
    std::string_view base = text;
    if (const size_t star = text.rfind('*'); star != std::string_view::npos) {
        if (grammar.maxRepeat <= 1)
            return Result::fail(quoted(text) + ": each seat plays once here (no *N; expected " + grammar.forms() + ")");
        const std::optional<int> n = text.size() - star > 4 ? std::nullopt : parseSmallInt(text.substr(star + 1));
        if (!n || *n < 1 || *n > grammar.maxRepeat)
            return Result::fail(quoted(text) + ": *N must be a seat count from 1 to " +
                                std::to_string(grammar.maxRepeat));
        entry.count = *n;
        base = text.substr(0, star);
    }
    Parsed<SeatSpec> spec = parseSeatSpec(base, grammar);
    if (!spec.ok()) return Result::fail(std::move(spec.error));
    entry.spec = std::move(*spec.value);
    return {entry, {}};
}

bool looksLikeApiKey(std::string_view text) {
    auto keyChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
    };
    for (size_t at = text.find("sk-"); at != std::string_view::npos; at = text.find("sk-", at + 1)) {
        size_t run = 0;
        for (size_t i = at + 3; i < text.size() && keyChar(text[i]); ++i) ++run;
        if (run >= 20) return true;
    }
    for (size_t at = text.find("Bearer "); at != std::string_view::npos; at = text.find("Bearer ", at + 1))
        if (at + 7 < text.size() && keyChar(text[at + 7])) return true;
    return false;
}

} // namespace chaiba::play
