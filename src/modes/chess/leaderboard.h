// The leaderboard: per-participant results, costs and ratings (Bradley-Terry with bootstrap
// intervals, anchored to engine levels; live Elo beside it), computed purely from the config and
// the game records, so an imported bundle reproduces it exactly.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/play/rating.h"
#include "src/modes/chess/tournament.h"

#include <cstdint>
#include <map>
#include <optional>
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

// What a leaderboard sums over its games before it has rows: per participant the finished games
// and their results, the turns (moves, illegal answers, cost, tokens: every game's, finished or
// not) and the analysed moves; the live Elo; the rating fit's pairs. Games are added in the list's
// order, and the sums are then what passes over the whole list make, to the bit (a cost sum is the
// same double, the pairs come in the same order).
struct LeaderboardSums {
    struct Player {
        int gamesPlayed = 0; // finished games, forfeits included (the cost average's)
        int games = 0;       // finished games counted in the results (forfeits out when excluded)
        int wins = 0;
        int draws = 0;
        int losses = 0;
        int forfeits = 0; // games lost by forfeit
        int moves = 0;
        int turns = 0;
        int illegalAttempts = 0;
        double costUsd = 0;
        long long tokens = 0;
        int analysedMoves = 0;
        long long cpLoss = 0;
        int blunders = 0;
    };
    LeaderboardSums(int playerCount, const LeaderboardOptions& options);
    // The next game of the list.
    void add(const GameRecord& game);
    // A game added before its analysis gained it: its analysed moves join the sums (an analysis
    // changes nothing else).
    void addQuality(const GameRecord& game);

    LeaderboardOptions options;
    std::vector<Player> players;
    play::EloRun elo;        // over the finished games (forfeits out when excluded)
    play::PairTallies pairs; // the same games, for the Bradley-Terry fit
    std::size_t games = 0;   // games added
    int gamesRated = 0;      // finished games in the ratings
    int gamesUnfinished = 0;
};

// The sums over the first games of a list that grows at its end (the arena's, at every game end),
// kept between calls: a game end adds that game, not every game again. The owner promises what a
// check would cost a pass over the list: the list it passes next begins with the games summed
// here, changed at most by folding (which keeps every sum) or by an analysis it reports with
// analysed(); and it clear()s the tally when the list is another one (an import, a reload, a new
// tournament). What is cheap is checked: the players, the options and the last game summed still
// at its place; otherwise the sums start over.
struct LeaderboardTally {
    std::optional<LeaderboardSums> sums;  // over the first size() games of the list
    std::vector<bool> analysedWhenSummed; // per game summed
    int lastId = -1;                      // the last game summed
    // The rating plot's grid (ratingHistory's maxPoints; 0: no plot): its fits are made as the
    // games are summed, each once (set before the first sum: a change starts the sums over).
    int historyPoints = 0;
    std::map<long, std::vector<double>> fits; // ratings after the first k rated games, on the grid
    int fitsPoints = 0;                       // the historyPoints the fits were made for

    std::size_t size() const { return sums ? sums->games : 0; }
    void clear();
    // The game at `index` (in the list) gained its analysis since it was summed.
    void analysed(std::size_t index, const GameRecord& game);
};

// The sums over `games`. With a tally: its sums, first extended over the finished games of
// games[0, stable) (the run the owner keeps, see LeaderboardTally), then a copy of them with the
// rest added; a game end then costs that game and the games after the run (the running ones).
LeaderboardSums sumGames(const TournamentConfig& config, const std::vector<GameRecord>& games,
                         const LeaderboardOptions& options, LeaderboardTally* tally = nullptr,
                         std::size_t stable = 0);
// The board of those sums with a rating fit (its point estimates and intervals).
Leaderboard leaderboardOf(const TournamentConfig& config, const LeaderboardSums& sums, const BradleyTerryFit& fit);

// Games are taken in the given order (the finish order) for the live Elo. Records must belong to
// the config (participant indices in range; the bundle importer checks).
Leaderboard computeLeaderboard(const TournamentConfig& config, const std::vector<GameRecord>& games,
                               const LeaderboardOptions& options = {});
// The same board with the rating fit made elsewhere: the page refines the intervals in slices (a
// BradleyTerryRun over sumGames(...).pairs with fitOptions) and shows the point estimates at once.
// With the whole fit it is computeLeaderboard exactly; a tally as in sumGames.
Leaderboard leaderboardWithFit(const TournamentConfig& config, const std::vector<GameRecord>& games,
                               const LeaderboardOptions& options, const BradleyTerryFit& fit,
                               LeaderboardTally* tally = nullptr, std::size_t stable = 0);
// The Bradley-Terry options of a leaderboard (anchors, virtual draws, forfeits, bootstrap, seed).
BradleyTerryOptions fitOptions(const TournamentConfig& config, const LeaderboardOptions& options);

// The move-quality columns (analysedMoves, avgCpLoss, blunders, blundersPer100Moves) of every row
// from the games' analysed moves, the rest of the board untouched: what computeLeaderboard fills,
// and what the page refreshes alone when a late analysis lands (no new rating fit).
void fillMoveQuality(Leaderboard& board, const LeaderboardSums& sums);

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
// rated games or with maxPoints < 1. Cost: one point fit per point (~0.1 ms natively for 50
// players); with a tally whose historyPoints is maxPoints, each grid point is fitted once, when
// its game is summed, so a game end fits the last point alone (and now and then a grid point).
std::vector<std::vector<double>> ratingHistory(const TournamentConfig& config,
                                               const std::vector<GameRecord>& games,
                                               const LeaderboardOptions& options, int maxPoints = 200,
                                               LeaderboardTally* tally = nullptr, std::size_t stable = 0);

} // namespace chaiba::chessmode
