// Helpers for the Werewolf tests: a fixed 8-seat table and scripted nights and votes.
#pragma once

#include "engine/werewolf/game.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace chaiba::werewolf::test {

// P1, P2 wolves; P3 Seer; P4 Doctor; P5..P8 villagers.
constexpr int W1 = 0, W2 = 1, SEER = 2, DOC = 3, V5 = 4, V6 = 5, V7 = 6, V8 = 7;

inline std::vector<Role> table8() {
    return {Role::Werewolf, Role::Werewolf, Role::Seer,     Role::Doctor,
            Role::Villager, Role::Villager, Role::Villager, Role::Villager};
}

inline Game makeGame(const Rules& rules = Rules::balanced(), std::vector<Role> roles = table8()) {
    NewGame g = Game::createDealt(std::move(roles), rules, 42);
    REQUIRE(g.ok());
    return std::move(*g.game);
}

inline void require(const ApplyResult& r) {
    REQUIRE_MESSAGE(r.ok(), r.message);
}

// Every living wolf votes `victim`, every living seer inspects `inspect`, every living doctor
// protects `protect` (kNoSeat: skip that role; the night then stays open).
inline void night(Game& g, int victim, int inspect, int protect) {
    REQUIRE(g.phase() == Phase::Night);
    for (int s = 0; s < g.seats(); ++s) {
        if (!g.isAlive(s) || g.isOver()) continue;
        switch (g.roleOf(s)) {
        case Role::Werewolf: require(g.apply(Decision::wolfVote(s, victim))); break;
        case Role::Seer:
            if (inspect != kNoSeat) require(g.apply(Decision::inspect(s, inspect)));
            break;
        case Role::Doctor:
            if (protect != kNoSeat) require(g.apply(Decision::protect(s, protect)));
            break;
        default: break;
        }
    }
}

// Ends the discussion (if any) and lets every living seat vote voteOf(seat).
inline void dayVote(Game& g, const std::function<int(int)>& voteOf) {
    if (g.phase() == Phase::Discussion) require(g.endDiscussion());
    REQUIRE(g.phase() == Phase::Vote);
    for (int s : g.livingSeats()) {
        if (g.isOver() || g.phase() != Phase::Vote) break;
        require(g.apply(Decision::vote(s, voteOf(s))));
    }
}

// Everyone votes `target`; `target` himself votes `other`.
inline void voteOut(Game& g, int target, int other) {
    dayVote(g, [&](int s) { return s == target ? other : target; });
}

inline int countKind(const std::vector<Event>& events, EventKind k) {
    return static_cast<int>(
        std::count_if(events.begin(), events.end(), [k](const Event& e) { return e.kind == k; }));
}

} // namespace chaiba::werewolf::test
