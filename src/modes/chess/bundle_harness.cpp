// The bundle's "harness" object (how the tournament was played, as a reader would cite it) and the
// UTC times the bundle writes; split from bundle.cpp, which writes and reads the rest.
#include "src/modes/chess/bundle.h"
#include "src/modes/chess/bundle_detail.h"

#include "src/play/bundle.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

namespace chaiba::chessmode {

using json = play::Json;
using play::JsonDecoder;

namespace {

// Days since 1970-01-01 of a civil date, and back (H. Hinnant's algorithms): the calendar without
// the C library's time zone state, so formatting a given moment is a pure function.
int64_t daysFromCivil(int64_t y, int m, int d) {
    y -= m <= 2 ? 1 : 0;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

struct CivilDate {
    int64_t year;
    int month;
    int day;
};

CivilDate civilFromDays(int64_t z) {
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    const int day = int(doy - (153 * mp + 2) / 5 + 1);
    const int month = int(mp < 10 ? mp + 3 : mp - 9);
    return {yoe + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

// The digits text[at, at+count) as a number, or -1 when one is not a digit.
int digitsAt(std::string_view text, size_t at, size_t count) {
    int n = 0;
    for (size_t i = at; i < at + count; ++i) {
        if (!std::isdigit(static_cast<unsigned char>(text[i]))) return -1;
        n = n * 10 + (text[i] - '0');
    }
    return n;
}

// Longer than any version string CHAIBA writes; a bound so a hand-made bundle cannot carry a novel.
constexpr size_t kMaxAppVersionLength = 64;

} // namespace

// Why the caller's part of the harness cannot go into a bundle (or come out of one): the member
// and the message, or nothing.
std::optional<std::pair<const char*, std::string>> harnessProblem(const BundleHarness& h) {
    if (play::looksLikeApiKey(h.appVersion))
        return std::pair{"appVersion", std::string("looks like an API key; keys never go into a tournament")};
    if (h.appVersion.size() > kMaxAppVersionLength)
        return std::pair{"appVersion", "longer than " + std::to_string(kMaxAppVersionLength) + " characters"};
    if (!h.exportedAt.empty() && !isUtcIsoTime(h.exportedAt))
        return std::pair{"exportedAt", std::string("expected a UTC time like 2025-03-01T12:00:00Z")};
    return std::nullopt;
}

namespace {

std::string_view seatKindName(play::SeatKind kind) {
    switch (kind) {
    case play::SeatKind::Model: return "model";
    case play::SeatKind::Engine: return "engine";
    case play::SeatKind::Random: return "random";
    case play::SeatKind::Bot: return "bot";
    case play::SeatKind::Person: return "person";
    }
    return "unknown";
}

// Participant i as the harness restates it: what the config says about how it played. Settings
// the config does not hold (temperature, prompts, ...) are not known here and not claimed.
json harnessParticipant(const TournamentConfig& c, size_t i) {
    const Participant& p = c.participants[i];
    json e{{"spec", p.spec}};
    const Parsed<PlayerSpec> spec = parsePlayerSpec(p.spec);
    if (!spec.ok()) return e; // validateConfig refuses such a config before anything is written
    e["kind"] = seatKindName(spec.value->kind);
    if (spec.value->kind == play::SeatKind::Model) {
        e["modelId"] = spec.value->modelId;
        // Only models are prompted: an engine's policy would be a claim about nothing.
        const ContextPolicy policy = contextPolicyOf(c, int(i));
        e["contextPolicy"] = contextPolicyName(policy);
        if (policy == ContextPolicy::Windowed) e["contextWindowMoves"] = c.contextWindowMoves;
    } else if (spec.value->kind == play::SeatKind::Engine) {
        e["engineLevel"] = spec.value->level;
    }
    return e;
}

// What the judge is, in words a reader can cite (the search and the thresholds are this app's).
constexpr const char* kJudgeEngine = "CHAIBA's built-in search with every feature of its top levels";
constexpr const char* kJudgeThresholds =
    "lichess: a drop of the mover's winning chances (2 / (1 + exp(-0.00368208 cp)) - 1) of 0.1, 0.2, 0.3 "
    "is an inaccuracy, a mistake, a blunder; mates by lichess's MateAdvice rules";

// The prompts with the config's overrides of the system prompt's parts in place of the shipped ones.
json promptsObject(const BundleHarness& h, const TournamentConfig& c) {
    if (h.prompts.empty()) return nullptr;
    json e = json::object();
    for (const auto& [name, text] : h.prompts) e[name] = text;
    if (c.calls) {
        for (const auto& [name, text] : {std::pair{"system_base", &c.calls->promptBase},
                                         std::pair{"system_white", &c.calls->promptWhite},
                                         std::pair{"system_black", &c.calls->promptBlack}})
            if (!text->empty()) e[name] = *text;
    }
    return e;
}

} // namespace

json harnessObject(const BundleHarness& h, const TournamentConfig& c, const std::vector<GameRecord>& games) {
    json participants = json::array();
    for (size_t i = 0; i < c.participants.size(); ++i) participants.push_back(harnessParticipant(c, i));
    json e{{"plyLimit", c.maxPlies}, {"participants", participants}};
    e["appVersion"] = h.appVersion.empty() ? json(nullptr) : json(h.appVersion);
    e["exportedAt"] = h.exportedAt.empty() ? json(nullptr) : json(h.exportedAt);
    e["calls"] = c.calls ? callsObject(*c.calls) : json(nullptr);
    e["prompts"] = promptsObject(h, c);
    e["judge"] = h.judgeNodes > 0 ? json{{"engine", kJudgeEngine},
                                         {"maxNodesPerPosition", h.judgeNodes},
                                         {"thresholds", kJudgeThresholds}}
                                  : json(nullptr);
    // When the games were played, as far as their records say.
    int64_t first = 0, last = 0;
    for (const GameRecord& g : games) {
        if (g.startedAt > 0 && (first == 0 || g.startedAt < first)) first = g.startedAt;
        last = std::max({last, g.startedAt, g.finishedAt});
    }
    e["firstGameAt"] = first > 0 ? json(utcIsoTime(first)) : json(nullptr);
    e["lastGameAt"] = last > 0 ? json(utcIsoTime(last)) : json(nullptr);
    return e;
}

// The "harness" object (version 4): the caller's facts are kept; the rest restates the config
// and must agree with it, or a reader citing one would cite something the other contradicts.
void decodeHarness(JsonDecoder& d, const json& j, const TournamentConfig& c, BundleHarness& h) {
    const std::string path = "harness";
    if (!j.is_object()) return d.fail(path, "expected an object");
    if (d.refuseKeyFields(j, path)) return;
    d.read(j, "appVersion", path, h.appVersion, false);
    d.read(j, "exportedAt", path, h.exportedAt, false);
    if (d.failed()) return;
    // Version 6: the prompt texts, the judge; the calls restate the config's.
    if (const json* prompts = d.object(j, "prompts", path, false)) {
        if (d.refuseKeyFields(*prompts, path + ".prompts")) return;
        for (const auto& [name, text] : prompts->items()) {
            if (!text.is_string()) return d.fail(path + ".prompts." + name, "expected a string");
            if (name.size() > 64) return d.fail(path + ".prompts", "a prompt's name is longer than 64 characters");
            h.prompts.emplace_back(name, text.get<std::string>());
        }
    }
    if (const json* judge = d.object(j, "judge", path, false))
        d.read(*judge, "maxNodesPerPosition", path + ".judge", h.judgeNodes, 1, 100000000000LL);
    if (const json* calls = d.member(j, "calls", path, false)) {
        if (!c.calls || *calls != callsObject(*c.calls))
            return d.fail(path + ".calls", "does not match config.calls");
    } else if (c.calls) {
        return d.fail(path + ".calls", "missing, but config.calls says how the models were called");
    }
    if (d.failed()) return;
    if (auto problem = harnessProblem(h))
        return d.fail(JsonDecoder::join(path, problem->first), problem->second);
    int plyLimit = 0;
    d.read(j, "plyLimit", path, plyLimit, 1, kMaxPlies);
    if (!d.failed() && plyLimit != c.maxPlies)
        return d.fail(path + ".plyLimit",
                      "does not match config.maxPlies (" + std::to_string(c.maxPlies) + ")");
    const json* list = d.array(j, "participants", path);
    if (!list) return;
    if (list->size() != c.participants.size())
        return d.fail(path + ".participants", "expected " + std::to_string(c.participants.size()) +
                                                  " entries, one per participant, got " +
                                                  std::to_string(list->size()));
    for (size_t i = 0; i < list->size(); ++i)
        if ((*list)[i] != harnessParticipant(c, i))
            return d.fail(path + ".participants[" + std::to_string(i) + "]",
                          "does not match config.participants[" + std::to_string(i) + "]");
}

std::string utcIsoTime(int64_t unixSeconds) {
    constexpr int64_t kDay = 86400;
    const int64_t days = (unixSeconds >= 0 ? unixSeconds : unixSeconds - (kDay - 1)) / kDay;
    const int64_t second = unixSeconds - days * kDay;
    const CivilDate date = civilFromDays(days);
    char text[48];
    std::snprintf(text, sizeof text, "%04lld-%02d-%02dT%02d:%02d:%02dZ", static_cast<long long>(date.year),
                  date.month, date.day, int(second / 3600), int(second / 60 % 60), int(second % 60));
    return text;
}

std::optional<int64_t> parseUtcIsoTime(std::string_view text) {
    if (!isUtcIsoTime(text)) return std::nullopt;
    const int64_t days = daysFromCivil(digitsAt(text, 0, 4), digitsAt(text, 5, 2), digitsAt(text, 8, 2));
    return days * 86400 + digitsAt(text, 11, 2) * 3600 + digitsAt(text, 14, 2) * 60 + digitsAt(text, 17, 2);
}

bool isUtcIsoTime(std::string_view text) {
    // "YYYY-MM-DDTHH:MM:SSZ": one form, so the PGN date can be read off its first ten characters.
    if (text.size() != 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
        text[16] != ':' || text[19] != 'Z')
        return false;
    const int year = digitsAt(text, 0, 4), month = digitsAt(text, 5, 2), day = digitsAt(text, 8, 2);
    const int hour = digitsAt(text, 11, 2), minute = digitsAt(text, 14, 2), second = digitsAt(text, 17, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 ||
        minute > 59 || second < 0 || second > 59)
        return false;
    // The day exists: it comes back the same through the calendar.
    const CivilDate back = civilFromDays(daysFromCivil(year, month, day));
    return back.year == year && back.month == month && back.day == day;
}

} // namespace chaiba::chessmode
