// THE tool loop every mode uses: send → run the reply's tool calls in emitted order → answer every
// call → repeat, stopping on a terminal tool, a reply without calls, a round cap, a cost cap or a
// Stop from the user. A tool's error goes back to the model as an error result it can fix; a
// failed request (after the client's own retries) ends the loop with the typed error.
//
// The loop keeps the conversation itself (a base request plus the assistant and tool messages it
// adds), or, when the caller keeps a shared transcript of its own (a board game: one conversation for both
// players), asks the caller for each request and reports what to record through hooks.
// Non-blocking: it advances only from the chat service's callbacks (pumped by the app's tick).
#pragma once

#include "src/llm/call_log.h"
#include "src/llm/chat.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::llm {

// What running one tool call gave: the text the model reads as the tool result.
struct ToolResult {
    std::string content;
    bool isError = false;  // the model made a mistake it can fix (the loop goes on)
    bool terminal = false; // the loop ends after this round's results are recorded
    static ToolResult ok(std::string text) { return {std::move(text), false, false}; }
    static ToolResult error(std::string text) { return {std::move(text), true, false}; }
    static ToolResult finish(std::string text) { return {std::move(text), false, true}; }
};

enum class LoopStop : std::uint8_t {
    Terminal,    // a terminal tool ran, or the caller finished the loop after a round
    NoToolCalls, // the model answered without calling a tool
    RoundCap,    // maxRounds counted rounds without an end
    CostCap,     // the loop's spend reached costCapUsd before another round could start
    Stopped,     // stop() by the user
    Failed,      // a request failed (error set)
    Repeating,   // the same tool call failed maxRepeatedErrors times in a row (repeatedError set)
};
const char* loopStopName(LoopStop stop);

// After a round, what happens next: the default (a terminal result or no calls end the loop,
// else another round), or the caller's decision.
struct RoundDecision {
    enum class Next : std::uint8_t { Continue, Finish } next = Next::Continue;
    bool counts = true; // false: this round does not count toward maxRounds (a free answer)
    static RoundDecision carryOn(bool counted = true) { return {Next::Continue, counted}; }
    static RoundDecision finish() { return {Next::Finish, true}; }
};

struct ToolLoopOutcome {
    LoopStop stop = LoopStop::Terminal;
    int rounds = 0;        // model answers, counted or not
    int countedRounds = 0; // toward maxRounds
    std::optional<ChatError> error;    // Failed
    std::optional<ChatReply> lastReply; // the last answer, if any
    double costUsd = 0;
    Usage usage;
    std::string repeatedError; // Repeating: the call and the error it kept getting
};

struct ToolLoopHooks {
    // The request of each round. Unset: the base request plus the loop's own messages.
    std::function<ChatRequest()> buildRequest;
    // The model's reply, before its tool calls run (record it; a tool set may look at every call).
    std::function<void(const ChatReply& reply)> onReply;
    // One call, in the emitted order. Unset: every call is an "unknown tool" error result.
    std::function<ToolResult(const ToolCall& call)> runTool;
    // A call's result, to record (after runTool).
    std::function<void(const ToolCall& call, const ToolResult& result)> onToolResult;
    // Overrides the default decision after a round (reply and the results of its calls).
    std::function<std::optional<RoundDecision>(const ChatReply& reply, const std::vector<ToolResult>& results)>
        afterRound;
    // Streaming and retries of the call in flight.
    std::function<void(const std::string& delta)> onText;
    std::function<void(const std::string& delta)> onReasoning;
    // The tool calls of the answer being streamed, as far as they came (ChatHandlers::onToolCalls);
    // they run only once the whole reply is there (onReply, then runTool).
    std::function<void(const std::vector<ToolCall>& sofar)> onToolCallsStreaming;
    std::function<void(const RetryNotice& notice)> onRetry;
    // The loop ended (the outcome is set; also after stop()).
    std::function<void(const ToolLoopOutcome& outcome)> onEnd;
};

struct ToolLoopOptions {
    int maxRounds = 10;               // counted rounds (model answers); at least 1
    std::optional<double> costCapUsd; // no new round once the loop spent this much
    std::optional<ModelPricing> pricing; // to estimate a cost the provider did not report
    int turn = 0;                     // copied into each CallRecord
    // The loop ends (Repeating) when the model makes the same tool call (name and arguments) with
    // the same error this many times in a row: it is not learning from the error, and every round
    // is paid for. 0: no limit.
    int maxRepeatedErrors = 0;
};


class ToolLoop {
public:
    // `base` is the first request when no buildRequest hook is set (model, tools, parameters and
    // the messages so far); `log` receives one record per call (the loop keeps its own if null).
    ToolLoop(ChatService& chat, ChatRequest base, ToolLoopHooks hooks, ToolLoopOptions options = {},
             CallLog* log = nullptr);
    ~ToolLoop();
    ToolLoop(const ToolLoop&) = delete;
    ToolLoop& operator=(const ToolLoop&) = delete;

    // Sends the first request.
    void start();
    // The user's Stop: the call in flight is cancelled (no callback of it runs) and the loop ends.
    void stop();
    bool running() const { return running_; }
    // The outcome once the loop ended (then nothing more happens).
    const std::optional<ToolLoopOutcome>& outcome() const { return outcome_; }
    std::optional<ToolLoopOutcome> takeOutcome();

    // The loop's own conversation (base messages, then each assistant message and tool results).
    const std::vector<ChatMessage>& messages() const { return base_.messages; }
    const CallLog& log() const { return *log_; }
    CallLog& log() { return *log_; }
    int rounds() const { return rounds_; }

private:
    void send();
    void onOutcome(ChatOutcome outcome);
    void end(LoopStop stop, std::optional<ChatError> error = std::nullopt);

    ChatService& chat_;
    ChatRequest base_;
    ToolLoopHooks hooks_;
    ToolLoopOptions options_;
    CallLog ownLog_;
    CallLog* log_;
    std::optional<ChatCallId> callId_;
    bool running_ = false;
    int rounds_ = 0;
    int counted_ = 0;
    double costUsd_ = 0;
    Usage usage_;
    std::optional<ChatReply> lastReply_;
    std::optional<ToolLoopOutcome> outcome_;
    std::string lastErrorCall_; // the failing call last seen ("name(arguments) -> error")
    int repeatedErrors_ = 0;    // how many times in a row
};

} // namespace chaiba::llm
