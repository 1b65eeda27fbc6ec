// Werewolf value types: the role table, names, presets, setup checks and the SplitMix64 deal.
#include "engine/werewolf/types.h"

#include <array>
#include <cassert>
#include <cctype>

namespace chaiba::werewolf {

namespace {
constexpr std::array<RoleInfo, kRoleCount> kRoles{{
    {Role::Villager, "Villager", Team::Villagers, NightAction::None},
    {Role::Werewolf, "Werewolf", Team::Wolves, NightAction::WolfVote},
    {Role::Seer, "Seer", Team::Villagers, NightAction::Inspect},
    {Role::Doctor, "Doctor", Team::Villagers, NightAction::Protect},
}};

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}
} // namespace

const RoleInfo& roleInfo(Role r) {
    const auto i = static_cast<size_t>(r);
    assert(i < kRoles.size() && "roleInfo: role outside the role table");
    return kRoles[i];
}

std::string_view roleName(Role r) {
    return roleInfo(r).name;
}

std::optional<Role> parseRole(std::string_view name) {
    if (equalsIgnoreCase(name, "wolf")) return Role::Werewolf;
    for (const RoleInfo& info : kRoles) {
        if (equalsIgnoreCase(name, info.name)) return info.role;
    }
    return std::nullopt;
}

Team teamOf(Role r) {
    return roleInfo(r).team;
}

std::string_view teamName(Team t) {
    return t == Team::Wolves ? "wolves" : "villagers";
}

std::string seatName(int seat) {
    if (seat == kAbstain) return "abstain";
    std::string name = "P"; // appended, not "P" + ...: GCC 12 gives a false -Wrestrict on that
    name += std::to_string(seat + 1);
    return name;
}

std::optional<int> parseSeatName(std::string_view text) {
    if (text.size() < 2 || text.size() > 3 || (text[0] != 'P' && text[0] != 'p')) return std::nullopt;
    int n = 0;
    for (size_t i = 1; i < text.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
        n = n * 10 + (text[i] - '0');
    }
    if (n < 1) return std::nullopt;
    return n - 1;
}

std::vector<Role> defaultRoles(int seats) {
    if (seats < kMinSeats || seats > kMaxSeats) return {};
    std::vector<Role> roles(static_cast<size_t>(seats), Role::Villager);
    const int wolves = seats / 4;
    for (int i = 0; i < wolves; ++i) roles[static_cast<size_t>(i)] = Role::Werewolf;
    roles[static_cast<size_t>(wolves)] = Role::Seer;
    roles[static_cast<size_t>(wolves + 1)] = Role::Doctor;
    return roles;
}

std::string_view setupErrorText(SetupError e) {
    switch (e) {
    case SetupError::None: return "";
    case SetupError::SeatCount: return "a table has 5 to 16 seats";
    case SetupError::RoleCount: return "the number of roles must equal the number of seats";
    case SetupError::NoWolf: return "the roles must include at least one werewolf";
    case SetupError::TooManyWolves: return "the wolves must be fewer than the other players";
    }
    return "unknown setup error";
}

SetupError validateRoles(int seats, const std::vector<Role>& roles) {
    if (seats < kMinSeats || seats > kMaxSeats) return SetupError::SeatCount;
    if (roles.size() != static_cast<size_t>(seats)) return SetupError::RoleCount;
    int wolves = 0;
    for (Role r : roles) wolves += teamOf(r) == Team::Wolves ? 1 : 0;
    if (wolves == 0) return SetupError::NoWolf;
    if (wolves >= seats - wolves) return SetupError::TooManyWolves;
    return SetupError::None;
}



std::vector<Role> dealRoles(std::vector<Role> roles, uint64_t seed) {
    SplitMix64 rng(seed);
    for (size_t i = roles.size(); i > 1; --i) {
        const auto j = static_cast<size_t>(rng.below(static_cast<int>(i)));
        std::swap(roles[i - 1], roles[j]);
    }
    return roles;
}

namespace {
// Names indexed by the enum's value; a name read back is its index.
constexpr std::array<std::string_view, 3> kTieRuleNames = {"no_elimination", "revote", "random"};
constexpr std::array<std::string_view, 3> kPresetNames = {"balanced", "plain", "kaggle"};

template <class E, size_t N> std::optional<E> byName(const std::array<std::string_view, N>& names, std::string_view name) {
    for (size_t i = 0; i < N; ++i)
        if (names[i] == name) return static_cast<E>(i);
    return std::nullopt;
}
} // namespace

std::string_view tieRuleName(TieRule t) { return kTieRuleNames.at(static_cast<size_t>(t)); }
std::optional<TieRule> parseTieRule(std::string_view name) { return byName<TieRule>(kTieRuleNames, name); }
std::string_view rulesPresetName(RulesPreset p) { return kPresetNames.at(static_cast<size_t>(p)); }
std::optional<RulesPreset> parseRulesPreset(std::string_view name) { return byName<RulesPreset>(kPresetNames, name); }

Rules rulesOf(RulesPreset p) {
    switch (p) {
    case RulesPreset::Balanced: return Rules::balanced();
    case RulesPreset::Plain: return Rules::plain();
    case RulesPreset::Kaggle: return Rules::kaggle();
    }
    return Rules::balanced();
}

} // namespace chaiba::werewolf
