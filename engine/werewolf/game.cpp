// Werewolf game state machine: checks each decision, logs it with its audience, and resolves a
// night or a vote as soon as its last required decision is in (then checks for a winner).
#include "engine/werewolf/game.h"

#include <algorithm>
#include <cassert>

namespace chaiba::werewolf {

namespace {
// Events are built field by field (designated initializers would warn about the fields left out).
Event makeEvent(EventKind kind, Audience audience, int seat = kNoSeat, int target = kNoSeat) {
    Event e;
    e.kind = kind;
    e.audience = audience;
    e.seat = seat;
    e.target = target;
    return e;
}

bool isBlank(const std::string& text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

std::string_view verbFor(DecisionKind k) {
    switch (k) {
    case DecisionKind::WolfVote: return "choose a victim";
    case DecisionKind::Inspect: return "inspect";
    case DecisionKind::Protect: return "protect";
    case DecisionKind::Speak: return "speak";
    case DecisionKind::Vote: return "vote";
    }
    return "act";
}
} // namespace

std::string_view decisionKindName(DecisionKind k) {
    switch (k) {
    case DecisionKind::WolfVote: return "wolf_vote";
    case DecisionKind::Inspect: return "inspect";
    case DecisionKind::Protect: return "protect";
    case DecisionKind::Speak: return "speak";
    case DecisionKind::Vote: return "vote";
    }
    return "unknown";
}

std::string_view decisionErrorName(DecisionError e) {
    switch (e) {
    case DecisionError::None: return "none";
    case DecisionError::GameOver: return "game_over";
    case DecisionError::UnknownSeat: return "unknown_seat";
    case DecisionError::DeadSeat: return "dead_seat";
    case DecisionError::NotYourTurn: return "not_your_turn";
    case DecisionError::AlreadyDecided: return "already_decided";
    case DecisionError::UnknownTarget: return "unknown_target";
    case DecisionError::DeadTarget: return "dead_target";
    case DecisionError::SelfTarget: return "self_target";
    case DecisionError::PartnerTarget: return "partner_target";
    case DecisionError::SelfProtectForbidden: return "self_protect_forbidden";
    case DecisionError::RepeatProtectForbidden: return "repeat_protect_forbidden";
    case DecisionError::NotACandidate: return "not_a_candidate";
    case DecisionError::EmptyText: return "empty_text";
    case DecisionError::TextTooLong: return "text_too_long";
    case DecisionError::NotInDiscussion: return "not_in_discussion";
    case DecisionError::AbstainForbidden: return "abstain_forbidden";
    }
    return "unknown";
}

NewGame Game::create(const GameSetup& setup) {
    std::vector<Role> roles = setup.roles.empty() ? defaultRoles(setup.seats) : setup.roles;
    const SetupError error = validateRoles(setup.seats, roles);
    if (error != SetupError::None) return {std::nullopt, error};
    return createDealt(dealRoles(std::move(roles), setup.seed), setup.rules, setup.seed);
}

NewGame Game::createDealt(std::vector<Role> rolesBySeat, const Rules& rules, uint64_t seed) {
    const SetupError error = validateRoles(static_cast<int>(rolesBySeat.size()), rolesBySeat);
    if (error != SetupError::None) return {std::nullopt, error};
    return {Game(std::move(rolesBySeat), rules, seed), SetupError::None};
}

Game::Game(std::vector<Role> rolesBySeat, const Rules& rules, uint64_t seed)
    // The draws' stream is the seed's, moved off the deal's (which uses SplitMix64(seed) itself).
    : roles_(std::move(rolesBySeat)), rules_(rules), seed_(seed), draws_(seed ^ kDrawSalt) {
    const auto n = roles_.size();
    alive_.assign(n, 1);
    wolfVotes_.assign(n, kNoSeat);
    inspected_.assign(n, kNoSeat);
    protected_.assign(n, kNoSeat);
    lastProtected_.assign(n, kNoSeat);
    votes_.assign(n, kNoSeat);

    Event deal = makeEvent(EventKind::Deal, Audience::spectators());
    deal.roles = roles_;
    deal.seed = seed_;
    deal.rules = rules_;
    log(std::move(deal));
    std::vector<int> pack;
    for (int s = 0; s < seats(); ++s) {
        Event assigned = makeEvent(EventKind::RoleAssigned, Audience::only(s), s);
        assigned.role = roleOf(s);
        log(std::move(assigned));
        if (teamOfSeat(s) == Team::Wolves) pack.push_back(s);
    }
    Event packEvent = makeEvent(EventKind::PackRevealed, Audience::wolves());
    packEvent.seats = std::move(pack);
    log(std::move(packEvent));
    startNight();
}

Role Game::roleOf(int seat) const {
    assert(validSeat(seat) && "Game::roleOf: seat outside the table");
    return roles_[static_cast<size_t>(seat)];
}

bool Game::isAlive(int seat) const {
    return validSeat(seat) && alive_[static_cast<size_t>(seat)] != 0;
}

std::vector<int> Game::livingSeats() const {
    std::vector<int> out;
    for (int s = 0; s < seats(); ++s)
        if (isAlive(s)) out.push_back(s);
    return out;
}

int Game::livingCount(Team t) const {
    int n = 0;
    for (int s = 0; s < seats(); ++s) n += isAlive(s) && teamOfSeat(s) == t ? 1 : 0;
    return n;
}

void Game::log(Event e) {
    e.round = round_;
    if (e.kind != EventKind::PhaseStart) e.phase = phase_;
    events_.push_back(std::move(e));
}

// Step 1: may this seat make this kind of decision now (ignoring the target)?
DecisionError Game::checkActor(int seat, DecisionKind kind) const {
    if (isOver()) return DecisionError::GameOver;
    if (!validSeat(seat)) return DecisionError::UnknownSeat;
    if (!isAlive(seat)) return DecisionError::DeadSeat;
    const auto i = static_cast<size_t>(seat);
    const NightAction action = roleInfo(roleOf(seat)).nightAction;
    switch (kind) {
    case DecisionKind::Speak:
        if (phase_ == Phase::Discussion) return DecisionError::None;
        if (phase_ == Phase::Night && action == NightAction::WolfVote) return DecisionError::None;
        return DecisionError::NotYourTurn;
    case DecisionKind::WolfVote:
        if (phase_ != Phase::Night || action != NightAction::WolfVote) return DecisionError::NotYourTurn;
        return wolfVotes_[i] == kNoSeat ? DecisionError::None : DecisionError::AlreadyDecided;
    case DecisionKind::Inspect:
        if (phase_ != Phase::Night || action != NightAction::Inspect) return DecisionError::NotYourTurn;
        return inspected_[i] == kNoSeat ? DecisionError::None : DecisionError::AlreadyDecided;
    case DecisionKind::Protect:
        if (phase_ != Phase::Night || action != NightAction::Protect) return DecisionError::NotYourTurn;
        return protected_[i] == kNoSeat ? DecisionError::None : DecisionError::AlreadyDecided;
    case DecisionKind::Vote:
        if (phase_ != Phase::Vote) return DecisionError::NotYourTurn;
        return votes_[i] == kNoSeat ? DecisionError::None : DecisionError::AlreadyDecided;
    }
    return DecisionError::NotYourTurn;
}

// Step 2: is this target allowed for the seat's decision?
DecisionError Game::checkTarget(int seat, DecisionKind kind, int target) const {
    if (target == kAbstain)
        return rules_.abstainAllowed && (kind == DecisionKind::Vote || kind == DecisionKind::WolfVote)
                   ? DecisionError::None
                   : DecisionError::AbstainForbidden;
    if (!validSeat(target)) return DecisionError::UnknownTarget;
    if (!isAlive(target)) return DecisionError::DeadTarget;
    if (kind == DecisionKind::Protect) {
        if (target == seat && !rules_.doctorSelfSave) return DecisionError::SelfProtectForbidden;
        if (!rules_.doctorRepeatSave && target == lastProtected_[static_cast<size_t>(seat)])
            return DecisionError::RepeatProtectForbidden;
        return DecisionError::None;
    }
    if (target == seat) return DecisionError::SelfTarget;
    if (kind == DecisionKind::WolfVote && teamOfSeat(target) == Team::Wolves)
        return DecisionError::PartnerTarget;
    if (kind == DecisionKind::Vote && !candidates_.empty() &&
        std::find(candidates_.begin(), candidates_.end(), target) == candidates_.end())
        return DecisionError::NotACandidate;
    return DecisionError::None;
}

std::vector<int> Game::allowedTargets(int seat, DecisionKind kind) const {
    std::vector<int> out;
    if (kind == DecisionKind::Speak || checkActor(seat, kind) != DecisionError::None) return out;
    for (int t = 0; t < seats(); ++t)
        if (checkTarget(seat, kind, t) == DecisionError::None) out.push_back(t);
    return out;
}

std::vector<PendingDecision> Game::pendingDecisions() const {
    std::vector<PendingDecision> out;
    if (isOver()) return out;
    const DecisionKind kinds[] = {DecisionKind::WolfVote, DecisionKind::Inspect, DecisionKind::Protect,
                                  DecisionKind::Vote};
    for (int s = 0; s < seats(); ++s) {
        for (DecisionKind k : kinds)
            if (checkActor(s, k) == DecisionError::None)
                out.push_back({s, k, allowedTargets(s, k), true,
                               checkTarget(s, k, kAbstain) == DecisionError::None});
        if (phase_ == Phase::Night && checkActor(s, DecisionKind::Speak) == DecisionError::None)
            out.push_back({s, DecisionKind::Speak, {}, false});
    }
    if (phase_ == Phase::Discussion) // in speaking order
        for (int s : speakingOrder_) out.push_back({s, DecisionKind::Speak, {}, false});
    return out;
}

std::string Game::errorMessage(DecisionError e, const Decision& d) const {
    const std::string who = seatName(d.seat);
    const std::string whom = seatName(d.target);
    switch (e) {
    case DecisionError::None: return "";
    case DecisionError::GameOver: return "the game is over";
    case DecisionError::UnknownSeat:
        return "there is no seat " + std::to_string(d.seat + 1) + " at this table";
    case DecisionError::DeadSeat: return who + " is dead and cannot " + std::string(verbFor(d.kind));
    case DecisionError::NotYourTurn:
        return who + " cannot " + std::string(verbFor(d.kind)) + " during the " +
               std::string(phaseName(phase_));
    case DecisionError::AlreadyDecided: return who + " has already made this decision";
    case DecisionError::UnknownTarget:
        return "there is no seat " + std::to_string(d.target + 1) + " at this table";
    case DecisionError::DeadTarget: return whom + " is dead";
    case DecisionError::SelfTarget: return who + " cannot target himself";
    case DecisionError::PartnerTarget: return whom + " is a wolf: choose a victim outside the pack";
    case DecisionError::SelfProtectForbidden: return "the doctor may not protect himself";
    case DecisionError::RepeatProtectForbidden:
        return whom + " was protected last night: choose someone else";
    case DecisionError::NotACandidate: return whom + " is not one of the tied players in this revote";
    case DecisionError::EmptyText: return "the message is empty";
    case DecisionError::TextTooLong:
        return "the message is longer than " + std::to_string(kMaxChatChars) + " characters";
    case DecisionError::NotInDiscussion: return "there is no discussion to end";
    case DecisionError::AbstainForbidden: return "abstaining is not allowed under these rules";
    }
    return "invalid decision";
}

ApplyResult Game::apply(const Decision& d) {
    DecisionError e = checkActor(d.seat, d.kind);
    if (e == DecisionError::None) {
        if (d.kind == DecisionKind::Speak) {
            if (isBlank(d.text))
                e = DecisionError::EmptyText;
            else if (d.text.size() > kMaxChatChars)
                e = DecisionError::TextTooLong;
        } else {
            e = checkTarget(d.seat, d.kind, d.target);
        }
    }
    if (e != DecisionError::None) return {e, errorMessage(e, d)};

    const auto i = static_cast<size_t>(d.seat);
    switch (d.kind) {
    case DecisionKind::Speak: {
        const bool night = phase_ == Phase::Night;
        Event chat = makeEvent(night ? EventKind::WolfChat : EventKind::DayChat,
                               night ? Audience::wolves() : Audience::everyone(), d.seat);
        chat.text = d.text;
        log(std::move(chat));
        return {};
    }
    case DecisionKind::WolfVote:
        wolfVotes_[i] = d.target;
        wolfVoteOrder_.push_back(d.seat);
        log(makeEvent(EventKind::WolfVote, Audience::wolves(), d.seat, d.target));
        break;
    case DecisionKind::Inspect: {
        inspected_[i] = d.target;
        Event inspection = makeEvent(EventKind::SeerInspect, Audience::only(d.seat), d.seat, d.target);
        inspection.team = teamOfSeat(d.target);
        if (rules_.seerSeesRole) inspection.revealedRole = roleOf(d.target);
        log(std::move(inspection));
        break;
    }
    case DecisionKind::Protect:
        protected_[i] = d.target;
        log(makeEvent(EventKind::DoctorProtect, Audience::only(d.seat), d.seat, d.target));
        break;
    case DecisionKind::Vote:
        votes_[i] = d.target;
        log(makeEvent(EventKind::VoteCast, Audience::everyone(), d.seat, d.target));
        break;
    }
    if (phase_ == Phase::Night && nightComplete())
        resolveNight();
    else if (phase_ == Phase::Vote) {
        bool all = true;
        for (int s : livingSeats()) all = all && votes_[static_cast<size_t>(s)] != kNoSeat;
        if (all) resolveVote();
    }
    return {};
}

ApplyResult Game::endDiscussion() {
    if (isOver()) return {DecisionError::GameOver, "the game is over"};
    if (phase_ != Phase::Discussion) return {DecisionError::NotInDiscussion, "there is no discussion to end"};
    phase_ = Phase::Vote;
    speakingOrder_.clear();
    std::fill(votes_.begin(), votes_.end(), kNoSeat);
    candidates_.clear();
    Event vote = makeEvent(EventKind::PhaseStart, Audience::everyone());
    vote.phase = Phase::Vote;
    log(std::move(vote));
    return {};
}

void Game::startNight() {
    ++round_;
    phase_ = Phase::Night;
    std::fill(wolfVotes_.begin(), wolfVotes_.end(), kNoSeat);
    std::fill(inspected_.begin(), inspected_.end(), kNoSeat);
    std::fill(protected_.begin(), protected_.end(), kNoSeat);
    wolfVoteOrder_.clear();
    Event night = makeEvent(EventKind::PhaseStart, Audience::everyone());
    night.phase = Phase::Night;
    log(std::move(night));
}

void Game::startDiscussion() {
    phase_ = Phase::Discussion;
    std::vector<int> everySeat(roles_.size());
    for (int s = 0; s < seats(); ++s) everySeat[static_cast<size_t>(s)] = s;
    const int first = rules_.randomFirstSpeaker   ? draw(everySeat) // then the next living one on
                      : rules_.rotateFirstSpeaker ? (round_ - 1) % seats()
                                                  : 0;
    speakingOrder_.clear();
    for (int k = 0; k < seats(); ++k) {
        const int s = (first + k) % seats();
        if (isAlive(s)) speakingOrder_.push_back(s);
    }
    Event e = makeEvent(EventKind::PhaseStart, Audience::everyone());
    e.phase = Phase::Discussion;
    e.seats = speakingOrder_;
    log(std::move(e));
}

bool Game::nightComplete() const {
    for (int s : livingSeats()) {
        const auto i = static_cast<size_t>(s);
        switch (roleInfo(roleOf(s)).nightAction) {
        case NightAction::None: break;
        case NightAction::WolfVote:
            if (wolfVotes_[i] == kNoSeat) return false;
            break;
        case NightAction::Inspect:
            if (inspected_[i] == kNoSeat) return false;
            break;
        case NightAction::Protect:
            if (protected_[i] == kNoSeat) return false;
            break;
        }
    }
    return true;
}

// Dawn. The victim is the player with the most wolf votes; among tied players, the one named by
// the earliest wolf vote (the first wolf to vote for any of them) - so the pack's first proposal
// stands unless a majority overrules it. Under Rules::randomWolfTie the tied (all abstaining: every
// allowed victim) are drawn from instead, and the WolfTarget event lists them. Every wolf abstaining
// without that rule: nobody is attacked.
void Game::resolveNight() {
    std::vector<int> tally(roles_.size(), 0);
    int best = 0;
    for (int w : wolfVoteOrder_) {
        const int t = wolfVotes_[static_cast<size_t>(w)];
        if (t != kAbstain) best = std::max(best, ++tally[static_cast<size_t>(t)]);
    }
    int victim = kNoSeat;
    std::vector<int> drawnAmong;
    if (rules_.randomWolfTie) {
        std::vector<int> tied;
        for (int t = 0; t < seats(); ++t) {
            const bool prey = isAlive(t) && teamOfSeat(t) != Team::Wolves;
            if (best > 0 ? tally[static_cast<size_t>(t)] == best : prey) tied.push_back(t);
        }
        if (!tied.empty()) victim = draw(tied);
        if (tied.size() > 1) drawnAmong = std::move(tied);
    } else {
        for (int w : wolfVoteOrder_) {
            const int t = wolfVotes_[static_cast<size_t>(w)];
            if (t != kAbstain && tally[static_cast<size_t>(t)] == best) {
                victim = t;
                break;
            }
        }
    }
    assert((victim != kNoSeat || rules_.abstainAllowed) && "resolveNight: a night needs a living wolf's vote");
    Event target = makeEvent(EventKind::WolfTarget, Audience::wolves(), kNoSeat, victim);
    target.seats = std::move(drawnAmong);
    log(std::move(target));
    bool saved = false;
    for (size_t s = 0; s < protected_.size(); ++s) {
        if (isAlive(static_cast<int>(s)) && roleInfo(roles_[s]).nightAction == NightAction::Protect) {
            saved = saved || (victim != kNoSeat && protected_[s] == victim);
            lastProtected_[s] = protected_[s];
        }
    }
    if (saved || victim == kNoSeat)
        log(makeEvent(EventKind::DawnNoDeath, Audience::everyone()));
    else
        kill(victim, EventKind::DawnDeath);
    if (checkWin()) return;
    startDiscussion();
}

int Game::draw(const std::vector<int>& among) {
    assert(!among.empty() && "Game::draw needs a choice");
    if (among.size() == 1) return among.front(); // nothing to draw: the stream is not advanced
    return among[static_cast<size_t>(draws_.below(among.size()))];
}

void Game::resolveVote() {
    std::vector<int> tally(roles_.size(), 0);
    int best = 0;
    for (int s : livingSeats()) {
        const int t = votes_[static_cast<size_t>(s)];
        if (t != kAbstain) best = std::max(best, ++tally[static_cast<size_t>(t)]);
    }
    std::vector<int> tied; // empty when every vote was an abstention
    for (int t = 0; t < seats() && best > 0; ++t)
        if (tally[static_cast<size_t>(t)] == best) tied.push_back(t);
    std::fill(votes_.begin(), votes_.end(), kNoSeat);
    if (tied.size() == 1) {
        candidates_.clear();
        kill(tied.front(), EventKind::Elimination);
        if (checkWin()) return;
    } else if (rules_.tieRule == TieRule::Random) {
        // Kaggle's TieBreak.RANDOM: drawn among the tied, or among every living player when all
        // abstained; the Elimination event lists whom the draw was among.
        std::vector<int> among = tied.empty() ? livingSeats() : std::move(tied);
        const int drawn = draw(among);
        candidates_.clear();
        kill(drawn, EventKind::Elimination, std::move(among));
        if (checkWin()) return;
    } else if (rules_.tieRule == TieRule::Revote && candidates_.empty() && !tied.empty()) {
        Event e = makeEvent(EventKind::Revote, Audience::everyone());
        e.seats = tied;
        candidates_ = std::move(tied);
        log(std::move(e));
        return; // the vote goes on, among the tied
    } else {
        candidates_.clear();
        Event e = makeEvent(EventKind::NoElimination, Audience::everyone());
        e.seats = std::move(tied);
        log(std::move(e));
    }
    startNight();
}

void Game::kill(int seat, EventKind how, std::vector<int> drawnAmong) {
    alive_[static_cast<size_t>(seat)] = 0;
    Event e = makeEvent(how, Audience::everyone(), kNoSeat, seat);
    e.seats = std::move(drawnAmong);
    if (rules_.revealRoles) e.revealedRole = roleOf(seat);
    log(std::move(e));
}

// Villagers win when no wolf lives; wolves when they are at least as many as the rest. Called
// after every death: a decided game stops here, with no further phase.
bool Game::checkWin() {
    const int wolves = livingCount(Team::Wolves);
    const int others = livingCount(Team::Villagers);
    if (wolves > 0 && wolves < others) return false;
    winner_ = wolves == 0 ? Team::Villagers : Team::Wolves;
    phase_ = Phase::Over;
    speakingOrder_.clear();
    candidates_.clear();
    Event e = makeEvent(EventKind::GameOver, Audience::everyone());
    e.team = *winner_;
    e.roles = roles_;
    log(std::move(e));
    return true;
}

std::vector<Event> Game::eventsVisibleTo(int seat) const {
    std::vector<Event> out;
    if (!validSeat(seat)) return out;
    for (const Event& e : events_)
        if (visibleTo(e, seat, roleOf(seat))) out.push_back(e);
    return out;
}

std::vector<Event> Game::publicEvents() const {
    std::vector<Event> out;
    for (const Event& e : events_)
        if (e.audience.kind == AudienceKind::Everyone) out.push_back(e);
    return out;
}

} // namespace chaiba::werewolf
