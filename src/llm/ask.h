// THE way a mode asks a model for one answer: the request goes out as one round of the tool loop
// (tool_loop.h: the send, the call's record and its cost in the CallLog are the loop's) with the
// answer channel of each model (JSON Schema, forced tool, lenient text; or plain text), the reply
// is read (readStructured) and checked by the caller; a refused answer is asked again with the
// reason appended, a failed request is retried after a backoff, then the next model of the list
// (the fallback) gets its own tries.
//
// Non-blocking, driven one of two ways: polled, where the caller's clock decides when a due
// request goes (dueAtMs, send, advance: a seat waiting in a session's queue), or by arrivals
// (run: each answer is handled as it arrives and the next request goes at once, no backoff).
#pragma once

#include "src/llm/call_log.h"
#include "src/llm/chat.h"
#include "src/llm/structured.h"
#include "src/llm/tool_loop.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::llm {

// A model an ask may use: how it answers (see channelFor) and its prices (for an unreported cost).
struct AskModel {
    std::string id;
    AnswerChannel channel = AnswerChannel::ToolCall;
    std::optional<ModelPricing> pricing;
};

// What to ask: the request's messages and parameters (its model is set from each AskModel), the
// answer wanted, and the models (the first, then the fallbacks in order).
struct AskRequest {
    ChatRequest base;
    std::optional<StructuredSpec> answer; // nullopt: the reply's text (or pictures) is the answer
    // The spec the reply is read against (default: answer). Fewer required properties leave the
    // rest to the caller's check, whose reasons can be more precise.
    std::optional<StructuredSpec> readAs;
    std::vector<AskModel> models;
};

struct AskPolicy {
    // Per model, after a request that failed retryably (isRetryable). Each request counts, the chat
    // client's own retries included: a model gets apiRetries + 1 requests in all (each call capped
    // by ChatRequest::maxRequests); 0 leaves retrying to the client's own policy.
    int apiRetries = 0;
    int refusalRetries = 0;   // per model, after an answer that could not be used
    int backoffBaseMs = 1000; // polled: the first API retry waits this long, doubled for each next
    // Appended to the last message of a retry after a refusal; {error} is the reason.
    std::string retryTemplate = "Your previous answer was not accepted: {error}. Answer again.";
    int turn = 0; // copied into each CallRecord
};

enum class AskFailure : std::uint8_t {
    None,     // an answer was accepted
    ApiError, // the last request failed (transport or HTTP status)
    Refused,  // the last answer was unreadable or refused by the check
    Stopped,  // cancel() before an answer
};
const char* askFailureName(AskFailure failure);

// How an ask ended.
struct AskResult {
    AskFailure failure = AskFailure::None;
    std::string answer; // accepted: the JSON object (compact) or the text; else the last answer seen
    std::string error;  // the last error: "timeout: network: timeout", or a refusal's reason
    std::optional<ChatError> chatError; // the last failed request's typed error
    std::optional<ChatReply> reply;     // the last reply (the accepted one on success)
    std::string model;                  // the model of the last request
    std::size_t modelIndex = 0;         // its place in AskRequest::models (0: the first choice)
    int requests = 0;
    int apiFailures = 0; // failed requests, over every model
    int refusals = 0;    // answers not used, over every model
    double costUsd = 0;
    Usage usage;
    bool ok() const { return failure == AskFailure::None; }
};

// The caller's check of a readable answer (the object's JSON, or the text): "" accepts it, else
// the reason, which the model reads on its retry.
using AnswerCheck = std::function<std::string(const ChatReply& reply, const std::string& answer)>;

// One handled call, for a caller's own log: the record as the CallLog keeps it, the answer as read
// and why it was not used ("" = accepted).
struct AskCall {
    const CallRecord& record;
    const std::string& answer;
    const std::string& error;
    std::size_t modelIndex;
};

struct AskHooks {
    std::function<void(const ChatRequest& request, std::size_t modelIndex)> onRequest; // before each send
    std::function<void(const AskCall& call)> onCall;     // after each answer or failure is handled
    std::function<void(const AskResult& result)> onDone; // run(): the ask ended (not after cancel())
};

class Ask {
public:
    // `log` receives one record per call (the ask keeps its own if null) and must outlive the ask.
    Ask(AskRequest request, AskPolicy policy, AskHooks hooks = {}, CallLog* log = nullptr);
    ~Ask();
    Ask(const Ask&) = delete;
    Ask& operator=(const Ask&) = delete;

    // Polled: the first request is due at nowMs.
    void start(std::int64_t nowMs);
    // When the next request may go; nothing when none waits (in flight, arrived, or ended).
    std::optional<std::int64_t> dueAtMs() const;
    bool inFlight() const { return loop_ && loop_->running(); }
    // Sends the due request.
    void send(ChatService& chat);
    // Handles an arrived answer at nowMs: accepts it, schedules a retry or the next model, or ends.
    void advance(std::int64_t nowMs, const AnswerCheck& check = {});

    // By arrivals: sends now and handles every answer as it arrives, until hooks.onDone.
    void run(ChatService& chat, AnswerCheck check = {});

    // Cancels the call in flight (no callback of it runs); the ask ends Stopped.
    void cancel();
    bool done() const { return result_.has_value(); }
    const std::optional<AskResult>& result() const { return result_; }
    const CallLog& log() const { return *log_; }

private:
    // What a request's round of the tool loop gave: its outcome and where the loop logged the call.
    struct Arrival {
        ToolLoopOutcome outcome;
        std::size_t record = 0; // index in log_->records()
    };
    ChatRequest buildRequest() const;
    void onArrived(const ToolLoopOutcome& outcome);
    CallRecord* arrivedRecord(const Arrival& arrival);
    // Step 2 and 3 of advance: the failed request, the read answer.
    void failedRequest(const Arrival& arrival, std::int64_t nowMs);
    void readAnswer(const Arrival& arrival, std::int64_t nowMs, const AnswerCheck& check);
    // The current model's tries are spent: the next model at once, else the end.
    void nextModelOr(AskFailure failure, std::int64_t nowMs);
    void report(const CallRecord& record, const std::string& answer, const std::string& error);
    void end(AskFailure failure);

    AskRequest request_;
    AskPolicy policy_;
    AskHooks hooks_;
    CallLog ownLog_;
    CallLog* log_;
    ChatService* chat_ = nullptr;
    AnswerCheck runCheck_;
    bool runByArrivals_ = false;

    std::size_t model_ = 0;
    int apiTries_ = 0;     // of the current model
    int refusedTries_ = 0; // of the current model
    std::string feedback_; // the last refusal, appended to the next request
    std::optional<std::int64_t> dueAtMs_;
    // The request in flight, one round of the tool loop; the rounds that ended are kept until no
    // callback of theirs can be on the stack (an answer is handled from inside its loop's callback).
    std::unique_ptr<ToolLoop> loop_;
    std::vector<std::unique_ptr<ToolLoop>> ended_;
    std::optional<Arrival> arrived_;
    AskResult progress_;
    std::optional<AskResult> result_;
};

} // namespace chaiba::llm
