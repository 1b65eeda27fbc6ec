// Werewolf results: a finished game reduced to what a leaderboard counts (per seat: who played
// it, role, survival, decisions, fallbacks, tokens, cost) and the leaderboard over many games
// (per player: games, wins, win rate as wolf and as villager, survival, fallback rate, tokens, $).
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

struct PlayerStanding {
    std::string player;
    int games = 0, wins = 0;
    int wolfGames = 0, wolfWins = 0;
    int villagerGames = 0, villagerWins = 0;
    int survived = 0;
    int asks = 0, fallbacks = 0;
    long long tokens = 0;
    double costUsd = 0;
    double winRate() const { return games ? double(wins) / games : 0; }
    double fallbackRate() const { return asks ? double(fallbacks) / asks : 0; }
};

// One row per player (a player in several seats of a game counts once per seat), best win rate
// first, then by name.
std::vector<PlayerStanding> leaderboard(const std::vector<GameResult>& games);
// A fixed-width text table of the standings.
std::string formatLeaderboard(const std::vector<PlayerStanding>& rows);

} // namespace chaiba::werewolfmode
