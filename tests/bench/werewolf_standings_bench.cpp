// The Werewolf Arena's leaderboard at a game's end, 10 000 games in: counted over every game again
// (standingsWithoutRatings + ratingRuns' point estimates) against grown by the one game
// (StandingsTally). Synthetic 8-seat results over a pool of 5 players. Prints milliseconds.
// usage: chaiba_werewolf_standings_bench [GAMES]
#include "src/modes/werewolf/results.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace chaiba::werewolfmode;

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::max(2, std::atoi(argv[1])) : 10000;
    std::vector<GameResult> games;
    for (int g = 0; g < n; ++g) {
        GameResult r;
        r.index = g + 1;
        r.winner = g % 3 ? chaiba::werewolf::Team::Villagers : chaiba::werewolf::Team::Wolves;
        for (int s = 0; s < 8; ++s) {
            SeatResult seat;
            seat.player = "p" + std::to_string((s + g) % 5);
            seat.role = s < 2 ? chaiba::werewolf::Role::Werewolf : chaiba::werewolf::Role::Villager;
            seat.won = (s < 2) == (g % 3 == 0);
            r.seats.push_back(seat);
        }
        games.push_back(r);
    }
    auto ms = [](auto t0) { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); };
    StandingsTally tally({"p0", "p1", "p2", "p3", "p4"});
    for (int g = 0; g + 1 < n; ++g) tally.add(games[std::size_t(g)]);
    for (int rep = 0; rep < 5; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        std::vector<PlayerStanding> rows = standingsWithoutRatings(games);
        RatingRuns runs = ratingRuns(games, rows);
        const std::size_t shown = rankStandings(rows, &runs.overall->fit(), &runs.byRole->fit()).size();
        const double whole = ms(t0);
        StandingsTally grown = tally; // (the copy is timed too)
        t0 = std::chrono::steady_clock::now();
        grown.add(games.back());
        RatingRuns kept = grown.runs();
        const std::size_t shownToo = rankStandings(grown.counts(), &kept.overall->fit(), &kept.byRole->fit()).size();
        std::printf("game end at %d games: recounted %.3f ms, grown by one game %.3f ms (%zu/%zu rows)\n", n, whole,
                    ms(t0), shown, shownToo);
    }
    return 0;
}
