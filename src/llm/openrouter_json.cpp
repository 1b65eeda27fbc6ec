// OpenRouter JSON at the edge. Untrusted bodies are parsed without exceptions, every field is
// type-checked before use, and a missing or mistyped required field is a decode error.
#include "src/llm/openrouter_json.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>

namespace chaiba::llm {

using nlohmann::json;

const char* roleName(Role role) {
    switch (role) {
    case Role::System: return "system";
    case Role::User: return "user";
    case Role::Assistant: return "assistant";
    case Role::Tool: return "tool";
    }
    return "user";
}

const char* chatErrorName(ChatErrorKind kind) {
    switch (kind) {
    case ChatErrorKind::Unauthorized: return "invalid API key";
    case ChatErrorKind::InsufficientCredits: return "insufficient credits";
    case ChatErrorKind::Moderation: return "blocked by moderation";
    case ChatErrorKind::RateLimited: return "rate limited";
    case ChatErrorKind::BadRequest: return "bad request";
    case ChatErrorKind::Timeout: return "timeout";
    case ChatErrorKind::ServerError: return "server error";
    case ChatErrorKind::Transport: return "network error";
    case ChatErrorKind::MalformedResponse: return "malformed response";
    case ChatErrorKind::StreamError: return "error in stream";
    }
    return "error";
}

bool isRetryable(const ChatError& error) {
    switch (error.kind) {
    case ChatErrorKind::RateLimited:
    case ChatErrorKind::Timeout:
    case ChatErrorKind::ServerError:
    case ChatErrorKind::Transport:
    case ChatErrorKind::MalformedResponse: return true;
    case ChatErrorKind::StreamError:
        return error.httpStatus == 408 || error.httpStatus == 429 || error.httpStatus >= 500;
    case ChatErrorKind::Unauthorized:
    case ChatErrorKind::InsufficientCredits:
    case ChatErrorKind::Moderation:
    case ChatErrorKind::BadRequest: return false;
    }
    return false;
}

namespace {

std::string dumpSafe(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string stringField(const json& obj, const char* name) {
    if (!obj.is_object()) return {};
    auto it = obj.find(name);
    if (it == obj.end() || !it->is_string()) return {};
    return it->get<std::string>();
}

long long intField(const json& obj, const char* name) {
    if (!obj.is_object()) return 0;
    auto it = obj.find(name);
    if (it == obj.end() || !it->is_number()) return 0;
    return it->is_number_integer() ? it->get<long long>() : static_cast<long long>(it->get<double>());
}

// Prices come as strings of USD per token ("0.0000025"); numbers are accepted too.
double priceField(const json& obj, const char* name) {
    if (!obj.is_object()) return 0;
    auto it = obj.find(name);
    if (it == obj.end()) return 0;
    if (it->is_number()) return it->get<double>();
    if (!it->is_string()) return 0;
    const std::string s = it->get<std::string>();
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || !std::isfinite(v) || v < 0) return 0;
    return v;
}

json messageJson(const ChatMessage& m) {
    json j = json::object();
    j["role"] = roleName(m.role);
    if (m.role == Role::Assistant && !m.toolCalls.empty() && m.content.empty()) {
        j["content"] = nullptr;
    } else if (m.cacheBreakpoint) {
        j["content"] = json::array(
            {json{{"type", "text"}, {"text", m.content}, {"cache_control", json{{"type", "ephemeral"}}}}});
    } else {
        j["content"] = m.content;
    }
    if (!m.toolCalls.empty()) {
        json calls = json::array();
        for (const ToolCall& c : m.toolCalls)
            calls.push_back(json{{"id", c.id},
                                 {"type", "function"},
                                 {"function", json{{"name", c.name}, {"arguments", c.arguments}}}});
        j["tool_calls"] = calls;
    }
    if (m.role == Role::Tool) j["tool_call_id"] = m.toolCallId;
    if (!m.reasoningDetailsJson.empty()) {
        json details = json::parse(m.reasoningDetailsJson, nullptr, false);
        if (!details.is_discarded()) j["reasoning_details"] = details;
    }
    return j;
}

std::vector<ToolCall> decodeToolCalls(const json& calls) {
    std::vector<ToolCall> out;
    if (!calls.is_array()) return out;
    for (const json& c : calls) {
        if (!c.is_object()) continue;
        ToolCall call;
        call.id = stringField(c, "id");
        auto fn = c.find("function");
        if (fn != c.end() && fn->is_object()) {
            call.name = stringField(*fn, "name");
            auto args = fn->find("arguments");
            if (args != fn->end())
                call.arguments = args->is_string() ? args->get<std::string>() : dumpSafe(*args);
        }
        out.push_back(std::move(call));
    }
    return out;
}

Usage decodeUsage(const json& u) {
    Usage usage;
    if (!u.is_object()) return usage;
    usage.promptTokens = intField(u, "prompt_tokens");
    usage.completionTokens = intField(u, "completion_tokens");
    usage.totalTokens = intField(u, "total_tokens");
    if (usage.totalTokens == 0) usage.totalTokens = usage.promptTokens + usage.completionTokens;
    if (auto it = u.find("prompt_tokens_details"); it != u.end() && it->is_object()) {
        usage.cachedTokens = intField(*it, "cached_tokens");
        usage.cacheWriteTokens = intField(*it, "cache_write_tokens");
    }
    if (auto it = u.find("completion_tokens_details"); it != u.end() && it->is_object())
        usage.reasoningTokens = intField(*it, "reasoning_tokens");
    if (auto it = u.find("cost"); it != u.end() && it->is_number()) usage.costUsd = it->get<double>();
    return usage;
}

} // namespace

std::string buildChatRequestJson(const ChatRequest& request) {
    json body = json::object();
    body["model"] = request.model;
    json messages = json::array();
    for (const ChatMessage& m : request.messages) messages.push_back(messageJson(m));
    body["messages"] = messages;
    if (!request.tools.empty()) {
        json tools = json::array();
        for (const ToolDefinition& t : request.tools) {
            json params = json::parse(t.parametersJson, nullptr, false);
            if (params.is_discarded() || !params.is_object()) params = json{{"type", "object"}};
            tools.push_back(
                json{{"type", "function"},
                     {"function",
                      json{{"name", t.name}, {"description", t.description}, {"parameters", params}}}});
        }
        body["tools"] = tools;
        switch (request.toolChoice) {
        case ToolChoice::Auto: body["tool_choice"] = "auto"; break;
        case ToolChoice::None: body["tool_choice"] = "none"; break;
        case ToolChoice::Required: body["tool_choice"] = "required"; break;
        }
        if (!request.forcedTool.empty())
            body["tool_choice"] = json{{"type", "function"}, {"function", json{{"name", request.forcedTool}}}};
        body["parallel_tool_calls"] = request.parallelToolCalls;
    }
    if (request.responseFormat) {
        json schema = json::parse(request.responseFormat->schemaJson, nullptr, false);
        if (schema.is_discarded() || !schema.is_object()) schema = json{{"type", "object"}};
        body["response_format"] =
            json{{"type", "json_schema"},
                 {"json_schema", json{{"name", request.responseFormat->name},
                                      {"strict", request.responseFormat->strict},
                                      {"schema", schema}}}};
    }
    if (request.temperature) body["temperature"] = *request.temperature;
    if (request.maxTokens) body["max_tokens"] = *request.maxTokens;
    if (request.reasoningEffort != ReasoningEffort::Default)
        body["reasoning"] = json{{"effort", effortName(request.reasoningEffort)}};
    if (request.stream) body["stream"] = true;
    if (!request.modalities.empty()) body["modalities"] = request.modalities;
    return dumpSafe(body);
}

Usage decodeUsageJson(std::string_view usageJson) {
    const json u = json::parse(usageJson, nullptr, false);
    if (u.is_discarded()) return {};
    return decodeUsage(u);
}

Result<ChatReply> decodeChatResponse(std::string_view body) {
    const json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return Result<ChatReply>::fail("the response is not JSON");
    if (auto err = doc.find("error"); err != doc.end() && err->is_object()) {
        const std::string msg = stringField(*err, "message");
        return Result<ChatReply>::fail("the provider reported an error: " +
                                       (msg.empty() ? dumpSafe(*err) : msg));
    }
    auto choices = doc.find("choices");
    if (choices == doc.end() || !choices->is_array() || choices->empty() || !(*choices)[0].is_object())
        return Result<ChatReply>::fail("the response has no choices");
    const json& choice = (*choices)[0];
    auto message = choice.find("message");
    if (message == choice.end() || !message->is_object())
        return Result<ChatReply>::fail("the response's choice has no message");
    ChatReply reply;
    reply.id = stringField(doc, "id");
    reply.model = stringField(doc, "model");
    reply.finishReason = stringField(choice, "finish_reason");
    reply.content = stringField(*message, "content");
    reply.reasoning = stringField(*message, "reasoning");
    if (auto rd = message->find("reasoning_details"); rd != message->end() && !rd->is_null())
        reply.reasoningDetailsJson = dumpSafe(*rd);
    if (auto tc = message->find("tool_calls"); tc != message->end()) reply.toolCalls = decodeToolCalls(*tc);
    if (auto images = message->find("images"); images != message->end() && images->is_array())
        for (const json& image : *images)
            if (auto url = image.find("image_url"); image.is_object() && url != image.end())
                if (std::string text = stringField(*url, "url"); !text.empty()) reply.imageUrls.push_back(text);
    if (auto u = doc.find("usage"); u != doc.end()) reply.usage = decodeUsage(*u);
    return Result<ChatReply>::ok(std::move(reply));
}

std::optional<int> parseRetryAfterMs(std::string_view header) {
    while (!header.empty() && header.front() == ' ') header.remove_prefix(1);
    while (!header.empty() && header.back() == ' ') header.remove_suffix(1);
    if (header.empty() || header.size() > 6) return std::nullopt;
    long seconds = 0;
    for (char c : header) {
        if (c < '0' || c > '9') return std::nullopt; // an HTTP date: treat as unreadable
        seconds = seconds * 10 + (c - '0');
    }
    if (seconds > 3600) seconds = 3600;
    return static_cast<int>(seconds * 1000);
}

ChatError httpStatusError(int status, std::string_view body, std::string providerMessage,
                          const std::optional<std::string>& retryAfterHeader, const HttpErrorAdvice& advice) {
    ChatError e;
    e.httpStatus = status;
    if (providerMessage.empty()) {
        providerMessage = std::string(body.substr(0, 200));
        for (char& c : providerMessage)
            if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    }
    if (retryAfterHeader) e.retryAfterMs = parseRetryAfterMs(*retryAfterHeader);
    std::string text;
    switch (status) {
    case 401:
        e.kind = ChatErrorKind::Unauthorized;
        text = advice.unauthorized;
        break;
    case 402:
        e.kind = ChatErrorKind::InsufficientCredits;
        text = advice.paymentRequired;
        break;
    case 403:
        e.kind = ChatErrorKind::Moderation;
        text = advice.forbidden;
        break;
    case 408:
        e.kind = ChatErrorKind::Timeout;
        text = "the provider timed out";
        break;
    case 429:
        e.kind = ChatErrorKind::RateLimited;
        text = "rate limited";
        break;
    default:
        e.kind = status >= 500 ? ChatErrorKind::ServerError : ChatErrorKind::BadRequest;
        text = status == 529 && !advice.overloaded.empty() ? advice.overloaded
               : status >= 500                             ? "the provider failed"
                                                           : "the request was refused";
        break;
    }
    e.message = "HTTP " + std::to_string(status) + ": " + text +
                (providerMessage.empty() ? std::string() : " — " + providerMessage);
    return e;
}

ChatError decodeHttpError(int status, std::string_view body,
                          const std::optional<std::string>& retryAfterHeader) {
    std::string providerMessage;
    std::string reasons;
    const json doc = json::parse(body, nullptr, false);
    if (!doc.is_discarded() && doc.is_object()) {
        if (auto err = doc.find("error"); err != doc.end() && err->is_object()) {
            providerMessage = stringField(*err, "message");
            if (auto meta = err->find("metadata"); meta != err->end() && meta->is_object()) {
                if (auto r = meta->find("reasons"); r != meta->end() && r->is_array())
                    for (const json& item : *r)
                        if (item.is_string())
                            reasons += (reasons.empty() ? "" : ", ") + item.get<std::string>();
            }
        }
    }
    HttpErrorAdvice advice;
    advice.unauthorized = "the API key was refused; enter a valid OpenRouter key";
    advice.paymentRequired = "the key has run out of credits; add credits or use a free model";
    advice.forbidden = "the input was flagged by moderation" + (reasons.empty() ? std::string() : " (" + reasons + ")");
    return httpStatusError(status, body, std::move(providerMessage), retryAfterHeader, advice);
}

Result<std::vector<ModelInfo>> decodeModelList(std::string_view body) {
    using R = Result<std::vector<ModelInfo>>;
    const json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return R::fail("the model list is not JSON");
    auto data = doc.find("data");
    if (data == doc.end() || !data->is_array()) return R::fail("the model list has no data array");
    std::vector<ModelInfo> models;
    for (const json& m : *data) {
        ModelInfo info;
        info.id = stringField(m, "id");
        if (info.id.empty()) continue; // unusable entry; the rest of the list still counts
        info.name = stringField(m, "name");
        if (info.name.empty()) info.name = info.id;
        info.contextLength = intField(m, "context_length");
        if (auto p = m.find("pricing"); p != m.end() && p->is_object()) {
            info.pricing.promptUsdPerToken = priceField(*p, "prompt");
            info.pricing.completionUsdPerToken = priceField(*p, "completion");
            info.pricing.requestUsd = priceField(*p, "request");
            info.pricing.cacheReadUsdPerToken = priceField(*p, "input_cache_read");
            info.pricing.cacheWriteUsdPerToken = priceField(*p, "input_cache_write");
            info.pricing.reasoningUsdPerToken = priceField(*p, "internal_reasoning");
        }
        if (auto sp = m.find("supported_parameters"); sp != m.end() && sp->is_array()) {
            for (const json& s : *sp) {
                if (!s.is_string()) continue;
                const std::string name = s.get<std::string>();
                if (name == "tools") info.supportsTools = true;
                if (name == "reasoning") info.supportsReasoning = true;
                if (name == "structured_outputs" || name == "response_format") info.supportsStructuredOutputs = true;
            }
        }
        models.push_back(std::move(info));
    }
    return R::ok(std::move(models));
}

Result<KeyInfo> decodeKeyInfo(std::string_view body) {
    const json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return Result<KeyInfo>::fail("the key answer is not JSON");
    auto data = doc.find("data");
    if (data == doc.end() || !data->is_object()) return Result<KeyInfo>::fail("the key answer has no data");
    KeyInfo info;
    info.label = stringField(*data, "label");
    if (auto it = data->find("limit"); it != data->end() && it->is_number())
        info.limitUsd = it->get<double>();
    if (auto it = data->find("limit_remaining"); it != data->end() && it->is_number())
        info.limitRemainingUsd = it->get<double>();
    if (auto it = data->find("usage"); it != data->end() && it->is_number())
        info.usageUsd = it->get<double>();
    if (auto it = data->find("is_free_tier"); it != data->end() && it->is_boolean())
        info.isFreeTier = it->get<bool>();
    return Result<KeyInfo>::ok(std::move(info));
}

double estimateCostUsd(const Usage& usage, const ModelPricing& pricing) {
    const long long uncached = usage.promptTokens - usage.cachedTokens - usage.cacheWriteTokens;
    return pricing.requestUsd + static_cast<double>(uncached > 0 ? uncached : 0) * pricing.promptUsdPerToken +
           static_cast<double>(usage.cachedTokens) * pricing.cacheReadUsdPerToken +
           static_cast<double>(usage.cacheWriteTokens) * pricing.cacheWriteUsdPerToken +
           static_cast<double>(usage.completionTokens) * pricing.completionUsdPerToken;
}

} // namespace chaiba::llm
