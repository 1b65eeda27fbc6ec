// The headless Werewolf session: the stages (notes, night, day rounds, vote), bots fed with their
// visible events, AI asks through one request queue, and a person's decisions from outside.
#include "src/modes/werewolf/game_session.h"

#include <algorithm>
#include <cassert>

namespace chaiba::werewolfmode {

using werewolf::Decision;
using werewolf::DecisionKind;
using werewolf::PendingDecision;
using werewolf::Phase;

std::string_view seatKindName(SeatKind k) {
    switch (k) {
    case SeatKind::Bot: return "bot";
    case SeatKind::Model: return "ai";
    case SeatKind::Person: return "person";
    case SeatKind::Engine:
    case SeatKind::Random: break; // not at a werewolf table
    }
    return "unknown";
}

namespace {
AskKind askFor(DecisionKind k) {
    switch (k) {
    case DecisionKind::WolfVote: return AskKind::WolfVote;
    case DecisionKind::Inspect: return AskKind::Inspect;
    case DecisionKind::Protect: return AskKind::Protect;
    case DecisionKind::Speak: return AskKind::Chat;
    case DecisionKind::Vote: return AskKind::Vote;
    }
    return AskKind::Vote;
}

DecisionKind decisionFor(AskKind k) {
    switch (k) {
    case AskKind::WolfVote: return DecisionKind::WolfVote;
    case AskKind::Inspect: return DecisionKind::Inspect;
    case AskKind::Protect: return DecisionKind::Protect;
    case AskKind::Chat: return DecisionKind::Speak;
    default: return DecisionKind::Vote;
    }
}
} // namespace

GameSession::GameSession(SessionConfig config, const WerewolfPrompts& prompts, llm::ChatService* chat)
    : config_(std::move(config)), prompts_(prompts), chat_(chat) {
    config_.setup.seats = static_cast<int>(config_.seats.size());
    werewolf::NewGame created = werewolf::Game::create(config_.setup);
    if (!created.ok()) {
        setupError_ = created.error;
        finished_ = true;
        return;
    }
    game_ = std::move(*created.game);
    const auto n = config_.seats.size();
    bots_.resize(n);
    aiSeats_.resize(n);
    for (std::size_t s = 0; s < n; ++s) {
        const int seat = static_cast<int>(s);
        switch (config_.seats[s].kind) {
        case SeatKind::Bot: bots_[s].emplace(seat, config_.setup.seed); break;
        case SeatKind::Model:
            assert(chat_ && "GameSession: an AI seat needs a chat service");
            aiSeats_[s] = std::make_unique<AiSeat>(seat, config_.seats[s].ai, prompts_, config_.setup.seed);
            break;
        case SeatKind::Person: break;
        case SeatKind::Engine:
        case SeatKind::Random: assert(false && "GameSession: a table seats models, bots and people only"); break;
        }
    }
    feedBots();
    seenRound_ = game_->round();
    seenPhase_ = game_->phase();
}

GameSession::~GameSession() = default;

const AiSeat* GameSession::aiSeat(int seat) const {
    if (seat < 0 || static_cast<std::size_t>(seat) >= aiSeats_.size()) return nullptr;
    return aiSeats_[static_cast<std::size_t>(seat)].get();
}

void GameSession::feedBots() {
    for (; fed_ < game_->events().size(); ++fed_) {
        const werewolf::Event& e = game_->events()[fed_];
        for (std::size_t s = 0; s < bots_.size(); ++s)
            if (bots_[s] && werewolf::visibleTo(e, static_cast<int>(s), game_->roleOf(static_cast<int>(s))))
                bots_[s]->observe(e);
    }
}

void GameSession::apply(const Decision& d, const EventNote& note) {
    const std::size_t index = game_->events().size();
    const werewolf::ApplyResult r = game_->apply(d);
    assert(r.ok() && "GameSession::apply: a checked decision was refused");
    if (!r.ok()) return;
    if (!note.reasoning.empty() || note.fallback != FallbackReason::None || !note.suspicions.empty())
        eventNotes_[index] = note;
    feedBots();
}

void GameSession::handle(int seat, AskOutcome outcome) {
    const EventNote note{outcome.reasoning, outcome.fallback, outcome.fallbackDetail,
                         outcome.chat.suspicions};
    switch (outcome.kind) {
    case AskKind::Notes: return;
    case AskKind::Chat: roundAnswers_[seat] = std::move(outcome); return;
    case AskKind::WolfChat: wolfAnswers_[seat] = std::move(outcome); return;
    default: break;
    }
    if (!outcome.target) { // no allowed target at all: the game cannot go on
        finished_ = true;
        return;
    }
    apply({seat, decisionFor(outcome.kind), *outcome.target, {}}, note);
}

void GameSession::startNotes(Phase ended, int round) {
    if (!config_.rewriteNotes) return;
    for (std::size_t s = 0; s < aiSeats_.size(); ++s) {
        AiSeat* seat = aiSeats_[s].get();
        if (!seat || !game_->isAlive(static_cast<int>(s)) || seat->busy()) continue;
        TaskInfo task;
        task.kind = AskKind::Notes;
        task.endedPhase = ended;
        task.endedRound = round;
        seat->ask(*game_, std::move(task), nowMs_);
        notesRunning_ = true;
    }
}

// The wolves' night chat: true while it runs (the wolf votes wait). Rounds like the day's: every
// living AI wolf is asked at once, the lines posted in seat order once all answers are in.
bool GameSession::wolfChatRunning(bool& changed) {
    if (game_->round() != wolfChatNight_) {
        wolfChatNight_ = game_->round();
        wolfChatRound_ = 0;
        wolfChatOpen_ = wolfChatDone_ = false;
        wolfAnswers_.clear();
    }
    if (wolfChatDone_) return false;
    std::vector<int> speakers; // the living wolves (the game lets exactly them speak at night)
    for (const PendingDecision& p : game_->pendingDecisions())
        if (p.kind == DecisionKind::Speak) speakers.push_back(p.seat);
    std::sort(speakers.begin(), speakers.end());
    const bool anyAi = std::any_of(speakers.begin(), speakers.end(), [&](int s) { return isKind(s, SeatKind::Model); });
    if (config_.wolfChatRounds <= 0 || speakers.size() < 2 || !anyAi) {
        wolfChatDone_ = true;
        return false;
    }
    if (wolfChatOpen_) {
        for (int s : speakers)
            if (AiSeat* seat = ai(s); seat && seat->busy()) return true;
        bool spoke = false;
        for (int s : speakers) {
            auto it = wolfAnswers_.find(s);
            if (it == wolfAnswers_.end()) continue;
            const AskOutcome& a = it->second;
            if (a.chat.send) {
                apply(Decision::speak(s, a.chat.message),
                      {a.reasoning, a.fallback, a.fallbackDetail, a.chat.suspicions});
                spoke = true;
            } // a silent turn (or a fallback to silence) leaves no event; the seat's history keeps it
        }
        wolfAnswers_.clear();
        wolfChatOpen_ = false;
        changed = true;
        wolfChatDone_ = !spoke || ++wolfChatRound_ >= config_.wolfChatRounds;
        return !wolfChatDone_;
    }
    for (int s : speakers) {
        AiSeat* seat = isKind(s, SeatKind::Model) ? ai(s) : nullptr;
        if (!seat || seat->busy()) continue;
        TaskInfo task;
        task.kind = AskKind::WolfChat;
        seat->ask(*game_, std::move(task), nowMs_);
    }
    wolfChatOpen_ = true;
    changed = true;
    return true;
}

// Step: the night. The wolves' chat first (their votes wait for it); bots act at once; AI seats
// are asked (wolves in seat order); people are awaited.
bool GameSession::stepNight() {
    bool changed = false;
    const bool wolvesChatting = wolfChatRunning(changed);
    const std::vector<PendingDecision> pending = game_->pendingDecisions();
    bool earlierWolfWaiting = false;
    for (const PendingDecision& p : pending) {
        if (!p.required) continue;
        const bool wolf = p.kind == DecisionKind::WolfVote;
        if (wolf && wolvesChatting) continue;
        const auto s = static_cast<std::size_t>(p.seat);
        if (p.targets.empty()) {
            finished_ = true; // a night action with no allowed target: the game cannot go on
            return true;
        }
        switch (config_.seats[s].kind) {
        case SeatKind::Bot: {
            Decision d = bots_[s]->decide(*game_, p);
            if (d.kind == DecisionKind::Speak) { // a wolf bot proposes the victim first
                apply(d, {});
                d = bots_[s]->decide(*game_, p);
            }
            apply(d, {});
            return true;
        }
        case SeatKind::Model:
            if (!(wolf && earlierWolfWaiting) && !aiSeats_[s]->busy()) {
                TaskInfo task;
                task.kind = askFor(p.kind);
                task.targets = p.targets;
                aiSeats_[s]->ask(*game_, std::move(task), nowMs_);
            }
            break;
        case SeatKind::Person:
        case SeatKind::Engine:
        case SeatKind::Random: break; // a person answers through submit()
        }
        earlierWolfWaiting = earlierWolfWaiting || wolf;
    }
    return changed;
}

// Step: the day's discussion, in rounds of chat turns.
bool GameSession::stepDay() {
    if (!dayStarted_) {
        dayStarted_ = true;
        roundOpen_ = false;
        dayStartMs_ = nextRoundMs_ = nowMs_;
        dayRound_ = dayMessages_ = 0;
        personSpoke_ = personDone_ = personSpokeLastRound_ = false;
        botLines_.clear();
        dayOrder_ = game_->speakingOrder();
    }
    if (roundOpen_) {
        for (int s : dayOrder_)
            if (AiSeat* seat = ai(s); seat && seat->busy()) return false;
        // A person at the table gets the whole interval to speak.
        if (personAlive() && nowMs_ < roundStartMs_ + config_.chatPollIntervalMs) return false;
        // Post the round's messages in the speaking order.
        bool spoke = personSpoke_;
        for (int s : dayOrder_) {
            auto it = roundAnswers_.find(s);
            if (it == roundAnswers_.end() || !game_->isAlive(s)) continue;
            const AskOutcome& a = it->second;
            if (a.chat.send && dayMessages_ < config_.maxDayMessages) {
                apply(Decision::speak(s, a.chat.message),
                      {a.reasoning, a.fallback, a.fallbackDetail, a.chat.suspicions});
                ++dayMessages_;
                spoke = true;
            } // a silent turn (or a fallback to silence) leaves no event; the seat's history keeps it
        }
        roundAnswers_.clear();
        roundOpen_ = false;
        personSpokeLastRound_ = personSpoke_;
        personSpoke_ = false;
        nextRoundMs_ = roundStartMs_ + config_.chatPollIntervalMs;
        const bool timeUp = nextRoundMs_ - dayStartMs_ >= config_.maxDayMs;
        // A silent round ends the day, but a person alive who has not passed may still speak.
        const bool silenceEnds = !spoke && (!config_.personDayTurns || !personAlive() || personDone_);
        if (silenceEnds || dayMessages_ >= config_.maxDayMessages || timeUp) {
            dayStarted_ = false;
            game_->endDiscussion();
            feedBots();
        }
        return true;
    }
    if (nowMs_ < nextRoundMs_) return false;
    roundOpen_ = true;
    roundStartMs_ = nowMs_;
    ++dayRound_;
    for (int s : dayOrder_) {
        if (!game_->isAlive(s)) continue;
        const auto i = static_cast<std::size_t>(s);
        const bool botTurn = dayRound_ == 1 || (config_.personDayTurns && personSpokeLastRound_);
        if (config_.seats[i].kind == SeatKind::Bot && botTurn) {
            AskOutcome line;
            line.kind = AskKind::Chat;
            line.chat.message = bots_[i]->decide(*game_, {s, DecisionKind::Speak, {}, false}).text;
            // After a person's line a bot speaks only when it has something new to say.
            line.chat.send = dayRound_ == 1 || botLines_[s] != line.chat.message;
            botLines_[s] = line.chat.message;
            roundAnswers_[s] = std::move(line);
        } else if (config_.seats[i].kind == SeatKind::Model) {
            TaskInfo task;
            task.kind = AskKind::Chat;
            aiSeats_[i]->ask(*game_, std::move(task), nowMs_);
        }
    }
    return true;
}

// Step: the vote, one voter at a time in the day's speaking order.
bool GameSession::stepVote() {
    dayStarted_ = false;
    const std::vector<PendingDecision> pending = game_->pendingDecisions();
    std::vector<int> order = dayOrder_;
    for (int s : game_->livingSeats())
        if (std::find(order.begin(), order.end(), s) == order.end()) order.push_back(s);
    for (int s : order) {
        auto p = std::find_if(pending.begin(), pending.end(), [&](const PendingDecision& d) {
            return d.seat == s && d.kind == DecisionKind::Vote;
        });
        if (p == pending.end()) continue;
        if (p->targets.empty()) {
            finished_ = true;
            return true;
        }
        const auto i = static_cast<std::size_t>(s);
        switch (config_.seats[i].kind) {
        case SeatKind::Bot: apply(bots_[i]->decide(*game_, *p), {}); return true;
        case SeatKind::Model:
            if (!aiSeats_[i]->busy()) {
                TaskInfo task;
                task.kind = AskKind::Vote;
                task.targets = p->targets;
                aiSeats_[i]->ask(*game_, std::move(task), nowMs_);
            }
            return false;
        case SeatKind::Person:
        case SeatKind::Engine:
        case SeatKind::Random: return false; // a person votes through submit()
        }
    }
    return false;
}

bool GameSession::step() {
    if (finished_) return false;
    if (game_->isOver() || game_->round() > config_.maxRounds) {
        finished_ = true;
        return true;
    }
    // Step 1. A new phase: every living AI seat rewrites its notes first.
    if (game_->round() != seenRound_ || game_->phase() != seenPhase_) {
        const Phase ended = seenPhase_;
        const int round = seenRound_;
        seenRound_ = game_->round();
        seenPhase_ = game_->phase();
        startNotes(ended, round);
        return true;
    }
    if (notesRunning_) {
        for (const auto& seat : aiSeats_)
            if (seat && seat->busy()) return false;
        notesRunning_ = false;
    }
    // Step 2. The phase itself.
    switch (game_->phase()) {
    case Phase::Night: return stepNight();
    case Phase::Discussion: return stepDay();
    case Phase::Vote: return stepVote();
    case Phase::Over: return false;
    }
    return false;
}

void GameSession::sendDue() {
    if (!chat_) return;
    for (;;) {
        if (requestsInFlight() >= std::max(1, config_.maxConcurrentRequests)) return;
        if (lastSendMs_ && nowMs_ < *lastSendMs_ + config_.requestSpacingMs) return;
        AiSeat* next = nullptr;
        for (const auto& seat : aiSeats_) { // the longest waiting first, then by seat
            if (!seat) continue;
            const std::optional<std::int64_t> due = seat->dueAtMs();
            if (due && *due <= nowMs_ && (!next || *due < *next->dueAtMs())) next = seat.get();
        }
        if (!next) return;
        next->send(*chat_);
        lastSendMs_ = nowMs_;
    }
}

void GameSession::poll(std::int64_t nowMs) {
    nowMs_ = std::max(nowMs_, nowMs);
    if (finished_) return;
    for (int guard = 0; guard < 10000; ++guard) {
        bool progress = false;
        for (std::size_t s = 0; s < aiSeats_.size(); ++s) {
            AiSeat* seat = aiSeats_[s].get();
            if (!seat) continue;
            seat->advance(*game_, nowMs_);
            if (std::optional<AskOutcome> outcome = seat->takeOutcome()) {
                handle(static_cast<int>(s), std::move(*outcome));
                progress = true;
            }
        }
        progress = step() || progress;
        if (!progress || finished_) break;
    }
    if (finished_) return;
    sendDue();
}

std::optional<std::int64_t> GameSession::nextWakeMs() const {
    if (finished_) return std::nullopt;
    std::optional<std::int64_t> wake;
    auto consider = [&](std::int64_t t) { wake = wake ? std::min(*wake, t) : t; };
    const bool canSend = requestsInFlight() < std::max(1, config_.maxConcurrentRequests);
    for (const auto& seat : aiSeats_) {
        if (!seat) continue;
        if (seat->busy() && !seat->inFlight() && !seat->dueAtMs()) consider(nowMs_); // an answer waits
        if (const std::optional<std::int64_t> due = seat->dueAtMs(); due && canSend)
            consider(std::max(*due, lastSendMs_ ? *lastSendMs_ + config_.requestSpacingMs : *due));
    }
    if (game_ && game_->phase() == Phase::Discussion && !roundOpen_ && !notesRunning_)
        consider(dayStarted_ ? nextRoundMs_ : nowMs_);
    if (game_ && game_->phase() == Phase::Discussion && roundOpen_ && personAlive())
        consider(roundStartMs_ + config_.chatPollIntervalMs);
    return wake;
}

bool GameSession::personAlive() const {
    for (int s : game_->livingSeats())
        if (isKind(s, SeatKind::Person)) return true;
    return false;
}

int GameSession::requestsInFlight() const {
    int n = 0;
    for (const auto& seat : aiSeats_) n += seat && seat->inFlight() ? 1 : 0;
    return n;
}

std::vector<PendingDecision> GameSession::awaitedFrom(int seat) const {
    std::vector<PendingDecision> out;
    if (finished_ || !game_ || seat < 0 || seat >= game_->seats() || !isKind(seat, SeatKind::Person))
        return out;
    if (notesRunning_) return out;
    for (const PendingDecision& p : game_->pendingDecisions()) {
        if (p.seat != seat) continue;
        if (p.kind == DecisionKind::Vote) { // only when the voters before have voted
            bool first = true;
            for (int s : dayOrder_.empty() ? game_->livingSeats() : dayOrder_) {
                if (s == seat) break;
                for (const PendingDecision& q : game_->pendingDecisions())
                    first = first && !(q.seat == s && q.kind == DecisionKind::Vote);
            }
            if (!first) continue;
        }
        out.push_back(p);
    }
    return out;
}

std::string GameSession::contextFor(int seat) const {
    if (!game_ || seat < 0 || seat >= game_->seats()) return {};
    return buildGameState(*game_, seat, config_.seats[static_cast<std::size_t>(seat)].ai.context);
}

werewolf::ApplyResult GameSession::submit(const Decision& d) {
    using werewolf::ApplyResult;
    using werewolf::DecisionError;
    if (!game_ || d.seat < 0 || d.seat >= game_->seats())
        return {DecisionError::UnknownSeat, "there is no such seat at this table"};
    if (!isKind(d.seat, SeatKind::Person))
        return {DecisionError::NotYourTurn, "this seat is not played by a person"};
    const std::vector<PendingDecision> awaited = awaitedFrom(d.seat);
    const bool expected = std::any_of(awaited.begin(), awaited.end(),
                                      [&](const PendingDecision& p) { return p.kind == d.kind; });
    if (!expected)
        return {DecisionError::NotYourTurn,
                werewolf::seatName(d.seat) + " is not asked for this decision now"};
    if (d.kind == DecisionKind::Speak && game_->phase() == Phase::Discussion &&
        dayMessages_ >= config_.maxDayMessages)
        return {DecisionError::NotYourTurn, "the day's message limit is reached"};
    const werewolf::ApplyResult r = game_->apply(d);
    if (!r.ok()) return r;
    if (d.kind == DecisionKind::Speak && game_->phase() == Phase::Discussion) {
        ++dayMessages_;
        personSpoke_ = true;
    }
    feedBots();
    return r;
}

bool GameSession::personPass() {
    if (!game_ || game_->phase() != Phase::Discussion || !personAlive()) return false;
    personDone_ = true;
    return true;
}

std::optional<std::int64_t> GameSession::dayTimeLeftMs() const {
    if (!game_ || game_->phase() != Phase::Discussion || !dayStarted_) return std::nullopt;
    return std::max<std::int64_t>(0, dayStartMs_ + config_.maxDayMs - nowMs_);
}

int GameSession::fallbacks() const {
    int n = 0;
    for (const auto& seat : aiSeats_) n += seat ? seat->stats().fallbacks : 0;
    return n;
}

double GameSession::costUsd() const {
    double total = 0;
    for (const auto& seat : aiSeats_) total += seat ? seat->log().totalCostUsd() : 0;
    return total;
}

long long GameSession::tokens() const {
    long long total = 0;
    for (const auto& seat : aiSeats_) total += seat ? seat->log().totalUsage().totalTokens : 0;
    return total;
}

} // namespace chaiba::werewolfmode
