// The AI seat's ask state machine: request -> answer -> accept | retry after backoff | retry with
// the reason | fallback.
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

AiSeat::~AiSeat() {
    if (callId_ && chat_) chat_->cancel(*callId_);
}

void AiSeat::ask(const werewolf::Game& game, TaskInfo task, std::int64_t nowMs) {
    assert(!busy() && "AiSeat::ask: the previous ask has not finished");
    Active a;
    a.round = task.kind == AskKind::Notes ? task.endedRound : game.round();
    a.phase = task.kind == AskKind::Notes ? task.endedPhase : game.phase();
    a.messages = buildMessages(prompts_, game, seat_, notes_, task, config_.context);
    a.task = std::move(task);
    a.dueAtMs = nowMs;
    active_ = std::move(a);
    ++stats_.asks;
    ++askCount_;
}

std::optional<std::int64_t> AiSeat::dueAtMs() const {
    if (!active_ || callId_ || arrived_) return std::nullopt;
    return active_->dueAtMs;
}

llm::ChatRequest AiSeat::buildRequest() const {
    const Active& a = *active_;
    llm::ChatRequest r;
    r.model = config_.model;
    r.messages = a.messages;
    if (!a.feedback.empty())
        r.messages.back().content += "\n\n" + llm::fillTemplate(prompts_.retry, {{"error", a.feedback}});
    r.timeoutMs = config_.timeoutMs;
    r.temperature = config_.temperature;
    if (a.task.kind == AskKind::Notes) {
        r.maxTokens = config_.notesMaxTokens;
    } else {
        if (config_.maxTokens > 0) r.maxTokens = config_.maxTokens;
        llm::applyStructured(r, *prompts_.spec(a.task.kind), config_.channel);
    }
    return r;
}

void AiSeat::send(llm::ChatService& chat) {
    assert(active_ && !callId_ && !arrived_ && "AiSeat::send: no request is due");
    chat_ = &chat;
    llm::ChatRequest request = buildRequest();
    active_->dueAtMs.reset();
    ++active_->requests;
    llm::ChatHandlers handlers;
    handlers.onDone = [this](llm::ChatOutcome outcome) {
        callId_.reset();
        arrived_ = std::move(outcome);
    };
    callId_ = chat.send(std::move(request), std::move(handlers));
}

void AiSeat::finish(AskOutcome outcome) {
    outcome.requests = active_->requests;
    outcome.costUsd = active_->costUsd;
    outcome.tokens = active_->tokens;
    history_.push_back(outcome);
    done_ = std::move(outcome);
    active_.reset();
}

void AiSeat::fallBack(FallbackReason reason, const std::string& detail) {
    const Active& a = *active_;
    AskOutcome out;
    out.kind = a.task.kind;
    out.round = a.round;
    out.phase = a.phase;
    out.fallback = reason;
    out.fallbackDetail = detail;
    out.answer = a.lastAnswer;
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
    finish(std::move(out));
}

void AiSeat::refuse(const std::string& error, std::int64_t nowMs) {
    Active& a = *active_;
    ++stats_.malformed;
    a.lastError = error;
    if (a.malformed < config_.malformedRetries) {
        ++a.malformed;
        a.feedback = error;
        a.dueAtMs = nowMs;
        return;
    }
    fallBack(FallbackReason::Malformed, error);
}

void AiSeat::advance(const werewolf::Game& game, std::int64_t nowMs) {
    if (!arrived_ || !active_) return;
    llm::ChatOutcome outcome = std::move(*arrived_);
    arrived_.reset();
    Active& a = *active_;

    // Step 1. Record the call (its cost and tokens count even when the answer is refused).
    llm::CallRecord record;
    record.turn = askCount_;
    record.attempt = a.requests;
    record.model = config_.model;
    record.httpAttempts = std::move(outcome.attempts);
    record.reply = outcome.reply;
    record.error = outcome.error;
    if (outcome.reply) {
        record.costUsd = llm::replyCostUsd(*outcome.reply, config_.pricing);
        a.costUsd += record.costUsd;
        a.tokens += outcome.reply->usage.totalTokens;
    }

    // Step 2. A failed request: retry after a backoff, or fall back.
    if (!outcome.reply) {
        const llm::ChatError error = outcome.error.value_or(
            llm::ChatError{llm::ChatErrorKind::Transport, 0, "no answer", std::nullopt});
        ++stats_.apiErrors;
        a.lastError = std::string(llm::chatErrorName(error.kind)) + ": " + error.message;
        log_.add(std::move(record));
        if (llm::isRetryable(error) && a.apiFailures < config_.apiRetries) {
            const int delayMs = config_.backoffBaseMs << a.apiFailures; // 1 s, 2 s, ...
            ++a.apiFailures;
            a.dueAtMs = nowMs + delayMs;
            return;
        }
        return fallBack(FallbackReason::ApiError, a.lastError);
    }

    // Step 3. Read the answer: notes as text, decisions as a JSON object, validated.
    const llm::ChatReply& reply = *outcome.reply;
    std::string error;
    AskOutcome out;
    out.kind = a.task.kind;
    out.round = a.round;
    out.phase = a.phase;
    if (a.task.kind == AskKind::Notes) {
        a.lastAnswer = reply.content;
        llm::Result<std::string> notes = parseNotesAnswer(reply.content, config_.notesMaxChars);
        if (notes.isOk())
            out.notes = *notes.value;
        else
            error = notes.error;
    } else {
        const llm::StructuredSpec spec =
            lenientSpec(*prompts_.spec(a.task.kind), isChatAsk(a.task.kind) ? "send" : "target");
        llm::Result<std::string> object = llm::readStructured(reply, spec);
        a.lastAnswer = object.isOk() ? *object.value
                                     : (!reply.content.empty() || reply.toolCalls.empty()
                                            ? reply.content
                                            : reply.toolCalls[0].arguments);
        if (!object.isOk()) {
            error = object.error;
        } else if (isChatAsk(a.task.kind)) {
            llm::Result<ChatAnswer> chat = parseChatAnswer(*object.value, game);
            if (chat.isOk()) {
                out.chat = std::move(*chat.value);
                out.reasoning = out.chat.reasoning;
            } else {
                error = chat.error;
            }
        } else {
            llm::Result<TargetAnswer> target = parseTargetAnswer(*object.value, game, a.task.targets);
            if (target.isOk()) {
                out.target = target.value->target;
                out.reasoning = target.value->reasoning;
            } else {
                error = target.error;
            }
        }
    }
    record.feedback = error;
    log_.add(std::move(record));
    if (!error.empty()) return refuse(error, nowMs);
    out.answer = a.lastAnswer;
    if (a.task.kind == AskKind::Notes) {
        notes_ = out.notes;
        notesHistory_.push_back({a.round, a.phase, notes_});
    }
    finish(std::move(out));
}

std::optional<AskOutcome> AiSeat::takeOutcome() {
    std::optional<AskOutcome> out = std::move(done_);
    done_.reset();
    return out;
}

} // namespace chaiba::werewolfmode
