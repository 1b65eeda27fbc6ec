// Game results and the leaderboard.
#include "src/modes/werewolf/results.h"

#include "engine/werewolf/bots.h"
#include "src/modes/werewolf/game_session.h"
#include "src/play/rating.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

namespace chaiba::werewolfmode {

namespace {
// The sum of one seat figure over the game's seats.
template <class T> T sumSeats(const std::vector<SeatResult>& seats, T SeatResult::*field) {
    T n = 0;
    for (const SeatResult& s : seats) n += s.*field;
    return n;
}
} // namespace

long long GameResult::tokens() const { return sumSeats(seats, &SeatResult::tokens); }
double GameResult::costUsd() const { return sumSeats(seats, &SeatResult::costUsd); }
int GameResult::fallbacks() const { return sumSeats(seats, &SeatResult::fallbacks); }
int GameResult::asks() const { return sumSeats(seats, &SeatResult::asks); }
int GameResult::notesAsks() const { return sumSeats(seats, &SeatResult::notesAsks); }
int GameResult::notesFallbacks() const { return sumSeats(seats, &SeatResult::notesFallbacks); }

std::vector<VoteSwing> voteSwing(const std::vector<werewolf::Event>& events, int seats) {
    std::vector<VoteSwing> out(std::size_t(std::max(0, seats)));
    if (seats <= 0) return out;
    const auto valid = [seats](int s) { return s >= 0 && s < seats; };
    struct Accusation {
        int speaker, target;
        std::vector<int> lean; // each seat's latest accusation today before the line (kNoSeat: none)
    };
    int day = -1;
    std::vector<int> lean(out.size(), werewolf::kNoSeat), vote(out.size(), werewolf::kNoSeat);
    std::vector<char> voted(out.size(), 0);
    std::vector<Accusation> accusations;
    // Step 1. A day's accusations against its first votes.
    auto closeDay = [&] {
        for (const Accusation& a : accusations) {
            VoteSwing& swing = out[std::size_t(a.speaker)];
            ++swing.accusations;
            for (int l = 0; l < seats; ++l) {
                if (l == a.speaker || l == a.target || !voted[std::size_t(l)] || a.lean[std::size_t(l)] == a.target)
                    continue;
                ++swing.listeners;
                swing.swayed += vote[std::size_t(l)] == a.target ? 1 : 0;
            }
        }
        accusations.clear();
        std::fill(lean.begin(), lean.end(), werewolf::kNoSeat);
        std::fill(vote.begin(), vote.end(), werewolf::kNoSeat);
        std::fill(voted.begin(), voted.end(), 0);
    };
    // Step 2. The log in order: day chat and votes, grouped by round.
    for (const werewolf::Event& e : events) {
        if (e.kind != werewolf::EventKind::DayChat && e.kind != werewolf::EventKind::VoteCast) continue;
        if (!valid(e.seat)) continue;
        if (e.round != day) {
            closeDay();
            day = e.round;
        }
        const std::size_t speaker = std::size_t(e.seat);
        if (e.kind == werewolf::EventKind::VoteCast) {
            if (!voted[speaker]) vote[speaker] = e.target; // kNoSeat: abstained
            voted[speaker] = 1;
            continue;
        }
        const std::optional<int> accused = werewolf::readChat(e.text).accused;
        if (!accused || !valid(*accused) || *accused == e.seat) continue;
        const bool again = std::any_of(accusations.begin(), accusations.end(), [&](const Accusation& a) {
            return a.speaker == e.seat && a.target == *accused;
        });
        if (!again) accusations.push_back({e.seat, *accused, lean});
        lean[speaker] = *accused;
    }
    closeDay();
    return out;
}

GameResult summarize(const GameSession& session, int index) {
    GameResult r;
    r.index = index;
    r.seed = session.config().setup.seed;
    r.virtualMs = session.nowMs();
    if (session.setupError() != werewolf::SetupError::None) return r;
    const werewolf::Game& game = session.game();
    r.winner = game.winner();
    r.rounds = game.round();
    for (int s = 0; s < game.seats(); ++s) {
        SeatResult seat;
        seat.player = session.config().seats[static_cast<std::size_t>(s)].player;
        seat.role = game.roleOf(s);
        seat.alive = game.isAlive(s);
        seat.won = r.winner && *r.winner == werewolf::teamOf(seat.role);
        if (const AiSeat* ai = session.aiSeat(s)) {
            seat.asks = ai->stats().asks;
            seat.fallbacks = ai->stats().fallbacks;
            seat.notesAsks = ai->stats().notesAsks;
            seat.notesFallbacks = ai->stats().notesFallbacks;
            seat.tokens = ai->log().totalUsage().totalTokens;
            seat.costUsd = ai->log().totalCostUsd();
        }
        r.seats.push_back(std::move(seat));
    }
    // Deduction from the event log: votes, inspections, and chat suspicions against the truth.
    auto isWolf = [&](int seat) {
        return seat >= 0 && seat < game.seats() && werewolf::teamOf(game.roleOf(seat)) == werewolf::Team::Wolves;
    };
    auto seatAt = [&](int seat) -> SeatResult* {
        return seat >= 0 && std::size_t(seat) < r.seats.size() ? &r.seats[std::size_t(seat)] : nullptr;
    };
    const std::vector<werewolf::Event>& events = game.events();
    const std::vector<VoteSwing> swing = voteSwing(events, game.seats());
    for (std::size_t s = 0; s < r.seats.size() && s < swing.size(); ++s) r.seats[s].swing = swing[s];
    for (std::size_t i = 0; i < events.size(); ++i) {
        const werewolf::Event& e = events[i];
        SeatResult* actor = seatAt(e.seat);
        if (!actor) continue;
        if (e.kind == werewolf::EventKind::VoteCast && !isWolf(e.seat) && e.target != werewolf::kAbstain) {
            ++actor->villagerVotes;
            actor->villagerVotesOnWolves += isWolf(e.target) ? 1 : 0;
        } else if (e.kind == werewolf::EventKind::SeerInspect) {
            ++actor->inspections;
            actor->inspectionsOnWolves += e.team == werewolf::Team::Wolves ? 1 : 0;
        } else if (e.kind == werewolf::EventKind::DayChat && !isWolf(e.seat)) {
            auto note = session.eventNotes().find(i);
            if (note == session.eventNotes().end()) continue;
            for (const Suspicion& s : note->second.suspicions) {
                if (s.seat == e.seat || !seatAt(s.seat)) continue;
                const double score =
                    1.0 - std::abs(std::clamp(s.level, 0.0, 1.0) - (isWolf(s.seat) ? 1.0 : 0.0));
                ++actor->beliefs;
                actor->beliefScore += score;
                if (e.round < 1) continue; // a day chat is always in round 1 or later
                if (actor->beliefsByRound.size() < std::size_t(e.round))
                    actor->beliefsByRound.resize(std::size_t(e.round));
                RoundBeliefs& round = actor->beliefsByRound[std::size_t(e.round - 1)];
                ++round.beliefs;
                round.score += score;
            }
        }
    }
    return r;
}

namespace {

RatingValue ratingOf(const play::BradleyTerryFit& fit, int index) {
    RatingValue v;
    v.games = fit.games[std::size_t(index)];
    if (v.games == 0) return v;
    v.elo = fit.ratings[std::size_t(index)];
    v.low = fit.low[std::size_t(index)];
    v.high = fit.high[std::size_t(index)];
    return v;
}

} // namespace

namespace {

// One game's team-vs-team encounters into the two fits' lists (players by `index`; by role, i as
// wolf and n + i as villager). An unfinished game, or a seat of a player not in `index`, adds nothing.
void addEncounters(const GameResult& g, const std::map<std::string, int>& index, int n,
                   const std::function<void(const play::Encounter&)>& overall,
                   const std::function<void(const play::Encounter&)>& byRole,
                   const std::function<void(const play::Encounter&)>& perRole) {
    if (!g.winner) return;
    std::vector<int> wolves, villagers, wolvesByRole, villagersByRole, wolvesPerRole, villagersPerRole;
    for (const SeatResult& s : g.seats) {
        const auto known = index.find(s.player);
        if (known == index.end()) continue;
        const int p = known->second;
        if (werewolf::teamOf(s.role) == werewolf::Team::Wolves) {
            wolves.push_back(p);
            wolvesByRole.push_back(p);
            wolvesPerRole.push_back(int(s.role) * n + p);
        } else {
            villagers.push_back(p);
            villagersByRole.push_back(n + p);
            villagersPerRole.push_back(int(s.role) * n + p);
        }
    }
    const double wolfScore = *g.winner == werewolf::Team::Wolves ? 1.0 : 0.0;
    for (const play::Encounter& e : play::encountersOfTeamGame(wolves, villagers, wolfScore))
        if (e.a != e.b) overall(e);
    for (const play::Encounter& e : play::encountersOfTeamGame(wolvesByRole, villagersByRole, wolfScore)) byRole(e);
    for (const play::Encounter& e : play::encountersOfTeamGame(wolvesPerRole, villagersPerRole, wolfScore))
        perRole(e);
}

// One seat's figures into its player's row.
void addSeat(PlayerStanding& p, const SeatResult& s) {
    p.player = s.player;
    ++p.games;
    p.wins += s.won ? 1 : 0;
    const bool wolf = werewolf::teamOf(s.role) == werewolf::Team::Wolves;
    (wolf ? p.wolfGames : p.villagerGames) += 1;
    (wolf ? p.wolfWins : p.villagerWins) += s.won ? 1 : 0;
    p.survived += s.alive ? 1 : 0;
    p.roleGames[int(s.role)] += 1;
    p.roleWins[int(s.role)] += s.won ? 1 : 0;
    p.asks += s.asks;
    p.fallbacks += s.fallbacks;
    p.notesAsks += s.notesAsks;
    p.notesFallbacks += s.notesFallbacks;
    p.swing.accusations += s.swing.accusations;
    p.swing.listeners += s.swing.listeners;
    p.swing.swayed += s.swing.swayed;
    p.tokens += s.tokens;
    p.costUsd += s.costUsd;
    p.villagerVotes += s.villagerVotes;
    p.villagerVotesOnWolves += s.villagerVotesOnWolves;
    p.inspections += s.inspections;
    p.inspectionsOnWolves += s.inspectionsOnWolves;
    p.beliefs += s.beliefs;
    p.beliefScore += s.beliefScore;
    if (p.beliefsByRound.size() < s.beliefsByRound.size()) p.beliefsByRound.resize(s.beliefsByRound.size());
    for (std::size_t r = 0; r < s.beliefsByRound.size(); ++r) {
        p.beliefsByRound[r].beliefs += s.beliefsByRound[r].beliefs;
        p.beliefsByRound[r].score += s.beliefsByRound[r].score;
    }
}

} // namespace

RatingRuns ratingRuns(const std::vector<GameResult>& games, const std::vector<PlayerStanding>& rows) {
    std::map<std::string, int> index;
    for (std::size_t i = 0; i < rows.size(); ++i) index[rows[i].player] = int(i);
    const int n = int(rows.size());
    std::vector<play::Encounter> overall, byRole, perRole;
    for (const GameResult& g : games)
        addEncounters(g, index, n, [&](const play::Encounter& e) { overall.push_back(e); },
                      [&](const play::Encounter& e) { byRole.push_back(e); },
                      [&](const play::Encounter& e) { perRole.push_back(e); });
    play::BradleyTerryOptions options;
    RatingRuns runs;
    runs.overall = std::make_unique<play::BradleyTerryRun>(n, overall, options);
    runs.byRole = std::make_unique<play::BradleyTerryRun>(2 * n, byRole, options);
    runs.perRole = std::make_unique<play::BradleyTerryRun>(werewolf::kRoleCount * n, perRole, options);
    return runs;
}

std::vector<PlayerStanding> standingsWithoutRatings(const std::vector<GameResult>& games) {
    std::map<std::string, PlayerStanding> rows;
    for (const GameResult& g : games)
        for (const SeatResult& s : g.seats) addSeat(rows[s.player], s);
    std::vector<PlayerStanding> out;
    for (auto& [name, row] : rows) out.push_back(std::move(row));
    return out;
}

StandingsTally::StandingsTally(std::vector<std::string> players) {
    std::sort(players.begin(), players.end());
    players.erase(std::unique(players.begin(), players.end()), players.end());
    for (std::size_t i = 0; i < players.size(); ++i) index_[players[i]] = int(i);
    rows_.resize(players.size());
    overall_ = play::PairTallies(int(players.size()), false);
    byRole_ = play::PairTallies(2 * int(players.size()), false);
    perRole_ = play::PairTallies(werewolf::kRoleCount * int(players.size()), false);
}

bool StandingsTally::add(const GameResult& game) {
    for (const SeatResult& s : game.seats)
        if (!index_.count(s.player)) return false;
    for (const SeatResult& s : game.seats) addSeat(rows_[std::size_t(index_.at(s.player))], s);
    addEncounters(game, index_, int(rows_.size()), [&](const play::Encounter& e) { overall_.add(e); },
                  [&](const play::Encounter& e) { byRole_.add(e); }, [&](const play::Encounter& e) { perRole_.add(e); });
    return true;
}

std::vector<PlayerStanding> StandingsTally::counts() const {
    std::vector<PlayerStanding> out;
    for (const PlayerStanding& row : rows_)
        if (row.games > 0) out.push_back(row);
    return out;
}

RatingRuns StandingsTally::runs() const {
    const int n = int(rows_.size());
    play::BradleyTerryOptions options;
    RatingRuns runs;
    runs.overall = std::make_unique<play::BradleyTerryRun>(n, overall_.pairs(), options);
    runs.byRole = std::make_unique<play::BradleyTerryRun>(2 * n, byRole_.pairs(), options);
    runs.perRole = std::make_unique<play::BradleyTerryRun>(werewolf::kRoleCount * n, perRole_.pairs(), options);
    return runs;
}

std::vector<PlayerStanding> rankStandings(std::vector<PlayerStanding> rows, const play::BradleyTerryFit* overall,
                                          const play::BradleyTerryFit* byRole,
                                          const play::BradleyTerryFit* perRole) {
    const int n = int(rows.size());
    for (int i = 0; i < n; ++i) {
        if (perRole && int(perRole->ratings.size()) == werewolf::kRoleCount * n)
            for (int role = 0; role < werewolf::kRoleCount; ++role)
                rows[std::size_t(i)].roleRatings[role] = ratingOf(*perRole, role * n + i);
        if (overall && int(overall->ratings.size()) == n) rows[std::size_t(i)].rating = ratingOf(*overall, i);
        if (byRole && int(byRole->ratings.size()) == 2 * n) {
            rows[std::size_t(i)].wolfRating = ratingOf(*byRole, i);
            rows[std::size_t(i)].villagerRating = ratingOf(*byRole, n + i);
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const PlayerStanding& a, const PlayerStanding& b) {
        if (a.rating.games && b.rating.games && a.rating.elo != b.rating.elo) return a.rating.elo > b.rating.elo;
        if (bool(a.rating.games) != bool(b.rating.games)) return a.rating.games > 0;
        return a.winRate() > b.winRate();
    });
    return rows;
}

std::vector<PlayerStanding> leaderboard(const std::vector<GameResult>& games) {
    std::vector<PlayerStanding> rows = standingsWithoutRatings(games);
    RatingRuns runs = ratingRuns(games, rows);
    runs.overall->step(1 << 30);
    runs.byRole->step(1 << 30);
    runs.perRole->step(1 << 30);
    return rankStandings(std::move(rows), &runs.overall->fit(), &runs.byRole->fit(), &runs.perRole->fit());
}

std::string formatRating(const RatingValue& r) {
    if (r.games == 0) return "-";
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.0f (%.0f-%.0f)", r.elo, r.low, r.high);
    return buffer;
}

namespace {
std::string ratio(int part, int whole) {
    if (whole == 0) return "-";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f%% (%d/%d)", 100.0 * part / whole, part, whole);
    return buffer;
}
} // namespace

int beliefRounds(const std::vector<PlayerStanding>& rows) {
    std::size_t n = 0;
    for (const PlayerStanding& p : rows) n = std::max(n, p.beliefsByRound.size());
    return int(n);
}

namespace {
// "Belief accuracy by round": a row per player, R1..Rn, "71% (12)" or "-".
std::string formatBeliefRounds(const std::vector<PlayerStanding>& rows, std::size_t width) {
    const int rounds = beliefRounds(rows);
    if (rounds == 0) return {};
    std::string out =
        "\nBelief accuracy by round (chat suspicions against the true roles: accuracy (count))\n";
    auto endLine = [&out] {
        while (!out.empty() && out.back() == ' ') out.pop_back();
        out += "\n";
    };
    auto pad = [&out](const std::string& text, std::size_t columns) {
        out += text;
        if (text.size() < columns) out.append(columns - text.size(), ' ');
    };
    pad("player", width);
    for (int r = 1; r <= rounds; ++r) pad(" R" + std::to_string(r), 11);
    endLine();
    for (const PlayerStanding& p : rows) {
        pad(p.player, width);
        for (std::size_t r = 0; r < std::size_t(rounds); ++r) {
            const RoundBeliefs round = r < p.beliefsByRound.size() ? p.beliefsByRound[r] : RoundBeliefs{};
            char value[32] = " -";
            if (round.beliefs)
                std::snprintf(value, sizeof value, " %.0f%% (%d)", 100 * round.accuracy(), round.beliefs);
            pad(value, 11);
        }
        endLine();
    }
    return out;
}
} // namespace

namespace {
// The roles in the order the tables show them.
constexpr werewolf::Role kRoleOrder[] = {werewolf::Role::Seer, werewolf::Role::Doctor, werewolf::Role::Werewolf,
                                         werewolf::Role::Villager};

// "By role": a row per player, per role its rating and wins, "1523 (1410-1640) 7/12" or "-".
std::string formatRoleTable(const std::vector<PlayerStanding>& rows, std::size_t width) {
    std::string out = "\nBy role (ratings from team results, one identity per player and role; wins/games)\n";
    char line[512];
    std::snprintf(line, sizeof line, "%-*s %-26s %-26s %-26s %s\n", int(width), "player", "seer", "doctor",
                  "werewolf", "villager");
    out += line;
    for (const PlayerStanding& p : rows) {
        std::snprintf(line, sizeof line, "%-*s", int(width), p.player.c_str());
        out += line;
        for (werewolf::Role role : kRoleOrder) {
            const int r = int(role);
            std::string cell = p.roleGames[r] ? formatRating(p.roleRatings[r]) + " " + std::to_string(p.roleWins[r]) +
                                                    "/" + std::to_string(p.roleGames[r])
                                              : "-";
            std::snprintf(line, sizeof line, " %-26s", cell.c_str());
            out += line;
        }
        while (!out.empty() && out.back() == ' ') out.pop_back();
        out += "\n";
    }
    return out;
}
} // namespace

std::string formatLeaderboard(const std::vector<PlayerStanding>& rows) {
    std::size_t width = 6;
    for (const PlayerStanding& p : rows) width = std::max(width, p.player.size());
    char line[1024];
    std::snprintf(line, sizeof line,
                  "%-*s %5s %5s %6s %-17s %-17s %-17s %-15s %-15s %-15s %-15s %-15s %-8s %-15s %-15s %-15s %10s "
                  "%10s\n",
                  int(width), "player", "games", "wins", "win%", "rating", "as wolf", "as villager", "wolf wins",
                  "villager wins", "survival", "votes on wolf", "seer hits", "belief", "vote swing",
                  "decision fb", "notes fb", "tokens/game", "$/game");
    std::string out = line;
    for (const PlayerStanding& p : rows) {
        char belief[16] = "-";
        if (p.beliefs) std::snprintf(belief, sizeof belief, "%.0f%%", 100 * p.beliefAccuracy());
        const double games = p.games ? double(p.games) : 1.0;
        std::snprintf(line, sizeof line,
                      "%-*s %5d %5d %5.0f%% %-17s %-17s %-17s %-15s %-15s %-15s %-15s %-15s %-8s %-15s %-15s %-15s "
                      "%10.0f %10.4f\n",
                      int(width), p.player.c_str(), p.games, p.wins, 100 * p.winRate(),
                      formatRating(p.rating).c_str(), formatRating(p.wolfRating).c_str(),
                      formatRating(p.villagerRating).c_str(), ratio(p.wolfWins, p.wolfGames).c_str(),
                      ratio(p.villagerWins, p.villagerGames).c_str(), ratio(p.survived, p.games).c_str(),
                      ratio(p.villagerVotesOnWolves, p.villagerVotes).c_str(),
                      ratio(p.inspectionsOnWolves, p.inspections).c_str(), belief,
                      ratio(p.swing.swayed, p.swing.listeners).c_str(),
                      ratio(p.decisionFallbacks(), p.decisionAsks()).c_str(),
                      ratio(p.notesFallbacks, p.notesAsks).c_str(), double(p.tokens) / games, p.costUsd / games);
        out += line;
    }
    return out + formatRoleTable(rows, width) + formatBeliefRounds(rows, width);
}

} // namespace chaiba::werewolfmode
