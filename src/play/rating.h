// Ratings for the arena, pure and UI-free: the original design's live Elo (start 1500, K = 32) and
// a Bradley-Terry maximum-likelihood fit on the Elo scale with anchors and seeded bootstrap
// intervals. Players are indices 0..playerCount-1; the input is encounters: a two-player game is one
// encounter, a team game breaks into team-vs-team pairs (encountersOfTeamGame).
#pragma once

#include "engine/common/splitmix64.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace chaiba::play {

// A finished two-seat game's outcome from the first seat's point of view.
enum class Outcome : uint8_t { FirstWins, Draw, SecondWins };
// 1, 0.5, 0.
double firstScore(Outcome outcome);

// One rated pair as the rating code sees it: a two-player game, or one pair of a team game.
// Unfinished or aborted games yield no encounters.
struct Encounter {
    int a = 0;            // participant index
    int b = 0;            // participant index
    double scoreA = 0.5;  // 1 (a won), 0.5 (drawn), 0 (b won)
    bool forfeit = false; // decided by a forfeit (refused actions, timeouts, ...), not in play
    bool operator==(const Encounter&) const = default;
};
// The encounter of a two-seat game.
Encounter encounterOf(int first, int second, Outcome outcome, bool forfeit = false);

// A team game as encounters: every member of team A against every member of team B with team A's
// score (1, 0.5, 0), so each cross-team pair counts once; teammates never meet. A game of 5
// against 7 is 35 encounters (no per-table weighting).
std::vector<Encounter> encountersOfTeamGame(const std::vector<int>& teamA, const std::vector<int>& teamB,
                                            double scoreA, bool forfeit = false);

// Expected score of a player rated `rating` against one rated `opponent`: 1 / (1 + 10^(d/400)).
// The one expected-score function above engine/ (the scheduler, live Elo and the fit use it);
// search::expectedScore is the engine's twin (engine/ cannot include play/), pinned equal by a test.
double eloExpected(double rating, double opponent);

struct EloOptions {
    double start = 1500; // everyone's first rating
    double k = 32;       // update factor
    bool excludeForfeits = false;
    bool keepHistory = true; // false: EloRun::history stays empty (a games x players table)
};

// Live Elo: encounters applied one by one in the given (finish) order. history[g] = ratings of all
// players after game g (skipped forfeit games repeat the previous row), for the rating plot.
struct EloRun {
    std::vector<double> ratings;
    std::vector<std::vector<double>> history;
};
EloRun liveElo(int playerCount, const std::vector<Encounter>& games, const EloOptions& options = {});
// One more encounter of liveElo: run.ratings (and run.history when kept) as after it. liveElo is
// this, game by game, so a run kept between calls and grown here is liveElo's to the bit.
void addEloGame(EloRun& run, const Encounter& game, const EloOptions& options = {});

// Bradley-Terry (logistic) model on the Elo scale: P(i beats j) = 1 / (1 + 10^((Rj - Ri) / 400)),
// fitted by maximum likelihood with draws as half a win for each side; no first-move advantage.
//
// Degenerate data (documented behaviour): every player also plays `virtualDraws` drawn games
// against a virtual opponent at the centre of the scale (1500 without anchors, the mean anchor
// rating with anchors). This small prior keeps perfect or empty records finite (a player who won
// all n games lands at about centre + 400*log10((n + v/2) / (v/2)) rather than infinity), places a
// player with zero games exactly at the centre, and ties groups that never met each other to the
// centre instead of letting them drift. It never yields NaN or infinity. Set it to 0 for the plain
// maximum-likelihood fit; a tiny floor (1e-6) is kept so the problem stays well posed.
struct BradleyTerryOptions {
    // Fixed ratings: anchors[i] >= 0 fixes player i (e.g. a built-in engine level at its calibrated
    // rating); negative means "fit". Empty or all negative: unanchored, the mean rating is 1500.
    std::vector<double> anchors;
    double virtualDraws = 1.0; // per player in the fit; per pair that met in the bootstrap (below)
    bool excludeForfeits = false;
    int bootstrapSamples = 1000; // 0: no intervals (low = high = rating)
    uint64_t seed = 1;
    double confidence = 0.95; // central interval of the bootstrap distribution
};

struct BradleyTerryFit {
    std::vector<double> ratings; // point estimate per player
    std::vector<double> low;     // bootstrap percentile interval (anchored players: their anchor)
    std::vector<double> high;
    std::vector<int> games;       // games counted per player (after excluding forfeits if asked)
    int iterations = 0;           // Newton iterations of the point estimate
    long bootstrapIterations = 0; // Newton iterations of all bootstrap refits
};

// The fit plus intervals. Bootstrap (smoothed Poisson bootstrap within pairs): each pair that met
// is resampled on its own. Its games, plus `virtualDraws` pseudo-games split between a win and a
// loss as the point estimate predicts the pair (P(i beats j) and 1 - P), are each counted a
// Poisson(1) number of times; so a pair's resampled wins, draws and losses are independent
// Poisson counts with means (wins + v*P, draws, losses + v*(1 - P)). Two consequences, both
// wanted: a pair whose results are all alike (5-0) still resamples to other records (4-0, 7-0,
// 5-1), so its interval has a width and contains the point estimate instead of collapsing onto
// it; and the pseudo-games follow the fit, so they widen the intervals by about one game's worth
// per pair without pulling them toward the centre. With many games per pair this is the ordinary
// bootstrap (the same variance of each pair's score about the fit). With virtualDraws = 0 only the
// Poisson counts remain: a perfect record still varies (3-0, 8-0), a pair of draws only does not.
// Each resample is refitted from the point estimate by the chord method (Newton steps reusing the
// point estimate's Hessian factor, accelerated; full Newton if that stalls). Percentile intervals.
// Deterministic per seed on every platform (own generator and Poisson sampler, no <random>).
// Cost: ~0.1 s natively, ~0.2-0.35 s in WebAssembly for 50 players, 10,000 games, 1000 samples.
BradleyTerryFit fitBradleyTerry(int playerCount, const std::vector<Encounter>& games,
                                const BradleyTerryOptions& options = {});

// Pairwise aggregate used by the fit (exposed for tests and the benchmark): games of each
// unordered pair i < j that met, with i's wins, draws and losses.
struct PairTally {
    int i = 0;
    int j = 0;
    int winsI = 0;
    int draws = 0;
    int lossesI = 0;
    int games() const { return winsI + draws + lossesI; }
};
// The same fit in slices, for a page that must keep its frame budget: the point estimate is made
// at construction (fit().ratings, with low = high = rating), the bootstrap runs `samples` more
// resamples per step(), and once done() the intervals equal fitBradleyTerry's to the last bit (the
// same generator, the same order of draws, whatever the slice sizes).
class BradleyTerryRun {
public:
    BradleyTerryRun(int playerCount, const std::vector<Encounter>& games, const BradleyTerryOptions& options = {});
    // The same from the pairs as tallyPairs made them, in its order (the order of the bootstrap's
    // draws): another thread rebuilds a run from them (rating_job.h). Forfeits are already out.
    BradleyTerryRun(int playerCount, std::vector<PairTally> pairs, const BradleyTerryOptions& options);
    ~BradleyTerryRun();
    BradleyTerryRun(BradleyTerryRun&&) noexcept;
    BradleyTerryRun& operator=(BradleyTerryRun&&) noexcept;
    // Draws up to `samples` (at least one) more resamples; true once the intervals are in fit().
    bool step(int samples);
    bool done() const;
    int samplesDrawn() const;
    int samplesWanted() const;
    const BradleyTerryFit& fit() const;
    // What another thread needs to draw the same samples: the players, the tallied pairs, the
    // options (excludeForfeits already applied to the pairs).
    int players() const;
    const std::vector<PairTally>& pairs() const;
    const BradleyTerryOptions& options() const;
    // Takes the intervals drawn elsewhere from these pairs and options (they equal what step()
    // would draw here); false, and nothing changes, if their size is not the players'.
    bool adoptIntervals(std::vector<double> low, std::vector<double> high, long bootstrapIterations);

private:
    void init(std::vector<PairTally> pairs);
    struct State;
    std::unique_ptr<State> s_;
};

std::vector<PairTally> tallyPairs(int playerCount, const std::vector<Encounter>& games, bool excludeForfeits);

// tallyPairs kept as the encounters come: the same pairs in the same order (a pair where it first
// met) after every add(), so a list that grows at its end costs one add per game, not a pass over
// all of them. tallyPairs is this over the whole list.
class PairTallies {
public:
    PairTallies() = default;
    PairTallies(int playerCount, bool excludeForfeits);
    void add(const Encounter& game);
    const std::vector<PairTally>& pairs() const { return pairs_; }
    long games() const { return games_; } // encounters counted (forfeits left out when excluded)

private:
    int players_ = 0;
    bool excludeForfeits_ = false;
    std::vector<int> slot_; // players x players: index in pairs_, -1 before the pair met
    std::vector<PairTally> pairs_;
    long games_ = 0;
};

// The bootstrap draws from the project's one seeded generator (engine/common/splitmix64.h).
using SplitMix64 = chaiba::SplitMix64;

} // namespace chaiba::play
