// Live Elo and the Bradley-Terry fit: damped Newton on the pairwise score matrix (dense Cholesky,
// fine for the few dozen players of an arena), smoothed Poisson bootstrap within pairs.
#include "src/play/rating.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace chaiba::play {

namespace {

constexpr double kEloScale = 400.0;
constexpr double kMinVirtualDraws = 1e-6;
// Natural logistic units per Elo point: P = 1 / (1 + exp(-(Ri - Rj) * kNatPerElo)).
const double kNatPerElo = std::log(10.0) / kEloScale;

double logistic(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

// The fit's working data: pairs with i's score in half-points, the free (non-anchored) players.
struct Problem {
    int players = 0;
    std::vector<PairTally> pairs;
    std::vector<double> scoreI; // wins + draws / 2 of pair.i against pair.j
    std::vector<int> var;       // variable index of each player, -1 if anchored
    int vars = 0;
    double prior = 1.0; // virtual draws against the centre (y = 0)
};

// Cholesky factorisation A = L L^T in place (lower triangle) of a symmetric positive definite A
// (n x n, row-major); false if A is not positive definite.
bool choleskyFactor(std::vector<double>& a, int n) {
    for (int j = 0; j < n; ++j) {
        double d = a[j * n + j];
        for (int k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
        if (!(d > 0)) return false;
        const double l = std::sqrt(d);
        a[j * n + j] = l;
        for (int i = j + 1; i < n; ++i) {
            double s = a[i * n + j];
            for (int k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = s / l;
        }
    }
    return true;
}

// Solves L L^T x = b in place with the factor from choleskyFactor.
void choleskySolve(const std::vector<double>& a, std::vector<double>& b, int n) {
    for (int i = 0; i < n; ++i) {
        double s = b[i];
        for (int k = 0; k < i; ++k) s -= a[i * n + k] * b[k];
        b[i] = s / a[i * n + i];
    }
    for (int i = n - 1; i >= 0; --i) {
        double s = b[i];
        for (int k = i + 1; k < n; ++k) s -= a[k * n + i] * b[k];
        b[i] = s / a[i * n + i];
    }
}

// Gradient of the penalised log-likelihood at y over the free players and, if `hessian` is not
// null, the negative Hessian (a weighted graph Laplacian plus the prior's diagonal: positive
// definite). Strengths exp(y) are computed once per player, not once per pair.
void assemble(const Problem& p, const std::vector<double>& y, std::vector<double>& gradient,
              std::vector<double>* hessian, std::vector<double>& strength) {
    const int n = p.vars;
    gradient.assign(size_t(n), 0.0);
    if (hessian) hessian->assign(size_t(n) * size_t(n), 0.0);
    const double top = *std::max_element(y.begin(), y.end());
    strength.resize(y.size());
    for (size_t i = 0; i < y.size(); ++i) strength[i] = std::exp(y[i] - top);
    for (size_t k = 0; k < p.pairs.size(); ++k) {
        const PairTally& t = p.pairs[k];
        const double games = t.games();
        // P(i beats j) = e_i / (e_i + e_j); the logistic directly if both underflow.
        const double sum = strength[size_t(t.i)] + strength[size_t(t.j)];
        const double prob = sum > 1e-300 ? strength[size_t(t.i)] / sum : logistic(y[t.i] - y[t.j]);
        const double g = p.scoreI[k] - games * prob;
        const int a = p.var[t.i];
        const int b = p.var[t.j];
        if (a >= 0) gradient[a] += g;
        if (b >= 0) gradient[b] -= g;
        if (!hessian) continue;
        const double w = games * prob * (1.0 - prob);
        std::vector<double>& h = *hessian;
        if (a >= 0) h[a * n + a] += w;
        if (b >= 0) h[b * n + b] += w;
        if (a >= 0 && b >= 0) {
            h[a * n + b] -= w;
            h[b * n + a] -= w;
        }
    }
    for (int i = 0; i < p.players; ++i) {
        const int a = p.var[i];
        if (a < 0) continue;
        const double prob = logistic(y[i]);
        gradient[a] += p.prior * (0.5 - prob);
        if (hessian) (*hessian)[a * n + a] += p.prior * prob * (1.0 - prob) + 1e-12;
    }
}

// Applies the step in `step` (per variable) to y, capped at 2 nats (~350 Elo) per component:
// plain Newton overshoots on lopsided records. Returns the largest step component.
double applyStep(const Problem& p, const std::vector<double>& step, std::vector<double>& y) {
    double largest = 0;
    for (double d : step) largest = std::max(largest, std::abs(d));
    const double scale = largest > 2.0 ? 2.0 / largest : 1.0;
    for (int i = 0; i < p.players; ++i)
        if (p.var[i] >= 0) y[i] += scale * step[size_t(p.var[i])];
    return largest;
}

struct Workspace {
    std::vector<double> hessian;
    std::vector<double> gradient;
    std::vector<double> strength;
    std::vector<double> image, lastImage, lastStep; // the chord method's acceleration (per variable)
};

// Maximises the log-likelihood over the free players of y (natural units, centre = 0) by damped
// Newton from y; stops after a step smaller than `tolerance`. Returns the iterations used.
int newton(const Problem& p, std::vector<double>& y, double tolerance, int maxIterations, Workspace& w) {
    if (p.vars == 0) return 0;
    for (int it = 1; it <= maxIterations; ++it) {
        assemble(p, y, w.gradient, &w.hessian, w.strength);
        if (!choleskyFactor(w.hessian, p.vars)) return it; // cannot happen with the prior floor
        choleskySolve(w.hessian, w.gradient, p.vars);
        if (applyStep(p, w.gradient, y) < tolerance) return it;
    }
    return maxIterations;
}

// The chord method for the bootstrap: Newton steps with a fixed Hessian factor (the point
// estimate's), so an iteration costs one pass over the pairs and two triangular solves instead of
// a factorisation. Alone it converges linearly, and slowly when a resample changes the pairs' game
// counts; Anderson acceleration of depth one speeds it up: the next iterate is the chord image
// G(y) = y + step corrected along the last change of images, by the factor that best cancels the
// last change of steps (least squares). A step over the cap is taken plainly and restarts the
// acceleration. If it has not converged after `maxIterations`, full Newton finishes from where it
// got. Returns the iterations used.
int chord(const Problem& p, const std::vector<double>& factor, std::vector<double>& y, double tolerance,
          int maxIterations, Workspace& w) {
    if (p.vars == 0) return 0;
    const size_t n = size_t(p.vars);
    w.image.resize(n);
    w.lastImage.resize(n);
    w.lastStep.resize(n);
    bool accelerate = false;
    for (int it = 1; it <= maxIterations; ++it) {
        assemble(p, y, w.gradient, nullptr, w.strength);
        choleskySolve(factor, w.gradient, p.vars); // the chord step
        const std::vector<double>& step = w.gradient;
        double largest = 0;
        for (double d : step) largest = std::max(largest, std::abs(d));
        if (largest > 2.0) {
            applyStep(p, step, y);
            accelerate = false;
            continue;
        }
        double along = 0; // least squares: minimise |step - gamma * (step - lastStep)|
        double norm = 0;
        for (size_t v = 0; v < n; ++v) {
            const double change = step[v] - w.lastStep[v];
            along += step[v] * change;
            norm += change * change;
        }
        const double gamma = accelerate && norm > 0 ? along / norm : 0.0;
        for (int i = 0; i < p.players; ++i) {
            const int v = p.var[size_t(i)];
            if (v < 0) continue;
            const size_t k = size_t(v);
            w.image[k] = y[size_t(i)] + step[k];
            y[size_t(i)] = w.image[k] - gamma * (w.image[k] - w.lastImage[k]);
        }
        w.lastImage.swap(w.image);
        w.lastStep.assign(step.begin(), step.end());
        accelerate = true;
        if (largest < tolerance) return it;
    }
    return maxIterations + newton(p, y, tolerance, 50, w);
}

// Poisson counts for the bootstrap, by inversion against cumulative tables built once per fit:
// one per integer mean 1..kMaxTableMean (a pair's wins, draws and losses are counts) and one for
// the pseudo-games' mean. A larger mean is drawn as a sum of draws of at most kMaxTableMean (a sum
// of Poissons is Poisson). Each table stops where its tail is below 1e-15 and has a guide table
// (the search starts at the first k that a uniform in the guide's slot can map to), so a draw
// costs one uniform and one or two comparisons. The same counts on every platform for the same exp().
class PoissonTables {
public:
    explicit PoissonTables(double pseudoMean) {
        for (int mean = 1; mean <= kMaxTableMean; ++mean) add(mean);
        add(pseudoMean);
    }
    int draw(SplitMix64& rng, int mean) const {
        int count = 0;
        for (; mean > kMaxTableMean; mean -= kMaxTableMean) count += search(size_t(kMaxTableMean - 1), rng);
        return mean > 0 ? count + search(size_t(mean - 1), rng) : count;
    }
    int drawPseudo(SplitMix64& rng) const { return search(tables_.size() - 1, rng); }

private:
    static constexpr int kMaxTableMean = 32;
    struct Table {
        size_t cdf = 0;   // offset of P(X <= k), k = 0, 1, ..., then a sentinel above 1
        size_t guide = 0; // offset of the guide: slot g holds the first k with P(X <= k) >= g / slots
        int slots = 0;
    };
    void add(double mean) {
        Table t;
        t.cdf = cdf_.size();
        double term = std::exp(-mean); // P(0); means up to 32 stay far from underflow
        double sum = term;
        cdf_.push_back(sum);
        for (int k = 1; sum < 1.0 - 1e-15 && term > 0; ++k) {
            term *= mean / k;
            sum += term;
            cdf_.push_back(sum);
        }
        const int size = int(cdf_.size() - t.cdf);
        cdf_.push_back(2.0); // sentinel: a uniform beyond the table's last value maps to `size`
        t.guide = guide_.size();
        t.slots = size;
        int k = 0;
        for (int g = 0; g < t.slots; ++g) {
            while (cdf_[t.cdf + size_t(k)] < double(g) / t.slots) ++k;
            guide_.push_back(k);
        }
        tables_.push_back(t);
    }
    // The first k with P(X <= k) >= u: exact inversion, started from the guide.
    int search(size_t table, SplitMix64& rng) const {
        const Table& t = tables_[table];
        const double u = rng.uniform();
        int k = guide_[t.guide + size_t(u * t.slots)];
        while (u > cdf_[t.cdf + size_t(k)]) ++k;
        return k;
    }
    std::vector<Table> tables_;
    std::vector<double> cdf_;
    std::vector<int> guide_;
};

// Percentile of sorted values with linear interpolation, q in [0, 1].
double percentile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const double pos = q * double(sorted.size() - 1);
    const size_t lo = size_t(std::floor(pos));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    const double frac = pos - double(lo);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

} // namespace

double firstScore(Outcome outcome) {
    switch (outcome) {
    case Outcome::FirstWins: return 1.0;
    case Outcome::Draw: return 0.5;
    case Outcome::SecondWins: return 0.0;
    }
    return 0.5;
}

Encounter encounterOf(int first, int second, Outcome outcome, bool forfeit) {
    return Encounter{first, second, firstScore(outcome), forfeit};
}

std::vector<Encounter> encountersOfTeamGame(const std::vector<int>& teamA, const std::vector<int>& teamB,
                                            double scoreA, bool forfeit) {
    std::vector<Encounter> out;
    out.reserve(teamA.size() * teamB.size());
    for (int a : teamA)
        for (int b : teamB)
            if (a != b) out.push_back(Encounter{a, b, scoreA, forfeit});
    return out;
}

double eloExpected(double rating, double opponent) {
    return 1.0 / (1.0 + std::pow(10.0, (opponent - rating) / kEloScale));
}

EloRun liveElo(int playerCount, const std::vector<Encounter>& games, const EloOptions& options) {
    EloRun run;
    run.ratings.assign(size_t(std::max(playerCount, 0)), options.start);
    if (options.keepHistory) run.history.reserve(games.size());
    for (const Encounter& g : games) addEloGame(run, g, options);
    return run;
}

void addEloGame(EloRun& run, const Encounter& g, const EloOptions& options) {
    const int playerCount = int(run.ratings.size());
    assert(g.a >= 0 && g.a < playerCount && g.b >= 0 && g.b < playerCount &&
           "an encounter's players must be participants");
    (void)playerCount;
    if (!(options.excludeForfeits && g.forfeit) && g.a != g.b) {
        const double expected = eloExpected(run.ratings[size_t(g.a)], run.ratings[size_t(g.b)]);
        const double delta = options.k * (g.scoreA - expected);
        run.ratings[size_t(g.a)] += delta;
        run.ratings[size_t(g.b)] -= delta;
    }
    if (options.keepHistory) run.history.push_back(run.ratings);
}

std::vector<PairTally> tallyPairs(int playerCount, const std::vector<Encounter>& games,
                                  bool excludeForfeits) {
    PairTallies tallies(playerCount, excludeForfeits);
    for (const Encounter& g : games) tallies.add(g);
    return tallies.pairs();
}

PairTallies::PairTallies(int playerCount, bool excludeForfeits)
    : players_(std::max(playerCount, 0)), excludeForfeits_(excludeForfeits),
      slot_(size_t(players_) * size_t(players_), -1) {}

void PairTallies::add(const Encounter& g) {
    assert(g.a >= 0 && g.a < players_ && g.b >= 0 && g.b < players_ && "an encounter's players must be participants");
    if ((excludeForfeits_ && g.forfeit) || g.a == g.b) return;
    const int i = std::min(g.a, g.b);
    const int j = std::max(g.a, g.b);
    int& s = slot_[size_t(i) * size_t(players_) + size_t(j)];
    if (s < 0) {
        s = int(pairs_.size());
        pairs_.push_back(PairTally{i, j, 0, 0, 0});
    }
    PairTally& t = pairs_[size_t(s)];
    const double scoreOfI = g.a == i ? g.scoreA : 1.0 - g.scoreA;
    if (scoreOfI > 0.75)
        ++t.winsI;
    else if (scoreOfI < 0.25)
        ++t.lossesI;
    else
        ++t.draws;
    ++games_;
}


// Everything a fit keeps between slices: the problem, the point estimate, the chord factor and
// the generator, so the samples drawn in slices are the samples drawn in one go.
struct BradleyTerryRun::State {
    BradleyTerryFit fit;
    BradleyTerryOptions options;
    int n = 0;
    Problem p;
    double centre = 1500.0;
    int anchorCount = 0;
    std::vector<double> anchors;
    double confidence = 0.95;
    std::vector<double> y;
    Workspace work;
    // The bootstrap (empty when there is none to run).
    int samples = 0;
    int drawnSoFar = 0;
    std::vector<double> factor;
    std::vector<double> predicted;
    std::unique_ptr<PoissonTables> poisson;
    std::vector<std::vector<double>> drawn;
    SplitMix64 rng{1};
    Problem resampled;
    std::vector<double> ys;
    std::vector<double> ratings;
    bool done = false;

    // Without anchors the scale is shifted so that the mean rating is exactly 1500.
    void toElo(const std::vector<double>& v, std::vector<double>& out) const {
        out.resize(size_t(n));
        double mean = 0;
        for (int i = 0; i < n; ++i) {
            out[size_t(i)] = centre + v[size_t(i)] / kNatPerElo;
            mean += out[size_t(i)];
        }
        if (anchorCount == 0 && n > 0) {
            const double shift = 1500.0 - mean / n;
            for (double& r : out) r += shift;
        }
        for (int i = 0; i < n; ++i)
            if (p.var[size_t(i)] < 0) out[size_t(i)] = anchors[size_t(i)]; // exact, no round-off
    }

    void finish() {
        const double tail = (1.0 - std::clamp(confidence, 0.0, 1.0)) / 2.0;
        for (int i = 0; i < n; ++i) {
            std::vector<double>& d = drawn[size_t(i)];
            std::sort(d.begin(), d.end());
            fit.low[size_t(i)] = percentile(d, tail);
            fit.high[size_t(i)] = percentile(d, 1.0 - tail);
        }
        drawn.clear();
        done = true;
    }
};

BradleyTerryRun::BradleyTerryRun(int playerCount, const std::vector<Encounter>& games,
                                 const BradleyTerryOptions& options)
    : s_(std::make_unique<State>()) {
    s_->n = std::max(playerCount, 0);
    s_->options = options;
    init(tallyPairs(s_->n, games, options.excludeForfeits));
}

BradleyTerryRun::BradleyTerryRun(int playerCount, std::vector<PairTally> pairs, const BradleyTerryOptions& options)
    : s_(std::make_unique<State>()) {
    s_->n = std::max(playerCount, 0);
    s_->options = options;
    s_->options.excludeForfeits = false; // the pairs hold no forfeit any more, or count them
    init(std::move(pairs));
}

void BradleyTerryRun::init(std::vector<PairTally> pairs) {
    State& st = *s_;
    const BradleyTerryOptions& options = st.options;
    BradleyTerryFit& fit = st.fit;
    const int n = st.n;
    Problem& p = st.p;
    p.players = n;
    p.pairs = std::move(pairs);
    p.prior = std::max(options.virtualDraws, kMinVirtualDraws);
    p.var.assign(size_t(n), -1);
    st.anchors = options.anchors;
    st.anchors.resize(size_t(n), -1.0);
    st.confidence = options.confidence;

    // The centre: 1500 unanchored, else the mean anchor. Working values are y = (R - centre) * ln10/400.
    double anchorSum = 0;
    for (int i = 0; i < n; ++i) {
        const bool anchored = st.anchors[size_t(i)] >= 0 && std::isfinite(st.anchors[size_t(i)]);
        if (anchored) {
            anchorSum += st.anchors[size_t(i)];
            ++st.anchorCount;
        } else {
            p.var[size_t(i)] = p.vars++;
        }
    }
    st.centre = st.anchorCount > 0 ? anchorSum / st.anchorCount : 1500.0;
    std::vector<double>& y = st.y;
    y.assign(size_t(n), 0.0);
    for (int i = 0; i < n; ++i)
        if (p.var[size_t(i)] < 0) y[size_t(i)] = (st.anchors[size_t(i)] - st.centre) * kNatPerElo;

    p.scoreI.assign(p.pairs.size(), 0.0);
    fit.games.assign(size_t(n), 0);
    for (size_t k = 0; k < p.pairs.size(); ++k) {
        const PairTally& t = p.pairs[k];
        p.scoreI[k] = t.winsI + 0.5 * t.draws;
        fit.games[size_t(t.i)] += t.games();
        fit.games[size_t(t.j)] += t.games();
    }

    fit.iterations = newton(p, y, 1e-10, 200, st.work);
    st.toElo(y, fit.ratings);
    fit.low = fit.ratings;
    fit.high = fit.ratings;
    st.done = true;
    if (options.bootstrapSamples <= 0 || p.vars == 0 || p.pairs.empty()) return;

    // Bootstrap (see rating.h): per pair, independent Poisson counts of wins, draws and losses with
    // means = the observed counts plus `prior` pseudo-games split as the point estimate predicts.
    // The chord method reuses the Hessian factor at the point estimate.
    {
        std::vector<double> unusedGradient;
        assemble(p, y, unusedGradient, &st.factor, st.work.strength);
        if (!choleskyFactor(st.factor, p.vars)) return; // cannot happen with the prior floor
    }
    // P(i beats j) at the point estimate: how each pair's pseudo-games split into wins and losses.
    st.predicted.resize(p.pairs.size());
    for (size_t k = 0; k < p.pairs.size(); ++k)
        st.predicted[k] = logistic(y[size_t(p.pairs[k].i)] - y[size_t(p.pairs[k].j)]);
    st.poisson = std::make_unique<PoissonTables>(p.prior);
    st.samples = options.bootstrapSamples;
    // st.drawn is made by the first step(): a run whose intervals come from elsewhere never needs it.
    st.rng = SplitMix64(options.seed);
    st.resampled = p;
    st.done = false;
}

BradleyTerryRun::~BradleyTerryRun() = default;
BradleyTerryRun::BradleyTerryRun(BradleyTerryRun&&) noexcept = default;
BradleyTerryRun& BradleyTerryRun::operator=(BradleyTerryRun&&) noexcept = default;

bool BradleyTerryRun::step(int samples) {
    State& st = *s_;
    if (st.done) return true;
    const Problem& p = st.p;
    if (st.drawn.empty()) st.drawn.assign(static_cast<size_t>(st.n), std::vector<double>(static_cast<size_t>(st.samples)));
    const int end = std::min(st.samples, st.drawnSoFar + std::max(samples, 1));
    for (int s = st.drawnSoFar; s < end; ++s) {
        for (size_t k = 0; k < p.pairs.size(); ++k) {
            const PairTally& t = p.pairs[k];
            PairTally& r = st.resampled.pairs[k];
            r.winsI = st.poisson->draw(st.rng, t.winsI);
            r.draws = st.poisson->draw(st.rng, t.draws);
            r.lossesI = st.poisson->draw(st.rng, t.lossesI);
            // Poisson(v) pseudo-games, each a win with probability P: Poisson(v*P) wins and
            // Poisson(v*(1 - P)) losses, independent.
            for (int pseudo = st.poisson->drawPseudo(st.rng); pseudo > 0; --pseudo)
                ++(st.rng.uniform() < st.predicted[k] ? r.winsI : r.lossesI);
            st.resampled.scoreI[k] = r.winsI + 0.5 * r.draws;
        }
        st.ys = st.y; // warm start from the point estimate
        // A chord step under 1e-5 nats leaves an error of the same order (0.002 Elo): far below
        // what a percentile interval resolves.
        st.fit.bootstrapIterations += chord(st.resampled, st.factor, st.ys, 1e-5, 12, st.work);
        st.toElo(st.ys, st.ratings);
        for (int i = 0; i < st.n; ++i) st.drawn[size_t(i)][size_t(s)] = st.ratings[size_t(i)];
    }
    st.drawnSoFar = end;
    if (st.drawnSoFar >= st.samples) st.finish();
    return st.done;
}

bool BradleyTerryRun::done() const { return s_->done; }
int BradleyTerryRun::samplesDrawn() const { return s_->drawnSoFar; }
int BradleyTerryRun::samplesWanted() const { return s_->samples; }
const BradleyTerryFit& BradleyTerryRun::fit() const { return s_->fit; }
int BradleyTerryRun::players() const { return s_->n; }
const std::vector<PairTally>& BradleyTerryRun::pairs() const { return s_->p.pairs; }
const BradleyTerryOptions& BradleyTerryRun::options() const { return s_->options; }

bool BradleyTerryRun::adoptIntervals(std::vector<double> low, std::vector<double> high, long bootstrapIterations) {
    State& st = *s_;
    if (low.size() != size_t(st.n) || high.size() != size_t(st.n)) return false;
    st.fit.low = std::move(low);
    st.fit.high = std::move(high);
    st.fit.bootstrapIterations = bootstrapIterations;
    st.drawn.clear();
    st.drawnSoFar = st.samples;
    st.done = true;
    return true;
}

BradleyTerryFit fitBradleyTerry(int playerCount, const std::vector<Encounter>& games,
                                const BradleyTerryOptions& options) {
    BradleyTerryRun run(playerCount, games, options);
    while (!run.step(1 << 30)) {}
    return run.fit();
}

} // namespace chaiba::play
