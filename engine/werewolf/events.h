// Werewolf events: every game is a log of typed events, each with its audience (everyone, the
// wolves, one seat, or spectators only). The log alone replays the game (see replay.h).
#pragma once

#include "engine/werewolf/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::werewolf {

// Round r is night r followed by day r (discussion, then vote). Over once a team has won.
enum class Phase : uint8_t { Night, Discussion, Vote, Over };
std::string_view phaseName(Phase p); // "night", "discussion", "vote", "over"

// Who may see an event. Spectators (an omniscient viewer) see every event, including the deal.
enum class AudienceKind : uint8_t {
    Everyone,
    Wolves,    // every seat dealt a wolf role (dead wolves included: they knew it)
    Seat,      // the one seat in Audience::seat
    Spectators // nobody at the table: the deal with every role
};
struct Audience {
    AudienceKind kind = AudienceKind::Everyone;
    int seat = kNoSeat; // for AudienceKind::Seat
    bool operator==(const Audience&) const = default;
    static Audience everyone() { return {AudienceKind::Everyone, kNoSeat}; }
    static Audience wolves() { return {AudienceKind::Wolves, kNoSeat}; }
    static Audience only(int s) { return {AudienceKind::Seat, s}; }
    static Audience spectators() { return {AudienceKind::Spectators, kNoSeat}; }
};

// Fields used by each kind are listed; the others keep their defaults. "actor" is Event::seat.
enum class EventKind : uint8_t {
    Deal,          // spectators: roles (per seat), seed, rules
    RoleAssigned,  // one seat: seat, role
    PackRevealed,  // wolves: seats (the wolf seats)
    PhaseStart,    // everyone: phase, round; seats = speaking order for a discussion
    WolfChat,      // wolves: actor, text
    WolfVote,      // wolves: actor, target (kAbstain: for nobody)
    WolfTarget,    // wolves: target (the pack's victim once every wolf voted; ties: see Game::apply;
                   // kNoSeat: every wolf abstained); seats = the tied a random draw chose among
    SeerInspect,   // the seer: actor, target, team (the target's true team), revealedRole if
                   // Rules::seerSeesRole
    DoctorProtect, // the doctor: actor, target
    DawnDeath,     // everyone: target (the dead), revealedRole if Rules::revealRoles
    DawnNoDeath,   // everyone: nobody died tonight
    DayChat,       // everyone: actor, text
    VoteCast,      // everyone: actor, target (kAbstain: for nobody)
    Elimination,   // everyone: target, revealedRole if Rules::revealRoles; seats = whom a random
                   // draw chose among (TieRule::Random: the tied, or everyone living if all abstained)
    NoElimination, // everyone: seats = the tied players (a tie with nobody eliminated; empty: all abstained)
    Revote,        // everyone: seats = the tied players, now the only targets
    GameOver,      // everyone: team (the winner), roles (every seat's role)
};
std::string_view eventKindName(EventKind k); // "deal", "wolf_chat", "vote_cast", ...

struct Event {
    EventKind kind = EventKind::Deal;
    Audience audience;
    int round = 0;
    Phase phase = Phase::Night; // the phase during which the event happened (PhaseStart: the new one)
    int seat = kNoSeat;         // the actor
    int target = kNoSeat;
    Role role = Role::Villager; // RoleAssigned
    std::optional<Role> revealedRole;
    Team team = Team::Villagers; // SeerInspect result, GameOver winner
    std::string text;
    std::vector<int> seats;
    std::vector<Role> roles; // Deal, GameOver
    uint64_t seed = 0;       // Deal
    Rules rules;             // Deal
    bool operator==(const Event&) const = default;
};

// True if the player in `seat` (dealt `seatRole`) may see e.
bool visibleTo(const Event& e, int seat, Role seatRole);
// One line of English for a log panel or a prompt: "P3 votes for P5.", "Dawn: P2 was killed (Seer)."
std::string describeEvent(const Event& e);

} // namespace chaiba::werewolf
