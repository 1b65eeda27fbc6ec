// Provider-agnostic chat types and the ChatService interface: messages, tools, parameters, the
// decoded reply, usage and typed errors. Results arrive through callbacks pumped by poll().
#pragma once

#include "src/llm/call_settings.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::llm {

// A value or a sentence saying why not.
template <class T> struct Result {
    std::optional<T> value;
    std::string error;

    static Result ok(T v) { return Result{std::move(v), {}}; }
    static Result fail(std::string why) { return Result{std::nullopt, std::move(why)}; }
    bool isOk() const { return value.has_value(); }
};

enum class Role { System, User, Assistant, Tool };
const char* roleName(Role role);

// One tool call as the model sent it; arguments is JSON text and may be malformed.
struct ToolCall {
    std::string id;
    std::string name;
    std::string arguments;
};

// What it is: one message of a request. An assistant message may carry tool calls and no text;
// a tool message answers the call toolCallId. cacheBreakpoint sends the text as a content part
// with cache_control (Anthropic prompt caching).
struct ChatMessage {
    Role role = Role::User;
    std::string content;
    std::vector<ToolCall> toolCalls;
    std::string toolCallId;
    std::string reasoningDetailsJson; // returned unchanged on assistant messages ("" = none)
    bool cacheBreakpoint = false;
};

struct ToolDefinition {
    std::string name;
    std::string description;
    std::string parametersJson; // a JSON Schema, as text (loaded from assets/<mode>/tools/)
};

enum class ToolChoice { Auto, None, Required };

// A JSON Schema the answer must follow (OpenRouter's response_format json_schema).
struct ResponseSchema {
    std::string name;       // [a-zA-Z0-9_-]
    std::string schemaJson; // a JSON Schema object, as text
    bool strict = true;
};

enum class ChatErrorKind; // below, with ChatError
inline constexpr std::size_t kChatErrorKinds = 10;
using RequestCaps = std::array<int, kChatErrorKinds>; // per ChatErrorKind (its index); 0: no cap

struct ChatRequest {
    std::string model;
    std::vector<ChatMessage> messages; // the system prompt is the first message
    std::vector<ToolDefinition> tools;
    ToolChoice toolChoice = ToolChoice::Auto;
    std::string forcedTool;          // non-empty: tool_choice names this tool (it must be in tools)
    bool parallelToolCalls = false;  // may the model call several tools in one answer
    std::optional<ResponseSchema> responseFormat;
    std::optional<double> temperature;
    std::optional<int> maxTokens;
    ReasoningEffort reasoningEffort = ReasoningEffort::Default;
    bool stream = false;
    int timeoutMs = 300000; // reasoning models can think for minutes
    std::vector<std::string> modalities; // e.g. {"image", "text"} for an image model ({} = not sent)
    // At most this many HTTP requests for this call, the client's own retries included (0: the
    // client's retry policy alone): a caller with retry rules of its own passes the tries its
    // rules have left, so the client's retries never take the call past them.
    int maxRequests = 0;
    // Per ChatErrorKind (its index): at most this many requests of the call failing that way in a
    // row (0: no cap), so a caller's rules per kind bind the client's retries from the first call.
    RequestCaps maxRequestsByKind{};
};

struct Usage {
    long long promptTokens = 0;
    long long completionTokens = 0;
    long long totalTokens = 0;
    long long cachedTokens = 0;
    long long cacheWriteTokens = 0;
    long long reasoningTokens = 0;
    std::optional<double> costUsd; // as reported by the provider

    // Adds every token count; the reported cost is summed only where both have one.
    Usage& operator+=(const Usage& other);
};

// The decoded answer of one completion.
struct ChatReply {
    std::string id;
    std::string model;
    std::string content;
    std::string reasoning;
    std::string reasoningDetailsJson;
    std::vector<ToolCall> toolCalls;
    std::vector<std::string> imageUrls; // message.images[].image_url.url (data URLs), image models
    std::string finishReason;
    Usage usage;
};

enum class ChatErrorKind {
    Unauthorized,        // 401: stop, ask for a valid key
    InsufficientCredits, // 402: stop
    Moderation,          // 403: stop, show the reason
    RateLimited,         // 429
    BadRequest,          // 400 and other 4xx
    Timeout,             // 408 or the transport's timeout
    ServerError,         // 5xx
    Transport,           // offline, blocked, aborted
    MalformedResponse,   // 200 with a body we cannot decode
    StreamError,         // an error chunk in the middle of a stream
};
static_assert(static_cast<std::size_t>(ChatErrorKind::StreamError) + 1 == kChatErrorKinds);
const char* chatErrorName(ChatErrorKind kind);

struct ChatError {
    ChatErrorKind kind = ChatErrorKind::ServerError;
    int httpStatus = 0;  // 0: none (transport, or inside a stream)
    std::string message; // for the user; never contains the key
    std::optional<int> retryAfterMs;
    // The requests in a row that failed this way before the call gave up (the client's own
    // retries included), so a caller with retry rules of its own counts every request against
    // them, not just the call.
    int requests = 1;
};

// Whether the policy may retry this error at all (the limits are the client's).
bool isRetryable(const ChatError& error);

// One HTTP attempt of a call, for the agent's log. requestJson is the body: the key is only ever
// in the Authorization header and never recorded.
struct ChatAttempt {
    int attempt = 1;
    std::string requestJson;
    int httpStatus = 0;
    std::string responseText; // body as received (SSE text when streaming), capped
    std::optional<ChatError> error;
    std::int64_t latencyMs = 0; // from the request's start to its last byte
};

// Announced before every retry, so none is silent.
struct RetryNotice {
    int failedAttempt = 1;
    int maxAttempts = 1;
    int delayMs = 0;
    ChatError error;
};

struct ChatOutcome {
    std::optional<ChatReply> reply;
    std::optional<ChatError> error; // set when reply is not
    std::vector<ChatAttempt> attempts;
};

struct ChatHandlers {
    std::function<void(const std::string& delta)> onText;
    std::function<void(const std::string& delta)> onReasoning;
    std::function<void(const RetryNotice& notice)> onRetry;
    std::function<void(ChatOutcome outcome)> onDone; // exactly once, unless cancelled
    // A streamed answer's tool calls so far (names, arguments as far as they came: partial JSON),
    // each time a chunk changed them, so a call can be shown before the answer is whole. Only
    // providers whose stream decoder reports them call it (OpenRouter's); a retry starts over.
    // Last and default-initialised, so handlers written as {onText, onReasoning, onRetry, onDone}
    // keep their meaning without a missing-initializer warning.
    std::function<void(const std::vector<ToolCall>& sofar)> onToolCalls{};
};

using ChatCallId = std::uint64_t;

class ChatService {
public:
    virtual ~ChatService() = default;
    virtual ChatCallId send(ChatRequest request, ChatHandlers handlers) = 0;
    // No callback of a cancelled call runs afterwards.
    virtual void cancel(ChatCallId id) = 0;
    virtual void poll() = 0;
};

} // namespace chaiba::llm
