// ChatService over Anthropic's Messages API (POST {base}/v1/messages), callable from a browser:
// the key goes in x-api-key with anthropic-dangerous-direct-browser-access. The shared HTTP client
// gives it the same retry policy as OpenRouter (529 overloaded counts as a server error).
#pragma once

#include "src/llm/anthropic_json.h"
#include "src/llm/http_chat_client.h"

namespace chaiba::llm {

struct AnthropicConfig {
    std::string baseUrl = kAnthropicBaseUrl; // no trailing slash, without /v1
    std::string apiKey;                      // secret: only ever the x-api-key header
    RetryPolicy retry;
};

class AnthropicClient final : public HttpChatClient {
public:
    AnthropicClient(net::HttpTransport& transport, const net::Clock& clock, AnthropicConfig config);
    const AnthropicConfig& config() const { return config_; }

private:
    AnthropicConfig config_;
};

} // namespace chaiba::llm
