// Rule-based Werewolf players, so a whole game runs without any model: each bot sees only the
// events visible to its seat, accuses in short chat lines ("I suspect P3."), votes the most
// accused player (a villager abstains on thin evidence where the rules allow abstaining), reveals as Seer once it found a wolf; wolves hunt a revealed Seer first and the
// doctor guards it. A headless runner plays whole games; deterministic per seed.
#pragma once

#include "engine/werewolf/game.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::werewolf {

// What a chat line says, as far as the bots read chat: an accused seat ("I suspect P3.",
// "P3 is a wolf.", "Let's take P3.") and whether the speaker claims to be the Seer.
struct ChatReading {
    std::optional<int> accused; // the first seat named, if the line accuses or proposes
    bool claimsSeer = false;    // "I am the Seer"
};
ChatReading readChat(std::string_view text);

class Bot {
public:
    Bot(int seat, uint64_t seed);

    // Feed every event visible to this seat, in log order (the runner does it).
    void observe(const Event& e);
    // The bot's answer to one of its pending decisions. For a WolfVote with no proposal yet in
    // the wolf chat, it first returns a Speak proposing the victim ("Let's take P5.").
    Decision decide(const Game& game, const PendingDecision& pending);

    int seat() const { return seat_; }
    Role role() const { return role_; }

private:
    std::string speakLine(const Game& game);
    int pick(const std::vector<int>& seats); // a deterministic random element (non-empty)
    int mostAccused(const std::vector<int>& allowed);
    std::optional<int> knownLivingWolf(const Game& game) const;
    std::optional<int> livingSeerClaim(const Game& game) const;
    bool isPartner(int s) const;

    int seat_;
    SplitMix64 rng_;
    Role role_ = Role::Villager;
    std::vector<int> pack_;
    std::vector<int> inspectedTeam_; // per seat: -1 unknown, else int(Team) (the Seer's results)
    std::vector<int> accusations_;   // per seat, today's accusations in the day chat
    std::vector<int> seerClaims_;    // seats that claimed the Seer publicly
    std::vector<int> seerAccused_;   // seats a Seer claim named as wolves
    std::optional<int> proposal_;    // tonight's victim proposed in the wolf chat
};

struct BotGameResult {
    std::optional<Game> game; // the finished (or stopped) game with its log; none if the setup failed
    SetupError setupError = SetupError::None;
    std::optional<Team> winner; // none if the setup failed or maxRounds was reached first
    int rounds = 0;
};

// Plays one game with a bot in every seat: roles empty means defaultRoles(seats); the deal and the
// bots follow the seed. Each living bot speaks once a day in the speaking order, then the vote.
BotGameResult playBotGame(int seats, const std::vector<Role>& roles, const Rules& rules, uint64_t seed,
                          int maxRounds = 100);

struct BotBenchResult {
    int games = 0;
    int villagerWins = 0;
    int wolfWins = 0;
    int unfinished = 0; // invalid setup or round limit
    long long totalRounds = 0;
    double villagerWinRate() const { return games > 0 ? double(villagerWins) / games : 0.0; }
};
// Plays `games` bot games with seeds firstSeed, firstSeed+1, ... and counts the winners.
BotBenchResult playBotGames(int games, int seats, const std::vector<Role>& roles, const Rules& rules,
                            uint64_t firstSeed = 1);

} // namespace chaiba::werewolf
