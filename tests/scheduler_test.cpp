// Scheduler: round-robin completeness and colour balance, gauntlet, arena pairing by rating and
// colour alternation, arena variety (no endless rematches when boards * 2 == players), concurrency
// (nobody in two games at once), Chess960 and opening encounters, abandoned games, resume,
// determinism.
#include "src/play/scheduler.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

using namespace chaiba::play;

namespace {

// Runs a whole tournament, finishing running games in a seeded random order, checking on every
// step that nobody plays twice at once and that the concurrency limit holds.
std::vector<Pairing> runAll(Scheduler& s, uint64_t seed = 3) {
    SplitMix64 rng(seed);
    std::vector<Pairing> started;
    std::vector<Pairing> running;
    for (int guard = 0; guard < 100000; ++guard) {
        while (auto p = s.next()) {
            for (const Pairing& r : running) {
                CHECK(r.white != p->white);
                CHECK(r.white != p->black);
                CHECK(r.black != p->white);
                CHECK(r.black != p->black);
            }
            CHECK(p->white != p->black);
            running.push_back(*p);
            started.push_back(*p);
            CHECK(int(running.size()) <= s.config().maxConcurrent);
            CHECK(s.inFlight() == int(running.size()));
        }
        if (running.empty()) break;
        const size_t k = size_t(rng.below(running.size()));
        const Outcome o = Outcome(rng.below(3));
        s.onGameFinished(running[k].id, o);
        running.erase(running.begin() + long(k));
    }
    CHECK(s.finished());
    CHECK(s.gamesFinished() == s.totalGames());
    return started;
}

SchedulerConfig config(Format format, int players, int games, int concurrency = 100) {
    SchedulerConfig c;
    c.format = format;
    c.players = players;
    c.games = games;
    c.maxConcurrent = concurrency;
    return c;
}

} // namespace

TEST_CASE("formats: names round-trip") {
    for (Format f : {Format::Arena, Format::RoundRobin, Format::DoubleRoundRobin, Format::Gauntlet})
        CHECK(parseFormat(formatName(f)) == f);
    CHECK(parseFormat("swiss") == std::nullopt);
}

TEST_CASE("validate: clear messages for impossible configs") {
    CHECK(Scheduler::validate(config(Format::Arena, 1, 10)).value() ==
          "a tournament needs at least 2 players");
    CHECK(Scheduler::validate(config(Format::RoundRobin, 4, 0)).has_value());
    CHECK(Scheduler::validate(config(Format::RoundRobin, 4, 1, 0)).has_value());
    SchedulerConfig g = config(Format::Gauntlet, 4, 2);
    g.gauntletPlayer = 4;
    CHECK(Scheduler::validate(g).has_value());
    SchedulerConfig r = config(Format::Arena, 3, 2);
    r.initialRatings = {1500, 1500};
    CHECK(Scheduler::validate(r).has_value());
    CHECK(!Scheduler::validate(config(Format::DoubleRoundRobin, 6, 2, 3)).has_value());
}

TEST_CASE("round robin: every pair meets once, colours balanced within one") {
    for (int n = 2; n <= 11; ++n) {
        CAPTURE(n);
        Scheduler s(config(Format::RoundRobin, n, 1));
        CHECK(s.totalGames() == n * (n - 1) / 2);
        const std::vector<Pairing> games = runAll(s);
        std::set<std::pair<int, int>> pairs;
        std::vector<int> whites(size_t(n), 0);
        std::vector<int> played(size_t(n), 0);
        std::set<int> ids;
        for (const Pairing& p : games) {
            pairs.insert({std::min(p.white, p.black), std::max(p.white, p.black)});
            ++whites[size_t(p.white)];
            ++played[size_t(p.white)];
            ++played[size_t(p.black)];
            ids.insert(p.id);
            CHECK(p.seededStart == -1);
            CHECK(p.opening == -1);
        }
        CHECK(pairs.size() == size_t(n * (n - 1) / 2));
        CHECK(ids.size() == games.size());
        for (int i = 0; i < n; ++i) {
            CHECK(played[size_t(i)] == n - 1);
            CHECK(std::abs(2 * whites[size_t(i)] - played[size_t(i)]) <= 1);
        }
    }
}

TEST_CASE("round robin: nobody twice in a round, whole rounds in order when boards are free") {
    Scheduler s(config(Format::RoundRobin, 6, 1));
    std::map<int, std::set<int>> byRound;
    int round = 0;
    while (!s.finished()) {
        std::vector<Pairing> batch;
        while (auto p = s.next()) batch.push_back(*p);
        REQUIRE(batch.size() == 3);
        ++round;
        for (const Pairing& p : batch) {
            CHECK(p.round == round);
            s.onGameFinished(p.id, Outcome::Draw);
        }
    }
    CHECK(round == 5);
    Scheduler shuffled(config(Format::RoundRobin, 6, 1, 2));
    for (const Pairing& p : runAll(shuffled)) {
        CHECK(byRound[p.round].insert(p.white).second);
        CHECK(byRound[p.round].insert(p.black).second);
    }
    CHECK(byRound.size() == 5);
    for (const auto& [r, players] : byRound) CHECK(players.size() == 6);
}

TEST_CASE("double round robin: every pair twice, once with each colour") {
    for (int n : {2, 3, 4, 5, 8}) {
        CAPTURE(n);
        Scheduler s(config(Format::DoubleRoundRobin, n, 1, 2));
        const std::vector<Pairing> games = runAll(s);
        std::map<std::pair<int, int>, int> ordered;
        for (const Pairing& p : games) ++ordered[{p.white, p.black}];
        CHECK(games.size() == size_t(n * (n - 1)));
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                if (a != b) CHECK(ordered[{a, b}] == 1);
    }
}

TEST_CASE("round robin with 3 meetings per pair: colours alternate meeting by meeting") {
    Scheduler s(config(Format::RoundRobin, 4, 3, 1));
    std::map<std::pair<int, int>, std::vector<int>> whitesByPair;
    for (const Pairing& p : runAll(s))
        whitesByPair[{std::min(p.white, p.black), std::max(p.white, p.black)}].push_back(p.white);
    CHECK(whitesByPair.size() == 6);
    for (const auto& [pair, whites] : whitesByPair) {
        REQUIRE(whites.size() == 3);
        CHECK(whites[0] != whites[1]);
        CHECK(whites[1] != whites[2]);
    }
}

TEST_CASE("gauntlet: the gauntlet player meets everyone, colours alternating, one game at a time") {
    SchedulerConfig c = config(Format::Gauntlet, 5, 4, 3);
    c.gauntletPlayer = 2;
    Scheduler s(c);
    CHECK(s.totalGames() == 16);
    auto first = s.next();
    REQUIRE(first);
    CHECK(!s.next()); // the gauntlet player is busy: nothing else can start
    s.onGameFinished(first->id, Outcome::Draw);
    const std::vector<Pairing> rest = runAll(s);
    std::vector<Pairing> games = {*first};
    games.insert(games.end(), rest.begin(), rest.end());
    std::map<int, std::vector<bool>> heroWhite;
    for (const Pairing& p : games) {
        CHECK((p.white == 2) != (p.black == 2));
        heroWhite[p.white == 2 ? p.black : p.white].push_back(p.white == 2);
    }
    CHECK(heroWhite.size() == 4);
    for (const auto& [opponent, colours] : heroWhite)
        CHECK(colours == std::vector<bool>{true, false, true, false});
}

TEST_CASE("concurrency: never above the limit, never a player twice, for every format") {
    for (Format f : {Format::Arena, Format::RoundRobin, Format::DoubleRoundRobin, Format::Gauntlet})
        for (int limit : {1, 2, 3, 7}) {
            CAPTURE(formatName(f));
            CAPTURE(limit);
            Scheduler s(config(f, 7, f == Format::Arena ? 40 : 2, limit));
            runAll(s, uint64_t(limit) * 31); // runAll checks the invariants on every step
        }
}

TEST_CASE("arena: idle players adjacent in rating are paired") {
    SchedulerConfig c = config(Format::Arena, 4, 10, 2);
    c.initialRatings = {1000, 2000, 1100, 1900};
    Scheduler s(c);
    const auto a = s.next();
    const auto b = s.next();
    REQUIRE(a);
    REQUIRE(b);
    CHECK(!s.next()); // limit 2 reached
    CHECK(std::set<int>{a->white, a->black} == std::set<int>{0, 2});
    CHECK(std::set<int>{b->white, b->black} == std::set<int>{1, 3});
    CHECK(a->round == 1);
    CHECK(b->round == 2);
}

TEST_CASE("arena: a pair's colours alternate, and games total N") {
    Scheduler s(config(Format::Arena, 2, 7, 4));
    const std::vector<Pairing> games = runAll(s);
    REQUIRE(games.size() == 7);
    for (size_t i = 1; i < games.size(); ++i) CHECK(games[i].white != games[i - 1].white);
}

TEST_CASE("arena: with one board everyone still plays evenly, without immediate rematches") {
    Scheduler s(config(Format::Arena, 6, 30, 1));
    const std::vector<Pairing> games = runAll(s);
    std::vector<int> played(6, 0);
    std::vector<int> whites(6, 0);
    for (size_t i = 0; i < games.size(); ++i) {
        ++played[size_t(games[i].white)];
        ++played[size_t(games[i].black)];
        ++whites[size_t(games[i].white)];
        if (i > 0) {
            const bool same = std::set<int>{games[i].white, games[i].black} ==
                              std::set<int>{games[i - 1].white, games[i - 1].black};
            CHECK(!same);
        }
    }
    for (int i = 0; i < 6; ++i) {
        CHECK(std::abs(played[size_t(i)] - 10) <= 1);
        CHECK(std::abs(2 * whites[size_t(i)] - played[size_t(i)]) <= 2);
    }
}

namespace {

// Meetings per unordered pair.
std::map<std::pair<int, int>, int> meetingsOf(const std::vector<Pairing>& games) {
    std::map<std::pair<int, int>, int> meetings;
    for (const Pairing& p : games) ++meetings[{std::min(p.white, p.black), std::max(p.white, p.black)}];
    return meetings;
}

} // namespace

TEST_CASE("arena: with a board for everyone every pair meets, not the same pairs forever") {
    SUBCASE("4 players, 2 boards, 24 games, games ending in random order: every pair at least twice") {
        for (uint64_t seed : {3, 4, 5, 6}) {
            CAPTURE(seed);
            SchedulerConfig c = config(Format::Arena, 4, 24, 2);
            c.seed = seed;
            Scheduler s(c);
            const auto meetings = meetingsOf(runAll(s, seed));
            CHECK(meetings.size() == 6);
            for (const auto& [pair, count] : meetings) CHECK(count >= 2);
        }
    }
    SUBCASE("6 players, 3 boards, 60 games in random order: every pair meets, none dominates") {
        for (uint64_t seed : {3, 4, 5, 6}) {
            CAPTURE(seed);
            SchedulerConfig c = config(Format::Arena, 6, 60, 3);
            c.seed = seed;
            Scheduler s(c);
            const auto meetings = meetingsOf(runAll(s, seed));
            CHECK(meetings.size() == 15);
            for (const auto& [pair, count] : meetings) CHECK(count <= 8); // 4 on average
        }
    }
    SUBCASE("6 players, 3 boards, 60 games ending in start order (games of one length): at least 3 each") {
        Scheduler s(config(Format::Arena, 6, 60, 3));
        std::vector<Pairing> running;
        std::vector<Pairing> played;
        for (int guard = 0; guard < 1000; ++guard) {
            while (auto p = s.next()) {
                running.push_back(*p);
                played.push_back(*p);
            }
            if (running.empty()) break;
            s.onGameFinished(running.front().id, Outcome::Draw);
            running.erase(running.begin());
        }
        REQUIRE(played.size() == 60);
        const auto meetings = meetingsOf(played);
        CHECK(meetings.size() == 15);
        for (const auto& [pair, count] : meetings) CHECK(count >= 3);
    }
}

TEST_CASE("arena: a pair that just played waits for another game to end instead of a rematch") {
    for (int ending : {0, 1}) {
        CAPTURE(ending);
        Scheduler s(config(Format::Arena, 4, 40, 2));
        const auto a = s.next();
        const auto b = s.next();
        REQUIRE(a);
        REQUIRE(b);
        const Pairing ended = ending == 0 ? *a : *b;
        const Pairing other = ending == 0 ? *b : *a;
        s.onGameFinished(ended.id, Outcome::FirstWins);
        CHECK(!s.next()); // not the same pair again: it waits, one board of two stands idle
        s.onGameFinished(other.id, Outcome::Draw);
        const auto c = s.next();
        const auto d = s.next();
        REQUIRE(c);
        REQUIRE(d);
        const std::set<std::set<int>> before{{ended.white, ended.black}, {other.white, other.black}};
        CHECK(before.count({c->white, c->black}) == 0);
        CHECK(before.count({d->white, d->black}) == 0);
    }
}

TEST_CASE("arena: waiting for variety never leaves more than half of the boards idle") {
    for (const auto& [players, boards] : {std::pair{4, 2}, std::pair{5, 2}, std::pair{6, 3}, std::pair{8, 4},
                                          std::pair{7, 3}, std::pair{6, 1}}) {
        CAPTURE(players);
        CAPTURE(boards);
        Scheduler s(config(Format::Arena, players, 80, boards));
        SplitMix64 rng(uint64_t(players * 10 + boards));
        std::vector<Pairing> running;
        int waits = 0;
        for (int guard = 0; guard < 10000; ++guard) {
            while (auto p = s.next()) running.push_back(*p);
            const int idlePlayers = players - 2 * int(running.size());
            const int freeBoards = boards - int(running.size());
            if (s.gamesFinished() + s.inFlight() < s.totalGames() && freeBoards > 0 && idlePlayers >= 2) {
                ++waits; // a pair could play but waits for a due opponent
                CHECK(!running.empty());
                CHECK(2 * freeBoards <= boards);
            }
            if (running.empty()) break;
            const size_t k = size_t(rng.below(running.size()));
            s.onGameFinished(running[k].id, Outcome(rng.below(3)));
            running.erase(running.begin() + long(k));
        }
        CHECK(s.finished());
        if (boards == 1) CHECK(waits == 0);          // one board: nothing else runs, nobody waits
        if (players == 2 * boards) CHECK(waits > 0); // a board for everyone: pairs do wait
    }
}

TEST_CASE("arena: with nothing else running, the only possible pair plays again at once") {
    Scheduler s(config(Format::Arena, 2, 3, 2));
    for (int i = 0; i < 3; ++i) {
        const auto p = s.next();
        REQUIRE(p);
        s.onGameFinished(p->id, Outcome::Draw);
    }
    CHECK(s.finished());
}

TEST_CASE("arena: live Elo moves the winner up and feeds the pairing") {
    Scheduler s(config(Format::Arena, 2, 2, 1));
    auto p = s.next();
    REQUIRE(p);
    s.onGameFinished(p->id, Outcome::FirstWins);
    CHECK(s.ratings()[size_t(p->white)] == doctest::Approx(1516.0));
    CHECK(s.ratings()[size_t(p->black)] == doctest::Approx(1484.0));
    s.onGameFinished(p->id, Outcome::FirstWins); // a repeated report changes nothing
    CHECK(s.gamesFinished() == 1);
}

TEST_CASE("Chess960: both games of an encounter share a seeded position") {
    for (Format f : {Format::Arena, Format::DoubleRoundRobin, Format::Gauntlet}) {
        CAPTURE(formatName(f));
        SchedulerConfig c = config(f, 4, f == Format::Arena ? 24 : 2, 2);
        c.seededStarts = 960;
        c.seed = 42;
        Scheduler s(c);
        const std::vector<Pairing> games = runAll(s);
        std::map<std::pair<int, int>, std::vector<Pairing>> byPair;
        std::set<int> positions;
        for (const Pairing& p : games) {
            CHECK(p.seededStart >= 0);
            CHECK(p.seededStart < 960);
            positions.insert(p.seededStart);
            byPair[{std::min(p.white, p.black), std::max(p.white, p.black)}].push_back(p);
        }
        CHECK(positions.size() >= 3); // at least one per encounter (the gauntlet has 3)
        for (const auto& [pair, list] : byPair)
            for (size_t k = 0; k + 1 < list.size(); k += 2) {
                CHECK(list[k].seededStart == list[k + 1].seededStart);
                CHECK(list[k].white == list[k + 1].black);
            }
        // Same seed, same positions; another seed, other positions.
        Scheduler again(c);
        CHECK(runAll(again) == games);
        c.seed = 43;
        Scheduler other(c);
        std::set<int> otherPositions;
        for (const Pairing& p : runAll(other)) otherPositions.insert(p.seededStart);
        CHECK(otherPositions != positions);
    }
}

TEST_CASE("opening suite: dealt in turn, both colours play each opening") {
    SchedulerConfig c = config(Format::DoubleRoundRobin, 4, 1, 1);
    c.openingCount = 3;
    Scheduler s(c);
    const std::vector<Pairing> games = runAll(s);
    std::map<std::pair<int, int>, std::map<int, std::set<int>>> whitesByOpening;
    std::vector<int> uses(3, 0);
    for (const Pairing& p : games) {
        REQUIRE(p.opening >= 0);
        REQUIRE(p.opening < 3);
        ++uses[size_t(p.opening)];
        whitesByOpening[{std::min(p.white, p.black), std::max(p.white, p.black)}][p.opening].insert(p.white);
    }
    for (const auto& [pair, byOpening] : whitesByOpening)
        for (const auto& [opening, whites] : byOpening) CHECK(whites.size() == 2);
    for (int u : uses) CHECK(u == 4); // 6 encounters of 2 games over 3 openings: 4 games each
}

TEST_CASE("abandoned games: round robin hands the same game out again, the arena forgets it") {
    Scheduler rr(config(Format::RoundRobin, 4, 1, 1));
    const auto first = rr.next();
    REQUIRE(first);
    rr.onGameAbandoned(first->id);
    CHECK(rr.inFlight() == 0);
    CHECK(rr.next() == first);

    SchedulerConfig c = config(Format::Arena, 2, 3, 1);
    c.seededStarts = 960;
    Scheduler arena(c);
    const auto a = arena.next();
    REQUIRE(a);
    arena.onGameAbandoned(a->id);
    const auto b = arena.next();
    REQUIRE(b);
    CHECK(b->white == a->white);
    CHECK(b->seededStart == a->seededStart);
    CHECK(b->round == 1);
    CHECK(b->id != a->id);
    arena.onGameFinished(b->id, Outcome::Draw);
    int more = 0;
    while (auto p = arena.next()) {
        arena.onGameFinished(p->id, Outcome::Draw);
        ++more;
    }
    CHECK(more == 2);
    CHECK(arena.finished());
}

TEST_CASE("restore: a resumed scheduler continues exactly like the original") {
    for (Format f : {Format::Arena, Format::RoundRobin}) {
        CAPTURE(formatName(f));
        SchedulerConfig c = config(f, 5, f == Format::Arena ? 20 : 1, 2);
        c.seededStarts = 960;
        c.seed = 9;
        Scheduler original(c);
        std::vector<std::pair<Pairing, std::optional<Outcome>>> log;
        // Play 6 games; leave one running.
        for (int i = 0; i < 6; ++i) {
            auto p = original.next();
            REQUIRE(p);
            original.onGameFinished(p->id, Outcome(i % 3));
            log.push_back({*p, Outcome(i % 3)});
        }
        auto running = original.next();
        REQUIRE(running);
        log.push_back({*running, std::nullopt});

        Scheduler resumed(c);
        for (const auto& [p, o] : log) CHECK(resumed.restore(p, o));
        CHECK(resumed.inFlight() == 1);
        CHECK(resumed.gamesFinished() == 6);
        CHECK(resumed.ratings() == original.ratings());
        CHECK(!resumed.restore(log[0].first, Outcome::Draw)); // already placed
        original.onGameFinished(running->id, Outcome::Draw);
        resumed.onGameFinished(running->id, Outcome::Draw);
        const std::vector<Pairing> fromResumed = runAll(resumed, 5);
        const std::vector<Pairing> fromOriginal = runAll(original, 5);
        REQUIRE(fromResumed.size() == fromOriginal.size());
        for (size_t i = 0; i < fromResumed.size(); ++i) {
            CAPTURE(i);
            CHECK(fromResumed[i].id == fromOriginal[i].id);
            CHECK(fromResumed[i].white == fromOriginal[i].white);
            CHECK(fromResumed[i].black == fromOriginal[i].black);
            CHECK(fromResumed[i] == fromOriginal[i]);
        }
    }
}
