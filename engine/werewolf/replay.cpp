// Werewolf replay: walks the log, re-applies each decision event and checks that the game writes
// back exactly the same events (derived ones included) in the same order.
#include "engine/werewolf/replay.h"

namespace chaiba::werewolf {

namespace {
// The decision that produced a decision event; nullopt for derived events.
std::optional<Decision> decisionOf(const Event& e) {
    switch (e.kind) {
    case EventKind::WolfChat:
    case EventKind::DayChat: return Decision::speak(e.seat, e.text);
    case EventKind::WolfVote: return Decision::wolfVote(e.seat, e.target);
    case EventKind::SeerInspect: return Decision::inspect(e.seat, e.target);
    case EventKind::DoctorProtect: return Decision::protect(e.seat, e.target);
    case EventKind::VoteCast: return Decision::vote(e.seat, e.target);
    default: return std::nullopt;
    }
}

ReplayResult failure(size_t at, const Event& e, const std::string& why) {
    return {std::nullopt,
            "event " + std::to_string(at) + " (" + std::string(eventKindName(e.kind)) + "): " + why, at};
}
} // namespace

ReplayResult replay(const std::vector<Event>& log) {
    if (log.empty() || log.front().kind != EventKind::Deal) {
        return {std::nullopt, "event 0: a log starts with the deal", 0};
    }
    const Event& deal = log.front();
    NewGame created = Game::createDealt(deal.roles, deal.rules, deal.seed);
    if (!created.ok()) return failure(0, deal, std::string(setupErrorText(created.error)));
    Game game = std::move(*created.game);

    for (size_t i = 0; i < log.size(); ++i) {
        const Event& e = log[i];
        if (i >= game.events().size()) {
            // Not yet written by the game: it must be a decision.
            ApplyResult r;
            if (const std::optional<Decision> d = decisionOf(e)) {
                r = game.apply(*d);
            } else if (e.kind == EventKind::PhaseStart && e.phase == Phase::Vote) {
                r = game.endDiscussion();
            } else {
                return failure(i, e, "the game did not produce this event here");
            }
            if (!r.ok()) return failure(i, e, r.message);
        }
        if (!(game.events()[i] == e)) return failure(i, e, "differs from the replayed event");
    }
    if (game.events().size() != log.size()) {
        return failure(log.size(), game.events()[log.size()], "the log ends before this event");
    }
    return {std::move(game), "", 0};
}

} // namespace chaiba::werewolf
