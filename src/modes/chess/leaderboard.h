// The leaderboard: per-participant results, costs and ratings (Bradley-Terry with bootstrap
// intervals, anchored to engine levels; live Elo beside it), computed purely from the config and
// the game records, so an imported bundle reproduces it exactly.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/play/rating.h"
#include "src/modes/chess/tournament.h"

#include <cstdint>
#include <map>
#include <vector>

namespace chaiba::chessmode {

struct LeaderboardOptions {
    bool excludeForfeits = false; // leave forfeit games out of ratings and W/D/L
    int bootstrapSamples = 1000;
    uint64_t seed = 1;
    double virtualDraws = 1.0; // see BradleyTerryOptions
    bool operator==(const LeaderboardOptions&) const = default;
};

// One participant's line. Games/W/D/L count finished games (without forfeit games when they are
// excluded); forfeits = games this participant lost by forfeit (always counted). Costs and tokens
// count every turn, finished game or not.
struct LeaderboardRow {
    int participant = 0;     // index in the config
    int rank = 0;            // 1-based, by rating (ties share the rank); 0: no game yet (listed last)
    double rating = 1500;    // Bradley-Terry point estimate
    double ratingLow = 1500; // 95% bootstrap interval
    double ratingHigh = 1500;
    bool anchored = false;
    double elo = 1500; // live Elo (K = 32) over the games in finish order
    int games = 0;
    int wins = 0;
    int draws = 0;
    int losses = 0;
    int forfeits = 0;
    int moves = 0; // moves played
    int turns = 0; // moves + turns that ended without a move
    int illegalAttempts = 0;
    double illegalPer100Moves = 0; // illegal attempts per 100 turns
    double costUsd = 0;
    double avgCostPerGame = 0;   // cost / games played (finished, forfeits included)
    long long tokens = 0;        // prompt + completion
    double avgTokensPerMove = 0; // tokens / turns
    // Move quality over the analysed moves (TurnRecord::cpLoss >= 0; bundle v3).
    int analysedMoves = 0;
    double avgCpLoss = 0;           // average centipawn loss
    int blunders = 0;
    double blundersPer100Moves = 0; // per 100 analysed moves
    std::string contextPolicy = "full"; // what the player was sent each turn (contextPolicyOf)
    // More games until the 95% interval is within ±50 (its half-width shrinks as 1/sqrt(games):
    // games * (half / 50)^2 - games); 0 when there already or anchored, -1 before any game.
    int gamesToPlusMinus50 = -1;
    bool operator==(const LeaderboardRow&) const = default;
};

struct Leaderboard {
    std::vector<LeaderboardRow> rows; // best first
    int gamesRated = 0;               // finished games in the ratings
    int gamesUnfinished = 0;
    bool operator==(const Leaderboard&) const = default;
};

// What leaderboardWithFit and fillMoveQuality keep between calls over a list of games that grows at
// its end (the arena's, at every game end): the turn sums (moves, turns, illegal answers, cost,
// tokens) after the longest run of finished games the last call began with, continued from there
// in the same order (so a cost sum is the same double to the bit), and each game's analysed-move
// sums (whole numbers: their order does not matter). A game is known by its id, its move count,
// its open turn and whether it is analysed; records change only that way in the arena (moves are
// appended, an analysis fills every move at once), so the owner calls clear() when it replaces
// the list with another (an import, a new tournament, a reload).
struct LeaderboardCache {
    struct Key {
        int id = -1;
        size_t moves = 0;
        bool openTurn = false;
        bool analysed = false;
        bool operator==(const Key&) const = default;
    };
    struct TurnSums {
        int moves = 0;
        int turns = 0;
        int illegalAttempts = 0;
        double costUsd = 0;
        long long tokens = 0;
    };
    struct GameQuality {
        Key key;
        int analysedMoves[2] = {0, 0}; // [0] the even moves' player, [1] the odd moves'
        long long cpLoss[2] = {0, 0};
        int blunders[2] = {0, 0};
    };
    std::vector<Key> prefix;           // the finished games summed into `sums`, in order
    std::vector<TurnSums> sums;        // per participant, over `prefix`
    std::vector<GameQuality> quality;  // by position in the list
    void clear() { *this = LeaderboardCache(); }
};

// Games are taken in the given order (the finish order) for the live Elo. Records must belong to
// the config (participant indices in range; the bundle importer checks).
Leaderboard computeLeaderboard(const TournamentConfig& config, const std::vector<GameRecord>& games,
                               const LeaderboardOptions& options = {});
// The same board with the rating fit made elsewhere: the page refines the intervals in slices (a
// BradleyTerryRun over ratedGames(games) with fitOptions) and shows the point estimates at once.
// With the whole fit it is computeLeaderboard exactly.
Leaderboard leaderboardWithFit(const TournamentConfig& config, const std::vector<GameRecord>& games,
                               const LeaderboardOptions& options, const BradleyTerryFit& fit,
                               LeaderboardCache* cache = nullptr);
// The Bradley-Terry options of a leaderboard (anchors, virtual draws, forfeits, bootstrap, seed).
BradleyTerryOptions fitOptions(const TournamentConfig& config, const LeaderboardOptions& options);

// The move-quality columns (analysedMoves, avgCpLoss, blunders, blundersPer100Moves) of every row
// from the games' analysed moves, the rest of the board untouched: what computeLeaderboard fills,
// and what the page refreshes alone when a late analysis lands (no new rating fit).
void fillMoveQuality(Leaderboard& board, const std::vector<GameRecord>& games, LeaderboardCache* cache = nullptr);

// The rating code's view of the finished games: one encounter (White first) per finished game,
// the forfeit flag from the termination.
std::vector<Encounter> ratedGames(const std::vector<GameRecord>& games);

// For the rating plot: every participant's Bradley-Terry point estimate after each rated game in
// the given (finish) order, fitted exactly as computeLeaderboard fits (anchors, virtual draws,
// forfeits left out when excluded; no bootstrap), so the last point equals the leaderboard's
// ratings. Rated games: finished ones, without forfeits when they are excluded; unfinished games
// and excluded forfeits add no point. The points lie on a stable grid: after every `stride` rated
// games, the stride the smallest power of two that keeps at most maxPoints points, plus the last
// game when it is off the grid; so a new game adds a point and never moves the others (a doubled
// stride keeps every other one). history[k][i] = participant i's rating at point k. Empty without
// rated games or with maxPoints < 1. Cost: one point fit per point (~0.2 ms natively for 50
// players and 10,000 games, so ~40 ms for 200 points); with a cache that saw a prefix of these
// games, only the points it lacks (after one more game: the last one, now and then a grid point).
struct RatingHistoryCache {
    LeaderboardOptions options;
    int players = -1;
    std::vector<Encounter> rated;                    // the rated games the fits were made over
    std::map<std::size_t, std::vector<double>> fits; // ratings after the first k rated games
};
std::vector<std::vector<double>> ratingHistory(const TournamentConfig& config,
                                               const std::vector<GameRecord>& games,
                                               const LeaderboardOptions& options, int maxPoints = 200,
                                               RatingHistoryCache* cache = nullptr);

} // namespace chaiba::chessmode
