// The arena's leaderboard: one row per participant in rank order, with rating and its 95%
// interval, Elo, results, illegal-move rate and costs. Narrow windows hide the less important
// columns so it stays readable on a phone.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace chaiba::ui {

struct Fonts;

struct LeaderboardRowView {
    int rank = 0;
    std::string name;
    std::string kind;                              // "llm", "engine", "random"
    double rating = 1500, low = 1500, high = 1500; // rating and its 95% interval
    bool anchored = false;                         // rating fixed to a calibrated engine level
    double elo = 1500;
    int games = 0, wins = 0, draws = 0, losses = 0, forfeits = 0;
    double illegalPer100 = 0, avgCostPerGame = 0, avgTokensPerMove = 0, spentUsd = 0;
    bool analysed = false;                         // some of its moves judged by the engine
    double avgCpLoss = 0, blundersPer100 = 0;      // over the analysed moves
    std::string context;                           // models: "full" or "stateless"; else empty
    int gamesToPlusMinus50 = -1; // more games for a 95% interval under ±50 (0: there; -1: unknown)
    ImU32 colour = 0; // the series colour in the rating plot (swatch); 0 = none
};

// A table `height` pixels high (the rows scroll inside, the header stays) in the current window,
// in the order given. Columns: #, player, rating ±95% (the live Elo instead when `liveElo`: one
// rating scale in the table), games, W/D/L, forfeits, ACPL,
// blunders/100, games to ±50, illegal/100, $/game, tokens/move, spent, context (the last five only
// when a model plays). Those columns show "–" for engines and random movers; ACPL and blunders/100
// until the player's moves are analysed.
// Returns the index in `rows` of the row clicked this frame, or -1. `id` is the table's ImGui ID.
int drawLeaderboardTable(const Fonts& fonts, const std::vector<LeaderboardRowView>& rows, float height,
                         const char* id, bool liveElo = false);

} // namespace chaiba::ui
