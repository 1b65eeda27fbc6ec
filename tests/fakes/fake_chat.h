// A scripted ChatService for agent tests: each send() takes the next scripted outcome (a reply or
// an error), delivered on the next poll() (after the tool calls it streams, if scripted so); every
// request is recorded for inspection.
#pragma once

#include "src/llm/chat.h"

#include <deque>
#include <functional>
#include <map>

namespace chaiba::fakes {

class FakeChat final : public llm::ChatService {
public:
    void push(llm::ChatOutcome outcome) { script_.push_back({std::move(outcome), {}}); }
    // A reply whose tool calls stream first: one poll() hands onToolCalls each of `sofar` in order
    // (the calls as far as they came), the next one onDone the reply.
    void pushStreamed(llm::ChatReply reply, std::vector<std::vector<llm::ToolCall>> sofar) {
        llm::ChatOutcome o;
        o.reply = std::move(reply);
        script_.push_back({std::move(o), std::move(sofar)});
    }
    void pushReply(llm::ChatReply reply) {
        llm::ChatOutcome o;
        o.reply = std::move(reply);
        push(std::move(o));
    }
    void pushToolMove(const std::string& arguments, double costUsd = 0.01, long long promptTokens = 100) {
        llm::ChatReply r;
        r.toolCalls.push_back({"call_" + std::to_string(++made_), "make_move", arguments});
        r.finishReason = "tool_calls";
        r.usage.promptTokens = promptTokens;
        r.usage.completionTokens = 10;
        r.usage.totalTokens = promptTokens + 10;
        r.usage.costUsd = costUsd;
        pushReply(std::move(r));
    }
    void pushText(const std::string& text, double costUsd = 0.01) {
        llm::ChatReply r;
        r.content = text;
        r.finishReason = "stop";
        r.usage.costUsd = costUsd;
        pushReply(std::move(r));
    }
    void pushError(llm::ChatErrorKind kind, int status, const std::string& message) {
        llm::ChatOutcome o;
        o.error = llm::ChatError{kind, status, message, std::nullopt};
        push(std::move(o));
    }

    // Used when the script is empty: computes an outcome from the request.
    void setResponder(std::function<llm::ChatOutcome(const llm::ChatRequest&)> responder) {
        responder_ = std::move(responder);
    }

    const std::vector<llm::ChatRequest>& requests() const { return requests_; }

    llm::ChatCallId send(llm::ChatRequest request, llm::ChatHandlers handlers) override {
        const llm::ChatCallId id = nextId_++;
        requests_.push_back(std::move(request));
        Scripted next;
        if (!script_.empty()) {
            next = std::move(script_.front());
            script_.pop_front();
        } else if (responder_) {
            next.outcome = responder_(requests_.back());
        } else {
            next.outcome.error = llm::ChatError{llm::ChatErrorKind::ServerError, 500,
                                                  "fake chat: nothing scripted", std::nullopt};
        }
        pending_.emplace(id, Pending{std::move(handlers), std::move(next)});
        return id;
    }
    void cancel(llm::ChatCallId id) override { pending_.erase(id); }
    void poll() override {
        std::vector<llm::ChatCallId> ids;
        for (const auto& entry : pending_) ids.push_back(entry.first);
        for (llm::ChatCallId id : ids) {
            auto it = pending_.find(id);
            if (it == pending_.end()) continue;
            if (!it->second.scripted.streamed.empty()) {
                const auto streamed = std::move(it->second.scripted.streamed);
                it->second.scripted.streamed.clear();
                for (const std::vector<llm::ToolCall>& sofar : streamed) {
                    auto handler = it->second.handlers.onToolCalls;
                    if (handler) handler(sofar);
                    it = pending_.find(id); // the handler may have cancelled the call
                    if (it == pending_.end()) break;
                }
                continue; // the reply comes on the next poll(): a test can look in between
            }
            Pending p = std::move(it->second);
            pending_.erase(it);
            if (p.handlers.onDone) p.handlers.onDone(std::move(p.scripted.outcome));
        }
    }
    bool idle() const { return pending_.empty(); }

private:
    struct Scripted {
        llm::ChatOutcome outcome;
        std::vector<std::vector<llm::ToolCall>> streamed;
    };
    struct Pending {
        llm::ChatHandlers handlers;
        Scripted scripted;
    };
    std::deque<Scripted> script_;
    std::function<llm::ChatOutcome(const llm::ChatRequest&)> responder_;
    std::vector<llm::ChatRequest> requests_;
    std::map<llm::ChatCallId, Pending> pending_;
    llm::ChatCallId nextId_ = 1;
    int made_ = 0;
};

} // namespace chaiba::fakes
