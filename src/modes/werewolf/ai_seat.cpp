// The AI seat's asks: the request from the seat's view of the game, the answer validated against
// the game, the fallback when llm::Ask gives up (retries and feedback are the ask's).
#include "src/modes/werewolf/ai_seat.h"

#include <cassert>

namespace chaiba::werewolfmode {

std::string_view fallbackReasonName(FallbackReason r) {
    switch (r) {
    case FallbackReason::None: return "none";
    case FallbackReason::ApiError: return "api_error";
    case FallbackReason::Malformed: return "malformed";
    }
    return "unknown";
}

AiSeat::AiSeat(int seat, AiSeatConfig config, const WerewolfPrompts& prompts, std::uint64_t seed)
    : seat_(seat), config_(std::move(config)), prompts_(prompts),
      rng_(seed ^ (0x9E6C63D0676A9A99ULL * static_cast<std::uint64_t>(seat + 1))) {}

AiSeat::~AiSeat() = default;

void AiSeat::ask(const werewolf::Game& game, TaskInfo task, std::int64_t nowMs) {
    assert(!busy() && "AiSeat::ask: the previous ask has not finished");
    ++stats_.asks;
    if (task.kind == AskKind::Notes) ++stats_.notesAsks;
    ++askCount_;
    llm::AskPolicy policy;
    policy.apiRetries = config_.apiRetries;
    policy.refusalRetries = config_.malformedRetries;
    policy.backoffBaseMs = config_.backoffBaseMs;
    policy.retryTemplate = prompts_.retry;
    policy.turn = askCount_;
    llm::AskHooks hooks;
    hooks.onCall = [this](const llm::AskCall& call) {
        if (!call.record.reply)
            ++stats_.apiErrors;
        else if (!call.error.empty())
            ++stats_.malformed;
    };
    Active a;
    a.round = task.kind == AskKind::Notes ? task.endedRound : game.round();
    a.phase = task.kind == AskKind::Notes ? task.endedPhase : game.phase();
    a.ask = std::make_unique<llm::Ask>(askRequest(game, task), std::move(policy), std::move(hooks), &log_);
    a.ask->start(nowMs);
    a.task = std::move(task);
    active_ = std::move(a);
}

std::optional<std::int64_t> AiSeat::dueAtMs() const {
    return active_ ? active_->ask->dueAtMs() : std::nullopt;
}

llm::AskRequest AiSeat::askRequest(const werewolf::Game& game, const TaskInfo& task) const {
    llm::AskRequest r;
    r.base.messages = buildMessages(prompts_, game, seat_, notes_, task, config_.context);
    r.base.timeoutMs = config_.timeoutMs;
    r.base.temperature = config_.temperature;
    r.models = {{config_.model, config_.channel, config_.pricing}};
    if (task.kind == AskKind::Notes) {
        r.base.maxTokens = config_.notesMaxTokens; // a text answer
        return r;
    }
    if (config_.maxTokens > 0) r.base.maxTokens = config_.maxTokens;
    r.answer = *prompts_.spec(task.kind);
    // Only the deciding field is required to read the object; parse*Answer says what else is wrong.
    r.readAs = lenientSpec(*r.answer, isChatAsk(task.kind) ? "send" : "target");
    return r;
}

void AiSeat::send(llm::ChatService& chat) {
    assert(dueAtMs() && "AiSeat::send: no request is due");
    active_->ask->send(chat);
}

void AiSeat::finish(AskOutcome outcome, const llm::AskResult& result) {
    outcome.requests = result.requests;
    outcome.costUsd = result.costUsd;
    outcome.tokens = result.usage.totalTokens;
    history_.push_back(outcome);
    done_ = std::move(outcome);
    active_.reset();
}

void AiSeat::fallBack(const llm::AskResult& result) {
    const Active& a = *active_;
    AskOutcome out;
    out.kind = a.task.kind;
    out.round = a.round;
    out.phase = a.phase;
    out.fallback =
        result.failure == llm::AskFailure::ApiError ? FallbackReason::ApiError : FallbackReason::Malformed;
    out.fallbackDetail = result.error;
    out.answer = result.answer;
    switch (a.task.kind) {
    case AskKind::Chat:
    case AskKind::WolfChat: out.chat.send = false; break; // silence
    case AskKind::Notes: out.notes = notes_; break;   // the old notes stay
    default:
        if (!a.task.targets.empty())
            out.target =
                a.task.targets[static_cast<std::size_t>(rng_.below(static_cast<int>(a.task.targets.size())))];
        out.reasoning = "fallback: a random valid choice";
        break;
    }
    ++stats_.fallbacks;
    if (a.task.kind == AskKind::Notes) ++stats_.notesFallbacks;
    finish(std::move(out), result);
}

std::string AiSeat::readAnswer(const werewolf::Game& game, const std::string& answer, AskOutcome& out) const {
    const TaskInfo& task = active_->task;
    if (task.kind == AskKind::Notes) {
        llm::Result<std::string> notes = parseNotesAnswer(answer, config_.notesMaxChars);
        if (!notes.isOk()) return notes.error;
        out.notes = *notes.value;
    } else if (isChatAsk(task.kind)) {
        llm::Result<ChatAnswer> chat = parseChatAnswer(answer, game);
        if (!chat.isOk()) return chat.error;
        out.chat = std::move(*chat.value);
        out.reasoning = out.chat.reasoning;
    } else {
        const bool vote = task.kind == AskKind::Vote || task.kind == AskKind::WolfVote;
        llm::Result<TargetAnswer> target =
            parseTargetAnswer(answer, game, task.targets, vote && game.rules().abstainAllowed);
        if (!target.isOk()) return target.error;
        out.target = target.value->target;
        out.reasoning = target.value->reasoning;
    }
    return {};
}

void AiSeat::advance(const werewolf::Game& game, std::int64_t nowMs) {
    if (!active_) return;
    // The ask reads the answer (a JSON object for decisions, text for notes); the game validates it.
    AskOutcome out;
    active_->ask->advance(nowMs, [&](const llm::ChatReply&, const std::string& answer) {
        out = AskOutcome{};
        return readAnswer(game, answer, out);
    });
    if (!active_->ask->done()) return;
    const llm::AskResult result = *active_->ask->result();
    if (!result.ok()) return fallBack(result);
    out.kind = active_->task.kind;
    out.round = active_->round;
    out.phase = active_->phase;
    out.answer = result.answer;
    if (out.kind == AskKind::Notes) {
        notes_ = out.notes;
        notesHistory_.push_back({out.round, out.phase, notes_});
    }
    finish(std::move(out), result);
}

std::optional<AskOutcome> AiSeat::takeOutcome() {
    std::optional<AskOutcome> out = std::move(done_);
    done_.reset();
    return out;
}

} // namespace chaiba::werewolfmode
