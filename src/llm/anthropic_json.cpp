// Anthropic JSON at the edge. Untrusted bodies are parsed without exceptions and every field is
// type-checked; what leaves here is typed (ChatReply, ChatError).
#include "src/llm/anthropic_json.h"

#include "src/llm/openrouter_json.h"

#include <nlohmann/json.hpp>

namespace chaiba::llm {

using nlohmann::json;

namespace {

std::string dumpSafe(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string str(const json& obj, const char* name) {
    if (!obj.is_object()) return {};
    auto it = obj.find(name);
    return (it != obj.end() && it->is_string()) ? it->get<std::string>() : std::string();
}

long long num(const json& obj, const char* name) {
    if (!obj.is_object()) return 0;
    auto it = obj.find(name);
    if (it == obj.end() || !it->is_number()) return 0;
    return it->is_number_integer() ? it->get<long long>() : static_cast<long long>(it->get<double>());
}

json textBlock(const std::string& text, bool cache) {
    json b{{"type", "text"}, {"text", text}};
    if (cache) b["cache_control"] = json{{"type", "ephemeral"}};
    return b;
}

// The content blocks of one of our messages.
json blocksOf(const ChatMessage& m) {
    json blocks = json::array();
    if (m.role == Role::Tool) {
        blocks.push_back(
            json{{"type", "tool_result"}, {"tool_use_id", m.toolCallId}, {"content", m.content}});
        return blocks;
    }
    if (m.role == Role::Assistant && !m.reasoningDetailsJson.empty()) {
        // Thinking blocks go back first, unchanged (their signatures are checked by the API).
        const json details = json::parse(m.reasoningDetailsJson, nullptr, false);
        if (details.is_array())
            for (const json& d : details)
                if (d.is_object() && (str(d, "type") == "thinking" || str(d, "type") == "redacted_thinking"))
                    blocks.push_back(d);
    }
    if (!m.content.empty()) blocks.push_back(textBlock(m.content, m.cacheBreakpoint));
    for (const ToolCall& c : m.toolCalls) {
        json input = json::parse(c.arguments, nullptr, false);
        if (input.is_discarded() || !input.is_object()) input = json::object(); // malformed: sent as {}
        blocks.push_back(json{{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", input}});
    }
    if (blocks.empty()) blocks.push_back(textBlock("(no answer)", false)); // empty text is refused
    return blocks;
}

int thinkingBudget(ReasoningEffort effort) {
    switch (effort) {
    case ReasoningEffort::Default: return 0;
    case ReasoningEffort::Minimal:
    case ReasoningEffort::Low: return 1024;
    case ReasoningEffort::Medium: return 4096;
    case ReasoningEffort::High: return 16000;
    }
    return 0;
}

std::string finishReasonOf(const std::string& stopReason) {
    if (stopReason == "tool_use") return "tool_calls";
    if (stopReason == "end_turn" || stopReason == "stop_sequence") return "stop";
    if (stopReason == "max_tokens") return "length";
    return stopReason;
}

Usage usageOf(long long input, long long cacheRead, long long cacheWrite, long long output) {
    Usage u;
    u.promptTokens = input + cacheRead + cacheWrite; // as OpenRouter counts: cached tokens included
    u.cachedTokens = cacheRead;
    u.cacheWriteTokens = cacheWrite;
    u.completionTokens = output;
    u.totalTokens = u.promptTokens + output;
    return u;
}

// An error type of the API (in a body or a stream event) as the HTTP status it stands for.
int statusOfErrorType(const std::string& type) {
    if (type == "invalid_request_error") return 400;
    if (type == "authentication_error") return 401;
    if (type == "permission_error") return 403;
    if (type == "not_found_error") return 404;
    if (type == "request_too_large") return 413;
    if (type == "rate_limit_error") return 429;
    if (type == "overloaded_error") return 529;
    return 500; // api_error and anything new
}

} // namespace

std::string buildAnthropicRequestJson(const ChatRequest& request) {
    json body = json::object();
    body["model"] = request.model;
    const int budget = thinkingBudget(request.reasoningEffort);
    int maxTokens = request.maxTokens.value_or(kAnthropicDefaultMaxTokens);
    if (budget > 0 && maxTokens <= budget) maxTokens = budget + kAnthropicDefaultMaxTokens;
    body["max_tokens"] = maxTokens;

    // Step 1. System messages into `system`; the rest into alternating user/assistant turns.
    json system = json::array();
    json messages = json::array();
    for (const ChatMessage& m : request.messages) {
        if (m.role == Role::System) {
            system.push_back(textBlock(m.content, m.cacheBreakpoint));
            continue;
        }
        const char* role = m.role == Role::Assistant ? "assistant" : "user";
        json blocks = blocksOf(m);
        if (!messages.empty() && messages.back()["role"] == role) {
            json& content = messages.back()["content"];
            for (json& b : blocks) content.push_back(std::move(b));
        } else {
            messages.push_back(json{{"role", role}, {"content", std::move(blocks)}});
        }
    }
    bool cachedSystem = false;
    for (const json& b : system) cachedSystem = cachedSystem || b.contains("cache_control");
    if (system.size() == 1 && !cachedSystem)
        body["system"] = system[0]["text"];
    else if (!system.empty())
        body["system"] = system;
    body["messages"] = messages;

    // Step 2. Tools and the choice among them.
    if (!request.tools.empty()) {
        json tools = json::array();
        for (const ToolDefinition& t : request.tools) {
            json schema = json::parse(t.parametersJson, nullptr, false);
            if (schema.is_discarded() || !schema.is_object()) schema = json{{"type", "object"}};
            tools.push_back(json{{"name", t.name}, {"description", t.description}, {"input_schema", schema}});
        }
        body["tools"] = tools;
        json choice;
        if (!request.forcedTool.empty())
            choice = json{{"type", "tool"}, {"name", request.forcedTool}};
        else if (request.toolChoice == ToolChoice::None)
            choice = json{{"type", "none"}};
        else if (request.toolChoice == ToolChoice::Required)
            choice = json{{"type", "any"}};
        else
            choice = json{{"type", "auto"}};
        if (choice["type"] != "none" && !request.parallelToolCalls)
            choice["disable_parallel_tool_use"] = true;
        body["tool_choice"] = choice;
    }
    if (budget > 0)
        body["thinking"] = json{{"type", "enabled"}, {"budget_tokens", budget}};
    else if (request.temperature)
        body["temperature"] =
            *request.temperature > 1 ? 1.0 : *request.temperature; // the API's range is 0..1
    if (request.stream) body["stream"] = true;
    return dumpSafe(body);
}

Result<ChatReply> decodeAnthropicResponse(std::string_view body) {
    const json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return Result<ChatReply>::fail("the response is not JSON");
    if (str(doc, "type") == "error") {
        const json err = doc.value("error", json::object());
        return Result<ChatReply>::fail("the provider reported an error: " + str(err, "message"));
    }
    auto content = doc.find("content");
    if (content == doc.end() || !content->is_array())
        return Result<ChatReply>::fail("the response has no content array");
    ChatReply reply;
    reply.id = str(doc, "id");
    reply.model = str(doc, "model");
    reply.finishReason = finishReasonOf(str(doc, "stop_reason"));
    json thinking = json::array();
    for (const json& b : *content) {
        const std::string type = str(b, "type");
        if (type == "text") {
            reply.content += str(b, "text");
        } else if (type == "tool_use") {
            auto input = b.find("input");
            reply.toolCalls.push_back(
                {str(b, "id"), str(b, "name"), input != b.end() ? dumpSafe(*input) : std::string("{}")});
        } else if (type == "thinking" || type == "redacted_thinking") {
            reply.reasoning += str(b, "thinking");
            thinking.push_back(b);
        }
    }
    if (!thinking.empty()) reply.reasoningDetailsJson = dumpSafe(thinking);
    if (auto u = doc.find("usage"); u != doc.end() && u->is_object())
        reply.usage = usageOf(num(*u, "input_tokens"), num(*u, "cache_read_input_tokens"),
                              num(*u, "cache_creation_input_tokens"), num(*u, "output_tokens"));
    return Result<ChatReply>::ok(std::move(reply));
}

ChatError decodeAnthropicError(int status, std::string_view body,
                               const std::optional<std::string>& retryAfterHeader) {
    std::string providerMessage;
    const json doc = json::parse(body, nullptr, false);
    if (!doc.is_discarded() && doc.is_object())
        if (auto err = doc.find("error"); err != doc.end() && err->is_object())
            providerMessage = str(*err, "message");
    HttpErrorAdvice advice;
    advice.unauthorized = "the API key was refused; enter a valid Anthropic key";
    advice.paymentRequired = "the account has run out of credits";
    advice.forbidden = "the key may not use this resource";
    advice.overloaded = "the API is overloaded";
    return httpStatusError(status, body, std::move(providerMessage), retryAfterHeader, advice);
}

StreamDelta AnthropicStreamDecoder::accept(const std::string& data) {
    StreamDelta out;
    ++events_;
    const json ev = json::parse(data, nullptr, false);
    if (ev.is_discarded() || !ev.is_object()) {
        out.error =
            ChatError{ChatErrorKind::MalformedResponse, 0, "a stream event is not JSON", std::nullopt};
        return out;
    }
    const std::string type = str(ev, "type");
    if (type == "message_start") {
        const json message = ev.value("message", json::object());
        reply_.id = str(message, "id");
        reply_.model = str(message, "model");
        if (auto u = message.find("usage"); u != message.end() && u->is_object()) {
            inputTokens_ = num(*u, "input_tokens");
            cacheRead_ = num(*u, "cache_read_input_tokens");
            cacheWrite_ = num(*u, "cache_creation_input_tokens");
            outputTokens_ = num(*u, "output_tokens");
        }
    } else if (type == "content_block_start") {
        const json cb = ev.value("content_block", json::object());
        Block& b = blocks_[num(ev, "index")];
        b.type = str(cb, "type");
        b.id = str(cb, "id");
        b.name = str(cb, "name");
        b.text = b.type == "text" ? str(cb, "text") : b.type == "thinking" ? str(cb, "thinking") : "";
        b.signature = str(cb, "signature");
        b.data = str(cb, "data");
        if (b.type == "text") out.text = b.text;
        if (b.type == "thinking") out.reasoning = b.text;
    } else if (type == "content_block_delta") {
        const json delta = ev.value("delta", json::object());
        Block& b = blocks_[num(ev, "index")];
        const std::string kind = str(delta, "type");
        if (kind == "text_delta") {
            out.text = str(delta, "text");
            b.text += out.text;
        } else if (kind == "input_json_delta") {
            b.text += str(delta, "partial_json");
        } else if (kind == "thinking_delta") {
            out.reasoning = str(delta, "thinking");
            b.text += out.reasoning;
        } else if (kind == "signature_delta") {
            b.signature += str(delta, "signature");
        }
    } else if (type == "message_delta") {
        const json delta = ev.value("delta", json::object());
        if (const std::string stop = str(delta, "stop_reason"); !stop.empty())
            reply_.finishReason = finishReasonOf(stop);
        if (auto u = ev.find("usage"); u != ev.end() && u->is_object()) {
            outputTokens_ = num(*u, "output_tokens"); // cumulative
            if (u->contains("input_tokens")) inputTokens_ = num(*u, "input_tokens");
            if (u->contains("cache_read_input_tokens")) cacheRead_ = num(*u, "cache_read_input_tokens");
            if (u->contains("cache_creation_input_tokens"))
                cacheWrite_ = num(*u, "cache_creation_input_tokens");
        }
    } else if (type == "message_stop") {
        sawStop_ = true;
    } else if (type == "error") {
        const json err = ev.value("error", json::object());
        const std::string errType = str(err, "type");
        ChatError e{ChatErrorKind::StreamError, statusOfErrorType(errType), "", std::nullopt};
        const std::string msg = str(err, "message");
        e.message = "error in the stream (" + (errType.empty() ? std::string("unknown") : errType) +
                    "): " + (msg.empty() ? std::string("no message") : msg);
        out.error = e;
    }
    // ping, content_block_stop and unknown events add nothing.
    return out;
}

ChatReply AnthropicStreamDecoder::reply() const {
    ChatReply r = reply_;
    json thinking = json::array();
    for (const auto& [index, b] : blocks_) {
        if (b.type == "text") {
            r.content += b.text;
        } else if (b.type == "tool_use") {
            r.toolCalls.push_back({b.id.empty() ? "toolu_" + std::to_string(index) : b.id, b.name,
                                   b.text.empty() ? std::string("{}") : b.text});
        } else if (b.type == "thinking") {
            r.reasoning += b.text;
            thinking.push_back(json{{"type", "thinking"}, {"thinking", b.text}, {"signature", b.signature}});
        } else if (b.type == "redacted_thinking") {
            thinking.push_back(json{{"type", "redacted_thinking"}, {"data", b.data}});
        }
    }
    if (!thinking.empty()) r.reasoningDetailsJson = dumpSafe(thinking);
    r.usage = usageOf(inputTokens_, cacheRead_, cacheWrite_, outputTokens_);
    return r;
}

} // namespace chaiba::llm
