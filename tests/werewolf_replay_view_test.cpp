// The replay model: a game file read back (the CLI's game, the page's export, a run log's record
// line), refused with the reason when damaged, and the state at an event index per point of view.
#include "src/modes/werewolf/game_export.h"
#include "src/modes/werewolf/replay_view.h"
#include "src/modes/werewolf/results.h"
#include "src/modes/werewolf/tournament_store.h"
#include "tests/werewolf_mode_test_util.h"
#include "tests/werewolf_test_util.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

using namespace chaiba::werewolfmode;
using namespace chaiba::werewolf::test;
using chaiba::werewolf::Event;
using chaiba::werewolf::EventKind;
using chaiba::werewolf::Phase;
using chaiba::werewolf::Role;

namespace {
std::size_t indexOf(const std::vector<Event>& log, const std::function<bool(const Event&)>& match, int nth = 0) {
    for (std::size_t i = 0; i < log.size(); ++i)
        if (match(log[i]) && nth-- == 0) return i;
    FAIL("no such event");
    return 0;
}
bool dayStart(const Event& e) { return e.kind == EventKind::PhaseStart && e.phase == Phase::Discussion; }
bool nightStart(const Event& e) { return e.kind == EventKind::PhaseStart && e.phase == Phase::Night; }

// P1, P2 wolves (P1 an AI), P3 the seer (an AI), P4 the doctor. Night 1: the wolves chat and take
// P5, the seer inspects P2. Day 1: P6 accuses P2, P2 is voted out. Night 2: P6 dies. Day 2: P1 talks.
GameRecord constructed() {
    chaiba::werewolf::Game g = makeGame();
    require(g.speak(W1, "Let's take P5."));
    night(g, V5, W2, V6);
    require(g.speak(V6, "I suspect P2."));
    voteOut(g, W2, V6);
    night(g, V6, W1, SEER);
    require(g.speak(W1, "Poor P6."));
    GameRecord r;
    r.events = g.events();
    r.players = {"llm:test/wolf", "bot", "llm:test/seer", "bot", "bot", "bot", "bot", "bot"};
    r.seatNotes.assign(8, {});
    const std::size_t wolfChat = indexOf(r.events, [](const Event& e) { return e.kind == EventKind::WolfChat; });
    const std::size_t inspect = indexOf(r.events, [](const Event& e) { return e.kind == EventKind::SeerInspect; });
    r.notes[wolfChat] = {"P5 is quiet", FallbackReason::None, "", {{V5, 0.1}}};
    r.notes[inspect] = {"P2 looks shifty", FallbackReason::None, "", {}};
    r.seatNotes[SEER].push_back({indexOf(r.events, dayStart), 1, Phase::Night, "P2 is a wolf."});
    return r;
}
} // namespace

TEST_CASE("werewolf replay view: the seer and all see different things at one event") {
    const GameRecord r = constructed();
    const std::size_t accusation = indexOf(r.events, [](const Event& e) { return e.kind == EventKind::DayChat; });

    const ReplayState seer = replayStateAt(r, accusation, SEER);
    CHECK(seer.round == 1);
    CHECK(seer.phase == Phase::Discussion);
    REQUIRE(seer.chat.size() == 1); // no wolf chat
    CHECK(seer.chat[0].text == "I suspect P2.");
    CHECK_FALSE(seer.alive[V5]); // killed at dawn, role revealed
    CHECK(seer.knownRole[V5] == Role::Villager);
    CHECK(seer.knownRole[SEER] == Role::Seer);
    CHECK_FALSE(seer.knownRole[W1].has_value());
    CHECK_FALSE(seer.knownRole[W2].has_value());
    REQUIRE(seer.nightActions.size() == 1); // its own inspection only
    CHECK(seer.nightActions[0].find("P2") != std::string::npos);
    REQUIRE(seer.minds[SEER].has_value());
    CHECK(seer.minds[SEER]->reasoning == "P2 looks shifty");
    CHECK(seer.minds[SEER]->notes == "P2 is a wolf.");
    CHECK_FALSE(seer.minds[W1].has_value()); // another seat's thinking is not the seer's to read

    const ReplayState all = replayStateAt(r, accusation, -1);
    REQUIRE(all.chat.size() == 2);
    CHECK(all.chat[0].wolves);
    CHECK(all.knownRole[W1] == Role::Werewolf);
    CHECK(all.knownRole[DOC] == Role::Doctor);
    CHECK(all.nightActions.size() == 5); // two wolf votes, the target, the inspection, the save
    REQUIRE(all.minds[W1].has_value());
    CHECK(all.minds[W1]->reasoning == "P5 is quiet");
    REQUIRE(all.minds[W1]->suspicions.size() == 1);
    CHECK(all.minds[W1]->suspicions[0].seat == V5);
    CHECK_FALSE(all.minds[DOC].has_value()); // a bot has no mind on record

    const ReplayState wolf = replayStateAt(r, accusation, W2);
    CHECK(wolf.chat.size() == 2);
    CHECK(wolf.knownRole[W1] == Role::Werewolf);
    CHECK(wolf.nightActions.size() == 3); // the pack's votes and target, not the seer's or doctor's

    // Before the notes were written (the night they are written after), the seer has none yet.
    const ReplayState early = replayStateAt(r, indexOf(r.events, dayStart) - 1, SEER);
    REQUIRE(early.minds[SEER].has_value());
    CHECK(early.minds[SEER]->notes.empty());
}

TEST_CASE("werewolf replay view: votes of the day and the living at the end") {
    const GameRecord r = constructed();
    const std::size_t out = indexOf(r.events, [](const Event& e) { return e.kind == EventKind::Elimination; });
    const ReplayState st = replayStateAt(r, out, V7);
    CHECK(st.currentVotes.size() == 7);
    CHECK(st.votes.size() == 7);
    CHECK_FALSE(st.alive[W2]);
    CHECK(st.knownRole[W2] == Role::Werewolf);
    const ReplayState end = replayStateAt(r, 100000, V7); // clamped to the last event
    CHECK(end.index == r.events.size() - 1);
    CHECK(end.round == 2);
    CHECK_FALSE(end.alive[V6]);
    CHECK(end.currentVotes.empty() == false); // the last vote stays shown until the next one
}

TEST_CASE("werewolf replay view: jumps go to the start of days and nights") {
    const GameRecord r = constructed();
    const std::size_t day1 = indexOf(r.events, dayStart), day2 = indexOf(r.events, dayStart, 1);
    const std::size_t night1 = indexOf(r.events, nightStart), night2 = indexOf(r.events, nightStart, 1);
    const std::size_t last = r.events.size() - 1;
    CHECK(replayJumpTarget(r, last, ReplayJump::PrevDay) == day2);
    CHECK(replayJumpTarget(r, day2, ReplayJump::PrevDay) == day1);
    CHECK(replayJumpTarget(r, day1, ReplayJump::PrevDay) == std::nullopt);
    CHECK(replayJumpTarget(r, day1 + 1, ReplayJump::PrevDay) == day1); // inside day 1: its start
    CHECK(replayJumpTarget(r, 0, ReplayJump::NextNight) == night1);
    CHECK(replayJumpTarget(r, night1, ReplayJump::NextNight) == night2);
    CHECK(replayJumpTarget(r, night2, ReplayJump::NextNight) == std::nullopt);
    CHECK(replayJumpTarget(r, 0, ReplayJump::NextDay) == day1);
    CHECK(replayJumpTarget(r, last, ReplayJump::PrevNight) == night2);
    CHECK(parseReplayJump("prev_day") == ReplayJump::PrevDay);
    CHECK(parseReplayJump("back") == std::nullopt);
}

TEST_CASE("werewolf replay view: an exported game reads back in each wrapper") {
    chaiba::fakes::FakeChat chat;
    chat.setResponder(test::sensible);
    SessionConfig config;
    for (int i = 0; i < 8; ++i) config.seats.push_back(i % 2 == 0 ? test::aiSpec("test/a" + std::to_string(i)) : test::botSpec());
    config.setup.seed = 11;
    GameSession session(config, test::prompts(), &chat);
    test::runToEnd(session, &chat);
    REQUIRE(session.finished());
    const std::string file = exportGameJson(session, summarize(session, 1));

    const auto read = readGameRecord(file);
    REQUIRE_MESSAGE(read.isOk(), read.error);
    CHECK(read.value->events == session.game().events());
    CHECK(read.value->players[0] == "llm:test/a0");
    CHECK(read.value->players[1] == "bot");
    CHECK_FALSE(read.value->notes.empty()); // the AI seats' reasoning
    CHECK_FALSE(read.value->seatNotes[0].empty());
    const ReplayState end = replayStateAt(*read.value, read.value->events.size() - 1, -1);
    REQUIRE(end.minds[0].has_value());
    CHECK(end.minds[0]->notes == "notes: all quiet.");
    CHECK_FALSE(end.minds[0]->reasoning.empty());
    CHECK(end.winner == session.game().winner());

    const std::string oneLine = exportGameJson(session, summarize(session, 1), -1);
    CHECK(readGameRecord("{\"record\":" + oneLine + "}").isOk()); // a run log's line
    const auto fromLog = readGameRecord("6479c2b7 {\"format\":\"chaiba-tournament-log\"}\n3fbf3bb0 {\"game\":{}}\n"
                                        "acd640ff {\"record\":" + oneLine + "}\n"); // a run log: its first game
    REQUIRE_MESSAGE(fromLog.isOk(), fromLog.error);
    CHECK(fromLog.value->events == session.game().events());
    CHECK(readGameRecord(R"({"format":"chaiba-werewolf-screen","version":2,"game":)" + oneLine + "}").isOk());
    const auto noGame = readGameRecord(R"({"format":"chaiba-werewolf-screen","version":2})");
    CHECK(noGame.error.find("no game record") != std::string::npos);
}

TEST_CASE("werewolf replay view: a damaged game file is refused with the reason") {
    SessionConfig config;
    for (int i = 0; i < 8; ++i) config.seats.push_back(test::botSpec());
    config.setup.seed = 5;
    GameSession session(config, test::prompts(), nullptr);
    test::runToEnd(session, nullptr);
    nlohmann::json doc = nlohmann::json::parse(exportGameJson(session, summarize(session, 1)));
    REQUIRE(readGameRecord(doc.dump()).isOk());

    CHECK(readGameRecord("{not json").error == "it is not JSON");
    nlohmann::json newer = doc;
    newer["version"] = 99;
    CHECK(readGameRecord(newer.dump()).error.find("newer") != std::string::npos);
    // A vote moved to another seat: the log no longer replays, and the reason names the event.
    nlohmann::json tampered = doc;
    for (std::size_t i = 0; i < tampered["events"].size(); ++i)
        if (tampered["events"][i]["kind"] == "vote_cast") {
            tampered["events"][i]["target"] = tampered["events"][i]["seat"]; // a vote for oneself
            const std::string error = readGameRecord(tampered.dump()).error;
            CHECK(error.find("does not replay") != std::string::npos);
            CHECK(error.find("event " + std::to_string(i)) != std::string::npos);
            break;
        }
    nlohmann::json badKind = doc;
    badKind["events"][3]["kind"] = "teleport";
    CHECK(readGameRecord(badKind.dump()).error.find("event 3: unknown kind") != std::string::npos);
}

TEST_CASE("werewolf arena bundle version 3 carries each game's record and version 2 still imports") {
    chaiba::llm::Result<TournamentConfig> config = parseConfigJson(R"({"players":["bot*8"],"games":2,"seed":5})");
    REQUIRE(config.isOk());
    StoredArena arena;
    arena.config = *config.value;
    for (int g = 0; g < 2; ++g) {
        GameSession session(sessionConfigFor(arena.config, g, {}), test::prompts(), nullptr);
        test::runToEnd(session, nullptr);
        arena.results[g + 1] = summarize(session, g + 1);
        if (g == 0) arena.records[1] = exportGameJson(session, arena.results[1], -1); // game 2 has none
    }
    const std::string bundle = arenaBundleJson(arena);
    const nlohmann::json doc = nlohmann::json::parse(bundle);
    CHECK(doc["version"] == 3);
    REQUIRE(doc["records"].size() == 1);

    const chaiba::llm::Result<StoredArena> back = readArenaBundle(bundle);
    REQUIRE_MESSAGE(back.isOk(), back.error);
    CHECK(back.value->bundleVersion == 3);
    REQUIRE(back.value->records.count(1));
    CHECK_FALSE(back.value->records.count(2));
    const auto replayed = readGameRecord(back.value->records.at(1));
    REQUIRE_MESSAGE(replayed.isOk(), replayed.error);
    CHECK(replayed.value->events.size() == doc["records"][0]["events"].size());

    nlohmann::json older = doc; // a version 2 bundle: no records, its games still import
    older["version"] = 2;
    older.erase("records");
    const chaiba::llm::Result<StoredArena> v2 = readArenaBundle(older.dump());
    REQUIRE_MESSAGE(v2.isOk(), v2.error);
    CHECK(v2.value->bundleVersion == 2);
    CHECK(v2.value->results.size() == 2);
    CHECK(v2.value->records.empty());

    nlohmann::json stray = doc; // a record of a game the bundle does not list
    stray["records"][0]["result"]["game"] = 7;
    CHECK(readArenaBundle(stray.dump()).error == "records[0]: game 7 is not among the games");
}

TEST_CASE("werewolf replay view: games under the kaggle rules read back, abstentions included") {
    int abstentions = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        SessionConfig config;
        for (int i = 0; i < 8; ++i) config.seats.push_back(test::botSpec());
        config.setup.seed = seed;
        config.setup.rules = chaiba::werewolf::Rules::kaggle();
        GameSession session(config, test::prompts(), nullptr);
        test::runToEnd(session, nullptr);
        const auto read = readGameRecord(exportGameJson(session, summarize(session, 1)));
        REQUIRE_MESSAGE(read.isOk(), read.error); // the rules' draws replay only with the kaggle switches read
        CHECK(read.value->events == session.game().events());
        const ReplayState end = replayStateAt(*read.value, read.value->events.size() - 1, -1);
        for (const ReplayVote& v : end.votes) abstentions += v.target == chaiba::werewolf::kAbstain ? 1 : 0;
    }
    CHECK(abstentions > 0); // bots abstain on thin evidence under these rules
}
