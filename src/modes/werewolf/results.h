// Werewolf results: a finished game reduced to what a leaderboard counts (per seat: who played
// it, role, survival, decisions, fallbacks, tokens, cost) and the leaderboard over many games
// (per player: ratings from team results overall, as wolf and as villager, win rate by role,
// survival, villager votes on wolves, seer hits, belief accuracy overall and per day round,
// fallback rate, tokens, $). The CLI and the page's arena print the same rows.
#pragma once

#include "engine/werewolf/types.h"
#include "src/play/rating.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::werewolfmode {

class GameSession;

// Chat suspicions given in one day round, scored against the true roles: each is
// 1 - |suspicion - truth| (truth: 1 wolf, 0 not), so accuracy = score / beliefs is 0..1.
struct RoundBeliefs {
    int beliefs = 0;
    double score = 0;
    double accuracy() const { return beliefs ? score / beliefs : 0; }
};
// Per day round: [0] is round 1; a round without suspicions is {0, 0}; empty when none were given
// (or the game file predates the per-round figures).
using BeliefsByRound = std::vector<RoundBeliefs>;

struct SeatResult {
    std::string player; // "bot", "llm:MODEL"
    werewolf::Role role = werewolf::Role::Villager;
    bool alive = false;
    bool won = false;
    int asks = 0; // model decisions, notes included (0 for bots)
    int fallbacks = 0;
    long long tokens = 0;
    double costUsd = 0;
    // Deduction, from the event log (0 when the seat never did it; older files lack them).
    int villagerVotes = 0, villagerVotesOnWolves = 0; // day votes cast as a villager-team player
    int inspections = 0, inspectionsOnWolves = 0;     // as the Seer
    int beliefs = 0;         // suspicions given in chat about other players (villager team only)
    double beliefScore = 0;  // sum of 1 - |suspicion - truth| (truth: 1 wolf, 0 not)
    BeliefsByRound beliefsByRound; // the same suspicions by the day round they were given in
};

struct GameResult {
    int index = 0; // 1-based game number of a run
    std::uint64_t seed = 0;
    std::optional<werewolf::Team> winner; // none: stopped unfinished
    int rounds = 0;
    std::vector<SeatResult> seats;
    std::int64_t virtualMs = 0; // the session's simulated time at the end
    double wallSeconds = 0;
    long long tokens() const;
    double costUsd() const;
    int fallbacks() const;
    int asks() const;
};

GameResult summarize(const GameSession& session, int index);

// A rating from the Bradley-Terry fit (src/play/rating.h) with its 95% bootstrap interval.
struct RatingValue {
    double elo = 1500, low = 1500, high = 1500;
    int games = 0; // games behind it (0: no rating)
};

struct PlayerStanding {
    std::string player;
    RatingValue rating, wolfRating, villagerRating;
    int games = 0, wins = 0;
    int wolfGames = 0, wolfWins = 0;
    int villagerGames = 0, villagerWins = 0;
    int survived = 0;
    int asks = 0, fallbacks = 0;
    long long tokens = 0;
    double costUsd = 0;
    int villagerVotes = 0, villagerVotesOnWolves = 0;
    int inspections = 0, inspectionsOnWolves = 0;
    int beliefs = 0;
    double beliefScore = 0;
    BeliefsByRound beliefsByRound; // summed over the games (rounds a player never reached stay 0)
    double winRate() const { return games ? double(wins) / games : 0; }
    double fallbackRate() const { return asks ? double(fallbacks) / asks : 0; }
    double beliefAccuracy() const { return beliefs ? beliefScore / beliefs : 0; }
};

// The leaderboard in parts, for a page that draws the intervals elsewhere (play::RatingRefiner):
// the counts per player (name order, no ratings); the two fits over them as runs (point estimates
// made, bootstraps still to draw): overall, one identity per player; by role, i as wolf and n + i
// as villager; and the rows ranked with the fits (null, or of another size: no rating).
std::vector<PlayerStanding> standingsWithoutRatings(const std::vector<GameResult>& games);
struct RatingRuns {
    std::unique_ptr<play::BradleyTerryRun> overall, byRole;
};
RatingRuns ratingRuns(const std::vector<GameResult>& games, const std::vector<PlayerStanding>& rows);
std::vector<PlayerStanding> rankStandings(std::vector<PlayerStanding> rows, const play::BradleyTerryFit* overall,
                                          const play::BradleyTerryFit* byRole);

// The same counts and tallies kept as games come, so a game end costs its own seats, not every
// game again (at 10 000 games a whole recount took 7-10 ms natively). counts() and runs() equal
// standingsWithoutRatings and ratingRuns over the games added, in the order added, when every
// player of the pool has played (runs() always spans the whole pool); a page that adds games as
// they finish (out of order) recounts in game order at rest for the exact intervals.
class StandingsTally {
public:
    explicit StandingsTally(std::vector<std::string> players); // the pool (duplicates are one player)
    // False, and nothing added: a seat's player is not in the pool (the caller recounts).
    bool add(const GameResult& game);
    std::vector<PlayerStanding> counts() const; // name order, players with games
    RatingRuns runs() const;

private:
    std::map<std::string, int> index_;
    std::vector<PlayerStanding> rows_; // by index (name order)
    play::PairTallies overall_, byRole_;
};

// One row per player (a player in several seats of a game counts once per seat), best rating
// first, then best win rate, then by name. Ratings: each finished game is team-vs-team encounters
// (play::encountersOfTeamGame) into one Bradley-Terry fit (1000 bootstraps, seed 1): overall with
// one identity per player (a player meeting itself is skipped), and by role with two identities
// per player (as wolf, as villager) on one scale. Unfinished games count nowhere in the ratings.
std::vector<PlayerStanding> leaderboard(const std::vector<GameResult>& games);
// "1523 (1410-1640)", or "-" without games.
std::string formatRating(const RatingValue& r);
// The number of day rounds a belief table needs: the longest beliefsByRound of the rows.
int beliefRounds(const std::vector<PlayerStanding>& rows);
// A fixed-width text table of the standings, then (when any player gave a suspicion) "Belief
// accuracy by round": a row per player, columns R1..Rn, "71% (12)" or "-" where none.
std::string formatLeaderboard(const std::vector<PlayerStanding>& rows);

} // namespace chaiba::werewolfmode
