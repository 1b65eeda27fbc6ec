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

play::EloOptions eloOptionsOf(const LeaderboardOptions& options) {
    play::EloOptions elo;
    elo.excludeForfeits = options.excludeForfeits;
    elo.keepHistory = false;
    return elo;
}

// The rating plot's stride after `rated` rated games: the smallest power of two that keeps at most
// maxPoints points on the grid.
long strideFor(long rated, int maxPoints) {
    long stride = 1;
    while ((rated + stride - 1) / stride > long(maxPoints)) stride *= 2;
    return stride;
}

// The point estimates of the pairs summed so far, fitted as the leaderboard fits (no bootstrap).
std::vector<double> pointFit(const TournamentConfig& config, const LeaderboardSums& sums) {
    BradleyTerryOptions bt = fitOptions(config, sums.options);
    bt.bootstrapSamples = 0;
    return play::BradleyTerryRun(int(sums.players.size()), sums.pairs.pairs(), bt).fit().ratings;
}

// Adds games[from, to) to the sums, stopping before the first unfinished one when `finishedOnly`;
// after each game that counts in the ratings, calls atRated(). Returns where it stopped.
template <class AtRated>
size_t addGames(LeaderboardSums& sums, const std::vector<GameRecord>& games, size_t from, size_t to,
                bool finishedOnly, AtRated&& atRated) {
    size_t i = from;
    for (; i < to; ++i) {
        if (finishedOnly && !games[i].finished()) break;
        const int rated = sums.gamesRated;
        sums.add(games[i]);
        if (sums.gamesRated != rated) atRated();
    }
    return i;
}

// Whether a game counts in the ratings and the results: finished, and no excluded forfeit.
bool rated(const GameRecord& g, const LeaderboardOptions& options) {
    return g.finished() && !(options.excludeForfeits && isForfeit(g.termination));
}

// A finished game as the rating code sees it (White first), the forfeit flag from the termination.
Encounter encounterOfGame(const GameRecord& g) {
    const Outcome o = g.result == GameResult::WhiteWins   ? Outcome::FirstWins
                      : g.result == GameResult::BlackWins ? Outcome::SecondWins
                                                          : Outcome::Draw;
    return encounterOf(g.pairing.white, g.pairing.black, o, isForfeit(g.termination));
}

// A game's analysed moves into its players' sums.
void addQualityOf(std::vector<LeaderboardSums::Player>& players, const FoldedTurns& f) {
    for (size_t side = 0; side < 2; ++side) {
        if (f.analysedMoves[side] == 0) continue;
        LeaderboardSums::Player& p = players[size_t(f.movers[side])];
        p.analysedMoves += f.analysedMoves[side];
        p.cpLoss += f.cpLoss[side];
        p.blunders += f.blunders[side];
    }
}

bool sameSums(const LeaderboardSums& sums, int players, const LeaderboardOptions& options) {
    return int(sums.players.size()) == players && sums.options == options;
}

} // namespace

LeaderboardSums::LeaderboardSums(int playerCount, const LeaderboardOptions& options_)
    : options(options_), players(size_t(std::max(playerCount, 0))), pairs(playerCount, options_.excludeForfeits) {
    elo.ratings.assign(players.size(), play::EloOptions{}.start);
}

void LeaderboardSums::add(const GameRecord& g) {
    ++games;
    // The turns first (every game's), summed per player in the game, then added: a whole record
    // and its folded copy (foldTurns) give the same sums to the bit.
    const FoldedTurns f = foldTurns(g);
    for (size_t side = 0; side < 2; ++side) {
        if (f.turns[side] == 0) continue;
        Player& p = players[size_t(f.movers[side])];
        p.moves += f.moves[side];
        p.turns += f.turns[side];
        p.illegalAttempts += f.illegalAttempts[side];
        p.costUsd += f.costUsd[side];
        p.tokens += f.tokens[side];
    }
    addQualityOf(players, f);
    if (!g.finished()) {
        ++gamesUnfinished;
        return;
    }
    const int w = g.pairing.white;
    const int b = g.pairing.black;
    ++players[size_t(w)].gamesPlayed;
    ++players[size_t(b)].gamesPlayed;
    const bool forfeit = isForfeit(g.termination);
    if (forfeit) {
        // The loser forfeited (a forfeit never ends in a draw).
        if (g.result == GameResult::WhiteWins) ++players[size_t(b)].forfeits;
        if (g.result == GameResult::BlackWins) ++players[size_t(w)].forfeits;
    }
    const Encounter e = encounterOfGame(g);
    play::addEloGame(elo, e, eloOptionsOf(options));
    pairs.add(e);
    if (!rated(g, options)) return;
    ++gamesRated;
    ++players[size_t(w)].games;
    ++players[size_t(b)].games;
    if (g.result == GameResult::Draw) {
        ++players[size_t(w)].draws;
        ++players[size_t(b)].draws;
    } else {
        const int winner = g.result == GameResult::WhiteWins ? w : b;
        ++players[size_t(winner)].wins;
        ++players[size_t(winner == w ? b : w)].losses;
    }
}

void LeaderboardSums::addQuality(const GameRecord& g) { addQualityOf(players, foldTurns(g)); }

void LeaderboardTally::clear() {
    sums.reset();
    analysedWhenSummed.clear();
    lastId = -1;
    fits.clear();
}

void LeaderboardTally::analysed(size_t index, const GameRecord& g) {
    if (!sums || index >= size() || analysedWhenSummed[index] || !g.analysed()) return;
    sums->addQuality(g);
    analysedWhenSummed[index] = true;
}

LeaderboardSums sumGames(const TournamentConfig& config, const std::vector<GameRecord>& games,
                         const LeaderboardOptions& options, LeaderboardTally* tally, size_t stable) {
    const int n = int(config.participants.size());
    if (!tally) {
        LeaderboardSums sums(n, options);
        addGames(sums, games, 0, games.size(), false, [] {});
        return sums;
    }
    LeaderboardTally& t = *tally;
    stable = std::min(stable, games.size());
    if (t.sums && (!sameSums(*t.sums, n, options) || t.size() > stable || t.fitsPoints != t.historyPoints ||
                   (t.size() > 0 && games[t.size() - 1].pairing.id != t.lastId)))
        t.clear();
    if (!t.sums) {
        t.sums.emplace(n, options);
        t.fitsPoints = t.historyPoints;
    }
    // The kept run grows over the finished games the owner keeps, and the plot's grid points in
    // it are fitted as they are reached: on the grid of the run's end (any later grid is coarser,
    // a point on it is on this one), so 10 000 games summed at once fit ~200 points, not ~1 200.
    const size_t before = t.size();
    LeaderboardSums& kept = *t.sums;
    long end = kept.gamesRated;
    for (size_t i = before; i < stable && games[i].finished(); ++i) end += rated(games[i], options) ? 1 : 0;
    const long stride = t.historyPoints > 0 ? strideFor(end, t.historyPoints) : 1;
    if (t.historyPoints > 0 && end > kept.gamesRated)
        std::erase_if(t.fits, [stride](const auto& fit) { return fit.first % stride != 0; });
    addGames(kept, games, before, stable, true, [&] {
        if (t.historyPoints > 0 && kept.gamesRated % stride == 0) t.fits.emplace(kept.gamesRated, pointFit(config, kept));
    });
    for (size_t i = before; i < t.size(); ++i) t.analysedWhenSummed.push_back(games[i].analysed());
    if (t.size() > 0) t.lastId = games[t.size() - 1].pairing.id;
    LeaderboardSums sums = kept;
    addGames(sums, games, t.size(), games.size(), false, [] {});
    return sums;
}

void fillMoveQuality(Leaderboard& board, const LeaderboardSums& sums) {
    for (LeaderboardRow& r : board.rows) {
        r.analysedMoves = 0;
        r.avgCpLoss = 0;
        r.blunders = 0;
        r.blundersPer100Moves = 0;
        if (r.participant < 0 || size_t(r.participant) >= sums.players.size()) continue;
        const LeaderboardSums::Player& p = sums.players[size_t(r.participant)];
        r.analysedMoves = p.analysedMoves;
        r.blunders = p.blunders;
        r.avgCpLoss = p.analysedMoves > 0 ? double(p.cpLoss) / p.analysedMoves : 0.0;
        r.blundersPer100Moves = p.analysedMoves > 0 ? 100.0 * p.blunders / p.analysedMoves : 0.0;
    }
}

std::vector<Encounter> ratedGames(const std::vector<GameRecord>& games) {
    std::vector<Encounter> rated;
    for (const GameRecord& g : games)
        if (g.finished()) rated.push_back(encounterOfGame(g));
    return rated;
}

Leaderboard computeLeaderboard(const TournamentConfig& config, const std::vector<GameRecord>& games,
                               const LeaderboardOptions& options) {
    const LeaderboardSums sums = sumGames(config, games, options);
    play::BradleyTerryRun run(int(config.participants.size()), sums.pairs.pairs(), fitOptions(config, options));
    while (!run.step(1 << 30)) {}
    return leaderboardOf(config, sums, run.fit());
}

Leaderboard leaderboardWithFit(const TournamentConfig& config, const std::vector<GameRecord>& games,
                               const LeaderboardOptions& options, const BradleyTerryFit& fit,
                               LeaderboardTally* tally, size_t stable) {
    return leaderboardOf(config, sumGames(config, games, options, tally, stable), fit);
}

Leaderboard leaderboardOf(const TournamentConfig& config, const LeaderboardSums& sums, const BradleyTerryFit& fit) {
    const int n = int(config.participants.size());
    Leaderboard board;
    board.gamesRated = sums.gamesRated;
    board.gamesUnfinished = sums.gamesUnfinished;
    std::vector<LeaderboardRow> rows(static_cast<size_t>(n));
    const std::vector<double> anchors = anchorRatings(config);
    for (int i = 0; i < n; ++i) {
        LeaderboardRow& r = rows[size_t(i)];
        const LeaderboardSums::Player& p = sums.players[size_t(i)];
        r.participant = i;
        r.contextPolicy = contextPolicyName(contextPolicyOf(config, i));
        r.games = p.games;
        r.wins = p.wins;
        r.draws = p.draws;
        r.losses = p.losses;
        r.forfeits = p.forfeits;
        r.moves = p.moves;
        r.turns = p.turns;
        r.illegalAttempts = p.illegalAttempts;
        r.costUsd = p.costUsd;
        r.tokens = p.tokens;
        r.rating = fit.ratings[size_t(i)];
        r.ratingLow = fit.low[size_t(i)];
        r.ratingHigh = fit.high[size_t(i)];
        r.anchored = size_t(i) < anchors.size() && anchors[size_t(i)] >= 0;
        r.elo = sums.elo.ratings[size_t(i)];
        r.illegalPer100Moves = r.turns > 0 ? 100.0 * r.illegalAttempts / r.turns : 0.0;
        r.avgCostPerGame = p.gamesPlayed > 0 ? r.costUsd / p.gamesPlayed : 0.0;
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
    fillMoveQuality(board, sums);
    return board;
}

std::vector<std::vector<double>> ratingHistory(const TournamentConfig& config,
                                               const std::vector<GameRecord>& games,
                                               const LeaderboardOptions& options, int maxPoints,
                                               LeaderboardTally* tally, size_t stable) {
    std::vector<std::vector<double>> history;
    if (maxPoints < 1) return history;
    // A tally made for another grid cannot help: its fits lie elsewhere.
    if (tally && tally->historyPoints != maxPoints) tally = nullptr;
    // Step 1. The rated games (finished, without forfeits when they are excluded): a point after
    // each of them, on a stable grid: after every `stride` of them (a power of two, the smallest
    // that keeps the points at or under maxPoints), then after the last if it is off the grid.
    LeaderboardSums sums = sumGames(config, games, options, tally, stable); // (extends the tally and its fits)
    const long total = sums.gamesRated;
    if (total == 0) return history;
    const long stride = strideFor(total, maxPoints);
    // Step 2. The grid points the tally fitted (all of them, unless its grid began later)...
    long kept = tally ? tally->sums->gamesRated : 0; // rated games in the tally's run
    for (long k = stride; k <= kept; k += stride) {
        const auto fit = tally->fits.find(k);
        if (fit == tally->fits.end()) {
            history.clear();
            kept = 0;
            break;
        }
        history.push_back(fit->second);
    }
    // ... then the games after its run (or all of them) added again one by one, fitted at their
    // grid points and at the last rated game.
    const bool fromTally = kept > 0;
    sums = fromTally ? *tally->sums : LeaderboardSums(int(config.participants.size()), options);
    if (fromTally && total == kept && total % stride != 0) history.push_back(pointFit(config, sums));
    addGames(sums, games, fromTally ? tally->size() : 0, games.size(), false, [&] {
        if (sums.gamesRated > kept && (sums.gamesRated % stride == 0 || sums.gamesRated == total))
            history.push_back(pointFit(config, sums));
    });
    return history;
}

} // namespace chaiba::chessmode
