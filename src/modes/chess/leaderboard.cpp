// Leaderboard: sums per participant over the game records, then the ratings and the ranking.
#include "src/modes/chess/leaderboard.h"

#include <algorithm>
#include <array>
#include <map>
#include <cmath>
#include <numeric>

namespace chaiba::chessmode {

// The Bradley-Terry options of a leaderboard: shared by the table and the plot, so they agree.
BradleyTerryOptions fitOptions(const TournamentConfig& config, const LeaderboardOptions& options) {
    BradleyTerryOptions bt;
    bt.anchors = anchorRatings(config);
    bt.virtualDraws = options.virtualDraws;
    bt.excludeForfeits = options.excludeForfeits;
    bt.bootstrapSamples = options.bootstrapSamples;
    bt.seed = options.seed;
    return bt;
}

namespace {

LeaderboardCache::Key keyOf(const GameRecord& g) {
    return {g.pairing.id, g.plies(), g.hasOpenTurn(), g.analysed()};
}

// The turn sums do not depend on the analysis: a game analysed after it was summed stays summed.
LeaderboardCache::Key turnKeyOf(const GameRecord& g) {
    return {g.pairing.id, g.plies(), g.hasOpenTurn(), false};
}

LeaderboardCache::GameQuality qualityOf(const GameRecord& g) {
    LeaderboardCache::GameQuality q;
    q.key = keyOf(g);
    if (g.folded) {
        for (size_t side = 0; side < 2; ++side) {
            q.analysedMoves[side] = g.folded->analysedMoves[side];
            q.cpLoss[side] = g.folded->cpLoss[side];
            q.blunders[side] = g.folded->blunders[side];
        }
        return q;
    }
    for (size_t m = 0; m < g.moves.size(); ++m) {
        const TurnRecord& t = g.moves[m];
        if (t.cpLoss < 0) continue;
        q.analysedMoves[m % 2] += 1;
        q.cpLoss[m % 2] += t.cpLoss;
        q.blunders[m % 2] += t.judgement == 3 ? 1 : 0;
    }
    return q;
}

// A game's turns are summed per player first (foldTurns: what a folded record keeps), then added:
// a whole record and its folded copy give the same sums to the bit.
void addTurns(std::vector<LeaderboardCache::TurnSums>& sums, const GameRecord& g) {
    const FoldedTurns f = foldTurns(g);
    for (size_t side = 0; side < 2; ++side) {
        if (f.turns[side] == 0) continue;
        LeaderboardCache::TurnSums& s = sums[size_t(f.movers[side])];
        s.moves += f.moves[side];
        s.turns += f.turns[side];
        s.illegalAttempts += f.illegalAttempts[side];
        s.costUsd += f.costUsd[side];
        s.tokens += f.tokens[side];
    }
}

// Every participant's turn sums over the games, in their order: from the cache's sums when the
// list begins with the games it summed, and the cache then holds the longest finished run.
std::vector<LeaderboardCache::TurnSums> turnSums(int n, const std::vector<GameRecord>& games, LeaderboardCache* cache) {
    std::vector<LeaderboardCache::TurnSums> sums(static_cast<size_t>(n));
    size_t from = 0;
    if (cache && cache->sums.size() == sums.size() && cache->prefix.size() <= games.size()) {
        size_t same = 0;
        while (same < cache->prefix.size() && cache->prefix[same] == turnKeyOf(games[same])) ++same;
        if (same == cache->prefix.size()) {
            sums = cache->sums;
            from = same;
        }
    }
    if (cache && from == 0) {
        cache->prefix.clear();
        cache->sums = sums;
    }
    bool run = cache != nullptr; // still inside the run of finished games the cache may keep
    for (size_t i = from; i < games.size(); ++i) {
        if (run && !games[i].finished()) {
            cache->sums = sums;
            run = false;
        }
        addTurns(sums, games[i]);
        if (run) cache->prefix.push_back(turnKeyOf(games[i]));
    }
    if (run) cache->sums = sums;
    return sums;
}

} // namespace

void fillMoveQuality(Leaderboard& board, const std::vector<GameRecord>& games, LeaderboardCache* cache) {
    std::vector<LeaderboardRow*> byParticipant;
    for (LeaderboardRow& r : board.rows) {
        if (r.participant < 0) continue;
        if (size_t(r.participant) >= byParticipant.size()) byParticipant.resize(size_t(r.participant) + 1, nullptr);
        byParticipant[size_t(r.participant)] = &r;
        r.analysedMoves = 0;
        r.avgCpLoss = 0;
        r.blunders = 0;
        r.blundersPer100Moves = 0;
    }
    if (cache) cache->quality.resize(games.size());
    for (size_t i = 0; i < games.size(); ++i) {
        const GameRecord& g = games[i];
        LeaderboardCache::GameQuality fresh;
        const LeaderboardCache::GameQuality* q = nullptr;
        if (cache) {
            if (!(cache->quality[i].key == keyOf(g))) cache->quality[i] = qualityOf(g);
            q = &cache->quality[i];
        } else {
            fresh = qualityOf(g);
            q = &fresh;
        }
        const std::array<int, 2> movers = g.movers();
        for (int side = 0; side < 2; ++side) {
            const int player = movers[size_t(side)];
            if (q->analysedMoves[side] == 0 || player < 0 || size_t(player) >= byParticipant.size() ||
                !byParticipant[size_t(player)])
                continue;
            LeaderboardRow& r = *byParticipant[size_t(player)];
            r.avgCpLoss += double(q->cpLoss[side]); // a sum until the end (whole numbers: exact)
            r.blunders += q->blunders[side];
            r.analysedMoves += q->analysedMoves[side];
        }
    }
    for (LeaderboardRow& r : board.rows) {
        r.avgCpLoss = r.analysedMoves > 0 ? r.avgCpLoss / r.analysedMoves : 0.0;
        r.blundersPer100Moves = r.analysedMoves > 0 ? 100.0 * r.blunders / r.analysedMoves : 0.0;
    }
}

std::vector<Encounter> ratedGames(const std::vector<GameRecord>& games) {
    std::vector<Encounter> rated;
    for (const GameRecord& g : games) {
        if (!g.finished()) continue;
        const Outcome o = g.result == GameResult::WhiteWins   ? Outcome::FirstWins
                          : g.result == GameResult::BlackWins ? Outcome::SecondWins
                                                              : Outcome::Draw;
        rated.push_back(encounterOf(g.pairing.white, g.pairing.black, o, isForfeit(g.termination)));
    }
    return rated;
}

Leaderboard computeLeaderboard(const TournamentConfig& config, const std::vector<GameRecord>& games,
                               const LeaderboardOptions& options) {
    return leaderboardWithFit(config, games, options,
                              fitBradleyTerry(int(config.participants.size()), ratedGames(games), fitOptions(config, options)));
}

Leaderboard leaderboardWithFit(const TournamentConfig& config, const std::vector<GameRecord>& games,
                               const LeaderboardOptions& options, const BradleyTerryFit& fit,
                               LeaderboardCache* cache) {
    const int n = int(config.participants.size());
    Leaderboard board;
    std::vector<LeaderboardRow> rows(static_cast<size_t>(n));
    std::vector<int> gamesPlayed(static_cast<size_t>(n), 0); // for the cost average
    for (int i = 0; i < n; ++i) {
        rows[size_t(i)].participant = i;
        rows[size_t(i)].contextPolicy = contextPolicyName(contextPolicyOf(config, i));
    }

    const std::vector<LeaderboardCache::TurnSums> sums = turnSums(n, games, cache);
    for (int i = 0; i < n; ++i) {
        LeaderboardRow& r = rows[size_t(i)];
        const LeaderboardCache::TurnSums& t = sums[size_t(i)];
        r.moves = t.moves;
        r.turns = t.turns;
        r.illegalAttempts = t.illegalAttempts;
        r.costUsd = t.costUsd;
        r.tokens = t.tokens;
    }
    for (const GameRecord& g : games) {
        if (!g.finished()) {
            ++board.gamesUnfinished;
            continue;
        }
        const int w = g.pairing.white;
        const int b = g.pairing.black;
        ++gamesPlayed[size_t(w)];
        ++gamesPlayed[size_t(b)];
        const bool forfeit = isForfeit(g.termination);
        if (forfeit) {
            // The loser forfeited (a forfeit never ends in a draw).
            if (g.result == GameResult::WhiteWins) ++rows[size_t(b)].forfeits;
            if (g.result == GameResult::BlackWins) ++rows[size_t(w)].forfeits;
        }
        if (forfeit && options.excludeForfeits) continue;
        ++board.gamesRated;
        ++rows[size_t(w)].games;
        ++rows[size_t(b)].games;
        if (g.result == GameResult::Draw) {
            ++rows[size_t(w)].draws;
            ++rows[size_t(b)].draws;
        } else {
            const int winner = g.result == GameResult::WhiteWins ? w : b;
            const int loser = winner == w ? b : w;
            ++rows[size_t(winner)].wins;
            ++rows[size_t(loser)].losses;
        }
    }

    const std::vector<Encounter> rated = ratedGames(games);
    const std::vector<double> anchors = anchorRatings(config);
    EloOptions eloOptions;
    eloOptions.excludeForfeits = options.excludeForfeits;
    eloOptions.keepHistory = false;
    const EloRun elo = liveElo(n, rated, eloOptions);

    for (int i = 0; i < n; ++i) {
        LeaderboardRow& r = rows[size_t(i)];
        r.rating = fit.ratings[size_t(i)];
        r.ratingLow = fit.low[size_t(i)];
        r.ratingHigh = fit.high[size_t(i)];
        r.anchored = size_t(i) < anchors.size() && anchors[size_t(i)] >= 0;
        r.elo = elo.ratings[size_t(i)];
        r.illegalPer100Moves = r.turns > 0 ? 100.0 * r.illegalAttempts / r.turns : 0.0;
        r.avgCostPerGame = gamesPlayed[size_t(i)] > 0 ? r.costUsd / gamesPlayed[size_t(i)] : 0.0;
        r.avgTokensPerMove = r.turns > 0 ? double(r.tokens) / r.turns : 0.0;
        const double half = (r.ratingHigh - r.ratingLow) / 2;
        if (r.anchored) r.gamesToPlusMinus50 = 0;
        else if (r.games > 0)
            r.gamesToPlusMinus50 = std::max(0, int(std::ceil(r.games * (half / 50.0) * (half / 50.0))) - r.games);
    }
    // Players who have not played sit at the pool mean (or their anchor) with no evidence: they
    // go below everyone who played, unranked (rank 0, shown as a dash).
    std::stable_sort(rows.begin(), rows.end(), [](const LeaderboardRow& a, const LeaderboardRow& b) {
        if ((a.games > 0) != (b.games > 0)) return a.games > 0;
        return a.rating > b.rating;
    });
    for (size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].games == 0) rows[i].rank = 0;
        else rows[i].rank = i > 0 && rows[i].rating == rows[i - 1].rating ? rows[i - 1].rank : int(i) + 1;
    }
    board.rows = std::move(rows);
    fillMoveQuality(board, games, cache);
    return board;
}

std::vector<std::vector<double>> ratingHistory(const TournamentConfig& config,
                                               const std::vector<GameRecord>& games,
                                               const LeaderboardOptions& options, int maxPoints,
                                               RatingHistoryCache* cache) {
    std::vector<std::vector<double>> history;
    if (maxPoints < 1) return history;
    const std::vector<Encounter> rated = ratedGames(games);
    // Step 1. The games that move the ratings: a point after each of them.
    std::vector<size_t> counted; // indices into `rated`
    for (size_t g = 0; g < rated.size(); ++g)
        if (!(options.excludeForfeits && rated[g].forfeit)) counted.push_back(g);
    if (counted.empty()) return history;
    // Step 2. A stable grid: after every `stride` counted games (a power of two, the smallest that
    // keeps the points at or under maxPoints), then after the last game if it is off the grid.
    const size_t total = counted.size();
    size_t stride = 1;
    while ((total + stride - 1) / stride > size_t(maxPoints)) stride *= 2;
    BradleyTerryOptions bt = fitOptions(config, options);
    bt.bootstrapSamples = 0; // point estimates only
    const int n = int(config.participants.size());
    // Step 3. A cache whose games are a prefix of these (same players, options) keeps its fits.
    if (cache) {
        const bool same = cache->options == options && cache->players == n && cache->rated.size() <= rated.size() &&
                          std::equal(cache->rated.begin(), cache->rated.end(), rated.begin());
        if (!same) cache->fits.clear();
        cache->options = options;
        cache->players = n;
        cache->rated = rated;
    }
    std::vector<Encounter> prefix;
    for (size_t k = stride; k < total + stride; k += stride) {
        const size_t upTo = counted[std::min(k, total) - 1]; // 1-based counted game -> index into rated
        if (cache) {
            auto hit = cache->fits.find(upTo + 1);
            if (hit != cache->fits.end()) {
                history.push_back(hit->second);
                continue;
            }
        }
        prefix.assign(rated.begin(), rated.begin() + std::ptrdiff_t(upTo + 1));
        history.push_back(fitBradleyTerry(n, prefix, bt).ratings);
        if (cache) cache->fits.emplace(upTo + 1, history.back());
    }
    if (cache) {
        // Only the grid's points stay (the last game's fit is on it at the next call only by chance).
        std::map<size_t, std::vector<double>> kept;
        for (size_t k = stride; k <= total; k += stride) {
            auto hit = cache->fits.find(counted[k - 1] + 1);
            if (hit != cache->fits.end()) kept.insert(std::move(*hit));
        }
        cache->fits = std::move(kept);
    }
    return history;
}

} // namespace chaiba::chessmode
