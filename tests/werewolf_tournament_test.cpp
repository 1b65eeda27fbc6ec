// Werewolf tournaments (src/modes/werewolf/tournament.*, tournament_store.*): the setup read from
// JSON with its errors, the game plan shared with `chaiba werewolf` (rotation, mirrored deals), the
// runner reproducing the sequential games exactly at any concurrency, the budget cap with scripted
// models, stop and resume, the ratings from team results, the belief accuracy per day round, and
// the store and bundle round trip (older files without the per-round figures included).
#include "src/modes/werewolf/game_export.h"
#include "src/modes/werewolf/tournament.h"
#include "src/modes/werewolf/tournament_store.h"
#include "tests/werewolf_mode_test_util.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <regex>

using namespace chaiba;
using namespace chaiba::werewolfmode;
using namespace chaiba::werewolfmode::test;
using chaiba::fakes::FakeChat;

namespace {

TournamentConfig bots(int games, int concurrency, bool mirror = false) {
    llm::Result<TournamentConfig> c = parseConfigJson(
        R"({"players":["bot*8"],"games":)" + std::to_string(games) + R"(,"seed":5,"concurrency":)" +
        std::to_string(concurrency) + R"(,"mirror":)" + (mirror ? "true" : "false") + "}");
    REQUIRE_MESSAGE(c.isOk(), c.error);
    return *c.value;
}

// The games one by one, as `chaiba werewolf` plays them.
std::map<int, GameResult> sequential(const TournamentConfig& config) {
    std::map<int, GameResult> out;
    for (int g = 0; g < config.games; ++g) {
        GameSession session(sessionConfigFor(config, g, {}), prompts(), nullptr);
        runToEnd(session, nullptr);
        out[g + 1] = summarize(session, g + 1);
    }
    return out;
}

void runAll(WerewolfTournament& t, int maxPolls = 100000) {
    t.start(0);
    for (int i = 0; i < maxPolls && !t.done(); ++i) t.poll(double(i));
}

bool sameGame(const GameResult& a, const GameResult& b) {
    if (a.winner != b.winner || a.rounds != b.rounds || a.seed != b.seed || a.seats.size() != b.seats.size())
        return false;
    for (std::size_t s = 0; s < a.seats.size(); ++s)
        if (a.seats[s].player != b.seats[s].player || a.seats[s].role != b.seats[s].role ||
            a.seats[s].alive != b.seats[s].alive || a.seats[s].villagerVotes != b.seats[s].villagerVotes)
            return false;
    return true;
}

// The sensible player, but its day chat names P1 and P2 with known levels: day 1 P1 0.9 and P2 0.2,
// day 2 P1 0.3, later days nothing.
llm::ChatOutcome knownSuspicions(const llm::ChatRequest& r) {
    llm::ChatOutcome o = sensible(r);
    if (o.reply->content.find("I have my doubts.") == std::string::npos) return o;
    static const std::regex round("Round ([0-9]+)");
    std::smatch day;
    const std::string user = lastUser(r);
    REQUIRE(std::regex_search(user, day, round));
    std::string suspicions = "[]";
    if (day[1] == "1") suspicions = R"([{"player":"P1","level":0.9},{"player":"P2","level":0.2}])";
    if (day[1] == "2") suspicions = R"([{"player":"P1","level":0.3}])";
    o.reply->content =
        R"({"send":true,"message":"I have my doubts.","reasoning":"talk","suspicions":)" + suspicions + "}";
    return o;
}

} // namespace

TEST_CASE("werewolf tournament: belief accuracy per day round, from known suspicions in two rounds") {
    FakeChat chat;
    chat.setResponder(knownSuspicions);
    SessionConfig c;
    for (int i = 0; i < 8; ++i) c.seats.push_back(aiSpec("t/" + std::string(1, char('a' + i))));
    c.setup.seed = 5;
    c.maxRounds = 2;
    GameSession session(c, prompts(), &chat);
    runToEnd(session, &chat);
    const werewolf::Game& game = session.game();
    REQUIRE(game.round() >= 2); // stopped as night 3 begins
    // Seed 5 deals P1 a wolf and P2 a villager-team role, so a suspicion on P1 scores its level and
    // one on P2 scores 1 - level: day 1 gives 0.9 + 0.8 (P1 and P2 themselves: the other one only),
    // day 2 gives 0.3. A wolf's suspicions do not count.
    REQUIRE(werewolf::teamOf(game.roleOf(0)) == werewolf::Team::Wolves);
    REQUIRE(werewolf::teamOf(game.roleOf(1)) == werewolf::Team::Villagers);
    std::map<std::pair<int, int>, int> spoke; // (seat, day) -> day chat messages
    for (const werewolf::Event& e : game.events())
        if (e.kind == werewolf::EventKind::DayChat) ++spoke[{e.seat, e.round}];
    const GameResult result = summarize(session, 1);
    int checked = 0;
    for (int s = 0; s < 8; ++s) {
        const SeatResult& seat = result.seats[std::size_t(s)];
        CAPTURE(s);
        if (werewolf::teamOf(seat.role) == werewolf::Team::Wolves) {
            CHECK(seat.beliefs == 0);
            CHECK(seat.beliefsByRound.empty());
            continue;
        }
        const int day1 = spoke[{s, 1}], day2 = spoke[{s, 2}];
        REQUIRE(day1 <= 1);
        REQUIRE(day2 <= 1);
        const int beliefs1 = s == 1 ? 0 : day1 * 2; // P2 names only P1: skip
        const double score1 = s == 1 ? 0 : day1 * (0.9 + 0.8);
        const int beliefs2 = day2;
        const double score2 = day2 * 0.3;
        const std::size_t expectedRounds = beliefs2 ? 2 : beliefs1 ? 1 : 0;
        REQUIRE(seat.beliefsByRound.size() == expectedRounds);
        if (expectedRounds >= 1) {
            CHECK(seat.beliefsByRound[0].beliefs == beliefs1);
            CHECK(seat.beliefsByRound[0].score == doctest::Approx(score1));
        }
        if (expectedRounds == 2) {
            CHECK(seat.beliefsByRound[1].beliefs == 1);
            CHECK(seat.beliefsByRound[1].score == doctest::Approx(0.3));
            CHECK(seat.beliefsByRound[1].accuracy() == doctest::Approx(0.3));
        }
        CHECK(seat.beliefs == beliefs1 + beliefs2); // the overall figure stays
        CHECK(seat.beliefScore == doctest::Approx(score1 + score2));
        checked += day1 && day2 && s != 1 ? 1 : 0;
    }
    CHECK(checked >= 2); // villagers who spoke on both days, with both rounds' figures
    // The leaderboard sums by round over the seats of a player, here over two games.
    GameResult twice = result;
    twice.index = 2;
    const std::vector<PlayerStanding> rows = leaderboard({result, twice});
    for (const PlayerStanding& p : rows) {
        const SeatResult& seat = result.seats[std::size_t(p.player.back() - 'a')];
        REQUIRE(p.beliefsByRound.size() == seat.beliefsByRound.size());
        for (std::size_t r = 0; r < seat.beliefsByRound.size(); ++r) {
            CHECK(p.beliefsByRound[r].beliefs == 2 * seat.beliefsByRound[r].beliefs);
            CHECK(p.beliefsByRound[r].score == doctest::Approx(2 * seat.beliefsByRound[r].score));
        }
    }
    CHECK(beliefRounds(rows) == 2);
    // The figures go through the game file and the stored result unchanged.
    for (const llm::Result<GameResult>& back :
         {readGameResult(exportGameJson(session, result)), readGameResultJson(gameResultJson(result))}) {
        REQUIRE_MESSAGE(back.isOk(), back.error);
        for (std::size_t s = 0; s < 8; ++s) {
            REQUIRE(back.value->seats[s].beliefsByRound.size() == result.seats[s].beliefsByRound.size());
            for (std::size_t r = 0; r < result.seats[s].beliefsByRound.size(); ++r) {
                CHECK(back.value->seats[s].beliefsByRound[r].beliefs ==
                      result.seats[s].beliefsByRound[r].beliefs);
                CHECK(back.value->seats[s].beliefsByRound[r].score ==
                      result.seats[s].beliefsByRound[r].score);
            }
        }
    }
}

TEST_CASE("werewolf tournament: the leaderboard prints and exports the belief accuracy by round") {
    auto seat = [](const std::string& player, werewolf::Role role, BeliefsByRound rounds) {
        SeatResult s;
        s.player = player;
        s.role = role;
        for (const RoundBeliefs& r : rounds) {
            s.beliefs += r.beliefs;
            s.beliefScore += r.score;
        }
        s.beliefsByRound = std::move(rounds);
        return s;
    };
    GameResult g;
    g.index = 1;
    g.winner = werewolf::Team::Villagers;
    g.seats = {seat("llm:x/long-model", werewolf::Role::Seer, {{2, 1.5}, {0, 0}, {4, 1.0}}),
               seat("bot", werewolf::Role::Werewolf, {}),
               seat("llm:y", werewolf::Role::Villager, {{1, 0.2}})};
    const std::vector<PlayerStanding> rows = leaderboard({g});
    const std::string text = formatLeaderboard(rows);
    const std::size_t table = text.find("\nBelief accuracy by round");
    REQUIRE(table != std::string::npos);
    const std::string expected = "player           R1         R2         R3\n"
                                 "llm:x/long-model 75% (2)    -          25% (4)\n"
                                 "llm:y            20% (1)    -          -\n"
                                 "bot              -          -          -\n";
    CHECK(text.substr(text.find('\n', table + 1) + 1) == expected);
    // Nobody gave a suspicion (bots only): no second table.
    GameResult bots = g;
    bots.seats = {seat("bot", werewolf::Role::Seer, {})};
    CHECK(formatLeaderboard(leaderboard({bots})).find("Belief accuracy by round") == std::string::npos);
    const nlohmann::json board = nlohmann::json::parse(leaderboardJson(rows));
    const nlohmann::json& x = board[0]["player"] == "llm:x/long-model" ? board[0] : board[1];
    CHECK(x["beliefs_by_round"] == nlohmann::json::array({2, 0, 4}));
    CHECK(x["belief_accuracy_by_round"][0].get<double>() == doctest::Approx(0.75));
    CHECK(x["belief_accuracy_by_round"][1].is_null());
    CHECK(x["belief_accuracy_by_round"][2].get<double>() == doctest::Approx(0.25));
}

TEST_CASE(
    "werewolf tournament: a result without beliefs by round (version 1) loads, a damaged one is refused") {
    const std::string old =
        R"({"game":3,"seed":9,"winner":"wolves","rounds":4,"seats":[{"player":"llm:a","role":"seer","beliefs":5,)"
        R"("belief_score":3.5}]})";
    const llm::Result<GameResult> r = readGameResultJson(old);
    REQUIRE_MESSAGE(r.isOk(), r.error);
    CHECK(r.value->seats[0].beliefs == 5);
    CHECK(r.value->seats[0].beliefsByRound.empty());
    const std::vector<PlayerStanding> rows = leaderboard({*r.value});
    CHECK(rows[0].beliefAccuracy() == doctest::Approx(0.7));
    CHECK(rows[0].beliefsByRound.empty());
    CHECK(formatLeaderboard(rows).find("Belief accuracy by round") == std::string::npos);
    CHECK(readGameResult(R"({"format":"chaiba-werewolf-game","version":1,"result":)" + old + "}").isOk());
    auto damaged = [&](const std::string& fields) {
        return readGameResultJson(R"({"seats":[{"player":"a","role":"seer",)" + fields + "}]}").error;
    };
    CHECK(damaged(R"("beliefs_by_round":[1])").find("beliefs by round are damaged") != std::string::npos);
    CHECK(damaged(R"("beliefs_by_round":[1,2],"belief_score_by_round":[0.5])").find("damaged") !=
          std::string::npos);
    CHECK(damaged(R"("beliefs_by_round":[1,"x"],"belief_score_by_round":[0.5,1])") ==
          "a seat's beliefs in round 2 are damaged");
    CHECK(damaged(R"("beliefs_by_round":[-1],"belief_score_by_round":[0.5])") ==
          "a seat's beliefs in round 1 are damaged");
    CHECK(damaged(R"("beliefs_by_round":[1],"belief_score_by_round":[0.5])").empty());
}

TEST_CASE("werewolf tournament: the setup reads from JSON and refuses bad input with the reason") {
    llm::Result<TournamentConfig> ok = parseConfigJson(
        R"({"players":["llm:a/b","bot*7"],"roles":"werewolf:2,seer,doctor,villager:4","rules":"plain",)"
        R"("games":16,"seed":9,"mirror":true,"concurrency":3,"budgetUsd":0.5})");
    REQUIRE_MESSAGE(ok.isOk(), ok.error);
    CHECK(ok.value->players.size() == 8);
    CHECK(ok.value->rules == chaiba::werewolf::RulesPreset::Plain);
    CHECK(ok.value->budgetUsd == doctest::Approx(0.5));
    CHECK(rolesText(ok.value->roles) == "werewolf:2,seer,doctor,villager:4");
    // The round trip keeps everything.
    llm::Result<TournamentConfig> back = parseConfigJson(configJson(*ok.value));
    REQUIRE(back.isOk());
    CHECK(configJson(*back.value) == configJson(*ok.value));
    CHECK(parseConfigJson(R"({"players":["bot*4"]})").error.find("5 to 16 seats") != std::string::npos);
    CHECK(parseConfigJson(R"({"players":["queen*8"]})").error ==
          "unknown player spec 'queen' (expected llm:MODEL_ID, random or bot, each maybe *N)");
    CHECK(parseConfigJson(R"({"players":["bot*8"],"colour":1})").error == "unknown setup key 'colour'");
    CHECK(parseConfigJson(R"({"players":["bot*8"],"roles":"werewolf:8"})").error.find("roles:") == 0);
    CHECK(parseConfigJson(R"({"players":["bot*8"],"games":0})").error == "games must be 1 to 1000000");
    CHECK(parseConfigJson(R"({"players":["bot*8"],"budgetUsd":-1})").error.find("budgetUsd") == 0);
    CHECK(parseConfigJson("[1]").error == "the setup is not a JSON object");
}

TEST_CASE("werewolf tournament: the table's seats in the one seat grammar (models, bot, random, *N)") {
    // What a table seats: models, the bot and "random" (the same bot), each maybe *N up to 16.
    const llm::Result<std::vector<std::string>> players = parsePlayers("llm:a/b*2,random,bot*3,llm:c/d");
    REQUIRE_MESSAGE(players.isOk(), players.error);
    CHECK(*players.value == std::vector<std::string>{"llm:a/b", "llm:a/b", "bot", "bot", "bot", "bot", "llm:c/d"});
    CHECK(parsePlayers("bot*16").isOk());
    CHECK(parsePlayers("bot*17").error == "'bot*17': *N must be a seat count from 1 to 16");
    CHECK(parsePlayers("bot*0").error == "'bot*0': *N must be a seat count from 1 to 16");
    CHECK(parsePlayers("bot*4").error == "a table has 5 to 16 seats, the players name 4");
    CHECK(parsePlayers("engine:3*5").error ==
          "unknown player spec 'engine:3' (expected llm:MODEL_ID, random or bot, each maybe *N)");
    CHECK(parsePlayers("human,bot*4").error.find("unknown player spec 'human'") == 0);
    CHECK(parsePlayers("llm:*5").error == "'llm:' needs a model id without spaces after llm:");
    CHECK(werewolfSeatGrammar().forms() == "llm:MODEL_ID, random or bot, each maybe *N");
}

TEST_CASE("werewolf tournament: players rotate a seat per game, mirrored deals repeat each seed per rotation") {
    TournamentConfig c = bots(16, 1, true);
    c.players[0] = "llm:x/y";
    for (int g = 0; g < 16; ++g) {
        const SessionConfig s = sessionConfigFor(c, g, {});
        CHECK(s.setup.seed == 5 + std::uint64_t(g / 8));
        CHECK(s.seats[std::size_t((8 - g % 8) % 8)].player == "llm:x/y"); // the model moves one seat on
    }
    c.mirror = false;
    CHECK(sessionConfigFor(c, 3, {}).setup.seed == 8);
}

TEST_CASE("werewolf tournament: games at once give the same games as one by one") {
    const TournamentConfig c1 = bots(12, 1);
    const std::map<int, GameResult> expected = sequential(c1);
    for (int concurrency : {1, 4}) {
        WerewolfTournament t(bots(12, concurrency), prompts(), nullptr, {}, {}, 0);
        int reported = 0;
        t.onFinished = [&](const GameResult&, const GameSession&) { ++reported; };
        runAll(t);
        REQUIRE(t.done());
        CHECK(reported == 12);
        REQUIRE(t.results().size() == 12);
        for (const auto& [index, r] : t.results()) CHECK_MESSAGE(sameGame(r, expected.at(index)), "game " << index);
    }
}

TEST_CASE("werewolf tournament: stop, then a new runner with the kept results plays only the rest") {
    WerewolfTournament t(bots(10, 2), prompts(), nullptr, {}, {}, 0);
    t.start(0);
    for (int i = 0; i < 100000 && t.results().size() < 3; ++i) t.poll(i);
    t.stop();
    for (int i = 0; i < 100 && !t.done(); ++i) t.poll(i);
    REQUIRE(t.done());
    const std::size_t kept = t.results().size();
    CHECK(kept >= 3);
    CHECK(kept < 10);
    std::map<int, GameResult> results = t.results();
    WerewolfTournament rest(bots(10, 2), prompts(), nullptr, {}, results, 0);
    int played = 0;
    rest.onFinished = [&](const GameResult&, const GameSession&) { ++played; };
    runAll(rest);
    CHECK(played == int(10 - kept));
    const std::map<int, GameResult> expected = sequential(bots(10, 1));
    REQUIRE(rest.results().size() == 10);
    for (const auto& [index, r] : rest.results()) CHECK(sameGame(r, expected.at(index)));
}

TEST_CASE("werewolf tournament: the budget cap starts no new game, the spend never goes down") {
    FakeChat chat;
    chat.setResponder(sensible); // each reply costs $0.001
    llm::Result<TournamentConfig> c =
        parseConfigJson(R"({"players":["llm:t/a","llm:t/b","bot*6"],"games":6,"concurrency":1,"budgetUsd":0.05})");
    REQUIRE(c.isOk());
    WerewolfTournament t(*c.value, prompts(), &chat, {}, {}, 0.01);
    CHECK(t.spentUsd() == doctest::Approx(0.01)); // spent before a reload counts
    t.start(0);
    double last = 0;
    for (int i = 0; i < 200000 && !t.done(); ++i) {
        t.poll(i);
        chat.poll();
        CHECK(t.spentUsd() >= last);
        last = t.spentUsd();
    }
    REQUIRE(t.done());
    CHECK(t.budgetReached());
    CHECK(t.results().size() >= 1);
    CHECK(t.results().size() < 6);
    CHECK(t.spentUsd() >= 0.05);
}

TEST_CASE("werewolf tournament: each seat's spend is charged to the player in it, also the spend before") {
    FakeChat chat;
    chat.setResponder(sensible); // each reply costs $0.001
    // The model sits last in the pool: the rotation moves it through every seat.
    llm::Result<TournamentConfig> c = parseConfigJson(R"({"players":["bot*7","llm:t/a"],"games":2})");
    REQUIRE(c.isOk());
    WerewolfTournament t(*c.value, prompts(), &chat, {}, {}, 0);
    t.start(0);
    for (int i = 0; i < 200000 && !t.done(); ++i) {
        t.poll(i);
        chat.poll();
    }
    REQUIRE(t.done());
    REQUIRE(t.spentUsd() > 0);
    CHECK(t.spentUsdBy(7) == doctest::Approx(t.spentUsd()));
    for (int p = 0; p < 7; ++p) CHECK(t.spentUsdBy(p) == 0);
    // Resumed with those two games kept and $0.5 spent in all: the games' spend goes to the
    // model again, the rest (games stopped unfinished) to the pool's first entry.
    llm::Result<TournamentConfig> more = parseConfigJson(R"({"players":["bot*7","llm:t/a"],"games":3})");
    REQUIRE(more.isOk());
    WerewolfTournament again(*more.value, prompts(), &chat, {}, t.results(), 0.5);
    CHECK(again.spentUsdBy(7) == doctest::Approx(t.spentUsd()));
    CHECK(again.spentUsdBy(0) == doctest::Approx(0.5 - t.spentUsd()));
    CHECK(again.spentUsd() == doctest::Approx(0.5));
}

TEST_CASE("werewolf tournament: a result the run could not have produced is named, never counted") {
    const TournamentConfig config = bots(3, 1);
    const std::map<int, GameResult> played = sequential(config);
    for (const auto& [index, r] : played) CHECK_MESSAGE(!impossibleResult(r, config), "game " << index);
    const GameResult& real = played.at(2);
    auto why = [&](const std::function<void(GameResult&)>& change) {
        GameResult r = real;
        change(r);
        return impossibleResult(r, config).value_or("(possible)");
    };
    CHECK(why([](GameResult& r) { r.index = 4; }) == "game 4 is not one of this run's games (1 to 3)");
    CHECK(why([](GameResult& r) { r.seed += 1; }) == "its seed 7 is not the deal's (6)");
    CHECK(why([](GameResult& r) { r.seats.pop_back(); }) == "7 seats where the run has 8");
    CHECK(why([](GameResult& r) { r.seats[2].player = "llm:x/y"; }) ==
          "P3: played by llm:x/y, but the rotation seats bot there");
    CHECK(why([](GameResult& r) { r.seats[0].won = !r.seats[0].won; }).find("against the game's winner") != std::string::npos);
    CHECK(why([](GameResult& r) {
              r.winner = *r.winner == werewolf::Team::Wolves ? werewolf::Team::Villagers : werewolf::Team::Wolves;
          }).find("against the game's winner") != std::string::npos);
    CHECK(why([](GameResult& r) { r.seats[1].costUsd = -1; }) == "P2: its counts are out of range");
    const auto swapped = [&] {
        GameResult r = real;
        for (std::size_t s = 1; s < r.seats.size(); ++s)
            if (r.seats[s].role != r.seats[0].role) {
                std::swap(r.seats[0].role, r.seats[s].role);
                std::swap(r.seats[0].won, r.seats[s].won);
                break;
            }
        return impossibleResult(r, config).value_or("(possible)");
    }();
    CHECK(swapped.find("but the deal made it a") != std::string::npos);
    // A winner that is no team does not read as either team (it read as the villagers once).
    nlohmann::json doc = nlohmann::json::parse(gameResultJson(real));
    doc["winner"] = "martians";
    CHECK(readGameResultJson(doc.dump()).error == "the winner \"martians\" is no team (wolves, villagers or null)");
    doc["winner"] = 1;
    CHECK(!readGameResultJson(doc.dump()).isOk());
    doc["winner"] = nullptr;
    REQUIRE(readGameResultJson(doc.dump()).isOk());
    CHECK(!readGameResultJson(doc.dump()).value->winner);
}

TEST_CASE("werewolf tournament: the leaderboard kept game by game equals the one counted over all games") {
    TournamentConfig config = bots(30, 1);
    config.players = {"bot", "bot", "llm:a/x", "bot", "llm:b/y", "bot", "bot", "bot"}; // three players in the pool
    std::map<int, GameResult> played = sequential(bots(30, 1));
    // The same games with the pool's players in their seats (rotated as the run seats them).
    std::vector<GameResult> games;
    for (auto& [index, r] : played) {
        const SessionConfig seats = sessionConfigFor(config, index - 1, {});
        for (std::size_t s = 0; s < r.seats.size(); ++s) r.seats[s].player = seats.seats[s].player;
        games.push_back(r);
    }
    StandingsTally tally(config.players);
    for (const GameResult& g : games) REQUIRE(tally.add(g));
    RatingRuns runs = tally.runs();
    runs.overall->step(1 << 30);
    runs.byRole->step(1 << 30);
    runs.perRole->step(1 << 30);
    const std::vector<PlayerStanding> kept =
        rankStandings(tally.counts(), &runs.overall->fit(), &runs.byRole->fit(), &runs.perRole->fit());
    CHECK(leaderboardJson(kept) == leaderboardJson(leaderboard(games)));
    REQUIRE(kept.size() == 3);
    CHECK(kept[0].rating.games > 0);
    GameResult stranger = games.front();
    stranger.seats[0].player = "llm:not/in-the-pool";
    CHECK_FALSE(tally.add(stranger));
}

TEST_CASE("werewolf tournament: ratings from team results rank a player who always wins above one who never does") {
    auto game = [](int index, bool aWolfWins) {
        GameResult g;
        g.index = index;
        g.winner = aWolfWins ? werewolf::Team::Wolves : werewolf::Team::Villagers;
        for (int s = 0; s < 5; ++s) {
            SeatResult seat;
            seat.player = s == 0 ? "A" : "B";
            seat.role = s == 0 ? werewolf::Role::Werewolf : werewolf::Role::Villager;
            seat.won = (s == 0) == aWolfWins;
            g.seats.push_back(seat);
        }
        return g;
    };
    std::vector<GameResult> games;
    for (int i = 1; i <= 10; ++i) games.push_back(game(i, true));
    const std::vector<PlayerStanding> rows = leaderboard(games);
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].player == "A");
    CHECK(rows[0].rating.elo > rows[1].rating.elo);
    CHECK(rows[0].rating.low <= rows[0].rating.elo);
    CHECK(rows[0].rating.high >= rows[0].rating.elo);
    CHECK(rows[0].rating.games == 40); // 10 games x 4 villagers met
    CHECK(rows[0].wolfRating.games == 40);
    CHECK(rows[0].villagerRating.games == 0); // A never played villager
    CHECK(formatRating(rows[0].villagerRating) == "-");
    CHECK(rows[1].wolfRating.games == 0);
}

TEST_CASE("werewolf tournament: the store keeps the setup, the spend and each game, the bundle has no key") {
    WerewolfTournament t(bots(5, 2), prompts(), nullptr, {}, {}, 0);
    MemoryStore store;
    play::CommitGate gate(&store, std::nullopt);
    ArenaRecords records(&store, gate);
    StoredArena arena;
    arena.config = t.config();
    arena.spentUsd = 0.25;
    t.onFinished = [&](const GameResult& r, const GameSession&) {
        CHECK_FALSE(records.addGame(arena, r, "running"));
        CHECK(records.stored(r.index));
        arena.results[r.index] = r;
    };
    CHECK_FALSE(records.saveHead(arena, "running"));
    runAll(t);
    REQUIRE(arena.results.size() == 5);
    // The shared layout: a head and one record a game, nothing of the older keys.
    CHECK(store.get("chaiba.werewolf-arena.head"));
    CHECK(store.get("chaiba.werewolf-arena.game.1.4"));
    CHECK_FALSE(store.get(kArenaV1MetaKey));
    ArenaRecords reader(&store, gate);
    llm::Result<StoredArena> back = reader.load();
    REQUIRE_MESSAGE(back.isOk(), back.error);
    CHECK(configJson(back.value->config) == configJson(arena.config));
    CHECK(back.value->spentUsd == 0.25);
    REQUIRE(back.value->results.size() == 5);
    for (const auto& [index, r] : back.value->results) CHECK(sameGame(r, arena.results.at(index)));
    std::vector<GameResult> a, b;
    for (auto& [i, r] : arena.results) a.push_back(r);
    for (auto& [i, r] : back.value->results) b.push_back(r);
    CHECK(leaderboardJson(leaderboard(a)) == leaderboardJson(leaderboard(b)));
    const nlohmann::json bundle = nlohmann::json::parse(arenaBundleJson(*back.value));
    CHECK(bundle["format"] == "chaiba-werewolf-arena");
    CHECK(bundle["mode"] == "werewolf");
    CHECK(bundle["games"].size() == 5);
    CHECK(bundle.dump().find("sk-") == std::string::npos);
    // A kept game that is damaged or impossible for the setup is named and played again (set aside
    // under .corrupt); the others load (it used to fail the whole tournament, or count a winner
    // "martians").
    nlohmann::json martians = nlohmann::json::parse(gameResultJson(arena.results.at(2)));
    martians["winner"] = "martians";
    std::string keyOf2, keyOf3;
    for (const auto& [k, v] : store.values())
        if (k.rfind("chaiba.werewolf-arena.game.", 0) == 0) {
            if (nlohmann::json::parse(v)["game"] == 2) keyOf2 = k;
            if (nlohmann::json::parse(v)["game"] == 3) keyOf3 = k;
        }
    REQUIRE_FALSE(keyOf2.empty());
    REQUIRE_FALSE(keyOf3.empty());
    store.set(keyOf2, martians.dump());
    nlohmann::json moved = nlohmann::json::parse(gameResultJson(arena.results.at(3)));
    moved["seats"][0]["player"] = "llm:someone/else";
    store.set(keyOf3, moved.dump());
    ArenaRecords damaged(&store, gate);
    llm::Result<StoredArena> partial = damaged.load();
    REQUIRE_MESSAGE(partial.isOk(), partial.error);
    CHECK(partial.value->results.size() == 3);
    CHECK_FALSE(partial.value->results.count(2));
    CHECK_FALSE(partial.value->results.count(3));
    REQUIRE(partial.value->dropped.size() == 2);
    for (const std::string& d : partial.value->dropped)
        CHECK_MESSAGE((d.find("the winner \"martians\" is no team") != std::string::npos ||
                       d.find("P1: played by llm:someone/else, but the rotation seats bot there") != std::string::npos),
                      d);
    CHECK(store.get(keyOf2 + ".corrupt"));
    // A damaged or future head is an error, never a silent empty tournament; it is set aside.
    const std::string head = *store.get("chaiba.werewolf-arena.head");
    nlohmann::json future = nlohmann::json::parse(head);
    future["version"] = 9;
    store.set("chaiba.werewolf-arena.head", future.dump());
    ArenaRecords newer(&store, gate);
    CHECK(newer.load().error.find("newer page") != std::string::npos);
    CHECK(store.get("chaiba.werewolf-arena.head.corrupt"));
    store.set("chaiba.werewolf-arena.head", head);

    // The layout of versions 1 and 2 (a meta key and one key a game) is converted on load: a
    // missing, damaged or impossible game is named and played again, the rest written anew.
    MemoryStore older;
    const std::string meta = "{\"version\":2,\"config\":" + configJson(arena.config) +
                             ",\"spentUsd\":0.5,\"games\":[1,2,3,4,5,77]}";
    older.set(kArenaV1MetaKey, meta);
    for (const auto& [index, r] : arena.results) older.set(arenaV1GameKey(index), gameResultJson(r));
    older.set(arenaV1GameKey(2), martians.dump());
    older.set(arenaV1GameKey(3), moved.dump());
    play::CommitGate olderGate(&older, std::nullopt);
    ArenaRecords converter(&older, olderGate);
    llm::Result<StoredArena> converted = converter.load();
    REQUIRE_MESSAGE(converted.isOk(), converted.error);
    CHECK(converted.value->results.size() == 3);
    CHECK(converted.value->spentUsd == 0.5);
    REQUIRE(converted.value->dropped.size() == 3);
    CHECK(converted.value->dropped[0] == "game 2: the winner \"martians\" is no team (wolves, villagers or null)");
    CHECK(converted.value->dropped[1] == "game 3: P1: played by llm:someone/else, but the rotation seats bot there");
    CHECK(converted.value->dropped[2] == "game 77: it is missing");
    CHECK(converted.value->converted.find("converted") != std::string::npos);
    CHECK_FALSE(older.get(kArenaV1MetaKey));
    CHECK_FALSE(older.get(arenaV1GameKey(1)));
    ArenaRecords again(&older, olderGate);
    llm::Result<StoredArena> reread = again.load();
    REQUIRE_MESSAGE(reread.isOk(), reread.error);
    CHECK(reread.value->results.size() == 3);
    CHECK(reread.value->dropped.empty());
    CHECK(reread.value->converted.empty());
    older.set(kArenaV1MetaKey, R"({"version":9})");
    older.remove("chaiba.werewolf-arena.head");
    ArenaRecords unknown(&older, olderGate);
    CHECK(unknown.load().error.find("unknown version") != std::string::npos);
    // A version 1 store (results without the beliefs by round) still loads.
    nlohmann::json old = nlohmann::json::parse(gameResultJson(arena.results.at(1)));
    for (nlohmann::json& seat : old["seats"]) {
        seat.erase("beliefs_by_round");
        seat.erase("belief_score_by_round");
    }
    old["seats"][0]["beliefs"] = 2;
    MemoryStore v1Store;
    v1Store.set(arenaV1GameKey(1), old.dump());
    v1Store.set(kArenaV1MetaKey, "{\"version\":1,\"config\":" + configJson(arena.config) + ",\"games\":[1]}");
    play::CommitGate v1Gate(&v1Store, std::nullopt);
    ArenaRecords v1Records(&v1Store, v1Gate);
    llm::Result<StoredArena> v1 = v1Records.load();
    REQUIRE_MESSAGE(v1.isOk(), v1.error);
    REQUIRE(v1.value->results.count(1));
    CHECK(v1.value->results.at(1).seats[0].beliefs == 2);
    CHECK(v1.value->results.at(1).seats[0].beliefsByRound.empty());
    CHECK(bundle["version"] == 3);
    // The bundle read back (an import): the same setup, spend and games; tampered ones refused.
    llm::Result<StoredArena> imported = readArenaBundle(arenaBundleJson(arena));
    REQUIRE_MESSAGE(imported.isOk(), imported.error);
    CHECK(configJson(imported.value->config) == configJson(arena.config));
    REQUIRE(imported.value->results.size() == 5);
    for (const auto& [index, r] : imported.value->results) CHECK(sameGame(r, arena.results.at(index)));
    nlohmann::json doc = nlohmann::json::parse(arenaBundleJson(arena));
    doc["games"][3]["winner"] = "martians";
    CHECK(readArenaBundle(doc.dump()).error == "games[3]: the winner \"martians\" is no team (wolves, villagers or null)");
    doc = nlohmann::json::parse(arenaBundleJson(arena));
    doc["games"][4] = doc["games"][0];
    CHECK(readArenaBundle(doc.dump()).error.find("games[4]: game 1 twice") != std::string::npos);
    doc = nlohmann::json::parse(arenaBundleJson(arena));
    doc["games"][2]["seed"] = 999;
    CHECK(readArenaBundle(doc.dump()).error.find("games[2]: its seed 999 is not the deal's") != std::string::npos);
    CHECK(readArenaBundle("{\"format\":\"chaiba-tournament\",\"version\":1}").error.find("format") != std::string::npos);
    CHECK_FALSE(readArenaBundle("not json").isOk());
    records.clear();
    ArenaRecords cleared(&store, gate);
    CHECK_FALSE(cleared.load().isOk());
    CHECK(cleared.load().error.empty());
}

TEST_CASE("werewolf tournament: ratings by role, from games whose answers are known") {
    // Five seats: A always the Seer, B always the Doctor, C always a Werewolf, D and E villagers.
    // The villagers' side wins the first 6 games, the wolf the last 2.
    auto game = [](int index, bool villagersWin) {
        GameResult g;
        g.index = index;
        g.winner = villagersWin ? werewolf::Team::Villagers : werewolf::Team::Wolves;
        const std::pair<const char*, werewolf::Role> seats[] = {{"A", werewolf::Role::Seer},
                                                                {"B", werewolf::Role::Doctor},
                                                                {"C", werewolf::Role::Werewolf},
                                                                {"D", werewolf::Role::Villager},
                                                                {"E", werewolf::Role::Villager}};
        for (const auto& [player, role] : seats) {
            SeatResult seat;
            seat.player = player;
            seat.role = role;
            seat.won = (werewolf::teamOf(role) == werewolf::Team::Villagers) == villagersWin;
            g.seats.push_back(seat);
        }
        return g;
    };
    std::vector<GameResult> games;
    for (int i = 1; i <= 8; ++i) games.push_back(game(i, i <= 6));
    std::vector<PlayerStanding> rows = leaderboard(games);
    std::sort(rows.begin(), rows.end(), [](const PlayerStanding& a, const PlayerStanding& b) { return a.player < b.player; });
    REQUIRE(rows.size() == 5);
    const int seer = int(werewolf::Role::Seer), doctor = int(werewolf::Role::Doctor);
    const int wolf = int(werewolf::Role::Werewolf), villager = int(werewolf::Role::Villager);
    // Games and wins by role are exact counts.
    CHECK(rows[0].roleGames[seer] == 8);
    CHECK(rows[0].roleWins[seer] == 6);
    CHECK(rows[0].roleGames[villager] == 0);
    CHECK(rows[2].roleGames[wolf] == 8);
    CHECK(rows[2].roleWins[wolf] == 2);
    // Each werewolf meets each of the four villager-side seats: 8 games x 4 for C, 8 x 1 for the others.
    CHECK(rows[2].roleRatings[wolf].games == 32);
    CHECK(rows[0].roleRatings[seer].games == 8);
    CHECK(rows[0].roleRatings[villager].games == 0);
    CHECK(formatRating(rows[0].roleRatings[villager]) == "-");
    // The one wolf against four identical records: the seer, doctor and villagers rate the same, and
    // the wolf at 2 wins in 8 per opponent sits below them: by the logistic odds 6:2 (191 Elo) at
    // most, a little less with the fit's virtual draws pulling toward the mean.
    const double seerElo = rows[0].roleRatings[seer].elo;
    CHECK(rows[1].roleRatings[doctor].elo == doctest::Approx(seerElo).epsilon(0.001));
    CHECK(rows[3].roleRatings[villager].elo == doctest::Approx(seerElo).epsilon(0.001));
    const double gap = seerElo - rows[2].roleRatings[wolf].elo;
    CHECK(gap > 100);
    CHECK(gap <= 400 * std::log10(3.0) + 0.5);
    // The team ratings stand beside them, and the CLI table and the JSON carry them.
    CHECK(rows[2].wolfRating.games == 32);
    const std::string text = formatLeaderboard(rows);
    CHECK(text.find("By role") != std::string::npos);
    CHECK(text.find(" 6/8") != std::string::npos);
    const nlohmann::json board = nlohmann::json::parse(leaderboardJson(rows));
    CHECK(board[0]["role_ratings"]["seer"]["games"] == 8);
    CHECK(board[0]["role_ratings"]["seer"]["wins"] == 6);
    CHECK(board[0]["role_ratings"]["villager"]["rating"].is_null());
    // Kept game by game, the same fits.
    StandingsTally tally({"A", "B", "C", "D", "E"});
    for (const GameResult& g : games) REQUIRE(tally.add(g));
    RatingRuns runs = tally.runs();
    runs.overall->step(1 << 30);
    runs.byRole->step(1 << 30);
    runs.perRole->step(1 << 30);
    std::vector<PlayerStanding> kept =
        rankStandings(tally.counts(), &runs.overall->fit(), &runs.byRole->fit(), &runs.perRole->fit());
    std::sort(kept.begin(), kept.end(), [](const PlayerStanding& a, const PlayerStanding& b) { return a.player < b.player; });
    CHECK(kept[2].roleRatings[wolf].elo == doctest::Approx(rows[2].roleRatings[wolf].elo));
}

namespace {
werewolf::Event dayEvent(werewolf::EventKind kind, int round, int seat, int target, std::string text) {
    werewolf::Event e;
    e.kind = kind;
    e.round = round;
    e.phase = kind == werewolf::EventKind::DayChat ? werewolf::Phase::Discussion : werewolf::Phase::Vote;
    e.seat = seat;
    e.target = target;
    e.text = std::move(text);
    return e;
}
werewolf::Event dayChat(int round, int seat, const std::string& text) {
    return dayEvent(werewolf::EventKind::DayChat, round, seat, werewolf::kNoSeat, text);
}
werewolf::Event voteCast(int round, int seat, int target) {
    return dayEvent(werewolf::EventKind::VoteCast, round, seat, target, {});
}
} // namespace

TEST_CASE("werewolf tournament: vote swing per speaker, from a constructed day whose answer is known") {
    using werewolf::seatName;
    // Day 1, five seats (P1..P5 are seats 0..4).
    std::vector<werewolf::Event> events = {
        dayChat(1, 0, "I suspect P3."),           // P1 accuses P3: nobody leans anywhere yet
        dayChat(1, 1, "I suspect P4."),           // P2 accuses P4 (P1 leans P3)
        dayChat(1, 3, "P1 is a wolf, surely."),   // P4 accuses P1
        dayChat(1, 0, "Again: I suspect P3."),    // a second line on the same target: not counted again
        dayChat(1, 4, "Good morning."),           // no accusation
        voteCast(1, 1, 2),                        // P2 -> P3
        voteCast(1, 3, 2),                        // P4 -> P3
        voteCast(1, 4, 2),                        // P5 -> P3
        voteCast(1, 2, 0),                        // P3 -> P1
        voteCast(1, 0, 2),                        // P1 -> P3
        voteCast(1, 4, 0),                        // a second vote (a revote): not counted
        // Day 2: P5 accuses P2, but P4 already leaned on P2 before the line: not a listener.
        dayChat(2, 3, "I suspect P2."),
        dayChat(2, 4, "Let's take P2."),
        voteCast(2, 3, 1), voteCast(2, 4, 1), voteCast(2, 0, 1), voteCast(2, 1, 4),
        voteCast(2, 2, werewolf::kNoSeat), // abstained: a listener, not swayed
    };
    const std::vector<VoteSwing> swing = voteSwing(events, 5);
    REQUIRE(swing.size() == 5);
    // P1 on P3 (day 1): listeners P2, P4, P5 (voters other than P1 and P3); all three voted P3.
    CHECK(swing[0].accusations == 1);
    CHECK(swing[0].listeners == 3);
    CHECK(swing[0].swayed == 3);
    // P2 on P4: listeners P1, P3, P5; none voted P4.
    CHECK(swing[1].accusations == 1);
    CHECK(swing[1].listeners == 3);
    CHECK(swing[1].swayed == 0);
    // P4 on P1 (day 1): P2 and P5 lean nowhere near P1, P3 neither: 3 listeners, P3 voted P1: 1.
    // Day 2, P4 on P2: listeners P1, P3, P5 (none leaned P2 yet): P1 and P5 voted P2: 2.
    CHECK(swing[3].accusations == 2);
    CHECK(swing[3].listeners == 6);
    CHECK(swing[3].swayed == 3);
    // P5 on P2 (day 2): P4 leaned P2 already; listeners P1, P3: P1 voted P2, P3 abstained.
    CHECK(swing[4].accusations == 1);
    CHECK(swing[4].listeners == 2);
    CHECK(swing[4].swayed == 1);
    CHECK(swing[4].rate() == doctest::Approx(0.5));
    CHECK(swing[2].accusations == 0);
    CHECK(swing[2].listeners == 0);
}

TEST_CASE("werewolf tournament: vote swing reaches the leaderboard and the result round trip") {
    TournamentConfig config = bots(3, 1);
    const std::map<int, GameResult> games = sequential(config);
    std::vector<GameResult> all;
    int listeners = 0;
    for (const auto& [i, g] : games) {
        all.push_back(g);
        for (const SeatResult& s : g.seats) listeners += s.swing.listeners;
        llm::Result<GameResult> back = readGameResultJson(gameResultJson(g));
        REQUIRE(back.isOk());
        for (std::size_t s = 0; s < g.seats.size(); ++s) {
            CHECK(back.value->seats[s].swing.swayed == g.seats[s].swing.swayed);
            CHECK(back.value->seats[s].swing.listeners == g.seats[s].swing.listeners);
        }
    }
    CHECK(listeners > 0); // the bots accuse in every discussion
    const std::vector<PlayerStanding> rows = leaderboard(all);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].swing.listeners == listeners);
    CHECK(formatLeaderboard(rows).find("vote swing") != std::string::npos);
}
