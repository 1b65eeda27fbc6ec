// Rule-based Werewolf bots and the headless runner. A bot learns only from the events its seat
// may see (and the public table: who lives); its random choices come from its own SplitMix64.
#include "engine/werewolf/bots.h"

#include <algorithm>
#include <cassert>
#include <cctype>

namespace chaiba::werewolf {

namespace {
std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool contains(const std::vector<int>& v, int x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

// The first "P<n>" token not glued to a letter or digit before it.
std::optional<int> firstSeatName(std::string_view text) {
    for (size_t i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != 'P' && text[i] != 'p') continue;
        if (i > 0 && std::isalnum(static_cast<unsigned char>(text[i - 1]))) continue;
        size_t j = i + 1;
        while (j < text.size() && j < i + 3 && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
        if (j == i + 1) continue;
        if (j < text.size() && std::isalnum(static_cast<unsigned char>(text[j]))) continue;
        if (std::optional<int> s = parseSeatName(text.substr(i, j - i))) return s;
    }
    return std::nullopt;
}
} // namespace

ChatReading readChat(std::string_view text) {
    const std::string low = lower(text);
    ChatReading out;
    out.claimsSeer = low.find("i am the seer") != std::string::npos;
    const bool accuses = low.find("suspect") != std::string::npos || low.find("wolf") != std::string::npos ||
                         low.find("take") != std::string::npos;
    if (accuses) out.accused = firstSeatName(text);
    return out;
}

Bot::Bot(int seat, uint64_t seed)
    : seat_(seat), rng_(seed ^ (0xD1B54A32D192ED03ULL * static_cast<uint64_t>(seat + 1))),
      inspectedTeam_(kMaxSeats, -1), accusations_(kMaxSeats, 0) {}

bool Bot::isPartner(int s) const {
    return contains(pack_, s);
}

void Bot::observe(const Event& e) {
    const auto validSeat = [](int s) { return s >= 0 && s < kMaxSeats; };
    switch (e.kind) {
    case EventKind::RoleAssigned:
        if (e.seat == seat_) role_ = e.role;
        break;
    case EventKind::PackRevealed: pack_ = e.seats; break;
    case EventKind::PhaseStart:
        if (e.phase == Phase::Night) proposal_.reset();
        if (e.phase == Phase::Discussion) std::fill(accusations_.begin(), accusations_.end(), 0);
        break;
    case EventKind::WolfChat:
        if (!proposal_) proposal_ = readChat(e.text).accused;
        break;
    case EventKind::SeerInspect:
        if (e.seat == seat_ && validSeat(e.target))
            inspectedTeam_[static_cast<size_t>(e.target)] = int(e.team);
        break;
    case EventKind::DayChat: {
        const ChatReading r = readChat(e.text);
        if (r.claimsSeer && !contains(seerClaims_, e.seat)) seerClaims_.push_back(e.seat);
        if (r.accused && validSeat(*r.accused)) {
            ++accusations_[static_cast<size_t>(*r.accused)];
            if (r.claimsSeer && !contains(seerAccused_, *r.accused)) seerAccused_.push_back(*r.accused);
        }
        break;
    }
    default: break;
    }
}

int Bot::pick(const std::vector<int>& seats) {
    assert(!seats.empty() && "Bot::pick needs a choice");
    return seats[static_cast<size_t>(rng_.below(static_cast<int>(seats.size())))];
}

// The most accused of `allowed` today; a tie (or nobody accused) is settled by the bot's dice.
int Bot::mostAccused(const std::vector<int>& allowed) {
    int best = -1;
    std::vector<int> top;
    for (int s : allowed) {
        const int n = accusations_[static_cast<size_t>(s)];
        if (n > best) {
            top.clear();
            best = n;
        }
        if (n == best) top.push_back(s);
    }
    return pick(top);
}

std::optional<int> Bot::knownLivingWolf(const Game& game) const {
    for (int s = 0; s < game.seats(); ++s)
        if (game.isAlive(s) && inspectedTeam_[static_cast<size_t>(s)] == int(Team::Wolves)) return s;
    return std::nullopt;
}

std::optional<int> Bot::livingSeerClaim(const Game& game) const {
    for (int s : seerClaims_)
        if (game.isAlive(s) && s != seat_ && !isPartner(s)) return s;
    return std::nullopt;
}

std::string Bot::speakLine(const Game& game) {
    std::vector<int> others;
    for (int s : game.livingSeats())
        if (s != seat_) others.push_back(s);
    if (role_ == Role::Seer) {
        if (std::optional<int> wolf = knownLivingWolf(game))
            return "I am the Seer. " + seatName(*wolf) + " is a wolf.";
    }
    if (teamOf(role_) == Team::Wolves) {
        // A Seer who named one of us is the one to discredit.
        for (int claimer : seerClaims_) {
            if (!game.isAlive(claimer) || isPartner(claimer)) continue;
            for (int accused : seerAccused_)
                if (isPartner(accused) && game.isAlive(accused))
                    return seatName(claimer) + " is lying. I suspect " + seatName(claimer) + ".";
        }
        std::vector<int> prey;
        for (int s : others)
            if (!isPartner(s)) prey.push_back(s);
        return "I suspect " + seatName(mostAccused(prey.empty() ? others : prey)) + ".";
    }
    for (int accused : seerAccused_)
        if (accused != seat_ && game.isAlive(accused))
            return "I trust the Seer. I suspect " + seatName(accused) + ".";
    std::vector<int> suspects;
    for (int s : others)
        if (inspectedTeam_[static_cast<size_t>(s)] != int(Team::Villagers)) suspects.push_back(s);
    return "I suspect " + seatName(mostAccused(suspects.empty() ? others : suspects)) + ".";
}

Decision Bot::decide(const Game& game, const PendingDecision& p) {
    const std::vector<int>& allowed = p.targets;
    switch (p.kind) {
    case DecisionKind::Speak: return Decision::speak(seat_, speakLine(game));
    case DecisionKind::WolfVote: {
        if (proposal_ && contains(allowed, *proposal_)) return Decision::wolfVote(seat_, *proposal_);
        if (allowed.empty()) return Decision::wolfVote(seat_, kNoSeat);
        // Nobody proposed (or the proposal is not allowed): propose, then vote on the next call.
        const std::optional<int> seer = livingSeerClaim(game);
        const int victim = seer && contains(allowed, *seer) ? *seer : pick(allowed);
        if (proposal_) return Decision::wolfVote(seat_, victim);
        return Decision::speak(seat_, "Let's take " + seatName(victim) + ".");
    }
    case DecisionKind::Inspect: {
        std::vector<int> unknown;
        for (int s : allowed)
            if (inspectedTeam_[static_cast<size_t>(s)] < 0) unknown.push_back(s);
        if (allowed.empty()) return Decision::inspect(seat_, kNoSeat);
        return Decision::inspect(seat_, pick(unknown.empty() ? allowed : unknown));
    }
    case DecisionKind::Protect: {
        if (allowed.empty()) return Decision::protect(seat_, kNoSeat);
        const std::optional<int> seer = livingSeerClaim(game);
        if (seer && contains(allowed, *seer)) return Decision::protect(seat_, *seer);
        return Decision::protect(seat_, pick(allowed));
    }
    case DecisionKind::Vote: {
        if (allowed.empty()) return Decision::vote(seat_, kNoSeat);
        if (std::optional<int> wolf = knownLivingWolf(game); wolf && contains(allowed, *wolf))
            return Decision::vote(seat_, *wolf);
        std::vector<int> choice;
        for (int s : allowed) {
            const bool partner = isPartner(s);
            const bool cleared = inspectedTeam_[static_cast<size_t>(s)] == int(Team::Villagers);
            if (!partner && !cleared) choice.push_back(s);
        }
        // Where the rules allow it, a villager abstains on thin evidence: nobody it may vote for
        // was accused twice today (decided before any dice, so other rules' games are unchanged).
        if (p.abstain && teamOf(role_) == Team::Villagers) {
            int most = 0;
            for (int s : choice.empty() ? allowed : choice) most = std::max(most, accusations_[static_cast<size_t>(s)]);
            if (most < 2) return Decision::vote(seat_, kAbstain);
        }
        return Decision::vote(seat_, mostAccused(choice.empty() ? allowed : choice));
    }
    }
    return Decision::vote(seat_, kNoSeat);
}

BotGameResult playBotGame(int seats, const std::vector<Role>& roles, const Rules& rules, uint64_t seed,
                          int maxRounds) {
    NewGame created = Game::create({seats, roles, rules, seed});
    if (!created.ok()) return {std::nullopt, created.error, std::nullopt, 0};
    Game game = std::move(*created.game);
    std::vector<Bot> bots;
    for (int s = 0; s < seats; ++s) bots.emplace_back(s, seed);
    size_t fed = 0;
    const auto feed = [&] {
        for (; fed < game.events().size(); ++fed) {
            const Event& e = game.events()[fed];
            for (Bot& bot : bots)
                if (visibleTo(e, bot.seat(), game.roleOf(bot.seat()))) bot.observe(e);
        }
    };
    feed();
    bool stuck = false;
    while (!game.isOver() && game.round() <= maxRounds && !stuck) {
        if (game.phase() == Phase::Discussion) {
            const std::vector<int> order = game.speakingOrder();
            for (int s : order) {
                const Decision d =
                    bots[static_cast<size_t>(s)].decide(game, {s, DecisionKind::Speak, {}, false});
                stuck = stuck || !game.apply(d).ok();
                feed();
            }
            game.endDiscussion();
            feed();
            continue;
        }
        const std::vector<PendingDecision> pending = game.pendingDecisions();
        const auto next =
            std::find_if(pending.begin(), pending.end(), [](const PendingDecision& p) { return p.required; });
        if (next == pending.end()) break;
        const Decision d = bots[static_cast<size_t>(next->seat)].decide(game, *next);
        const ApplyResult r = game.apply(d);
        assert(r.ok() && "a bot made an invalid decision");
        stuck = !r.ok();
        feed();
    }
    BotGameResult out{std::nullopt, SetupError::None, game.winner(), game.round()};
    out.game = std::move(game);
    return out;
}

BotBenchResult playBotGames(int games, int seats, const std::vector<Role>& roles, const Rules& rules,
                            uint64_t firstSeed) {
    BotBenchResult out;
    for (int i = 0; i < games; ++i) {
        const BotGameResult r = playBotGame(seats, roles, rules, firstSeed + static_cast<uint64_t>(i));
        ++out.games;
        out.totalRounds += r.rounds;
        if (!r.winner)
            ++out.unfinished;
        else if (*r.winner == Team::Villagers)
            ++out.villagerWins;
        else
            ++out.wolfWins;
    }
    return out;
}

} // namespace chaiba::werewolf
