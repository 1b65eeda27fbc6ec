// The tournament scheduler: a pull iterator (`next()` hands out the next game that may start now)
// with feedback (`onGameFinished`, `onGameAbandoned`). Formats: continuous arena, single and
// double round robin, gauntlet. A participant is never in two games at once; deterministic per seed.
#pragma once

#include "src/play/rating.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chaiba::play {

enum class Format : uint8_t {
    Arena,            // continuous: idle players paired (least met, then nearest rating) for `games` games
    RoundRobin,       // every pair meets `games` times, colours alternating per meeting
    DoubleRoundRobin, // every pair meets 2 * `games` times (each meeting with both colours)
    Gauntlet          // the gauntlet player meets every other player `games` times
};
// "arena", "roundrobin", "double-roundrobin", "gauntlet" (the CLI's --format values).
std::string_view formatName(Format format);
std::optional<Format> parseFormat(std::string_view text);

// How the continuous arena chooses a pair. NearestRating: variety first, then the nearest rating
// (see nextArena). MostInformative: the idle pair whose result would shrink the rating intervals
// most per dollar: the drop in the two players' rating variances (Fisher information of one game,
// p(1-p) at the Elo expectation, added to each player's accumulated information) divided by the
// game's expected cost (costPerGameUsd of both players, with a floor so free engines do not win
// every time).
enum class ArenaPairing : uint8_t { NearestRating, MostInformative };
std::string_view arenaPairingName(ArenaPairing pairing); // "nearest", "informative"
std::optional<ArenaPairing> parseArenaPairing(std::string_view text);

struct SchedulerConfig {
    Format format = Format::Arena;
    int players = 0;
    int games = 1;         // total games (arena) or meetings per pair (see Format)
    int maxConcurrent = 1; // games running at the same time
    int gauntletPlayer = 0;
    int seededStarts = 0;  // > 0: each encounter draws a start in [0, seededStarts) from the seed (see Pairing)
    int openingCount = 0;  // size of the opening suite; 0 = standard start
    uint64_t seed = 1;
    std::vector<double> initialRatings; // arena: ratings at the start (empty: 1500 each)
    ArenaPairing pairing = ArenaPairing::NearestRating;
    std::vector<double> costPerGameUsd; // arena, MostInformative: expected cost per game per player (empty: equal)
};

// One game to play. Both games of an encounter (the 2k-th and (2k+1)-th meeting of a pair, with
// colours reversed) share the same seeded start and the same opening, so both colours play
// each start. Openings are dealt to encounters in turn (0, 1, 2, ... wrapping around).
struct Pairing {
    int id = 0; // unique; round robins: index in the full schedule
    int white = 0;
    int black = 0;
    int round = 0;             // 1-based: round-robin round, gauntlet meeting, arena start order
    int seededStart = -1;      // a start drawn from the seed in [0, seededStarts) (a Scharnagl number), or -1
    int opening = -1;          // index into the opening suite, or -1
    bool operator==(const Pairing&) const = default;
};

class Scheduler {
public:
    // Why a config cannot be scheduled ("a round robin needs at least 2 players"), or nothing.
    static std::optional<std::string> validate(const SchedulerConfig& config);
    explicit Scheduler(SchedulerConfig config); // config must be valid (assert)

    // The next game that may start now: nothing when every game has started, when maxConcurrent
    // games are running, or when the players still due are busy (call again after a game ends;
    // the arena may also leave up to half of its boards idle while pairs wait for their due
    // opponents, see nextArena in scheduler.cpp).
    std::optional<Pairing> next();
    // The game `id` ended: its players are free again; the arena updates its live Elo.
    void onGameFinished(int id, Outcome outcome);
    // The game `id` was stopped unfinished: its players are free and it is handed out again later
    // (round robins and gauntlets: the same pairing; arena: the game no longer counts).
    void onGameAbandoned(int id);

    // Resume: replays a game of an interrupted run as if next() had handed it out, then finished
    // it (with an outcome) or left it running (nothing). False if it does not fit this schedule
    // (unknown id or players, wrong colours, game already placed, player busy).
    bool restore(const Pairing& pairing, std::optional<Outcome> outcome);

    bool finished() const { return finishedCount_ == totalGames(); }
    int totalGames() const;
    int gamesFinished() const { return finishedCount_; }
    int inFlight() const { return int(running_.size()); }
    bool busy(int player) const { return busy_[size_t(player)]; }
    const SchedulerConfig& config() const { return config_; }
    // The arena's live Elo (K = 32) used for pairing; the UI may override it with setRatings.
    const std::vector<double>& ratings() const { return ratings_; }
    void setRatings(std::vector<double> ratings);
    // Accumulated Fisher information per player (the pairing's view of how well it is rated).
    const std::vector<double>& information() const { return information_; }

private:
    struct Meeting {
        int meetings = 0;   // games started between the pair
        int lastWhite = -1; // white of the last started game
        int seededStart = -1;
        int opening = -1;
    };
    Meeting& encounter(int a, int b);
    void assignStart(Pairing& pairing); // seeded start and opening by encounter
    void buildFixedSchedule();
    std::optional<Pairing> nextArena();
    // MostInformative: the idle pair with the largest variance drop per dollar (first, second), or nothing.
    std::optional<std::pair<int, int>> mostInformativePair(const std::vector<int>& idle) const;
    void start(const Pairing& pairing);

    SchedulerConfig config_;
    std::vector<Pairing> schedule_;  // round robins and gauntlet: every game, in order
    std::vector<uint8_t> placed_;    // per schedule entry: 0 waiting, 1 running, 2 finished
    std::map<int, Pairing> running_; // by id
    std::vector<bool> busy_;
    std::vector<int> started_;        // games started per player (arena fairness)
    std::vector<int> whites_;         // games started with white per player
    std::vector<int64_t> lastActive_; // sequence number of the player's last finish/start
    std::vector<double> ratings_;
    std::vector<double> information_; // per player: prior + sum of p(1-p) over finished games
    std::map<std::pair<int, int>, Meeting> encounters_;
    int encounterCount_ = 0;
    std::set<int> arenaIds_; // arena games handed out (running or finished)
    int arenaStarted_ = 0;   // arena games counted as started (abandoned ones removed)
    int nextArenaId_ = 0;
    int finishedCount_ = 0;
    int64_t sequence_ = 0;
};

} // namespace chaiba::play
