// The game export (JSON at the edge: typed values in, one document out) and its result reader.
#include "src/modes/werewolf/game_export.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <cstdio>

#include <optional>
#include <type_traits>

namespace chaiba::werewolfmode {

using nlohmann::json;
using werewolf::seatName;

namespace {
std::string audienceName(const werewolf::Audience& a) {
    switch (a.kind) {
    case werewolf::AudienceKind::Everyone: return "everyone";
    case werewolf::AudienceKind::Wolves: return "wolves";
    case werewolf::AudienceKind::Seat: return seatName(a.seat);
    case werewolf::AudienceKind::Spectators: return "spectators";
    }
    return "unknown";
}

json suspicionsJson(const std::vector<Suspicion>& list) {
    json out = json::object();
    for (const Suspicion& s : list) out[seatName(s.seat)] = s.level;
    return out;
}

// The events are most of a game's record, and a run's log writes thousands of games a second:
// they are written as text directly (building them as json values cost 5x the game itself).
void appendText(std::string& out, std::string_view text) {
    out += '"';
    for (char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break; // as nlohmann's dump() escapes them
        case '\f': out += "\\f"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
                out += escaped;
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

void appendKey(std::string& out, std::string_view key) {
    out += ",\"";
    out += key;
    out += "\":";
}

void appendField(std::string& out, std::string_view key, std::string_view text) {
    appendKey(out, key);
    appendText(out, text);
}

// A seat's name ("P3", "abstain") as a JSON string, without a temporary.
void appendSeat(std::string& out, int seat) {
    if (seat == werewolf::kAbstain) {
        out += "\"abstain\"";
        return;
    }
    char name[16];
    const int n = std::snprintf(name, sizeof name, "\"P%d\"", seat + 1);
    out.append(name, static_cast<std::size_t>(n));
}

void appendSeatField(std::string& out, std::string_view key, int seat) {
    appendKey(out, key);
    appendSeat(out, seat);
}

template <class T, class F> void appendList(std::string& out, std::string_view key, const std::vector<T>& items, F item) {
    appendKey(out, key);
    out += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += ',';
        item(items[i]);
    }
    out += ']';
}

// One event as a JSON object: index, kind, audience, round, phase, line, and the fields its kind uses.
void appendEvent(std::string& out, const werewolf::Event& e, std::size_t index, const EventNote* note) {
    using werewolf::EventKind;
    out += "{\"index\":";
    out += std::to_string(index);
    appendField(out, "kind", werewolf::eventKindName(e.kind));
    appendField(out, "audience", audienceName(e.audience));
    appendKey(out, "round");
    out += std::to_string(e.round);
    appendField(out, "phase", werewolf::phaseName(e.phase));
    appendField(out, "line", werewolf::describeEvent(e));
    if (e.seat != werewolf::kNoSeat) appendSeatField(out, "seat", e.seat);
    if (e.target != werewolf::kNoSeat) appendSeatField(out, "target", e.target);
    if (!e.text.empty()) appendField(out, "text", e.text);
    if (e.kind == EventKind::RoleAssigned) appendField(out, "role", werewolf::roleName(e.role));
    if (e.revealedRole) appendField(out, "revealed_role", werewolf::roleName(*e.revealedRole));
    if (e.kind == EventKind::SeerInspect || e.kind == EventKind::GameOver)
        appendField(out, "team", werewolf::teamName(e.team));
    if (!e.seats.empty()) appendList(out, "seats", e.seats, [&](int seat) { appendSeat(out, seat); });
    if (!e.roles.empty())
        appendList(out, "roles", e.roles, [&](werewolf::Role role) { appendText(out, werewolf::roleName(role)); });
    if (note) {
        if (!note->reasoning.empty()) appendField(out, "reasoning", note->reasoning);
        if (note->fallback != FallbackReason::None) {
            appendField(out, "fallback", fallbackReasonName(note->fallback));
            appendField(out, "fallback_detail", note->fallbackDetail);
        }
        if (!note->suspicions.empty()) {
            appendKey(out, "suspicions");
            out += suspicionsJson(note->suspicions).dump();
        }
    }
    out += '}';
}

json decisionJson(const AskOutcome& a) {
    json j = {{"kind", std::string(askKindName(a.kind))},
              {"round", a.round},
              {"phase", std::string(werewolf::phaseName(a.phase))},
              {"requests", a.requests},
              {"tokens", a.tokens},
              {"cost_usd", a.costUsd}};
    if (a.target) j["target"] = seatName(*a.target);
    if (isChatAsk(a.kind)) {
        j["send"] = a.chat.send;
        if (a.chat.send) j["message"] = a.chat.message;
        j["suspicions"] = suspicionsJson(a.chat.suspicions);
    }
    if (!a.reasoning.empty()) j["reasoning"] = a.reasoning;
    if (a.fallback != FallbackReason::None) {
        j["fallback"] = std::string(fallbackReasonName(a.fallback));
        j["fallback_detail"] = a.fallbackDetail;
    }
    if (!a.answer.empty() && a.kind != AskKind::Notes) j["answer"] = a.answer;
    return j;
}

// A number as nlohmann's dump() writes it: integers in full, a double as its shortest round trip
// ("0.0", "1.5e-05"), a NaN or infinity as null.
void appendNumber(std::string& out, long long n) { out += std::to_string(n); }
void appendNumber(std::string& out, unsigned long long n) { out += std::to_string(n); }
void appendNumber(std::string& out, double x) {
    if (!std::isfinite(x)) {
        out += "null";
        return;
    }
    char buffer[64];
    const char* end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, x);
    out.append(buffer, static_cast<std::size_t>(end - buffer));
}
template <class T> void appendNumberField(std::string& out, std::string_view key, T value) {
    appendKey(out, key);
    appendNumber(out, value);
}

// The "result" object as text, keys in the order nlohmann's objects dump them (sorted), so the
// bytes are what json(...).dump() gave (tests/werewolf_export_test.cpp checks it): a run's log
// writes one a game, and building it as json values cost more than playing a bot game.
void appendResult(std::string& out, const GameResult& r) {
    out += "{\"asks\":";
    appendNumber(out, static_cast<long long>(r.asks()));
    appendNumberField(out, "cost_usd", r.costUsd());
    appendNumberField(out, "fallbacks", static_cast<long long>(r.fallbacks()));
    appendNumberField(out, "game", static_cast<long long>(r.index));
    appendNumberField(out, "rounds", static_cast<long long>(r.rounds));
    out += ",\"seats\":[";
    for (std::size_t i = 0; i < r.seats.size(); ++i) {
        const SeatResult& s = r.seats[i];
        out += i ? ",{\"accusations\":" : "{\"accusations\":";
        appendNumber(out, static_cast<long long>(s.swing.accusations));
        appendKey(out, "alive");
        out += s.alive ? "true" : "false";
        appendNumberField(out, "asks", static_cast<long long>(s.asks));
        appendNumberField(out, "belief_score", s.beliefScore);
        appendList(out, "belief_score_by_round", s.beliefsByRound, [&](const RoundBeliefs& b) { appendNumber(out, b.score); });
        appendNumberField(out, "beliefs", static_cast<long long>(s.beliefs));
        appendList(out, "beliefs_by_round", s.beliefsByRound,
                   [&](const RoundBeliefs& b) { appendNumber(out, static_cast<long long>(b.beliefs)); });
        appendNumberField(out, "cost_usd", s.costUsd);
        appendNumberField(out, "fallbacks", static_cast<long long>(s.fallbacks));
        appendNumberField(out, "inspections", static_cast<long long>(s.inspections));
        appendNumberField(out, "inspections_on_wolves", static_cast<long long>(s.inspectionsOnWolves));
        appendNumberField(out, "notes_asks", static_cast<long long>(s.notesAsks));
        appendNumberField(out, "notes_fallbacks", static_cast<long long>(s.notesFallbacks));
        appendField(out, "player", s.player);
        appendField(out, "role", werewolf::roleName(s.role));
        appendNumberField(out, "swing_listeners", static_cast<long long>(s.swing.listeners));
        appendNumberField(out, "swing_swayed", static_cast<long long>(s.swing.swayed));
        appendNumberField(out, "tokens", static_cast<long long>(s.tokens));
        appendNumberField(out, "villager_votes", static_cast<long long>(s.villagerVotes));
        appendNumberField(out, "villager_votes_on_wolves", static_cast<long long>(s.villagerVotesOnWolves));
        appendKey(out, "won");
        out += s.won ? "true}" : "false}";
    }
    out += ']';
    appendNumberField(out, "seed", static_cast<unsigned long long>(r.seed));
    appendNumberField(out, "tokens", static_cast<long long>(r.tokens()));
    appendNumberField(out, "virtual_ms", static_cast<long long>(r.virtualMs));
    appendNumberField(out, "wall_seconds", r.wallSeconds);
    appendKey(out, "winner");
    if (r.winner)
        appendText(out, werewolf::teamName(*r.winner));
    else
        out += "null";
    out += '}';
}
// Typed reads that never throw (JSON_NOEXCEPTION aborts on a type error): a wrong type reads as
// the fallback.
template <class T> T field(const json& object, const char* name, T fallback) {
    auto it = object.find(name);
    if (it == object.end()) return fallback;
    if constexpr (std::is_same_v<T, bool>) {
        return it->is_boolean() ? it->get<bool>() : fallback;
    } else if constexpr (std::is_same_v<T, std::string>) {
        return it->is_string() ? it->get<std::string>() : fallback;
    } else if constexpr (std::is_floating_point_v<T>) {
        return it->is_number() ? it->get<T>() : fallback;
    } else {
        return it->is_number_integer() || it->is_number_unsigned() ? it->get<T>() : fallback;
    }
}
} // namespace

std::string exportGameJson(const GameSession& session, const GameResult& result, int indent,
                           std::string_view resultText) {
    const SessionConfig& config = session.config();
    json doc = {{"format", "chaiba-werewolf-game"}, {"version", kGameFileVersion}};
    const werewolf::Rules& rules = config.setup.rules;
    doc["setup"] = {{"seed", config.setup.seed},
                    {"rules",
                     {{"doctor_self_save", rules.doctorSelfSave},
                      {"doctor_repeat_save", rules.doctorRepeatSave},
                      {"tie_rule", std::string(werewolf::tieRuleName(rules.tieRule))},
                      {"rotate_first_speaker", rules.rotateFirstSpeaker},
                      {"reveal_roles", rules.revealRoles},
                      // Since the kaggle preset (absent in older files: all false, as they played).
                      {"seer_sees_role", rules.seerSeesRole},
                      {"abstain_allowed", rules.abstainAllowed},
                      {"random_first_speaker", rules.randomFirstSpeaker},
                      {"random_wolf_tie", rules.randomWolfTie}}},
                    {"chat_poll_interval_ms", config.chatPollIntervalMs},
                    {"max_day_messages", config.maxDayMessages},
                    {"max_day_ms", config.maxDayMs}};
    json seats = json::array();
    const bool started = session.setupError() == werewolf::SetupError::None;
    for (std::size_t i = 0; i < config.seats.size(); ++i) {
        const int s = static_cast<int>(i);
        const TableSeat& spec = config.seats[i];
        json seat = {
            {"seat", seatName(s)}, {"player", spec.player}, {"kind", std::string(seatKindName(spec.kind))}};
        if (started) {
            seat["role"] = std::string(werewolf::roleName(session.game().roleOf(s)));
            seat["alive"] = session.game().isAlive(s);
        }
        if (const AiSeat* ai = session.aiSeat(s)) {
            seat["model"] = spec.ai.model;
            seat["channel"] = llm::answerChannelName(spec.ai.channel);
            seat["timeout_ms"] = spec.ai.timeoutMs;
            const SeatStats& st = ai->stats();
            const llm::Usage& u = ai->log().totalUsage();
            seat["stats"] = {{"asks", st.asks},
                             {"fallbacks", st.fallbacks},
                             {"notes_asks", st.notesAsks},
                             {"notes_fallbacks", st.notesFallbacks},
                             {"api_errors", st.apiErrors},
                             {"malformed", st.malformed},
                             {"requests", ai->log().records().size()},
                             {"prompt_tokens", u.promptTokens},
                             {"completion_tokens", u.completionTokens},
                             {"total_tokens", u.totalTokens},
                             {"cost_usd", ai->log().totalCostUsd()}};
            json notes = json::array();
            for (const NotesEntry& n : ai->notesHistory())
                notes.push_back({{"round", n.round},
                                 {"after", std::string(werewolf::phaseName(n.endedPhase))},
                                 {"text", n.text}});
            seat["notes"] = std::move(notes);
            json decisions = json::array();
            for (const AskOutcome& a : ai->history()) decisions.push_back(decisionJson(a));
            seat["decisions"] = std::move(decisions);
        }
        seats.push_back(std::move(seat));
    }
    doc["seats"] = std::move(seats);
    std::string ownResult; // the one-line record (a run's log) splices the result as text
    if (resultText.empty() && indent < 0) resultText = ownResult = gameResultJson(result);
    if (resultText.empty()) doc["result"] = json::parse(gameResultJson(result));
    // The events, one per line in a file, spliced in before the document's closing brace (and
    // the result when it came as text).
    std::string text = doc.dump(indent);
    text.pop_back(); // '}'
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    const std::string_view between = indent < 0 ? "," : ",\n  ";
    text += indent < 0 ? ",\"events\":[" : ",\n \"events\": [";
    if (started) {
        const auto& notes = session.eventNotes();
        const auto& log = session.game().events();
        text.reserve(text.size() + log.size() * 160);
        for (std::size_t i = 0; i < log.size(); ++i) {
            auto it = notes.find(i);
            text += i == 0 ? (indent < 0 ? "" : "\n  ") : between;
            appendEvent(text, log[i], i, it == notes.end() ? nullptr : &it->second);
        }
    }
    text += indent < 0 ? "]" : "\n ]";
    if (!resultText.empty()) text.append(indent < 0 ? ",\"result\":" : ",\n \"result\": ").append(resultText);
    text += indent < 0 ? "}" : "\n}";
    return text;
}

namespace {
// A seat's "beliefs_by_round" and "belief_score_by_round" (since version 2): both absent (an older
// file) is no per-round data; otherwise two arrays of one length, counts and scores. An error sentence.
std::optional<std::string> readBeliefsByRound(const json& seat, BeliefsByRound& out) {
    auto counts = seat.find("beliefs_by_round");
    auto scores = seat.find("belief_score_by_round");
    if (counts == seat.end() && scores == seat.end()) return std::nullopt;
    if (counts == seat.end() || scores == seat.end() || !counts->is_array() || !scores->is_array() ||
        counts->size() != scores->size())
        return "a seat's beliefs by round are damaged (two arrays of one length expected)";
    for (std::size_t r = 0; r < counts->size(); ++r) {
        const json& n = (*counts)[r];
        const json& score = (*scores)[r];
        if (!n.is_number_integer() || n.get<long long>() < 0 || n.get<long long>() > 1000000 ||
            !score.is_number())
            return "a seat's beliefs in round " + std::to_string(r + 1) + " are damaged";
        out.push_back({n.get<int>(), score.get<double>()});
    }
    return std::nullopt;
}

llm::Result<GameResult> readResultObject(const json* r) {
    using R = llm::Result<GameResult>;
    GameResult out;
    out.index = field<int>(*r, "game", 0);
    out.seed = field<std::uint64_t>(*r, "seed", 0);
    out.rounds = field<int>(*r, "rounds", 0);
    out.virtualMs = field<std::int64_t>(*r, "virtual_ms", 0);
    out.wallSeconds = field<double>(*r, "wall_seconds", 0.0);
    if (auto w = r->find("winner"); w != r->end() && !w->is_null()) { // absent or null: unfinished
        if (!w->is_string() || (*w != "wolves" && *w != "villagers"))
            return R::fail("the winner " + w->dump() + " is no team (wolves, villagers or null)");
        out.winner = *w == "wolves" ? werewolf::Team::Wolves : werewolf::Team::Villagers;
    }
    auto seats = r->find("seats");
    if (seats == r->end() || !seats->is_array()) return R::fail("no seats in the result");
    for (const json& s : *seats) {
        if (!s.is_object()) return R::fail("a seat is not an object");
        SeatResult seat;
        seat.player = field<std::string>(s, "player", "");
        const std::optional<werewolf::Role> role = werewolf::parseRole(field<std::string>(s, "role", ""));
        if (!role || seat.player.empty()) return R::fail("a seat lacks its player or role");
        seat.role = *role;
        seat.alive = field<bool>(s, "alive", false);
        seat.won = field<bool>(s, "won", false);
        seat.asks = field<int>(s, "asks", 0);
        seat.fallbacks = field<int>(s, "fallbacks", 0);
        // Since version 3 (older: no notes counted apart, no vote swing).
        seat.notesAsks = field<int>(s, "notes_asks", 0);
        seat.notesFallbacks = field<int>(s, "notes_fallbacks", 0);
        seat.swing.accusations = field<int>(s, "accusations", 0);
        seat.swing.listeners = field<int>(s, "swing_listeners", 0);
        seat.swing.swayed = field<int>(s, "swing_swayed", 0);
        if (seat.notesAsks < 0 || seat.notesAsks > seat.asks || seat.notesFallbacks < 0 ||
            seat.notesFallbacks > seat.notesAsks || seat.notesFallbacks > seat.fallbacks ||
            seat.swing.accusations < 0 || seat.swing.listeners < 0 || seat.swing.swayed < 0 ||
            seat.swing.swayed > seat.swing.listeners)
            return R::fail("a seat's notes or vote-swing counts are out of range");
        seat.tokens = field<long long>(s, "tokens", 0);
        seat.costUsd = field<double>(s, "cost_usd", 0.0);
        // Written since the arena (older game files read as zero: "no data").
        seat.villagerVotes = field<int>(s, "villager_votes", 0);
        seat.villagerVotesOnWolves = field<int>(s, "villager_votes_on_wolves", 0);
        seat.inspections = field<int>(s, "inspections", 0);
        seat.inspectionsOnWolves = field<int>(s, "inspections_on_wolves", 0);
        seat.beliefs = field<int>(s, "beliefs", 0);
        seat.beliefScore = field<double>(s, "belief_score", 0.0);
        if (std::optional<std::string> error = readBeliefsByRound(s, seat.beliefsByRound))
            return R::fail(*error);
        out.seats.push_back(std::move(seat));
    }
    return R::ok(std::move(out));
}
} // namespace

llm::Result<GameResult> readGameResult(std::string_view text) {
    using R = llm::Result<GameResult>;
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return R::fail("not JSON");
    if (field<std::string>(doc, "format", "") != "chaiba-werewolf-game")
        return R::fail("not a chaiba Werewolf game");
    auto r = doc.find("result");
    if (r == doc.end() || !r->is_object()) return R::fail("no result");
    return readResultObject(&*r);
}

namespace {
json ratingJson(const RatingValue& r) {
    if (r.games == 0) return nullptr;
    return {{"elo", r.elo}, {"low", r.low}, {"high", r.high}, {"games", r.games}};
}
// {"seer": {"rating": {...} or null, "games", "wins"}, "doctor": ..., "werewolf": ..., "villager": ...}
json roleRatingsJson(const PlayerStanding& p) {
    json out = json::object();
    for (int role = 0; role < werewolf::kRoleCount; ++role) {
        std::string name(werewolf::roleName(werewolf::Role(role)));
        for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
        out[name] = {{"rating", ratingJson(p.roleRatings[role])}, {"games", p.roleGames[role]}, {"wins", p.roleWins[role]}};
    }
    return out;
}
} // namespace

std::string leaderboardJson(const std::vector<PlayerStanding>& rows) {
    json board = json::array();
    for (const PlayerStanding& p : rows) {
        json counts = json::array(), accuracies = json::array();
        for (const RoundBeliefs& round : p.beliefsByRound) {
            counts.push_back(round.beliefs);
            accuracies.push_back(round.beliefs ? json(round.accuracy()) : json(nullptr));
        }
        board.push_back({{"player", p.player},
                         {"games", p.games},
                         {"wins", p.wins},
                         {"wolf_games", p.wolfGames},
                         {"wolf_wins", p.wolfWins},
                         {"villager_games", p.villagerGames},
                         {"villager_wins", p.villagerWins},
                         {"survived", p.survived},
                         {"asks", p.asks},
                         {"fallbacks", p.fallbacks},
                         {"decision_asks", p.decisionAsks()},
                         {"decision_fallbacks", p.decisionFallbacks()},
                         {"notes_asks", p.notesAsks},
                         {"notes_fallbacks", p.notesFallbacks},
                         {"accusations", p.swing.accusations},
                         {"swing_listeners", p.swing.listeners},
                         {"swing_swayed", p.swing.swayed},
                         {"vote_swing", p.swing.listeners ? json(p.swing.rate()) : json(nullptr)},
                         {"tokens", p.tokens},
                         {"cost_usd", p.costUsd},
                         {"rating", ratingJson(p.rating)},
                         {"wolf_rating", ratingJson(p.wolfRating)},
                         {"villager_rating", ratingJson(p.villagerRating)},
                         {"role_ratings", roleRatingsJson(p)},
                         {"villager_votes", p.villagerVotes},
                         {"villager_votes_on_wolves", p.villagerVotesOnWolves},
                         {"inspections", p.inspections},
                         {"inspections_on_wolves", p.inspectionsOnWolves},
                         {"beliefs", p.beliefs},
                         {"belief_accuracy", p.beliefs ? json(p.beliefAccuracy()) : json(nullptr)},
                         {"beliefs_by_round", counts},
                         {"belief_accuracy_by_round", accuracies}});
    }
    return board.dump();
}

std::string gameResultJson(const GameResult& result) {
    std::string out;
    out.reserve(256 + result.seats.size() * 420);
    appendResult(out, result);
    return out;
}

llm::Result<GameResult> readGameResultJson(std::string_view text) {
    const json r = json::parse(text, nullptr, false);
    if (r.is_discarded() || !r.is_object()) return llm::Result<GameResult>::fail("a game result is not a JSON object");
    return readResultObject(&r);
}

} // namespace chaiba::werewolfmode
