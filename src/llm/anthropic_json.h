// Anthropic's Messages API at the edge: request bodies from typed ChatRequests (system prompt apart,
// tool calls as tool_use blocks, tool results as user tool_result blocks), whole replies, streamed
// events (message_start, content_block_*, message_delta, message_stop, ping, error) and errors.
#pragma once

#include "src/llm/chat.h"
#include "src/llm/http_chat_client.h"

#include <map>
#include <string>
#include <string_view>

namespace chaiba::llm {

inline constexpr const char* kAnthropicBaseUrl = "https://api.anthropic.com";
inline constexpr const char* kAnthropicVersion = "2023-06-01";
inline constexpr int kAnthropicDefaultMaxTokens = 4096; // max_tokens is required by the API

// The JSON body of POST /v1/messages. Consecutive messages of one role are merged (tool results
// become one user message); response formats are not sent (the API has no equivalent here).
std::string buildAnthropicRequestJson(const ChatRequest& request);

// A whole (non-streaming) message. stop_reason maps onto OpenAI's finish reasons: tool_use →
// tool_calls, end_turn and stop_sequence → stop, max_tokens → length. Thinking blocks become the
// reasoning text and, verbatim, reasoningDetailsJson (sent back on later assistant turns).
Result<ChatReply> decodeAnthropicResponse(std::string_view body);

// The error of an HTTP status and its body ({type:"error", error:{type, message}}): 401
// unauthorized, 403 permission, 429 rate limited (retry-after), 529 overloaded → server error.
ChatError decodeAnthropicError(int status, std::string_view body,
                               const std::optional<std::string>& retryAfterHeader);

// Folds the streamed events into one reply.
class AnthropicStreamDecoder final : public ChatStreamDecoder {
public:
    StreamDelta accept(const std::string& data) override;
    bool sawAnything() const override { return events_ > 0; }
    bool finished() const override { return sawStop_; }
    ChatReply reply() const override;

private:
    struct Block {
        std::string type; // text, tool_use, thinking, redacted_thinking
        std::string text; // text, thinking, or the tool input's JSON as it arrives
        std::string id;
        std::string name;
        std::string signature;
        std::string data; // redacted_thinking
    };
    ChatReply reply_;
    std::map<long long, Block> blocks_;
    long long inputTokens_ = 0;
    long long cacheRead_ = 0;
    long long cacheWrite_ = 0;
    long long outputTokens_ = 0;
    bool sawStop_ = false;
    int events_ = 0;
};

} // namespace chaiba::llm
