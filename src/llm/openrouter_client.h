// ChatService over an OpenAI-compatible HTTP API (OpenRouter by default), with the error policy:
// 401/402/403 stop; 429 backs off (Retry-After when readable, else exponential with jitter) up to
// maxRateLimitTries; 408, 5xx, transport and undecodable answers retry up to maxRetries times.
// One client serves the whole page: configure() changes the key and base URL in place.
#pragma once

#include "src/llm/chat.h"
#include "src/llm/openrouter_json.h"
#include "src/net/http.h"

#include <map>
#include <memory>
#include <random>

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
};

class OpenRouterClient final : public ChatService {
public:
    OpenRouterClient(net::HttpTransport& transport, const net::Clock& clock, OpenRouterConfig config);
    ~OpenRouterClient() override;

    ChatCallId send(ChatRequest request, ChatHandlers handlers) override;
    void cancel(ChatCallId id) override;
    // Pumps the transport (its callbacks run from here), then starts the attempts that are due.
    // The owner calls it once per tick; players and sessions never do.
    void poll() override;

    // Changes key, base URL and policy in place. A call already sent keeps the settings it was
    // sent with (its retries too), so a key typed mid-game cannot split one call over two
    // accounts; calls sent afterwards use the new ones.
    void configure(OpenRouterConfig config);

    // GET /models (public) and GET /key (Bearer). One try each; the callback runs from poll().
    void fetchModels(std::function<void(Result<std::vector<ModelInfo>>)> done);
    void checkKey(std::function<void(Result<KeyInfo>)> done);

    const OpenRouterConfig& config() const { return config_; }
    int activeCalls() const { return static_cast<int>(calls_.size()); }

    struct Call; // one call's state (defined in the .cpp)

private:
    void startAttempt(ChatCallId id);
    void finishAttempt(ChatCallId id, std::optional<ChatError> error);
    void getJson(const std::string& path, bool withKey,
                 std::function<void(int, std::string, std::string)> done);
    static std::vector<net::HttpHeader> headers(const OpenRouterConfig& config, bool withKey, bool json);
    int backoffMs(const OpenRouterConfig& config, int attempt);

    net::HttpTransport& transport_;
    const net::Clock& clock_;
    OpenRouterConfig config_;
    std::mt19937 rng_;
    ChatCallId nextId_ = 1;
    std::map<ChatCallId, std::unique_ptr<Call>> calls_;
};

} // namespace chaiba::llm
