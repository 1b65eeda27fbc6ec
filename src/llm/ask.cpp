// The ask's state machine (see ask.h): request -> answer -> accepted | asked again with the reason |
// retried after a backoff | the next model | ended; every call recorded.
#include "src/llm/ask.h"

#include "src/llm/assets.h"

#include <algorithm>
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

Ask::~Ask() = default; // (a loop still running cancels its call)

void Ask::start(std::int64_t nowMs) {
    dueAtMs_ = nowMs;
}

std::optional<std::int64_t> Ask::dueAtMs() const {
    if (result_ || inFlight() || arrived_) return std::nullopt;
    return dueAtMs_;
}

ChatRequest Ask::buildRequest() const {
    const AskModel& model = request_.models[model_];
    ChatRequest r = request_.base;
    r.model = model.id;
    // Every request counts against apiRetries, the client's own retries included: a call may make
    // only the requests the model has left (apiRetries 0: the ask retries nothing itself and
    // leaves the client its own retry policy).
    if (policy_.apiRetries > 0) r.maxRequests = std::max(1, policy_.apiRetries + 1 - apiTries_);
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
    // One round: the reply's tool call (a forced-tool answer) is the answer, never run as a tool.
    ToolLoopHooks round;
    round.runTool = [](const ToolCall&) { return ToolResult::finish({}); };
    round.afterRound = [](const ChatReply&, const std::vector<ToolResult>&) { return RoundDecision::finish(); };
    round.onEnd = [this](const ToolLoopOutcome& outcome) {
        if (outcome.stop != LoopStop::Stopped) onArrived(outcome);
    };
    ToolLoopOptions options;
    options.maxRounds = 1;
    options.pricing = request_.models[model_].pricing;
    options.turn = policy_.turn;
    if (loop_) ended_.push_back(std::move(loop_));
    loop_ = std::make_unique<ToolLoop>(chat, std::move(request), std::move(round), options, log_);
    loop_->start();
}

void Ask::run(ChatService& chat, AnswerCheck check) {
    runByArrivals_ = true;
    runCheck_ = std::move(check);
    start(0);
    send(chat);
}

void Ask::onArrived(const ToolLoopOutcome& outcome) {
    // The loop just logged the call; its record is the log's last (another ask sharing the log
    // may add its own before this one is handled).
    arrived_ = Arrival{outcome, log_->records().empty() ? 0 : log_->records().size() - 1};
    if (!runByArrivals_) return; // the caller's advance() handles it
    advance(0, runCheck_);
    if (!result_ && dueAtMs_) send(*chat_);
}

void Ask::cancel() {
    if (loop_) loop_->stop(); // (its end is not an arrival)
    arrived_.reset();
    dueAtMs_.reset();
    if (!result_) {
        result_ = progress_;
        result_->failure = AskFailure::Stopped;
    }
}

CallRecord* Ask::arrivedRecord(const Arrival& arrival) { return log_->record(arrival.record); }

void Ask::advance(std::int64_t nowMs, const AnswerCheck& check) {
    if (!arrived_ || result_) return;
    const Arrival arrival = std::move(*arrived_);
    arrived_.reset();
    // Polled, the rounds that ended are off the stack by now (by arrivals they are kept to the end:
    // a round may end inside the callback of the one before).
    if (!runByArrivals_) ended_.clear();

    // Step 1. The call's cost counts even when the answer is refused; its record is numbered
    // among this ask's requests.
    progress_.costUsd += arrival.outcome.costUsd;
    progress_.usage += arrival.outcome.usage;
    if (CallRecord* record = arrivedRecord(arrival)) record->attempt = progress_.requests;
    if (arrival.outcome.stop == LoopStop::Failed || !arrival.outcome.lastReply) return failedRequest(arrival, nowMs);
    readAnswer(arrival, nowMs, check);
}

// Step 2. A failed request: again after a backoff if the error allows it, else the next model.
void Ask::failedRequest(const Arrival& arrival, std::int64_t nowMs) {
    const ChatError error =
        arrival.outcome.error.value_or(ChatError{ChatErrorKind::Transport, 0, "no answer", std::nullopt});
    ++progress_.apiFailures;
    progress_.error = std::string(chatErrorName(error.kind)) + ": " + error.message;
    progress_.chatError = error;
    if (CallRecord* record = arrivedRecord(arrival)) report(*record, {}, progress_.error);
    // The client's own retries within the call were requests too: they count against apiRetries
    // (on the page's shared client a seat's "2 retries" were 3 calls of 4 requests each).
    apiTries_ += std::max(0, error.requests - 1);
    if (isRetryable(error) && apiTries_ < policy_.apiRetries) {
        const int delayMs = policy_.backoffBaseMs << std::min(apiTries_, 10); // 1 s, 2 s, ...
        ++apiTries_;
        dueAtMs_ = nowMs + delayMs;
        return;
    }
    nextModelOr(AskFailure::ApiError, nowMs);
}

// Step 3. Read the answer (a structured object or the text), let the caller check it, accept it or
// ask again with the reason.
void Ask::readAnswer(const Arrival& arrival, std::int64_t nowMs, const AnswerCheck& check) {
    const ChatReply& reply = *arrival.outcome.lastReply;
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
    progress_.answer = answer;
    progress_.reply = reply;
    if (CallRecord* record = arrivedRecord(arrival)) {
        record->feedback = error;
        report(*record, answer, error);
    }
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
