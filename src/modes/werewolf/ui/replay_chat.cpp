// Record and replay of model answers for the Werewolf screen (see replay_chat.h).
#include "src/modes/werewolf/ui/replay_chat.h"

#include <algorithm>
#include <cstdio>

namespace chaiba::werewolfmode {

using nlohmann::json;

namespace {
constexpr std::uint64_t kFnvOffset = 1469598103934665603ULL;
constexpr std::uint64_t kFnvPrime = 1099511628211ULL;

void mix(std::uint64_t& h, const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * kFnvPrime;
    h = (h ^ 0xffu) * kFnvPrime; // a separator, so "ab"+"c" differs from "a"+"bc"
}

std::string str(const json& j, const char* name) {
    return j.contains(name) && j[name].is_string() ? j[name].get<std::string>() : std::string();
}
long long num(const json& j, const char* name) {
    return j.contains(name) && j[name].is_number_integer() ? j[name].get<long long>() : 0;
}
} // namespace

std::string requestKey(const llm::ChatRequest& request) {
    std::uint64_t h = kFnvOffset;
    mix(h, request.model);
    for (const llm::ChatMessage& m : request.messages) {
        mix(h, std::to_string(static_cast<int>(m.role)));
        mix(h, m.content);
    }
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

json outcomeToJson(const llm::ChatOutcome& o) {
    json j = json::object();
    if (o.reply) {
        const llm::ChatReply& r = *o.reply;
        json calls = json::array();
        for (const llm::ToolCall& c : r.toolCalls) calls.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
        json usage = {{"prompt", r.usage.promptTokens}, {"completion", r.usage.completionTokens},
                      {"total", r.usage.totalTokens}, {"reasoning", r.usage.reasoningTokens}};
        if (r.usage.costUsd) usage["cost"] = *r.usage.costUsd;
        j["reply"] = {{"model", r.model}, {"content", r.content}, {"reasoning", r.reasoning},
                      {"tool_calls", calls}, {"finish", r.finishReason}, {"usage", usage}};
    }
    if (o.error)
        j["error"] = {{"kind", static_cast<int>(o.error->kind)}, {"status", o.error->httpStatus},
                      {"message", o.error->message}};
    return j;
}

std::optional<llm::ChatOutcome> outcomeFromJson(const json& j) {
    if (!j.is_object()) return std::nullopt;
    llm::ChatOutcome o;
    if (j.contains("reply") && j["reply"].is_object()) {
        const json& r = j["reply"];
        llm::ChatReply reply;
        reply.model = str(r, "model");
        reply.content = str(r, "content");
        reply.reasoning = str(r, "reasoning");
        reply.finishReason = str(r, "finish");
        if (r.contains("tool_calls") && r["tool_calls"].is_array())
            for (const json& c : r["tool_calls"]) reply.toolCalls.push_back({str(c, "id"), str(c, "name"), str(c, "arguments")});
        if (r.contains("usage") && r["usage"].is_object()) {
            const json& u = r["usage"];
            reply.usage.promptTokens = num(u, "prompt");
            reply.usage.completionTokens = num(u, "completion");
            reply.usage.totalTokens = num(u, "total");
            reply.usage.reasoningTokens = num(u, "reasoning");
            if (u.contains("cost") && u["cost"].is_number()) reply.usage.costUsd = u["cost"].get<double>();
        }
        o.reply = std::move(reply);
    } else if (j.contains("error") && j["error"].is_object()) {
        const json& e = j["error"];
        llm::ChatError error;
        const long long kind = num(e, "kind");
        if (kind < 0 || kind > static_cast<int>(llm::ChatErrorKind::StreamError)) return std::nullopt;
        error.kind = static_cast<llm::ChatErrorKind>(kind);
        error.httpStatus = static_cast<int>(num(e, "status"));
        error.message = str(e, "message");
        o.error = std::move(error);
    } else {
        return std::nullopt;
    }
    return o;
}

ReplayChat::~ReplayChat() {
    for (auto& [id, live] : liveIds_) live.first->cancel(live.second);
}

std::optional<std::string> ReplayChat::loadRecording(const json& list) {
    if (!list.is_array()) return "the recorded answers are not a list";
    std::map<std::string, std::deque<std::pair<std::size_t, llm::ChatOutcome>>> served;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const json& e = list[i];
        std::optional<llm::ChatOutcome> o =
            e.is_object() && e.contains("outcome") ? outcomeFromJson(e["outcome"]) : std::nullopt;
        if (!o || str(e, "key").empty()) return "recorded answer " + std::to_string(i + 1) + " is unreadable";
        served[str(e, "key")].push_back({i, std::move(*o)});
    }
    served_ = std::move(served);
    queue_.clear();
    nextDelivery_ = 0;
    recording_ = list;
    return std::nullopt;
}

std::size_t ReplayChat::pendingReplays() const {
    std::size_t n = 0;
    for (const auto& [key, list] : served_) n += list.size();
    return n;
}

llm::ChatCallId ReplayChat::send(llm::ChatRequest request, llm::ChatHandlers handlers) {
    const llm::ChatCallId id = nextId_++;
    const std::string key = requestKey(request);
    auto it = served_.find(key);
    if (it != served_.end() && !it->second.empty()) {
        queue_.push_back({id, true, it->second.front().first, std::move(it->second.front().second), std::move(handlers)});
        it->second.pop_front();
        return id;
    }
    llm::ChatService* live = live_();
    if (!live) {
        llm::ChatOutcome o;
        o.error = llm::ChatError{llm::ChatErrorKind::Unauthorized, 0,
                                 "no API key: add an OpenRouter key in Settings so the models can play", std::nullopt};
        queue_.push_back({id, false, 0, std::move(o), std::move(handlers)});
        return id;
    }
    llm::ChatHandlers wrapped = handlers;
    wrapped.onDone = [this, id, key, done = handlers.onDone](llm::ChatOutcome outcome) {
        liveIds_.erase(id);
        recording_.push_back({{"key", key}, {"outcome", outcomeToJson(outcome)}});
        if (done) done(std::move(outcome));
    };
    const llm::ChatCallId liveId = live->send(std::move(request), std::move(wrapped));
    liveIds_[id] = {live, liveId};
    return id;
}

void ReplayChat::cancel(llm::ChatCallId id) {
    for (auto it = queue_.begin(); it != queue_.end(); ++it)
        if (it->id == id) {
            queue_.erase(it);
            return;
        }
    if (auto it = liveIds_.find(id); it != liveIds_.end()) {
        it->second.first->cancel(it->second.second);
        liveIds_.erase(it);
    }
}

void ReplayChat::poll() {
    for (auto it = queue_.begin(); it != queue_.end(); ++it) {
        if (it->recorded && it->index != nextDelivery_) continue; // a recorded answer waits for its turn
        Queued q = std::move(*it);
        queue_.erase(it);
        if (q.recorded) nextDelivery_ = q.index + 1;
        if (q.handlers.onDone) q.handlers.onDone(std::move(q.outcome));
        return;
    }
}

void ReplayChat::flush() {
    if (queue_.empty()) return;
    auto first = std::min_element(queue_.begin(), queue_.end(), [](const Queued& a, const Queued& b) {
        return a.recorded == b.recorded ? a.index < b.index : !a.recorded;
    });
    if (first->recorded) nextDelivery_ = first->index;
    poll();
}

} // namespace chaiba::werewolfmode
