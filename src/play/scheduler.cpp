// Scheduler: fixed schedules (Berger round robin, gauntlet) handed out in order as players free
// up, and the continuous arena's on-demand, Swiss-like pairing of idle players (least met first,
// then nearest rating).
#include "src/play/scheduler.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <tuple>

namespace chaiba::play {

namespace {

// Stateless seeded hash: the same (seed, a) gives the same value on every platform.
uint64_t mix(uint64_t seed, uint64_t a) {
    SplitMix64 rng(seed ^ (a * 0xd1342543de82ef95ULL));
    return rng.next();
}

constexpr int kMaxPlayers = 1000;
constexpr int kMaxGames = 1000000;

} // namespace

std::string_view formatName(Format format) {
    switch (format) {
    case Format::Arena: return "arena";
    case Format::RoundRobin: return "roundrobin";
    case Format::DoubleRoundRobin: return "double-roundrobin";
    case Format::Gauntlet: return "gauntlet";
    }
    return "arena";
}

std::optional<Format> parseFormat(std::string_view text) {
    for (Format f : {Format::Arena, Format::RoundRobin, Format::DoubleRoundRobin, Format::Gauntlet})
        if (formatName(f) == text) return f;
    return std::nullopt;
}

std::optional<std::string> Scheduler::validate(const SchedulerConfig& c) {
    if (c.players < 2) return "a tournament needs at least 2 players";
    if (c.players > kMaxPlayers) return "too many players (at most 1000)";
    if (c.games < 1) return "the number of games must be at least 1";
    if (c.maxConcurrent < 1) return "the number of concurrent games must be at least 1";
    if (c.openingCount < 0) return "the opening suite size cannot be negative";
    if (c.format == Format::Gauntlet && (c.gauntletPlayer < 0 || c.gauntletPlayer >= c.players))
        return "the gauntlet player must be one of the participants";
    if (!c.initialRatings.empty() && int(c.initialRatings.size()) != c.players)
        return "initial ratings must be given for every player or none";
    for (double r : c.initialRatings)
        if (!std::isfinite(r)) return "initial ratings must be finite numbers";
    const long long pairs = 1LL * c.players * (c.players - 1) / 2;
    long long total = c.games;
    if (c.format == Format::RoundRobin) total = pairs * c.games;
    if (c.format == Format::DoubleRoundRobin) total = pairs * c.games * 2;
    if (c.format == Format::Gauntlet) total = 1LL * (c.players - 1) * c.games;
    if (total > kMaxGames) return "too many games (at most 1000000)";
    return std::nullopt;
}

Scheduler::Scheduler(SchedulerConfig config) : config_(std::move(config)) {
    assert(!validate(config_) && "Scheduler needs a valid config (check Scheduler::validate)");
    const size_t n = size_t(config_.players);
    busy_.assign(n, false);
    started_.assign(n, 0);
    whites_.assign(n, 0);
    lastActive_.assign(n, 0);
    ratings_ = config_.initialRatings.empty() ? std::vector<double>(n, 1500.0) : config_.initialRatings;
    information_.assign(n, 0.5); // a weak prior: two virtual even games
    if (config_.format != Format::Arena) buildFixedSchedule();
}

int Scheduler::totalGames() const {
    return config_.format == Format::Arena ? config_.games : int(schedule_.size());
}

void Scheduler::setRatings(std::vector<double> ratings) {
    if (ratings.size() == ratings_.size()) ratings_ = std::move(ratings);
}

Scheduler::Meeting& Scheduler::encounter(int a, int b) {
    return encounters_[{std::min(a, b), std::max(a, b)}];
}

void Scheduler::assignStart(Pairing& pairing) {
    Meeting& e = encounter(pairing.white, pairing.black);
    if (e.meetings % 2 == 0) {
        // A new encounter: its two games (one per colour) share the start.
        const int index = encounterCount_++;
        e.seededStart = config_.seededStarts > 0 ? int(mix(config_.seed, uint64_t(index)) % uint64_t(config_.seededStarts)) : -1;
        e.opening = config_.openingCount > 0 ? index % config_.openingCount : -1;
    }
    pairing.seededStart = e.seededStart;
    pairing.opening = e.opening;
    ++e.meetings;
    e.lastWhite = pairing.white;
}

// Round robin: the circle method (Berger tables), player n-1 (or the bye) fixed, the others
// rotating; colours so that every player's whites and blacks differ by at most one per cycle and
// nobody gets the same colour three times running. Odd cycles repeat the first with colours
// reversed. Gauntlet: meeting by meeting, the gauntlet player alternating colours.
void Scheduler::buildFixedSchedule() {
    const int n = config_.players;
    std::vector<std::pair<int, int>> order; // (white, black) of one cycle, with rounds below
    std::vector<int> rounds;
    int roundsPerCycle = 0;
    if (config_.format == Format::Gauntlet) {
        const int hero = config_.gauntletPlayer;
        for (int m = 0; m < config_.games; ++m)
            for (int o = 0; o < n; ++o) {
                if (o == hero) continue;
                Pairing p;
                p.id = int(schedule_.size());
                p.white = m % 2 == 0 ? hero : o;
                p.black = m % 2 == 0 ? o : hero;
                p.round = m + 1;
                assignStart(p);
                schedule_.push_back(p);
            }
    } else {
        const int m = n % 2 == 0 ? n : n + 1; // with a bye when odd
        roundsPerCycle = m - 1;
        for (int r = 0; r < roundsPerCycle; ++r)
            for (int k = 0; k < m / 2; ++k) {
                int white = 0;
                int black = 0;
                if (k == 0) {
                    white = r % 2 == 0 ? r : m - 1;
                    black = r % 2 == 0 ? m - 1 : r;
                } else {
                    const int a = (r + k) % roundsPerCycle;
                    const int b = (r - k + roundsPerCycle) % roundsPerCycle;
                    white = k % 2 == 1 ? a : b;
                    black = k % 2 == 1 ? b : a;
                }
                if (white >= n || black >= n) continue; // the bye
                order.push_back({white, black});
                rounds.push_back(r + 1);
            }
        const int cycles = config_.format == Format::DoubleRoundRobin ? 2 * config_.games : config_.games;
        for (int c = 0; c < cycles; ++c)
            for (size_t g = 0; g < order.size(); ++g) {
                Pairing p;
                p.id = int(schedule_.size());
                p.white = c % 2 == 0 ? order[g].first : order[g].second;
                p.black = c % 2 == 0 ? order[g].second : order[g].first;
                p.round = c * roundsPerCycle + rounds[g];
                assignStart(p);
                schedule_.push_back(p);
            }
    }
    placed_.assign(schedule_.size(), 0);
}

void Scheduler::start(const Pairing& pairing) {
    busy_[size_t(pairing.white)] = true;
    busy_[size_t(pairing.black)] = true;
    ++started_[size_t(pairing.white)];
    ++started_[size_t(pairing.black)];
    ++whites_[size_t(pairing.white)];
    lastActive_[size_t(pairing.white)] = lastActive_[size_t(pairing.black)] = ++sequence_;
    running_[pairing.id] = pairing;
}

std::optional<Pairing> Scheduler::next() {
    if (inFlight() >= config_.maxConcurrent) return std::nullopt;
    if (config_.format == Format::Arena) return nextArena();
    for (size_t i = 0; i < schedule_.size(); ++i) {
        const Pairing& p = schedule_[i];
        if (placed_[i] != 0 || busy_[size_t(p.white)] || busy_[size_t(p.black)]) continue;
        placed_[i] = 1;
        start(p);
        return p;
    }
    return std::nullopt;
}

// The arena pairs idle players, Swiss-like: variety first, then rating. Idle players go in order
// of games played (fewest first), then time waited (longest first). Step 1: the first of them who
// has an idle "due" opponent (one it has met least often among all participants, busy or not)
// plays the best of those. Step 2: if nobody idle is due to meet anybody idle, the pairs wait for
// running games to free their due opponents, as long as at most half of the boards stand idle;
// beyond that, or with no game running, the first idle player plays its best idle opponent anyway
// (no board stays idle for variety alone past half, and the arena never stalls). The best
// opponent: not an immediate rematch (the player's last opponent), not more than one game ahead
// of the player when a closer one is idle, fewest meetings, nearest rating, then the order above.
// Waiting is what keeps the field mixed when there is a board for (almost) everyone: otherwise the
// two players of a finished game are the only idle ones and meet again and again, and groups that
// finish together stay among themselves. The price, in simulations with a board for everyone:
// about a fifth of the board time idles, against pairs that never meet without it. Colours
// alternate within each pair; a first meeting gives White to the one with fewer whites (a seeded
// coin on a tie).
std::string_view arenaPairingName(ArenaPairing pairing) {
    return pairing == ArenaPairing::MostInformative ? "informative" : "nearest";
}

std::optional<ArenaPairing> parseArenaPairing(std::string_view text) {
    if (text == "nearest") return ArenaPairing::NearestRating;
    if (text == "informative") return ArenaPairing::MostInformative;
    return std::nullopt;
}

std::optional<std::pair<int, int>> Scheduler::mostInformativePair(const std::vector<int>& idle) const {
    const auto& cost = config_.costPerGameUsd;
    double maxCost = 0;
    for (double c : cost) maxCost = std::max(maxCost, c);
    const double floorUsd = maxCost > 0 ? 0.05 * maxCost : 1.0; // all free: pure information
    auto costOf = [&](int p) { return size_t(p) < cost.size() ? cost[size_t(p)] : 0.0; };
    std::optional<std::pair<int, int>> best;
    double bestGain = -1;
    for (size_t i = 0; i < idle.size(); ++i)
        for (size_t j = i + 1; j < idle.size(); ++j) {
            const int a = idle[i], b = idle[j];
            const double p = eloExpected(ratings_[size_t(a)], ratings_[size_t(b)]);
            const double q = p * (1 - p);
            const double ia = information_[size_t(a)], ib = information_[size_t(b)];
            const double drop = (1 / ia - 1 / (ia + q)) + (1 / ib - 1 / (ib + q));
            const double gain = drop / std::max(floorUsd, costOf(a) + costOf(b));
            if (gain > bestGain * (1 + 1e-12)) { // ties keep the earlier pair (idle order)
                bestGain = gain;
                best = std::make_pair(a, b);
            }
        }
    return best;
}

std::optional<Pairing> Scheduler::nextArena() {
    if (arenaStarted_ >= config_.games) return std::nullopt;
    std::vector<int> idle;
    for (int i = 0; i < config_.players; ++i)
        if (!busy_[size_t(i)]) idle.push_back(i);
    if (idle.size() < 2) return std::nullopt;

    auto before = [&](int a, int b) {
        if (started_[size_t(a)] != started_[size_t(b)]) return started_[size_t(a)] < started_[size_t(b)];
        if (lastActive_[size_t(a)] != lastActive_[size_t(b)])
            return lastActive_[size_t(a)] < lastActive_[size_t(b)];
        return a < b;
    };
    std::sort(idle.begin(), idle.end(), before);
    auto meetings = [&](int a, int b) {
        auto it = encounters_.find({std::min(a, b), std::max(a, b)});
        return it == encounters_.end() ? 0 : it->second.meetings;
    };
    // The best idle opponent of `x` among those `eligible` allows; -1 if none.
    auto bestOpponent = [&](int x, auto eligible) {
        bool anyClose = false; // fairness: prefer opponents at most one game ahead of x
        for (int o : idle)
            if (o != x && eligible(o) && started_[size_t(o)] <= started_[size_t(x)] + 1) anyClose = true;
        int best = -1;
        std::tuple<bool, bool, int, double> bestKey;
        for (int o : idle) {
            if (o == x || !eligible(o)) continue;
            // The most recent opponent of x is the one it last started (or finished) a game with.
            const bool rematch = meetings(x, o) > 0 && lastActive_[size_t(o)] == lastActive_[size_t(x)];
            const bool ahead = anyClose && started_[size_t(o)] > started_[size_t(x)] + 1;
            const std::tuple<bool, bool, int, double> key{
                rematch, ahead, meetings(x, o), std::abs(ratings_[size_t(o)] - ratings_[size_t(x)])};
            if (best < 0 || key < bestKey) { // ties keep the earlier one in `before` order
                best = o;
                bestKey = key;
            }
        }
        return best;
    };
    int first = -1;
    int opponent = -1;
    if (config_.pairing == ArenaPairing::MostInformative) {
        const std::optional<std::pair<int, int>> pair = mostInformativePair(idle);
        first = pair->first;
        opponent = pair->second;
    }
    // Step 1. The first idle player with an idle due opponent.
    for (int x : idle) {
        if (first >= 0) break; // chosen by information
        int fewest = -1;
        for (int o = 0; o < config_.players; ++o)
            if (o != x && (fewest < 0 || meetings(x, o) < fewest)) fewest = meetings(x, o);
        opponent = bestOpponent(x, [&](int o) { return meetings(x, o) == fewest; });
        if (opponent >= 0) {
            first = x;
            break;
        }
    }
    // Step 2. Nobody is due: wait while at most half of the boards are idle, else play on.
    if (first < 0) {
        const int freeBoards = config_.maxConcurrent - inFlight();
        if (inFlight() > 0 && 2 * freeBoards <= config_.maxConcurrent) return std::nullopt;
        first = idle.front();
        opponent = bestOpponent(first, [](int) { return true; });
    }

    Pairing p;
    p.id = nextArenaId_++;
    p.round = arenaStarted_ + 1;
    const Meeting& e = encounter(first, opponent);
    int white = first;
    if (e.meetings > 0) {
        white = e.lastWhite == first ? opponent : first;
    } else if (2 * whites_[size_t(first)] - started_[size_t(first)] !=
               2 * whites_[size_t(opponent)] - started_[size_t(opponent)]) {
        // Colour balance (whites minus blacks): the one with fewer whites gets White.
        const int balanceFirst = 2 * whites_[size_t(first)] - started_[size_t(first)];
        const int balanceOpp = 2 * whites_[size_t(opponent)] - started_[size_t(opponent)];
        white = balanceFirst < balanceOpp ? first : opponent;
    } else {
        white = mix(config_.seed, uint64_t(p.id) + 0x5151) % 2 == 0 ? first : opponent;
    }
    p.white = white;
    p.black = white == first ? opponent : first;
    assignStart(p);
    ++arenaStarted_;
    arenaIds_.insert(p.id);
    start(p);
    return p;
}

void Scheduler::onGameFinished(int id, Outcome outcome) {
    auto it = running_.find(id);
    if (it == running_.end()) return; // unknown or already reported: nothing to do
    const Pairing p = it->second;
    running_.erase(it);
    busy_[size_t(p.white)] = busy_[size_t(p.black)] = false;
    lastActive_[size_t(p.white)] = lastActive_[size_t(p.black)] = ++sequence_;
    if (config_.format != Format::Arena) placed_[size_t(p.id)] = 2;
    ++finishedCount_;
    const double expected = eloExpected(ratings_[size_t(p.white)], ratings_[size_t(p.black)]);
    const double delta = 32.0 * (firstScore(outcome) - expected);
    ratings_[size_t(p.white)] += delta;
    ratings_[size_t(p.black)] -= delta;
    information_[size_t(p.white)] += expected * (1 - expected);
    information_[size_t(p.black)] += expected * (1 - expected);
}

void Scheduler::onGameAbandoned(int id) {
    auto it = running_.find(id);
    if (it == running_.end()) return;
    const Pairing p = it->second;
    running_.erase(it);
    busy_[size_t(p.white)] = busy_[size_t(p.black)] = false;
    if (config_.format != Format::Arena) {
        placed_[size_t(p.id)] = 0; // handed out again, unchanged
        return;
    }
    // The arena forgets the game: counts, colours and the encounter roll back.
    --started_[size_t(p.white)];
    --started_[size_t(p.black)];
    --whites_[size_t(p.white)];
    --arenaStarted_;
    arenaIds_.erase(p.id);
    Meeting& e = encounter(p.white, p.black);
    --e.meetings;
    e.lastWhite = e.meetings > 0 ? p.black : -1;
    if (e.meetings % 2 == 0) --encounterCount_;
}

bool Scheduler::restore(const Pairing& pairing, std::optional<Outcome> outcome) {
    const int n = config_.players;
    if (pairing.white < 0 || pairing.white >= n || pairing.black < 0 || pairing.black >= n ||
        pairing.white == pairing.black || busy_[size_t(pairing.white)] || busy_[size_t(pairing.black)])
        return false;
    if (config_.format == Format::Arena) {
        if (arenaStarted_ >= config_.games || pairing.id < 0 || arenaIds_.count(pairing.id) != 0)
            return false;
        Pairing p = pairing;
        Meeting& e = encounter(p.white, p.black);
        if (e.meetings % 2 == 0) ++encounterCount_;
        e.seededStart = p.seededStart;
        e.opening = p.opening;
        ++e.meetings;
        e.lastWhite = p.white;
        ++arenaStarted_;
        arenaIds_.insert(p.id);
        nextArenaId_ = std::max(nextArenaId_, p.id + 1);
        start(p);
    } else {
        if (pairing.id < 0 || size_t(pairing.id) >= schedule_.size()) return false;
        const Pairing& expected = schedule_[size_t(pairing.id)];
        if (placed_[size_t(pairing.id)] != 0 || expected.white != pairing.white ||
            expected.black != pairing.black)
            return false;
        placed_[size_t(pairing.id)] = 1;
        start(expected);
    }
    if (outcome) onGameFinished(pairing.id, *outcome);
    return true;
}

} // namespace chaiba::play
