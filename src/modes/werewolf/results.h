// Werewolf results: a finished game reduced to what a leaderboard counts (per seat: who played
// it, role, survival, decisions, fallbacks, tokens, cost) and the leaderboard over many games
// (per player: ratings from team results overall, as wolf and as villager, win rate by role,
// survival, villager votes on wolves, seer hits, belief accuracy, fallback rate, tokens, $). The CLI
// and the page's arena print the same rows.
#pragma once

#include "engine/werewolf/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::werewolfmode {

class GameSession;

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
    double winRate() const { return games ? double(wins) / games : 0; }
    double fallbackRate() const { return asks ? double(fallbacks) / asks : 0; }
    double beliefAccuracy() const { return beliefs ? beliefScore / beliefs : 0; }
};

// One row per player (a player in several seats of a game counts once per seat), best rating
// first, then best win rate, then by name. Ratings: each finished game is team-vs-team encounters
// (play::encountersOfTeamGame) into one Bradley-Terry fit (1000 bootstraps, seed 1): overall with
// one identity per player (a player meeting itself is skipped), and by role with two identities
// per player (as wolf, as villager) on one scale. Unfinished games count nowhere in the ratings.
std::vector<PlayerStanding> leaderboard(const std::vector<GameResult>& games);
// "1523 (1410-1640)", or "-" without games.
std::string formatRating(const RatingValue& r);
// A fixed-width text table of the standings.
std::string formatLeaderboard(const std::vector<PlayerStanding>& rows);

} // namespace chaiba::werewolfmode
