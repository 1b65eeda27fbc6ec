// The replay model: a game file read into typed events (checked by replaying them) and the state
// at an event index as a point of view sees it.
#include "src/modes/werewolf/replay_view.h"

#include "engine/werewolf/replay.h"
#include "src/modes/werewolf/game_export.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>

namespace chaiba::werewolfmode {

using nlohmann::json;
using werewolf::Event;
using werewolf::EventKind;
using werewolf::Phase;

namespace {
using R = llm::Result<GameRecord>;

std::string text(const json& o, const char* key) {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<EventKind> kindNamed(const std::string& name) {
    for (int k = 0; k <= int(EventKind::GameOver); ++k)
        if (werewolf::eventKindName(EventKind(k)) == name) return EventKind(k);
    return std::nullopt;
}
std::optional<Phase> phaseNamed(const std::string& name) {
    for (Phase p : {Phase::Night, Phase::Discussion, Phase::Vote, Phase::Over})
        if (werewolf::phaseName(p) == name) return p;
    return std::nullopt;
}
std::optional<werewolf::Team> teamNamed(const std::string& name) {
    if (name == "wolves") return werewolf::Team::Wolves;
    if (name == "villagers") return werewolf::Team::Villagers;
    return std::nullopt;
}
std::optional<werewolf::Audience> audienceNamed(const std::string& name) {
    if (name == "everyone") return werewolf::Audience::everyone();
    if (name == "wolves") return werewolf::Audience::wolves();
    if (name == "spectators") return werewolf::Audience::spectators();
    if (std::optional<int> seat = werewolf::parseSeatName(name)) return werewolf::Audience::only(*seat);
    return std::nullopt;
}
// A seat field: absent is kNoSeat; present it must be "P<n>".
bool readSeat(const json& o, const char* key, int& out) {
    auto it = o.find(key);
    if (it == o.end() || it->is_null()) return true;
    if (!it->is_string()) return false;
    if (*it == werewolf::seatName(werewolf::kAbstain)) { // a vote for nobody (the kaggle rules)
        out = werewolf::kAbstain;
        return true;
    }
    std::optional<int> seat = werewolf::parseSeatName(it->get<std::string>());
    if (!seat) return false;
    out = *seat;
    return true;
}

// One exported event back into its typed form; the deal takes its seed and rules from the setup.
std::optional<std::string> readEvent(const json& o, const werewolf::Rules& rules, std::uint64_t seed, Event& e) {
    if (!o.is_object()) return "not an object";
    const std::optional<EventKind> kind = kindNamed(text(o, "kind"));
    if (!kind) return "unknown kind \"" + text(o, "kind") + "\"";
    e.kind = *kind;
    const std::optional<werewolf::Audience> audience = audienceNamed(text(o, "audience"));
    const std::optional<Phase> phase = phaseNamed(text(o, "phase"));
    if (!audience || !phase) return "its audience or phase is unknown";
    e.audience = *audience;
    e.phase = *phase;
    if (auto r = o.find("round"); r != o.end() && r->is_number_integer()) e.round = r->get<int>();
    else return "it has no round";
    if (!readSeat(o, "seat", e.seat) || !readSeat(o, "target", e.target)) return "a seat is not of the form P3";
    e.text = text(o, "text");
    if (e.kind == EventKind::RoleAssigned) {
        const std::optional<werewolf::Role> role = werewolf::parseRole(text(o, "role"));
        if (!role) return "the assigned role is unknown";
        e.role = *role;
    }
    if (o.contains("revealed_role")) {
        e.revealedRole = werewolf::parseRole(text(o, "revealed_role"));
        if (!e.revealedRole) return "the revealed role is unknown";
    }
    if (e.kind == EventKind::SeerInspect || e.kind == EventKind::GameOver) {
        const std::optional<werewolf::Team> team = teamNamed(text(o, "team"));
        if (!team) return "the team is unknown";
        e.team = *team;
    }
    if (auto seats = o.find("seats"); seats != o.end()) {
        if (!seats->is_array()) return "its seats are not a list";
        for (const json& s : *seats) {
            std::optional<int> seat = s.is_string() ? werewolf::parseSeatName(s.get<std::string>()) : std::nullopt;
            if (!seat) return "a seat is not of the form P3";
            e.seats.push_back(*seat);
        }
    }
    if (auto roles = o.find("roles"); roles != o.end()) {
        if (!roles->is_array()) return "its roles are not a list";
        for (const json& r : *roles) {
            std::optional<werewolf::Role> role = r.is_string() ? werewolf::parseRole(r.get<std::string>()) : std::nullopt;
            if (!role) return "a role is unknown";
            e.roles.push_back(*role);
        }
    }
    if (e.kind == EventKind::Deal) {
        e.seed = seed;
        e.rules = rules;
    }
    return std::nullopt;
}

std::optional<std::string> readRules(const json& setup, werewolf::Rules& rules) {
    auto r = setup.find("rules");
    if (r == setup.end() || !r->is_object()) return "the setup has no rules";
    const auto flag = [&](const char* key, bool& out) {
        if (auto it = r->find(key); it != r->end() && it->is_boolean()) out = it->get<bool>();
    };
    flag("doctor_self_save", rules.doctorSelfSave);
    flag("doctor_repeat_save", rules.doctorRepeatSave);
    flag("rotate_first_speaker", rules.rotateFirstSpeaker);
    flag("reveal_roles", rules.revealRoles);
    // Since the kaggle preset (older files: all off, as they played).
    flag("seer_sees_role", rules.seerSeesRole);
    flag("abstain_allowed", rules.abstainAllowed);
    flag("random_first_speaker", rules.randomFirstSpeaker);
    flag("random_wolf_tie", rules.randomWolfTie);
    const std::string tie = text(*r, "tie_rule");
    if (std::optional<werewolf::TieRule> t = werewolf::parseTieRule(tie)) rules.tieRule = *t;
    else if (!tie.empty()) return "the tie rule \"" + tie + "\" is unknown";
    return std::nullopt;
}

// Round r's night, discussion and vote in order; the end after everything.
long long phaseKey(int round, Phase phase) {
    return phase == Phase::Over ? LLONG_MAX : static_cast<long long>(round) * 3 + static_cast<int>(phase);
}

std::optional<std::string> readSeats(const json& seats, std::size_t count, const std::vector<Event>& events,
                                     GameRecord& out) {
    out.players.assign(count, "");
    out.seatNotes.assign(count, {});
    if (!seats.is_array() || seats.size() != count) return "the seats do not match the deal";
    for (std::size_t s = 0; s < count; ++s) {
        const json& seat = seats[s];
        if (!seat.is_object()) return "a seat is not an object";
        out.players[s] = text(seat, "player");
        auto notes = seat.find("notes");
        if (notes == seat.end()) continue;
        if (!notes->is_array()) return werewolf::seatName(int(s)) + "'s notes are not a list";
        for (const json& n : *notes) {
            ReplayNotes entry;
            const std::optional<Phase> after = n.is_object() ? phaseNamed(text(n, "after")) : std::nullopt;
            if (!after || !n.contains("round") || !n["round"].is_number_integer())
                return werewolf::seatName(int(s)) + "'s notes are damaged";
            entry.round = n["round"].get<int>();
            entry.after = *after;
            entry.text = text(n, "text");
            // Readable from the first event of a later phase than the one it was written after.
            const long long written = phaseKey(entry.round, entry.after);
            entry.atEvent = events.size() - 1;
            for (std::size_t i = 0; i < events.size(); ++i)
                if (phaseKey(events[i].round, events[i].phase) > written) {
                    entry.atEvent = i;
                    break;
                }
            out.seatNotes[s].push_back(std::move(entry));
        }
    }
    return std::nullopt;
}

R readGameDocument(const json& doc) {
    if (text(doc, "format") != "chaiba-werewolf-game") return R::fail("it is not a CHAIBA Werewolf game");
    auto version = doc.find("version");
    if (version == doc.end() || !version->is_number_integer()) return R::fail("it has no format version");
    if (version->get<int>() > kGameFileVersion)
        return R::fail("it was made by a newer CHAIBA (game format " + std::to_string(version->get<int>()) + ")");
    auto setup = doc.find("setup");
    if (setup == doc.end() || !setup->is_object()) return R::fail("it has no setup");
    werewolf::Rules rules;
    if (auto e = readRules(*setup, rules)) return R::fail(*e);
    const std::uint64_t seed =
        setup->contains("seed") && (*setup)["seed"].is_number_unsigned() ? (*setup)["seed"].get<std::uint64_t>() : 0;
    auto events = doc.find("events");
    if (events == doc.end() || !events->is_array() || events->empty()) return R::fail("it has no events (the game never started)");
    GameRecord out;
    for (std::size_t i = 0; i < events->size(); ++i) {
        const json& o = (*events)[i];
        Event e;
        if (auto why = readEvent(o, rules, seed, e)) return R::fail("event " + std::to_string(i) + ": " + *why);
        EventNote note;
        note.reasoning = text(o, "reasoning");
        if (auto sus = o.find("suspicions"); sus != o.end() && sus->is_object())
            for (auto it = sus->begin(); it != sus->end(); ++it)
                if (std::optional<int> seat = werewolf::parseSeatName(it.key()); seat && it->is_number())
                    note.suspicions.push_back({*seat, it->get<double>()});
        if (!note.reasoning.empty() || !note.suspicions.empty()) out.notes[i] = std::move(note);
        out.events.push_back(std::move(e));
    }
    const werewolf::ReplayResult replayed = werewolf::replay(out.events);
    if (!replayed.ok()) return R::fail("its log does not replay: " + replayed.error);
    const std::size_t seats = static_cast<std::size_t>(replayed.game->seats());
    if (auto e = readSeats(doc.contains("seats") ? doc["seats"] : json(), seats, out.events, out)) return R::fail(*e);
    return R::ok(std::move(out));
}
} // namespace

namespace {
// A run's tournament.log (each line "<checksum> {json}"): its first {"record": ...} line, unwrapped.
std::optional<std::string_view> firstLogRecord(std::string_view log) {
    while (!log.empty()) {
        const std::size_t end = std::min(log.find('\n'), log.size());
        std::string_view line = log.substr(0, end);
        log.remove_prefix(std::min(end + 1, log.size()));
        if (line.size() > 9 && line[8] == ' ') line.remove_prefix(9);
        if (line.rfind("{\"record\":", 0) == 0) return line;
    }
    return std::nullopt;
}
} // namespace

llm::Result<GameRecord> readGameRecord(std::string_view fileText) {
    const std::size_t start = fileText.find_first_not_of(" \t\r\n");
    if (start != std::string_view::npos && fileText[start] != '{') // a run log, or one of its lines
        if (std::optional<std::string_view> line = firstLogRecord(fileText)) fileText = *line;
    const json doc = json::parse(fileText, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return R::fail("it is not JSON");
    if (text(doc, "format") == "chaiba-werewolf-screen") {
        auto game = doc.find("game");
        if (game == doc.end() || !game->is_object()) return R::fail("this export of the page holds no game record");
        return readGameDocument(*game);
    }
    if (auto record = doc.find("record"); record != doc.end() && record->is_object()) return readGameDocument(*record);
    return readGameDocument(doc);
}

bool replayVisible(const GameRecord& record, const Event& e, int pov) {
    if (pov < 0) return true;
    const Event& deal = record.events.front();
    const werewolf::Role role =
        static_cast<std::size_t>(pov) < deal.roles.size() ? deal.roles[static_cast<std::size_t>(pov)] : werewolf::Role::Villager;
    return werewolf::visibleTo(e, pov, role);
}

ReplayState replayStateAt(const GameRecord& record, std::size_t index, int pov) {
    ReplayState st;
    if (record.events.empty()) return st;
    index = std::min(index, record.events.size() - 1);
    st.index = index;
    const std::vector<werewolf::Role>& dealt = record.events.front().roles;
    const std::size_t seats = dealt.size();
    st.alive.assign(seats, true);
    st.knownRole.assign(seats, std::nullopt);
    st.minds.assign(seats, std::nullopt);
    if (pov >= 0 && static_cast<std::size_t>(pov) < seats) st.knownRole[std::size_t(pov)] = dealt[std::size_t(pov)];
    const auto readable = [&](int seat) {
        return seat >= 0 && static_cast<std::size_t>(seat) < seats &&
               (pov < 0 || pov == seat) && !record.players[std::size_t(seat)].empty() &&
               record.players[std::size_t(seat)].rfind("llm:", 0) == 0;
    };
    for (std::size_t s = 0; s < seats; ++s)
        if (readable(int(s))) st.minds[s] = ReplayMind{};
    for (std::size_t i = 0; i <= index; ++i) {
        const Event& e = record.events[i];
        if (readable(e.seat))
            if (auto note = record.notes.find(i); note != record.notes.end()) {
                ReplayMind& mind = *st.minds[std::size_t(e.seat)];
                if (!note->second.reasoning.empty()) {
                    mind.reasoning = note->second.reasoning;
                    mind.reasoningAt = i;
                }
                if (!note->second.suspicions.empty()) mind.suspicions = note->second.suspicions;
            }
        if (!replayVisible(record, e, pov)) continue;
        const auto target = static_cast<std::size_t>(std::max(0, e.target));
        switch (e.kind) {
        case EventKind::Deal:
        case EventKind::GameOver:
            for (std::size_t s = 0; s < e.roles.size() && s < seats; ++s) st.knownRole[s] = e.roles[s];
            if (e.kind == EventKind::GameOver) {
                st.winner = e.team;
                st.phase = Phase::Over;
            }
            break;
        case EventKind::PackRevealed:
            for (int s : e.seats)
                if (s >= 0 && std::size_t(s) < seats) st.knownRole[std::size_t(s)] = werewolf::Role::Werewolf;
            break;
        case EventKind::PhaseStart:
            st.phase = e.phase;
            st.round = e.round;
            if (e.phase == Phase::Vote) st.currentVotes.clear();
            break;
        case EventKind::Revote: st.currentVotes.clear(); break;
        case EventKind::VoteCast:
            st.votes.push_back({i, e.round, e.seat, e.target});
            st.currentVotes.push_back(st.votes.back());
            break;
        case EventKind::DayChat:
        case EventKind::WolfChat:
            st.chat.push_back({i, e.round, e.seat, e.text, e.kind == EventKind::WolfChat});
            break;
        case EventKind::WolfVote:
        case EventKind::WolfTarget:
        case EventKind::SeerInspect:
        case EventKind::DoctorProtect:
            st.nightActions.push_back("Night " + std::to_string(e.round) + ": " + werewolf::describeEvent(e));
            break;
        case EventKind::DawnDeath:
        case EventKind::Elimination:
            if (target < seats) {
                st.alive[target] = false;
                if (e.revealedRole) st.knownRole[target] = *e.revealedRole;
            }
            break;
        default: break;
        }
    }
    for (std::size_t s = 0; s < seats && s < record.seatNotes.size(); ++s) {
        if (!st.minds[s]) continue;
        for (const ReplayNotes& n : record.seatNotes[s])
            if (n.atEvent <= index) st.minds[s]->notes = n.text;
    }
    return st;
}

std::optional<std::size_t> replayJumpTarget(const GameRecord& record, std::size_t from, ReplayJump jump) {
    const Phase wanted = jump == ReplayJump::PrevDay || jump == ReplayJump::NextDay ? Phase::Discussion : Phase::Night;
    const auto starts = [&](std::size_t i) {
        const Event& e = record.events[i];
        return e.kind == EventKind::PhaseStart && e.phase == wanted;
    };
    if (jump == ReplayJump::NextDay || jump == ReplayJump::NextNight) {
        for (std::size_t i = from + 1; i < record.events.size(); ++i)
            if (starts(i)) return i;
        return std::nullopt;
    }
    for (std::size_t i = std::min(from, record.events.size()); i-- > 0;)
        if (starts(i)) return i;
    return std::nullopt;
}

std::optional<ReplayJump> parseReplayJump(std::string_view name) {
    if (name == "prev_day") return ReplayJump::PrevDay;
    if (name == "next_day") return ReplayJump::NextDay;
    if (name == "prev_night") return ReplayJump::PrevNight;
    if (name == "next_night") return ReplayJump::NextNight;
    return std::nullopt;
}

} // namespace chaiba::werewolfmode
