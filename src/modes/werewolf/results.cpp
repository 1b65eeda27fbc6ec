// Game results and the leaderboard.
#include "src/modes/werewolf/results.h"

#include "src/modes/werewolf/game_session.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace chaiba::werewolfmode {

long long GameResult::tokens() const {
    long long n = 0;
    for (const SeatResult& s : seats) n += s.tokens;
    return n;
}

double GameResult::costUsd() const {
    double n = 0;
    for (const SeatResult& s : seats) n += s.costUsd;
    return n;
}

int GameResult::fallbacks() const {
    int n = 0;
    for (const SeatResult& s : seats) n += s.fallbacks;
    return n;
}

int GameResult::asks() const {
    int n = 0;
    for (const SeatResult& s : seats) n += s.asks;
    return n;
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
            seat.tokens = ai->log().totalUsage().totalTokens;
            seat.costUsd = ai->log().totalCostUsd();
        }
        r.seats.push_back(std::move(seat));
    }
    return r;
}

std::vector<PlayerStanding> leaderboard(const std::vector<GameResult>& games) {
    std::map<std::string, PlayerStanding> rows;
    for (const GameResult& g : games) {
        for (const SeatResult& s : g.seats) {
            PlayerStanding& p = rows[s.player];
            p.player = s.player;
            ++p.games;
            p.wins += s.won ? 1 : 0;
            const bool wolf = werewolf::teamOf(s.role) == werewolf::Team::Wolves;
            (wolf ? p.wolfGames : p.villagerGames) += 1;
            (wolf ? p.wolfWins : p.villagerWins) += s.won ? 1 : 0;
            p.survived += s.alive ? 1 : 0;
            p.asks += s.asks;
            p.fallbacks += s.fallbacks;
            p.tokens += s.tokens;
            p.costUsd += s.costUsd;
        }
    }
    std::vector<PlayerStanding> out;
    for (auto& [name, row] : rows) out.push_back(std::move(row));
    std::stable_sort(out.begin(), out.end(), [](const PlayerStanding& a, const PlayerStanding& b) {
        return a.winRate() > b.winRate();
    });
    return out;
}

namespace {
std::string rate(int part, int whole) {
    if (whole == 0) return "-";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f%% (%d/%d)", 100.0 * part / whole, part, whole);
    return buffer;
}
} // namespace

std::string formatLeaderboard(const std::vector<PlayerStanding>& rows) {
    std::size_t width = 6;
    for (const PlayerStanding& p : rows) width = std::max(width, p.player.size());
    char line[512];
    std::snprintf(line, sizeof line, "%-*s %5s %5s %6s %-15s %-15s %-15s %-15s %10s %10s\n", int(width),
                  "player", "games", "wins", "win%", "as wolf", "as villager", "survival", "fallbacks",
                  "tokens", "cost $");
    std::string out = line;
    for (const PlayerStanding& p : rows) {
        std::snprintf(line, sizeof line, "%-*s %5d %5d %5.0f%% %-15s %-15s %-15s %-15s %10lld %10.4f\n",
                      int(width), p.player.c_str(), p.games, p.wins, 100 * p.winRate(),
                      rate(p.wolfWins, p.wolfGames).c_str(), rate(p.villagerWins, p.villagerGames).c_str(),
                      rate(p.survived, p.games).c_str(), rate(p.fallbacks, p.asks).c_str(), p.tokens,
                      p.costUsd);
        out += line;
    }
    return out;
}

} // namespace chaiba::werewolfmode
