// The tool loop's rounds: one request, the reply recorded, each call answered in order, then the
// decision; every stop condition ends in exactly one outcome.
#include "src/llm/tool_loop.h"

#include <algorithm>

namespace chaiba::llm {

const char* loopStopName(LoopStop stop) {
    switch (stop) {
    case LoopStop::Terminal: return "terminal";
    case LoopStop::NoToolCalls: return "no_tool_calls";
    case LoopStop::RoundCap: return "round_cap";
    case LoopStop::CostCap: return "cost_cap";
    case LoopStop::Stopped: return "stopped";
    case LoopStop::Failed: return "failed";
    case LoopStop::Repeating: return "repeating";
    }
    return "terminal";
}

ToolLoop::ToolLoop(ChatService& chat, ChatRequest base, ToolLoopHooks hooks, ToolLoopOptions options, CallLog* log)
    : chat_(chat), base_(std::move(base)), hooks_(std::move(hooks)), options_(std::move(options)),
      log_(log ? log : &ownLog_) {
    options_.maxRounds = std::max(options_.maxRounds, 1);
}

ToolLoop::~ToolLoop() {
    if (callId_) chat_.cancel(*callId_);
}

void ToolLoop::start() {
    running_ = true;
    outcome_.reset();
    send();
}

void ToolLoop::stop() {
    if (!running_) return;
    if (callId_) chat_.cancel(*callId_);
    callId_.reset();
    end(LoopStop::Stopped);
}

std::optional<ToolLoopOutcome> ToolLoop::takeOutcome() {
    std::optional<ToolLoopOutcome> out = std::move(outcome_);
    outcome_.reset();
    return out;
}

void ToolLoop::end(LoopStop stop, std::optional<ChatError> error) {
    running_ = false;
    ToolLoopOutcome out;
    out.stop = stop;
    out.rounds = rounds_;
    out.countedRounds = counted_;
    out.error = std::move(error);
    out.lastReply = lastReply_;
    out.costUsd = costUsd_;
    out.usage = usage_;
    if (stop == LoopStop::Repeating) out.repeatedError = lastErrorCall_;
    outcome_ = std::move(out);
    if (hooks_.onEnd) hooks_.onEnd(*outcome_);
}

void ToolLoop::send() {
    // Step 1. The cost cap is checked before every round: money already spent is never exceeded
    // by a round that could not be afforded.
    if (options_.costCapUsd && costUsd_ >= *options_.costCapUsd) return end(LoopStop::CostCap);
    ChatRequest request = hooks_.buildRequest ? hooks_.buildRequest() : base_;
    ChatHandlers h;
    h.onText = [this](const std::string& delta) {
        if (hooks_.onText) hooks_.onText(delta);
    };
    h.onReasoning = [this](const std::string& delta) {
        if (hooks_.onReasoning) hooks_.onReasoning(delta);
    };
    h.onToolCalls = [this](const std::vector<ToolCall>& sofar) {
        if (hooks_.onToolCallsStreaming) hooks_.onToolCallsStreaming(sofar);
    };
    h.onRetry = [this](const RetryNotice& notice) {
        if (hooks_.onRetry) hooks_.onRetry(notice);
    };
    h.onDone = [this](ChatOutcome outcome) {
        callId_.reset();
        onOutcome(std::move(outcome));
    };
    callId_ = chat_.send(std::move(request), std::move(h));
}

void ToolLoop::onOutcome(ChatOutcome outcome) {
    // Step 2. Record the call, whatever its outcome.
    ++rounds_;
    CallRecord record;
    record.turn = options_.turn;
    record.attempt = rounds_;
    record.model = base_.model;
    record.httpAttempts = std::move(outcome.attempts);
    record.error = outcome.error;
    record.reply = outcome.reply;
    if (outcome.reply) record.costUsd = replyCostUsd(*outcome.reply, options_.pricing);
    costUsd_ += record.costUsd;
    if (outcome.reply) usage_ += outcome.reply->usage;
    log_->add(std::move(record));
    if (outcome.error || !outcome.reply) {
        ChatError error = outcome.error.value_or(ChatError{ChatErrorKind::MalformedResponse, 0, "no reply", {}});
        return end(LoopStop::Failed, std::move(error));
    }
    const ChatReply& reply = *outcome.reply;
    lastReply_ = reply;
    if (hooks_.onReply) hooks_.onReply(reply);
    if (!hooks_.buildRequest) {
        ChatMessage said;
        said.role = Role::Assistant;
        said.content = reply.content;
        said.toolCalls = reply.toolCalls;
        said.reasoningDetailsJson = reply.reasoningDetailsJson;
        base_.messages.push_back(std::move(said));
    }

    // Step 3. Every call is answered, in the order the model emitted them.
    std::vector<ToolResult> results;
    results.reserve(reply.toolCalls.size());
    bool terminal = false;
    for (const ToolCall& call : reply.toolCalls) {
        ToolResult r = hooks_.runTool ? hooks_.runTool(call)
                                      : ToolResult::error("Error: unknown tool \"" + call.name + "\".");
        terminal = terminal || r.terminal;
        if (r.isError) {
            const std::string signature = call.name + "(" + call.arguments + ") -> " + r.content;
            repeatedErrors_ = signature == lastErrorCall_ ? repeatedErrors_ + 1 : 1;
            lastErrorCall_ = signature;
        } else {
            repeatedErrors_ = 0;
            lastErrorCall_.clear();
        }
        if (hooks_.onToolResult) hooks_.onToolResult(call, r);
        if (!hooks_.buildRequest) {
            ChatMessage answer;
            answer.role = Role::Tool;
            answer.toolCallId = call.id;
            answer.content = r.content;
            base_.messages.push_back(std::move(answer));
        }
        results.push_back(std::move(r));
    }

    // Step 4. Decide: the caller's word, else terminal → end, no calls → end, else go on.
    std::optional<RoundDecision> decision = hooks_.afterRound ? hooks_.afterRound(reply, results) : std::nullopt;
    if (!decision) {
        if (terminal) return end(LoopStop::Terminal);
        if (reply.toolCalls.empty()) return end(LoopStop::NoToolCalls);
        decision = RoundDecision::carryOn();
    }
    if (decision->counts) ++counted_;
    if (decision->next == RoundDecision::Next::Finish) return end(LoopStop::Terminal);
    if (!running_) return; // stopped from inside a hook
    if (options_.maxRepeatedErrors > 0 && repeatedErrors_ >= options_.maxRepeatedErrors)
        return end(LoopStop::Repeating);
    if (counted_ >= options_.maxRounds) return end(LoopStop::RoundCap);
    send();
}

} // namespace chaiba::llm
