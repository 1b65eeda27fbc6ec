// Werewolf value types: roles and teams (the role table is data), the rule switches and their two
// presets, the game setup (seats, roles, rules, seed) and the portable SplitMix64 generator that
// deals the roles, so a native and a WASM build deal the same table from the same seed.
#pragma once

#include "engine/common/splitmix64.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::werewolf {

constexpr int kMinSeats = 5;
constexpr int kMaxSeats = 16;
constexpr int kNoSeat = -1;
constexpr int kAbstain = -2; // a day or wolf vote for nobody (Rules::abstainAllowed); seatName gives "abstain"

enum class Team : uint8_t { Villagers, Wolves };

enum class Role : uint8_t { Villager, Werewolf, Seer, Doctor };
constexpr int kRoleCount = 4;

// What a role does at night; the game asks each living seat with an action for one decision.
enum class NightAction : uint8_t { None, WolfVote, Inspect, Protect };

// One row of the role table: adding a role with an existing night action is a new row here.
struct RoleInfo {
    Role role;
    std::string_view name; // "Werewolf", "Villager", "Seer", "Doctor"
    Team team;
    NightAction nightAction;
};
const RoleInfo& roleInfo(Role r);
std::string_view roleName(Role r);
// Case-insensitive role name ("seer", "Werewolf", "wolf"); nullopt if unknown.
std::optional<Role> parseRole(std::string_view name);
Team teamOf(Role r);
std::string_view teamName(Team t); // "villagers", "wolves"

// Seat i (0-based) is shown as "P<i+1>": P1..P16; kAbstain is shown as "abstain".
std::string seatName(int seat);
// "P3" / "p3" -> 2; nullopt if not of that form (range is not checked).
std::optional<int> parseSeatName(std::string_view text);

// How a day vote that ends tied is settled.
enum class TieRule : uint8_t {
    NoElimination, // nobody leaves today
    Revote,        // a second vote among the tied; a second tie eliminates nobody
    Random         // drawn among the tied by the game's seeded generator; every vote an abstention:
                   // drawn among all living players (Kaggle's TieBreak.RANDOM)
};
std::string_view tieRuleName(TieRule t); // "no_elimination", "revote", "random"
std::optional<TieRule> parseTieRule(std::string_view name);

// The rule switches. Three presets (the defaults below are the balanced one):
//   balanced(): no doctor self-save, no save of the same player two nights in a row, a tie
//               eliminates nobody, the first speaker rotates each day, roles of the dead revealed.
//   plain():    self-save and repeated saves allowed, a tie triggers a revote, the first speaker
//               is always the lowest living seat, roles of the dead revealed.
//   kaggle():   Kaggle's envs/werewolf as its standard run config plays it: self-save and repeated
//               saves allowed, the Seer learns the role, a vote may abstain, a tie (or a vote of
//               abstentions only) is drawn at random for the day and for the wolves, the first
//               speaker is drawn each day, roles of the dead revealed. README: the rules table.
// Every draw comes from the game's own generator (seeded from the deal's seed), so the event log
// alone replays a game; balanced and plain never draw.
struct Rules {
    bool doctorSelfSave = false;   // the doctor may protect himself
    bool doctorRepeatSave = false; // the doctor may protect the same player two nights running
    TieRule tieRule = TieRule::NoElimination;
    bool rotateFirstSpeaker = true; // day d starts at seat (d-1) mod seats, else at the lowest living
    bool revealRoles = true;        // a death or elimination announces the role publicly
    bool seerSeesRole = false;      // an inspection tells the Seer the role, else only the team
    bool abstainAllowed = false;    // a day vote or a wolf vote may name nobody (kAbstain)
    bool randomFirstSpeaker = false; // the day's first speaker is drawn (over rotateFirstSpeaker)
    bool randomWolfTie = false;     // the wolves' tie is drawn among the tied (all abstaining: among
                                    // the allowed victims); else the earliest vote among the tied
                                    // stands (all abstaining: nobody is attacked)

    static Rules balanced() { return Rules{}; }
    static Rules plain() { return Rules{true, true, TieRule::Revote, false, true}; }
    static Rules kaggle() {
        return Rules{true, true, TieRule::Random, false, true, true, true, true, true};
    }
    bool operator==(const Rules&) const = default;
};

// The named presets, as the CLI's --rules, the page's setup and the arena's config spell them.
enum class RulesPreset : uint8_t { Balanced, Plain, Kaggle };
std::string_view rulesPresetName(RulesPreset p); // "balanced", "plain", "kaggle"
std::optional<RulesPreset> parseRulesPreset(std::string_view name);
Rules rulesOf(RulesPreset p);
inline constexpr std::string_view kRulesPresetChoices = "balanced, plain or kaggle";

// The default deal for a table: floor(seats/4) wolves, one Seer, one Doctor, the rest villagers
// (8 seats: 2 wolves, Seer, Doctor, 4 villagers). Empty if seats is outside [5, 16].
std::vector<Role> defaultRoles(int seats);

// Why a setup cannot start a game.
enum class SetupError : uint8_t {
    None,
    SeatCount,     // outside [kMinSeats, kMaxSeats]
    RoleCount,     // roles.size() != seats
    NoWolf,        // the game would be decided before it starts
    TooManyWolves, // wolves >= the rest: decided before it starts
};
std::string_view setupErrorText(SetupError e);
SetupError validateRoles(int seats, const std::vector<Role>& roles);

// The project's one seeded generator (engine/common/splitmix64.h): deals and bots draw from it.
using SplitMix64 = chaiba::SplitMix64;

// Fisher-Yates shuffle of roles driven by SplitMix64(seed): role of seat i is the result's [i].
std::vector<Role> dealRoles(std::vector<Role> roles, uint64_t seed);

} // namespace chaiba::werewolf
