// Werewolf results: a finished game reduced to what a leaderboard counts (per seat: who played
// it, role, survival, decisions, fallbacks, tokens, cost) and the leaderboard over many games
// (per player: ratings from team results overall, as wolf and as villager, and by role (seer,
// doctor, werewolf, villager), win rate by role, survival, villager votes on wolves, seer hits,
// belief accuracy overall and per day round, vote swing, the fallback rate of decisions and of
// notes apart, tokens, $). The CLI and the page's arena print the same rows.
#pragma once

#include "engine/werewolf/events.h"
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

// Vote swing, the persuasion measure (after Foaster's per-message vote-swing instrumentation and
// the vote records of Kaggle's envs/werewolf): a day-chat line ACCUSES the seat it names the way
// the bots read chat (werewolf::readChat: "I suspect P3.", "P3 is a wolf.", "Let's take P3."; a line
// naming the speaker is no accusation). Only the speaker's first line accusing a given seat on a
// given day counts. Its LISTENERS are the players who vote that day (their first vote of the day;
// a revote is not counted), other than the speaker and the accused, whose own latest accusation
// in that day's chat before the line was not the accused (none counts as "not"): they had not
// leaned toward the target yet. A listener is SWAYED when that vote names the accused. The swing
// of a player is swayed / listeners over its accusations: the share of undecided-on-that-target
// voters who then voted for the seat it named. It measures votes that followed a line, not a
// proven cause: two speakers naming one target are both credited with the votes that follow.
struct VoteSwing {
    int accusations = 0; // counted accusations (first per accused per day)
    int listeners = 0;
    int swayed = 0;
    double rate() const { return listeners ? double(swayed) / listeners : 0; }
};
// Per seat (index = seat), from a game's event log.
std::vector<VoteSwing> voteSwing(const std::vector<werewolf::Event>& events, int seats);

struct SeatResult {
    std::string player; // "bot", "llm:MODEL"
    werewolf::Role role = werewolf::Role::Villager;
    bool alive = false;
    bool won = false;
    int asks = 0; // model asks, notes rewrites included (0 for bots)
    int fallbacks = 0;
    int notesAsks = 0, notesFallbacks = 0; // of those, the notes rewrites (older files: 0)
    VoteSwing swing;
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
    int fallbacks() const; // every ask, notes rewrites included
    int asks() const;
    int notesAsks() const;
    int notesFallbacks() const;
    int decisionAsks() const { return asks() - notesAsks(); }
    int decisionFallbacks() const { return fallbacks() - notesFallbacks(); }
};

GameResult summarize(const GameSession& session, int index);

// A rating from the Bradley-Terry fit (src/play/rating.h) with its 95% bootstrap interval.
struct RatingValue {
    double elo = 1500, low = 1500, high = 1500;
    int games = 0; // games behind it (0: no rating)
};

struct PlayerStanding {
    std::string player;
    RatingValue rating, wolfRating, villagerRating; // overall; by team (as wolf, as villager)
    RatingValue roleRatings[werewolf::kRoleCount];   // by role, indexed by werewolf::Role
    int games = 0, wins = 0;
    int wolfGames = 0, wolfWins = 0;
    int villagerGames = 0, villagerWins = 0;
    int roleGames[werewolf::kRoleCount] = {}, roleWins[werewolf::kRoleCount] = {};
    int survived = 0;
    int asks = 0, fallbacks = 0; // every ask
    int notesAsks = 0, notesFallbacks = 0;
    VoteSwing swing;
    long long tokens = 0;
    double costUsd = 0;
    int villagerVotes = 0, villagerVotesOnWolves = 0;
    int inspections = 0, inspectionsOnWolves = 0;
    int beliefs = 0;
    double beliefScore = 0;
    BeliefsByRound beliefsByRound; // summed over the games (rounds a player never reached stay 0)
    double winRate() const { return games ? double(wins) / games : 0; }
    double fallbackRate() const { return asks ? double(fallbacks) / asks : 0; }
    int decisionAsks() const { return asks - notesAsks; }
    int decisionFallbacks() const { return fallbacks - notesFallbacks; }
    // The rate that says whether a model can play: night actions, chat turns and votes only.
    double decisionFallbackRate() const { return decisionAsks() ? double(decisionFallbacks()) / decisionAsks() : 0; }
    double notesFallbackRate() const { return notesAsks ? double(notesFallbacks) / notesAsks : 0; }
    double beliefAccuracy() const { return beliefs ? beliefScore / beliefs : 0; }
};

// The leaderboard in parts, for a page that draws the intervals elsewhere (play::RatingRefiner):
// the counts per player (name order, no ratings); the three fits over them as runs (point estimates
// made, bootstraps still to draw): overall, one identity per player; by team, i as wolf and n + i
// as villager; by role, int(role) * n + i; and the rows ranked with the fits (null, or of another
// size: no rating).
std::vector<PlayerStanding> standingsWithoutRatings(const std::vector<GameResult>& games);
struct RatingRuns {
    std::unique_ptr<play::BradleyTerryRun> overall, byRole, perRole; // byRole: by team
};
RatingRuns ratingRuns(const std::vector<GameResult>& games, const std::vector<PlayerStanding>& rows);
std::vector<PlayerStanding> rankStandings(std::vector<PlayerStanding> rows, const play::BradleyTerryFit* overall,
                                          const play::BradleyTerryFit* byRole,
                                          const play::BradleyTerryFit* perRole = nullptr);

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
    play::PairTallies overall_, byRole_, perRole_;
};

// One row per player (a player in several seats of a game counts once per seat), best rating
// first, then best win rate, then by name. Ratings: each finished game is team-vs-team encounters
// (play::encountersOfTeamGame) into one Bradley-Terry fit (1000 bootstraps, seed 1): overall with
// one identity per player (a player meeting itself is skipped), and by role with two identities
// per player (as wolf, as villager) on one scale, and per role with four identities per player
// (seer, doctor, werewolf, villager: each werewolf meets each seer, doctor and villager of a game)
// on a third scale. Unfinished games count nowhere in the ratings.
std::vector<PlayerStanding> leaderboard(const std::vector<GameResult>& games);
// "1523 (1410-1640)", or "-" without games.
std::string formatRating(const RatingValue& r);
// The number of day rounds a belief table needs: the longest beliefsByRound of the rows.
int beliefRounds(const std::vector<PlayerStanding>& rows);
// A fixed-width text table of the standings, then "By role" (a rating and wins per role), then
// (when any player gave a suspicion) "Belief accuracy by round": a row per player, columns
// R1..Rn, "71% (12)" or "-" where none.
std::string formatLeaderboard(const std::vector<PlayerStanding>& rows);

} // namespace chaiba::werewolfmode
