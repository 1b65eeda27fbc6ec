// Werewolf events: names, visibility by audience, and one English line per event.
#include "engine/werewolf/events.h"

namespace chaiba::werewolf {

std::string_view phaseName(Phase p) {
    switch (p) {
    case Phase::Night: return "night";
    case Phase::Discussion: return "discussion";
    case Phase::Vote: return "vote";
    case Phase::Over: return "over";
    }
    return "unknown";
}

std::string_view eventKindName(EventKind k) {
    switch (k) {
    case EventKind::Deal: return "deal";
    case EventKind::RoleAssigned: return "role_assigned";
    case EventKind::PackRevealed: return "pack_revealed";
    case EventKind::PhaseStart: return "phase_start";
    case EventKind::WolfChat: return "wolf_chat";
    case EventKind::WolfVote: return "wolf_vote";
    case EventKind::WolfTarget: return "wolf_target";
    case EventKind::SeerInspect: return "seer_inspect";
    case EventKind::DoctorProtect: return "doctor_protect";
    case EventKind::DawnDeath: return "dawn_death";
    case EventKind::DawnNoDeath: return "dawn_no_death";
    case EventKind::DayChat: return "day_chat";
    case EventKind::VoteCast: return "vote_cast";
    case EventKind::Elimination: return "elimination";
    case EventKind::NoElimination: return "no_elimination";
    case EventKind::Revote: return "revote";
    case EventKind::GameOver: return "game_over";
    }
    return "unknown";
}

bool visibleTo(const Event& e, int seat, Role seatRole) {
    switch (e.audience.kind) {
    case AudienceKind::Everyone: return true;
    case AudienceKind::Wolves: return teamOf(seatRole) == Team::Wolves;
    case AudienceKind::Seat: return e.audience.seat == seat;
    case AudienceKind::Spectators: return false;
    }
    return false;
}

namespace {
std::string seatList(const std::vector<int>& seats) {
    std::string out;
    for (size_t i = 0; i < seats.size(); ++i) {
        if (i > 0) out += i + 1 == seats.size() ? " and " : ", ";
        out += seatName(seats[i]);
    }
    return out;
}

std::string revealed(const Event& e) {
    return e.revealedRole ? " (" + std::string(roleName(*e.revealedRole)) + ")" : "";
}
} // namespace

std::string describeEvent(const Event& e) {
    const std::string who = seatName(e.seat);
    const std::string whom = seatName(e.target);
    switch (e.kind) {
    case EventKind::Deal: {
        std::string out = "Roles dealt (seed " + std::to_string(e.seed) + "):";
        for (size_t s = 0; s < e.roles.size(); ++s)
            out.append(" ").append(seatName(static_cast<int>(s))).append("=").append(roleName(e.roles[s]));
        return out + ".";
    }
    case EventKind::RoleAssigned: return who + " is the " + std::string(roleName(e.role)) + ".";
    case EventKind::PackRevealed: return "The wolves are " + seatList(e.seats) + ".";
    case EventKind::PhaseStart:
        switch (e.phase) {
        case Phase::Night: return "Night " + std::to_string(e.round) + " falls.";
        case Phase::Discussion:
            return "Day " + std::to_string(e.round) + ": discussion, speaking order " + seatList(e.seats) +
                   ".";
        case Phase::Vote: return "Day " + std::to_string(e.round) + ": the vote opens.";
        case Phase::Over: return "The game is over.";
        }
        return "";
    case EventKind::WolfChat: return who + " (wolves): " + e.text;
    case EventKind::WolfVote:
        return e.target == kAbstain ? who + " abstains from the kill vote." : who + " votes to kill " + whom + ".";
    case EventKind::WolfTarget:
        if (e.target == kNoSeat) return "Every wolf abstained: the wolves attack nobody tonight.";
        return "The wolves will attack " + whom + (e.seats.empty() ? "" : " (drawn among " + seatList(e.seats) + ")") + ".";
    case EventKind::SeerInspect:
        if (e.revealedRole) return who + " inspects " + whom + ": the " + std::string(roleName(*e.revealedRole)) + ".";
        return who + " inspects " + whom + ": " +
               (e.team == Team::Wolves ? "a werewolf." : "not a werewolf.");
    case EventKind::DoctorProtect: return who + " protects " + whom + " tonight.";
    case EventKind::DawnDeath: return "Dawn: " + whom + " was killed in the night" + revealed(e) + ".";
    case EventKind::DawnNoDeath: return "Dawn: nobody died tonight.";
    case EventKind::DayChat: return who + ": " + e.text;
    case EventKind::VoteCast: return e.target == kAbstain ? who + " abstains." : who + " votes for " + whom + ".";
    case EventKind::Elimination:
        if (!e.seats.empty())
            return whom + revealed(e) + " is eliminated by a random draw among " + seatList(e.seats) + ".";
        return whom + " is eliminated by the vote" + revealed(e) + ".";
    case EventKind::NoElimination:
        if (e.seats.empty()) return "Every vote was an abstention: nobody is eliminated.";
        return "The vote is tied between " + seatList(e.seats) + ": nobody is eliminated.";
    case EventKind::Revote: return "The vote is tied between " + seatList(e.seats) + ": revote among them.";
    case EventKind::GameOver: return "Game over: the " + std::string(teamName(e.team)) + " win.";
    }
    return "";
}

} // namespace chaiba::werewolf
