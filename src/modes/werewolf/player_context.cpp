// The player context: a seat's view of the game as prompt text, from its visible events only.
#include "src/modes/werewolf/player_context.h"

#include <algorithm>
#include <map>

namespace chaiba::werewolfmode {

using werewolf::Event;
using werewolf::EventKind;
using werewolf::Phase;
using werewolf::seatName;

namespace {
std::string dayName(int round) {
    return "Day " + std::to_string(round);
}
} // namespace

std::vector<std::string> truncateOldestFirst(const std::vector<std::string>& lines, std::size_t budgetChars) {
    std::size_t used = 0;
    std::size_t keep = 0; // lines kept, counted from the newest
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
        if (used + it->size() + 1 > budgetChars) break;
        used += it->size() + 1;
        ++keep;
    }
    std::vector<std::string> out;
    const std::size_t cut = lines.size() - keep;
    if (cut > 0) out.push_back("[... " + std::to_string(cut) + " earlier messages cut ...]");
    out.insert(out.end(), lines.end() - static_cast<std::ptrdiff_t>(keep), lines.end());
    return out;
}

std::string targetList(const std::vector<int>& seats) {
    std::string out;
    for (std::size_t i = 0; i < seats.size(); ++i) out += (i ? ", " : "") + seatName(seats[i]);
    return out.empty() ? "(none)" : out;
}

std::vector<std::string> chatLines(const werewolf::Game& game, int seat) {
    std::vector<std::string> out;
    for (const Event& e : game.eventsVisibleTo(seat)) {
        // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
        std::string line = "[";
        if (e.kind == EventKind::DayChat)
            line.append(dayName(e.round)).append("] ");
        else if (e.kind == EventKind::WolfChat)
            line.append("Night ").append(std::to_string(e.round)).append(", wolves only] ");
        else
            continue;
        out.push_back(line.append(seatName(e.seat)).append(": ").append(e.text));
    }
    return out;
}

std::string buildGameState(const werewolf::Game& game, int seat, const ContextOptions& options) {
    const std::vector<Event> events = game.eventsVisibleTo(seat);
    const werewolf::Role role = game.roleOf(seat);
    std::string out;
    // Step 1. Who the seat is.
    out += "You are " + seatName(seat) + ", the " + std::string(werewolf::roleName(role)) + " (team " +
           std::string(werewolf::teamName(werewolf::teamOf(role))) + ").\n";
    for (const Event& e : events)
        if (e.kind == EventKind::PackRevealed) {
            std::vector<int> partners;
            for (int s : e.seats)
                if (s != seat) partners.push_back(s);
            out += "Your pack (the other wolves): " +
                   (partners.empty() ? "none, you hunt alone" : targetList(partners)) + ".\n";
        }
    // Step 2. Round, phase, the living and the dead.
    out += "Round " + std::to_string(game.round()) +
           ", phase: " + std::string(werewolf::phaseName(game.phase())) + ".\n";
    const std::vector<int> living = game.livingSeats();
    out += "Living players (" + std::to_string(living.size()) + "): ";
    for (std::size_t i = 0; i < living.size(); ++i)
        out += (i ? ", " : "") + seatName(living[i]) + (living[i] == seat ? " (you)" : "");
    out += ".\n";
    std::string dead;
    for (const Event& e : events) {
        if (e.kind != EventKind::DawnDeath && e.kind != EventKind::Elimination) continue;
        dead += (dead.empty() ? "" : "; ") + seatName(e.target) +
                (e.kind == EventKind::DawnDeath ? " killed in night " : " eliminated by the vote of day ") +
                std::to_string(e.round) +
                (e.revealedRole ? " (" + std::string(werewolf::roleName(*e.revealedRole)) + ")" : "");
    }
    out += "Dead players: " + (dead.empty() ? "none" : dead) + ".\n";

    // Step 3. Private results and night events (this seat's audience only).
    std::string privateLines;
    for (const Event& e : events) {
        switch (e.kind) {
        case EventKind::SeerInspect:
            privateLines += "- Night " + std::to_string(e.round) + ": you inspected " + seatName(e.target) +
                            ": " + (e.team == werewolf::Team::Wolves ? "a WEREWOLF" : "not a werewolf") +
                            (e.revealedRole ? " (the " + std::string(werewolf::roleName(*e.revealedRole)) + ")" : "") +
                            ".\n";
            break;
        case EventKind::DoctorProtect:
            privateLines +=
                "- Night " + std::to_string(e.round) + ": you protected " + seatName(e.target) + ".\n";
            break;
        case EventKind::WolfVote:
            privateLines += "- Night " + std::to_string(e.round) + ": " + seatName(e.seat) +
                            (e.target == werewolf::kAbstain ? " abstained" : " voted to kill " + seatName(e.target)) +
                            ".\n";
            break;
        case EventKind::WolfTarget:
            privateLines += "- Night " + std::to_string(e.round) + ": " +
                            (e.target == werewolf::kNoSeat ? "every wolf abstained: the pack attacked nobody"
                                                           : "the pack attacked " + seatName(e.target)) +
                            (e.seats.empty() ? "" : " (drawn among " + targetList(e.seats) + ")") + ".\n";
            break;
        case EventKind::DawnNoDeath:
            privateLines += "- Dawn of day " + std::to_string(e.round) + ": nobody died.\n";
            break;
        default: break;
        }
    }
    if (!privateLines.empty()) out += "\nNight events you know of:\n" + privateLines;

    // Step 4. Voting history, and the open vote's tally.
    std::string history;
    std::string current;
    std::map<int, std::vector<int>> tally; // target -> voters, of the vote in progress
    auto tallyText = [&] {
        std::string t;
        for (const auto& [target, voters] : tally)
            t += (t.empty() ? "" : "; ") + seatName(target) + ": " + std::to_string(voters.size()) + " (" +
                 targetList(voters) + ")";
        return t;
    };
    for (const Event& e : events) {
        if (e.kind == EventKind::PhaseStart && e.phase == Phase::Vote) tally.clear();
        if (e.kind == EventKind::VoteCast) tally[e.target].push_back(e.seat);
        const bool closes = e.kind == EventKind::Elimination || e.kind == EventKind::NoElimination ||
                            e.kind == EventKind::Revote;
        if (!closes || e.phase != Phase::Vote) continue;
        history += "- " + dayName(e.round) + ": " + tallyText() + " -> ";
        if (e.kind == EventKind::Elimination)
            history += seatName(e.target) + " eliminated" +
                       (e.revealedRole ? " (" + std::string(werewolf::roleName(*e.revealedRole)) + ")" : "") +
                       ".\n";
        else if (e.kind == EventKind::NoElimination)
            history += "tie between " + targetList(e.seats) + ", nobody eliminated.\n";
        else
            history += "tie between " + targetList(e.seats) + ", revote among them.\n";
        tally.clear();
    }
    out += "\nVoting history:\n" + (history.empty() ? std::string("- no vote yet.\n") : history);
    if (game.phase() == Phase::Vote) {
        std::vector<int> waiting;
        for (int s : living) {
            bool voted = false;
            for (const auto& [target, voters] : tally)
                voted = voted || std::find(voters.begin(), voters.end(), s) != voters.end();
            if (!voted) waiting.push_back(s);
        }
        current = "Current vote (" + dayName(game.round()) +
                  "): " + (tally.empty() ? "no votes yet" : tallyText()) +
                  "; not yet voted: " + targetList(waiting) + ".\n";
        if (!game.revoteCandidates().empty())
            current +=
                "This is a revote among the tied players " + targetList(game.revoteCandidates()) + ".\n";
        out += current;
    }

    // Step 5. The chat, newest kept.
    const auto budget =
        static_cast<std::size_t>(std::max(0, options.chatTokenBudget) * std::max(1, options.charsPerToken));
    const std::vector<std::string> lines = truncateOldestFirst(chatLines(game, seat), budget);
    out += "\nChat history (oldest first):\n";
    if (lines.empty()) out += "(no messages yet)\n";
    for (const std::string& line : lines) out += line + "\n";
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

std::string taskText(const WerewolfPrompts& prompts, const werewolf::Game& game, const TaskInfo& task) {
    const werewolf::Rules& rules = game.rules();
    std::map<std::string, std::string> values = {
        {"round", std::to_string(task.kind == AskKind::Notes ? task.endedRound : game.round())},
        {"targets", targetList(task.targets)},
        {"phase", std::string(werewolf::phaseName(task.endedPhase))},
    };
    std::string protect =
        rules.doctorSelfSave ? "You may protect yourself." : "You may not protect yourself.";
    protect += rules.doctorRepeatSave ? " You may protect the same player two nights in a row."
                                      : " You may not protect the same player two nights in a row.";
    values["protect_rules"] = protect;
    switch (rules.tieRule) {
    case werewolf::TieRule::Revote:
        values["tie_rule"] = "On a tie, a revote is held among the tied players; a second tie eliminates nobody.";
        break;
    case werewolf::TieRule::Random:
        values["tie_rule"] = "On a tie, one of the tied players is drawn at random and eliminated; if every vote "
                             "is an abstention, a random living player is eliminated.";
        break;
    case werewolf::TieRule::NoElimination: values["tie_rule"] = "On a tie, nobody is eliminated today."; break;
    }
    values["wolf_tie_rule"] = rules.randomWolfTie ? "on a tie, one of the tied is drawn at random."
                                                  : "on a tie, the earliest vote stands.";
    values["inspect_result"] = rules.seerSeesRole ? "that player's role (and so whether it is a werewolf)"
                                                  : "whether that player is a werewolf";
    // Only where the rules allow abstaining (balanced and plain prompts stay as they were).
    if (rules.abstainAllowed && (task.kind == AskKind::Vote || task.kind == AskKind::WolfVote)) {
        values["targets"] += ", or \"abstain\" (a vote for nobody)";
        if (task.kind == AskKind::WolfVote)
            values["targets"] += rules.randomWolfTie ? ". If every wolf abstains, a random villager is attacked"
                                                     : ". If every wolf abstains, nobody is attacked";
    }
    return llm::fillTemplate(prompts.task(task.kind), values);
}

std::vector<llm::ChatMessage> buildMessages(const WerewolfPrompts& prompts, const werewolf::Game& game,
                                            int seat, const std::string& notes, const TaskInfo& task,
                                            const ContextOptions& options) {
    const werewolf::Role role = game.roleOf(seat);
    const std::string system =
        llm::fillTemplate(prompts.system, {{"player", seatName(seat)},
                                           {"role", std::string(werewolf::roleName(role))},
                                           {"team", std::string(werewolf::teamName(werewolf::teamOf(role)))},
                                           {"strategy", prompts.strategy(role)}});
    const std::string user =
        llm::fillTemplate(prompts.user, {{"notes", notes.empty() ? "(no notes yet)" : notes},
                                         {"state", buildGameState(game, seat, options)},
                                         {"task", taskText(prompts, game, task)},
                                         {"format", prompts.format(task.kind)}});
    std::vector<llm::ChatMessage> messages(2);
    messages[0].role = llm::Role::System;
    messages[0].content = system;
    messages[1].role = llm::Role::User;
    messages[1].content = user;
    return messages;
}

} // namespace chaiba::werewolfmode
