// Who may see an entry of a shared transcript: everyone at the table, one seat, one team, or the
// spectators only. Each mode's transcript stamps its entries with one, and renders a seat's
// messages only from the entries whose audience includes that seat (Werewolf's night chat is for
// the wolves; a board player's context and feedback are for that player alone).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace chaiba::llm {

struct Audience {
    enum class Kind : std::uint8_t {
        Everyone,   // every seat and the spectators
        Seat,       // one seat (id) and the spectators
        Team,       // the seats of one team (id) and the spectators
        Spectators, // nobody at the table (the deal, hidden roles)
    };
    Kind kind = Kind::Everyone;
    std::string id; // the seat or team; empty for Everyone and Spectators

    static Audience everyone() { return {}; }
    static Audience seat(std::string seatId) { return {Kind::Seat, std::move(seatId)}; }
    static Audience team(std::string teamId) { return {Kind::Team, std::move(teamId)}; }
    static Audience spectators() { return {Kind::Spectators, {}}; }

    // Whether the seat `seatId` (a member of team `teamId`, if any) sees the entry.
    bool includes(std::string_view seatId, std::string_view teamId = {}) const {
        switch (kind) {
        case Kind::Everyone: return true;
        case Kind::Seat: return !seatId.empty() && id == seatId;
        case Kind::Team: return !teamId.empty() && id == teamId;
        case Kind::Spectators: return false;
        }
        return false;
    }
    bool operator==(const Audience&) const = default;
};

} // namespace chaiba::llm
