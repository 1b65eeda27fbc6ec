// The ask's state machine (see ask.h): request -> answer -> accepted | asked again with the reason |
// retried after a backoff | the next model | ended; every call recorded.
#include "src/llm/ask.h"

#include "src/llm/assets.h"

#include <cassert>

namespace chaiba::llm {

const char* askFailureName(AskFailure failure) {
    switch (failure) {
    case AskFailure::None: return "none";
    case AskFailure::ApiError: return "api_error";
    case AskFailure::Refused: return "refused";
    case AskFailure::Stopped: return "stopped";
    }
    return "none";
}

Ask::Ask(AskRequest request, AskPolicy policy, AskHooks hooks, CallLog* log)
    : request_(std::move(request)), policy_(std::move(policy)), hooks_(std::move(hooks)),
      log_(log ? log : &ownLog_) {
    assert(!request_.models.empty() && "Ask: at least one model to ask");
}

Ask::~Ask() {
    if (callId_ && chat_) chat_->cancel(*callId_);
}

void Ask::start(std::int64_t nowMs) {
    dueAtMs_ = nowMs;
}

std::optional<std::int64_t> Ask::dueAtMs() const {
    if (result_ || callId_ || arrived_) return std::nullopt;
    return dueAtMs_;
}

ChatRequest Ask::buildRequest() const {
    const AskModel& model = request_.models[model_];
    ChatRequest r = request_.base;
    r.model = model.id;
    if (!feedback_.empty() && !r.messages.empty())
        r.messages.back().content += "\n\n" + fillTemplate(policy_.retryTemplate, {{"error", feedback_}});
    if (request_.answer) applyStructured(r, *request_.answer, model.channel);
    return r;
}

void Ask::send(ChatService& chat) {
    assert(dueAtMs() && "Ask::send: no request is due");
    chat_ = &chat;
    ChatRequest request = buildRequest();
    dueAtMs_.reset();
    ++progress_.requests;
    progress_.model = request.model;
    progress_.modelIndex = model_;
    if (hooks_.onRequest) hooks_.onRequest(request, model_);
    ChatHandlers handlers;
    handlers.onDone = [this](ChatOutcome outcome) {
        callId_.reset();
        onArrived(std::move(outcome));
    };
    callId_ = chat.send(std::move(request), std::move(handlers));
}

void Ask::run(ChatService& chat, AnswerCheck check) {
    runByArrivals_ = true;
    runCheck_ = std::move(check);
    start(0);
    send(chat);
}

void Ask::onArrived(ChatOutcome outcome) {
    arrived_ = std::move(outcome);
    if (!runByArrivals_) return; // the caller's advance() handles it
    advance(0, runCheck_);
    if (!result_ && dueAtMs_) send(*chat_);
}

void Ask::cancel() {
    if (callId_ && chat_) chat_->cancel(*callId_);
    callId_.reset();
    arrived_.reset();
    dueAtMs_.reset();
    if (!result_) {
        result_ = progress_;
        result_->failure = AskFailure::Stopped;
    }
}

void Ask::advance(std::int64_t nowMs, const AnswerCheck& check) {
    if (!arrived_ || result_) return;
    ChatOutcome outcome = std::move(*arrived_);
    arrived_.reset();

    // Step 1. The record of the call (its cost counts even when the answer is refused).
    CallRecord record;
    record.turn = policy_.turn;
    record.attempt = progress_.requests;
    record.model = progress_.model;
    record.httpAttempts = std::move(outcome.attempts);
    record.reply = outcome.reply;
    record.error = outcome.error;
    if (outcome.reply) {
        record.costUsd = replyCostUsd(*outcome.reply, request_.models[model_].pricing);
        progress_.costUsd += record.costUsd;
        progress_.usage += outcome.reply->usage;
    }
    if (!outcome.reply) return failedRequest(outcome, record, nowMs);
    readAnswer(outcome, record, nowMs, check);
}

// Step 2. A failed request: again after a backoff if the error allows it, else the next model.
void Ask::failedRequest(ChatOutcome& outcome, CallRecord& record, std::int64_t nowMs) {
    const ChatError error =
        outcome.error.value_or(ChatError{ChatErrorKind::Transport, 0, "no answer", std::nullopt});
    ++progress_.apiFailures;
    progress_.error = std::string(chatErrorName(error.kind)) + ": " + error.message;
    progress_.chatError = error;
    report(log_->add(std::move(record)), {}, progress_.error);
    if (isRetryable(error) && apiTries_ < policy_.apiRetries) {
        const int delayMs = policy_.backoffBaseMs << apiTries_; // 1 s, 2 s, ...
        ++apiTries_;
        dueAtMs_ = nowMs + delayMs;
        return;
    }
    nextModelOr(AskFailure::ApiError, nowMs);
}

// Step 3. Read the answer (a structured object or the text), let the caller check it, accept it or
// ask again with the reason.
void Ask::readAnswer(ChatOutcome& outcome, CallRecord& record, std::int64_t nowMs, const AnswerCheck& check) {
    const ChatReply& reply = *outcome.reply;
    std::string answer = reply.content;
    std::string error;
    if (request_.answer) {
        Result<std::string> object =
            readStructured(reply, request_.readAs ? *request_.readAs : *request_.answer);
        if (object.isOk())
            answer = *object.value;
        else if (reply.content.empty() && !reply.toolCalls.empty())
            answer = reply.toolCalls[0].arguments;
        error = object.error;
    }
    if (error.empty() && check) error = check(reply, answer);
    record.feedback = error;
    progress_.answer = answer;
    progress_.reply = reply;
    report(log_->add(std::move(record)), answer, error);
    if (error.empty()) return end(AskFailure::None);
    ++progress_.refusals;
    progress_.error = error;
    if (refusedTries_ < policy_.refusalRetries) {
        ++refusedTries_;
        feedback_ = error;
        dueAtMs_ = nowMs;
        return;
    }
    nextModelOr(AskFailure::Refused, nowMs);
}

void Ask::nextModelOr(AskFailure failure, std::int64_t nowMs) {
    if (model_ + 1 >= request_.models.size()) return end(failure);
    ++model_;
    apiTries_ = 0;
    refusedTries_ = 0;
    feedback_.clear(); // a new model starts afresh
    dueAtMs_ = nowMs;
}

void Ask::report(const CallRecord& record, const std::string& answer, const std::string& error) {
    if (hooks_.onCall) hooks_.onCall(AskCall{record, answer, error, model_});
}

void Ask::end(AskFailure failure) {
    dueAtMs_.reset();
    result_ = progress_;
    result_->failure = failure;
    if (failure == AskFailure::None) result_->error.clear();
    if (hooks_.onDone) hooks_.onDone(*result_);
}

} // namespace chaiba::llm
