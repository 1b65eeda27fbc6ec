// The headless Werewolf session: bots alone, AI seats with a scripted chat service (to the end,
// replayable, notes after each phase, fallbacks counted), the day as polled rounds on the
// simulated clock, a person's seat (the same context as an AI, refused decisions), and the export.
#include "engine/werewolf/replay.h"
#include "src/modes/werewolf/game_export.h"
#include "src/modes/werewolf/game_session.h"
#include "tests/werewolf_mode_test_util.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace chaiba;
using namespace chaiba::werewolfmode;
using namespace chaiba::werewolfmode::test;
using chaiba::fakes::FakeChat;
using werewolf::Decision;
using werewolf::DecisionKind;
using werewolf::EventKind;
using werewolf::Phase;

namespace {
SessionConfig table(std::vector<TableSeat> seats, std::uint64_t seed = 11) {
    SessionConfig c;
    c.seats = std::move(seats);
    c.setup.seed = seed;
    c.setup.rules = werewolf::Rules::balanced();
    return c;
}

std::vector<TableSeat> mixed() {
    std::vector<TableSeat> s;
    for (int i = 0; i < 8; ++i) s.push_back(i % 2 == 0 ? aiSpec("test/a" + std::to_string(i)) : botSpec());
    return s;
}

int count(const werewolf::Game& g, EventKind k) {
    int n = 0;
    for (const auto& e : g.events()) n += e.kind == k ? 1 : 0;
    return n;
}
} // namespace

TEST_CASE("werewolf session: eight bots play to the end, and the log replays") {
    std::vector<TableSeat> bots(8, botSpec());
    GameSession session(table(bots), prompts(), nullptr);
    runToEnd(session, nullptr);
    REQUIRE(session.finished());
    CHECK_FALSE(session.stopped());
    CHECK(session.game().winner().has_value());
    CHECK(werewolf::replay(session.game().events()).ok());
    CHECK(session.fallbacks() == 0);
    // Bots speak once a day: every day has at most one message per living seat.
    CHECK(count(session.game(), EventKind::DayChat) > 0);
}

TEST_CASE("werewolf session: AI seats and bots play to the end, the same way twice") {
    auto play = [](std::vector<werewolf::Event>& log, int& requests) {
        FakeChat chat;
        chat.setResponder(sensible);
        GameSession session(table(mixed()), prompts(), &chat);
        runToEnd(session, &chat);
        REQUIRE(session.finished());
        CHECK_FALSE(session.stopped());
        CHECK(werewolf::replay(session.game().events()).ok());
        CHECK(session.fallbacks() == 0);
        CHECK(session.tokens() > 0);
        // Notes after every phase an AI seat lived through.
        for (int s = 0; s < 8; s += 2) {
            const AiSeat* seat = session.aiSeat(s);
            REQUIRE(seat);
            CHECK_FALSE(seat->notesHistory().empty());
            CHECK(seat->notes() == "notes: all quiet.");
        }
        log = session.game().events();
        requests = static_cast<int>(chat.requests().size());
    };
    std::vector<werewolf::Event> first, second;
    int r1 = 0, r2 = 0;
    play(first, r1);
    play(second, r2);
    CHECK(first == second);
    CHECK(r1 == r2);
}

TEST_CASE("werewolf session: the day is polled in rounds and ends after a silent round") {
    FakeChat chat;
    chat.setResponder(sensible); // each AI speaks once a day, then stays silent
    SessionConfig c = table(mixed());
    c.chatPollIntervalMs = 5000;
    GameSession session(c, prompts(), &chat);
    std::int64_t now = 0;
    // Run until the first vote opens.
    for (int i = 0; i < 10000 && !session.finished(); ++i) {
        session.poll(now);
        chat.poll();
        if (session.game().phase() == Phase::Vote) break;
        if (session.requestsInFlight() > 0) continue;
        now = std::max(now, session.nextWakeMs().value_or(now));
    }
    REQUIRE(session.game().phase() == Phase::Vote);
    // Round 1 everybody spoke (AI and bots), round 2 was silent: the discussion took one interval.
    CHECK(now == 5000);
    const int living = static_cast<int>(session.game().livingSeats().size());
    CHECK(count(session.game(), EventKind::DayChat) == living);
    int chatAsks = 0;
    for (const auto& r : chat.requests()) // the day's turns (the wolves' night chat has its own task)
        chatAsks += r.responseFormat && r.responseFormat->name == "chat" &&
                    lastUser(r).find("open discussion") != std::string::npos;
    int livingAi = 0;
    for (int s = 0; s < 8; s += 2) livingAi += session.game().isAlive(s) ? 1 : 0;
    CHECK(chatAsks == 2 * livingAi);
}

TEST_CASE("werewolf session: the message limit ends the day") {
    FakeChat chat;
    chat.setResponder([](const llm::ChatRequest& r) {
        if (lastUser(r).find("Decide whether to") != std::string::npos)
            return answer(textReply(R"({"send":true,"message":"again","reasoning":"","suspicions":[]})"));
        return sensible(r);
    });
    SessionConfig c = table(mixed());
    c.maxDayMessages = 6;
    GameSession session(c, prompts(), &chat);
    runToEnd(session, &chat);
    REQUIRE(session.finished());
    for (int day = 1; day <= session.game().round(); ++day) {
        int messages = 0;
        for (const auto& e : session.game().events())
            messages += e.kind == EventKind::DayChat && e.round == day;
        CHECK(messages <= 6);
    }
}

TEST_CASE("werewolf session: misbehaving models fall back, counted, and the game still ends") {
    FakeChat chat;
    chat.setResponder([](const llm::ChatRequest& r) {
        if (r.model == "test/a0") return failure(llm::ChatErrorKind::Timeout, 0, "network: timeout");
        if (r.model == "test/a2" && lastUser(r).find("Rewrite your notes") == std::string::npos)
            return answer(textReply("I refuse to answer in JSON."));
        return sensible(r);
    });
    GameSession session(table(mixed()), prompts(), &chat);
    runToEnd(session, &chat);
    REQUIRE(session.finished());
    CHECK(session.game().winner().has_value());
    const AiSeat* slow = session.aiSeat(0);
    const AiSeat* garbage = session.aiSeat(2);
    CHECK(slow->stats().fallbacks == slow->stats().asks);
    CHECK(slow->stats().apiErrors == 3 * slow->stats().asks);
    CHECK(garbage->stats().fallbacks > 0);
    CHECK(session.fallbacks() == slow->stats().fallbacks + garbage->stats().fallbacks);
    // Fallback decisions are marked on their events in the export.
    const GameResult result = summarize(session, 1);
    const nlohmann::json doc = nlohmann::json::parse(exportGameJson(session, result));
    int marked = 0;
    for (const auto& e : doc["events"]) marked += e.contains("fallback") ? 1 : 0;
    CHECK(marked > 0);
    CHECK(doc["result"]["fallbacks"] == session.fallbacks());
    // The one-line record of a run's log (events written as text, the result given as text) is
    // the same document.
    const std::string line = exportGameJson(session, result, -1, gameResultJson(result));
    CHECK(line.find('\n') == std::string::npos);
    const nlohmann::json same = nlohmann::json::parse(line, nullptr, false);
    REQUIRE_FALSE(same.is_discarded());
    CHECK(same == doc);
}

TEST_CASE("werewolf session: event text with quotes, backslashes and control characters exports as valid JSON") {
    FakeChat chat;
    chat.setResponder([](const llm::ChatRequest& r) {
        if (lastUser(r).find("Decide whether to") != std::string::npos)
            return answer(textReply(R"({"send":true,"message":"P2 said \"no\" \\ then\nleft\t\u0001 \u00e9t\u00e9","reasoning":"a \"quote\"","suspicions":[]})"));
        return sensible(r);
    });
    SessionConfig c = table(mixed());
    c.maxRounds = 2;
    GameSession session(c, prompts(), &chat);
    runToEnd(session, &chat);
    const GameResult result = summarize(session, 1);
    const nlohmann::json pretty = nlohmann::json::parse(exportGameJson(session, result), nullptr, false);
    const nlohmann::json line = nlohmann::json::parse(exportGameJson(session, result, -1), nullptr, false);
    REQUIRE_FALSE(pretty.is_discarded());
    REQUIRE_FALSE(line.is_discarded());
    CHECK(pretty == line);
    bool found = false;
    for (const auto& e : line["events"])
        if (e.value("text", "") == "P2 said \"no\" \\ then\nleft\t\x01 \xC3\xA9t\xC3\xA9") found = true;
    CHECK(found);
}

TEST_CASE("werewolf session: a person's seat sees what an AI sees and is checked like one") {
    std::vector<TableSeat> seats(8, botSpec());
    seats[2].kind = SeatKind::Person;
    seats[2].player = "person";
    SessionConfig c = table(seats, 3);
    GameSession session(c, prompts(), nullptr);
    session.poll(0);
    const werewolf::Game& g = session.game();
    CHECK(session.contextFor(2) == buildGameState(g, 2));
    // Play until the session waits on the person.
    std::int64_t now = 0;
    for (int i = 0; i < 1000 && !session.finished(); ++i) {
        const auto awaited = session.awaitedFrom(2);
        const bool required =
            std::any_of(awaited.begin(), awaited.end(), [](const auto& p) { return p.required; });
        if (required || !g.isAlive(2)) {
            if (!g.isAlive(2)) break;
            const werewolf::PendingDecision p =
                *std::find_if(awaited.begin(), awaited.end(), [](const auto& q) { return q.required; });
            // A refused decision changes nothing; the allowed one is taken.
            const werewolf::ApplyResult bad = session.submit({2, p.kind, 2, {}});
            CHECK_FALSE(bad.ok());
            CHECK(session.submit({2, p.kind, p.targets.front(), {}}).ok());
        } else if (g.phase() == Phase::Discussion && !awaited.empty()) {
            (void)session.submit(Decision::speak(2, "I am watching P1."));
        }
        session.poll(now);
        now = std::max(now, session.nextWakeMs().value_or(now + 1000));
    }
    CHECK((session.finished() || !g.isAlive(2)));
    int personDecisions = 0;
    for (const auto& e : g.events())
        personDecisions += e.seat == 2 && e.kind != EventKind::RoleAssigned ? 1 : 0;
    CHECK(personDecisions > 0);
    // A seat played by a bot cannot be driven from outside.
    CHECK_FALSE(session.submit(Decision::speak(1, "hello")).ok());
}

TEST_CASE("werewolf session: the export holds events, notes, reasoning and costs, and reads back") {
    FakeChat chat;
    chat.setResponder(sensible);
    GameSession session(table(mixed()), prompts(), &chat);
    runToEnd(session, &chat);
    const GameResult result = summarize(session, 4);
    const std::string text = exportGameJson(session, result);
    const nlohmann::json doc = nlohmann::json::parse(text);
    CHECK(doc["format"] == "chaiba-werewolf-game");
    CHECK(doc["events"].size() == session.game().events().size());
    CHECK(doc["seats"][0]["kind"] == "ai");
    CHECK(doc["seats"][0]["notes"].size() > 0);
    CHECK(doc["seats"][0]["decisions"].size() > 0);
    CHECK(doc["seats"][1]["player"] == "bot");
    bool reasoned = false;
    for (const auto& e : doc["events"]) reasoned = reasoned || e.contains("reasoning");
    CHECK(reasoned);
    const llm::Result<GameResult> back = readGameResult(text);
    REQUIRE(back.isOk());
    CHECK(back.value->index == 4);
    CHECK(back.value->winner == result.winner);
    CHECK(back.value->tokens() == result.tokens());
    CHECK(back.value->seats.size() == 8);
    // Stored data with wrong types or fields missing is refused or read as defaults, never a crash.
    CHECK_FALSE(readGameResult("{}").isOk());
    CHECK_FALSE(readGameResult("not json").isOk());
    CHECK_FALSE(
        readGameResult(R"({"format":"chaiba-werewolf-game","result":{"seats":[{"player":7}]}})").isOk());
    const auto odd = readGameResult(
        R"({"format":"chaiba-werewolf-game","result":{"game":"x","seed":-1.5,"seats":[{"player":"bot","role":"seer","won":1}]}})");
    REQUIRE(odd.isOk());
    CHECK(odd.value->index == 0);
    CHECK_FALSE(odd.value->seats[0].won);
    const auto rows = leaderboard({result, *back.value});
    REQUIRE(rows.size() == 5); // bot and four models
    for (const auto& row : rows) CHECK(row.games == (row.player == "bot" ? 8 : 2));
}

TEST_CASE("werewolf session: one request queue spaces the requests of all AI seats") {
    FakeChat chat;
    std::int64_t now = 0;
    std::vector<std::int64_t> sentAt;
    chat.setResponder([&](const llm::ChatRequest& r) {
        sentAt.push_back(now);
        return sensible(r);
    });
    SessionConfig c = table(mixed());
    c.requestSpacingMs = 700;
    c.maxConcurrentRequests = 2;
    c.maxRounds = 2;
    GameSession session(c, prompts(), &chat);
    for (int i = 0; i < 100000 && !session.finished(); ++i) {
        session.poll(now);
        CHECK(session.requestsInFlight() <= 2);
        chat.poll();
        if (session.requestsInFlight() > 0) continue;
        const std::optional<std::int64_t> wake = session.nextWakeMs();
        if (!wake) break;
        now = std::max(now, *wake);
    }
    REQUIRE(sentAt.size() > 10);
    for (std::size_t i = 1; i < sentAt.size(); ++i) CHECK(sentAt[i] - sentAt[i - 1] >= 700);
}

namespace {
// Moves the session to the first day discussion (a person in seat `person` waits silently).
void toFirstDay(GameSession& session, int person, std::int64_t& now) {
    const werewolf::Game& g = session.game();
    for (int i = 0; i < 1000 && !session.finished() && g.phase() != Phase::Discussion; ++i) {
        for (const werewolf::PendingDecision& p : session.awaitedFrom(person))
            if (p.required) (void)session.submit({person, p.kind, p.targets.front(), {}});
        session.poll(now);
        now = std::max(now, session.nextWakeMs().value_or(now + 1000));
    }
}
} // namespace

// A person could barely talk: once the bots had spoken, a silent round (5 s) ended the day and the
// vote replaced the box being typed in. Now the day waits for the person ("I'm done") or its time,
// and the bots answer a person's line in the next round.
TEST_CASE("werewolf session: a person gets real turns in the day, and the bots read their line") {
    std::vector<TableSeat> seats(8, botSpec());
    seats[0].kind = SeatKind::Person;
    seats[0].player = "person";
    // A seed where the person lives into day 1 and a bot villager can trust a Seer's claim.
    SessionConfig c = table(seats, 3);
    GameSession session(c, prompts(), nullptr);
    session.poll(0);
    std::int64_t now = 0;
    toFirstDay(session, 0, now);
    const werewolf::Game& g = session.game();
    REQUIRE(g.phase() == Phase::Discussion);
    REQUIRE(g.isAlive(0));
    // Three silent rounds pass after the bots' lines: the discussion still waits for the person.
    for (int i = 0; i < 4; ++i) {
        now += c.chatPollIntervalMs;
        session.poll(now);
    }
    CHECK(g.phase() == Phase::Discussion);
    REQUIRE(session.dayTimeLeftMs());
    CHECK(*session.dayTimeLeftMs() < c.maxDayMs);
    // The person claims Seer and names a wolf-looking seat: in the next round bots answer it.
    int named = -1;
    for (int s = 1; s < 8 && named < 0; ++s)
        if (g.isAlive(s)) named = s;
    const std::size_t before = g.events().size();
    REQUIRE(session.submit(Decision::speak(0, "I am the Seer. " + werewolf::seatName(named) + " is a wolf.")).ok());
    for (int i = 0; i < 3; ++i) {
        now += c.chatPollIntervalMs;
        session.poll(now);
    }
    int answers = 0;
    for (std::size_t e = before; e < g.events().size(); ++e)
        if (g.events()[e].kind == EventKind::DayChat && g.events()[e].seat != 0 &&
            g.events()[e].text.find(werewolf::seatName(named)) != std::string::npos)
            ++answers;
    CHECK(answers > 0);
    CHECK(g.phase() == Phase::Discussion);
    // "I'm done": the next silent round ends the day and the vote follows.
    CHECK(session.personPass());
    for (int i = 0; i < 3 && g.phase() == Phase::Discussion; ++i) {
        now += c.chatPollIntervalMs;
        session.poll(now);
    }
    CHECK(g.phase() != Phase::Discussion);
    CHECK_FALSE(session.personPass()); // nothing to pass on now
}

TEST_CASE("werewolf session: without personDayTurns a silent round still ends the day (games saved before)") {
    std::vector<TableSeat> seats(8, botSpec());
    seats[0].kind = SeatKind::Person;
    seats[0].player = "person";
    SessionConfig c = table(seats, 3);
    c.personDayTurns = false;
    GameSession session(c, prompts(), nullptr);
    session.poll(0);
    std::int64_t now = 0;
    toFirstDay(session, 0, now);
    REQUIRE(session.game().phase() == Phase::Discussion);
    for (int i = 0; i < 4 && session.game().phase() == Phase::Discussion; ++i) {
        now += c.chatPollIntervalMs;
        session.poll(now);
    }
    CHECK(session.game().phase() != Phase::Discussion);
}

TEST_CASE("werewolf session: 8 babbling seats fall back on every decision, and their notes rewrites count apart") {
    // Every answer is prose: no decision can be read from it, while a notes rewrite accepts any text.
    FakeChat chat;
    chat.setResponder([](const llm::ChatRequest&) { return answer(textReply("Hmm, let me think about the village.")); });
    std::vector<TableSeat> seats;
    for (int s = 0; s < 8; ++s) seats.push_back(aiSpec("test/babble" + std::to_string(s)));
    SessionConfig c = table(seats);
    c.maxRounds = 3;
    GameSession session(c, prompts(), &chat);
    runToEnd(session, &chat);
    const GameResult result = summarize(session, 1);
    REQUIRE(result.notesAsks() > 0);
    CHECK(result.notesFallbacks() == 0);
    CHECK(result.decisionAsks() > 0);
    CHECK(result.decisionFallbacks() == result.decisionAsks()); // 100% of the decisions
    CHECK(result.fallbacks() < result.asks());                    // the mixed rate would understate it
    const std::vector<PlayerStanding> rows = leaderboard({result});
    int decisionAsks = 0, decisionFallbacks = 0;
    for (const PlayerStanding& p : rows) {
        if (p.decisionAsks() > 0) CHECK(p.decisionFallbackRate() == doctest::Approx(1.0)); // (a seat killed first: none)
        CHECK(p.notesFallbackRate() == doctest::Approx(0.0));
        decisionAsks += p.decisionAsks();
        decisionFallbacks += p.decisionFallbacks();
    }
    CHECK(decisionFallbacks == decisionAsks);
    // Both counts survive the result's JSON round trip; an older result (no notes fields) reads
    // with every ask a decision.
    llm::Result<GameResult> back = readGameResultJson(gameResultJson(result));
    REQUIRE(back.isOk());
    CHECK(back.value->notesAsks() == result.notesAsks());
    CHECK(back.value->decisionFallbacks() == result.decisionFallbacks());
    nlohmann::json older = nlohmann::json::parse(gameResultJson(result));
    for (auto& seat : older["seats"]) {
        seat.erase("notes_asks");
        seat.erase("notes_fallbacks");
    }
    llm::Result<GameResult> old = readGameResultJson(older.dump());
    REQUIRE(old.isOk());
    CHECK(old.value->notesAsks() == 0);
    CHECK(old.value->decisionAsks() == result.asks());
}
