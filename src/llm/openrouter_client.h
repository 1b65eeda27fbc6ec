// ChatService over an OpenAI-compatible HTTP API (OpenRouter by default): the shared HTTP client
// (retry policy in http_chat_client.h) with OpenRouter's wire format, plus /models and /key. One
// client serves the whole page: configure() changes the key and base URL in place.
#pragma once

#include "src/llm/chat.h"
#include "src/llm/http_chat_client.h"
#include "src/llm/openrouter_json.h"
#include "src/net/http.h"

namespace chaiba::llm {

struct OpenRouterConfig {
    std::string baseUrl = kDefaultBaseUrl; // no trailing slash
    std::string apiKey;                    // secret: only ever the Authorization header
    std::string referer;                   // optional HTTP-Referer attribution
    std::string title;                     // optional X-Title attribution
    int maxRateLimitTries = 5;             // total tries while answered 429
    int maxRetries = 3;                    // retries after 408/5xx/transport/malformed
    int baseBackoffMs = 1000;
    int maxBackoffMs = 30000;
    int maxRetryAfterMs = 120000; // a longer Retry-After (e.g. a daily limit) fails at once
    std::uint32_t jitterSeed = 0x5eed;
    RetryPolicy retryPolicy() const {
        return {maxRateLimitTries, maxRetries, baseBackoffMs, maxBackoffMs, maxRetryAfterMs, jitterSeed};
    }
};

class OpenRouterClient final : public HttpChatClient {
public:
    OpenRouterClient(net::HttpTransport& transport, const net::Clock& clock, OpenRouterConfig config);

    // Changes key, base URL and policy in place. A call already sent keeps the settings it was
    // sent with (its retries too), so a key typed mid-game cannot split one call over two
    // accounts; calls sent afterwards use the new ones.
    void configure(OpenRouterConfig config);

    // GET /models (public) and GET /key (Bearer). One try each; the callback runs from poll().
    void fetchModels(std::function<void(Result<std::vector<ModelInfo>>)> done);
    void checkKey(std::function<void(Result<KeyInfo>)> done);

    const OpenRouterConfig& config() const { return config_; }

private:
    void getJson(const std::string& path, bool withKey,
                 std::function<void(int, std::string, std::string)> done);

    OpenRouterConfig config_;
};

// The OpenRouter request headers (Bearer key, JSON, attribution).
std::vector<net::HttpHeader> openRouterHeaders(const OpenRouterConfig& config, bool withKey, bool json);

} // namespace chaiba::llm
