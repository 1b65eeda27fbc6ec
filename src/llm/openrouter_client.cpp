// The OpenRouter client: its wire format plugged into the shared HTTP chat client, and the two
// one-shot GETs (/models, /key).
#include "src/llm/openrouter_client.h"

#include "src/llm/sse.h"

#include <memory>

namespace chaiba::llm {

namespace {

std::string trimmedBase(std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url;
}

// StreamAssembler behind the shared decoder interface.
class OpenRouterStreamDecoder final : public ChatStreamDecoder {
public:
    StreamDelta accept(const std::string& data) override { return assembler_.accept(data); }
    bool sawAnything() const override { return assembler_.sawAnything(); }
    bool finished() const override {
        return assembler_.sawDone() || !assembler_.reply().finishReason.empty();
    }
    ChatReply reply() const override { return assembler_.reply(); }

private:
    StreamAssembler assembler_;
};

class OpenRouterWire final : public ChatWire {
public:
    explicit OpenRouterWire(OpenRouterConfig config) : config_(std::move(config)) {}
    std::string url() const override { return config_.baseUrl + "/chat/completions"; }
    std::vector<net::HttpHeader> headers() const override { return openRouterHeaders(config_, true, true); }
    std::string buildBody(const ChatRequest& request) const override { return buildChatRequestJson(request); }
    Result<ChatReply> decodeBody(std::string_view body) const override { return decodeChatResponse(body); }
    ChatError decodeError(int status, std::string_view body,
                          const std::vector<net::HttpHeader>& headers) const override {
        return decodeHttpError(status, body, net::findHeader(headers, "Retry-After"));
    }
    std::unique_ptr<ChatStreamDecoder> newStreamDecoder() const override {
        return std::make_unique<OpenRouterStreamDecoder>();
    }
    void setConfig(OpenRouterConfig config) { config_ = std::move(config); }

private:
    OpenRouterConfig config_;
};

OpenRouterConfig normalized(OpenRouterConfig config) {
    config.baseUrl = trimmedBase(std::move(config.baseUrl));
    return config;
}

} // namespace

std::vector<net::HttpHeader> openRouterHeaders(const OpenRouterConfig& config, bool withKey, bool json) {
    std::vector<net::HttpHeader> h;
    if (withKey && !config.apiKey.empty()) h.push_back({"Authorization", "Bearer " + config.apiKey});
    if (json) h.push_back({"Content-Type", "application/json"});
    if (!config.referer.empty()) h.push_back({"HTTP-Referer", config.referer});
    if (!config.title.empty()) h.push_back({"X-Title", config.title});
    return h;
}

OpenRouterClient::OpenRouterClient(net::HttpTransport& transport, const net::Clock& clock,
                                   OpenRouterConfig config)
    : HttpChatClient(transport, clock, config.retryPolicy(),
                     std::make_unique<OpenRouterWire>(normalized(config))),
      config_(normalized(std::move(config))) {}

void OpenRouterClient::configure(OpenRouterConfig config) {
    config = normalized(std::move(config));
    if (config.apiKey != config_.apiKey || config.baseUrl != config_.baseUrl) clearKeyRefused();
    config_ = std::move(config);
    static_cast<OpenRouterWire&>(wire()).setConfig(config_);
    setPolicy(config_.retryPolicy());
}

void OpenRouterClient::getJson(const std::string& path, bool withKey,
                               std::function<void(int, std::string, std::string)> done) {
    net::HttpRequest req;
    req.url = config_.baseUrl + path;
    req.headers = openRouterHeaders(config_, withKey, false);
    req.timeoutMs = 30000;
    struct State {
        int status = 0;
        std::string body;
    };
    auto state = std::make_shared<State>();
    net::HttpHandlers h;
    h.onResponse = [state](int status, const std::vector<net::HttpHeader>&) { state->status = status; };
    h.onBody = [state](std::string_view chunk) { state->body.append(chunk); };
    h.onComplete = [state, done = std::move(done)](const std::optional<net::TransportError>& error) {
        if (error) return done(0, {}, std::string("network: ") + net::transportErrorName(error->kind));
        if (state->status != 200)
            return done(state->status, {}, decodeHttpError(state->status, state->body, {}).message);
        done(state->status, state->body, {});
    };
    transport_.start(std::move(req), std::move(h));
}

void OpenRouterClient::fetchModels(std::function<void(Result<std::vector<ModelInfo>>)> done) {
    getJson("/models", false, [done = std::move(done)](int, std::string body, std::string error) {
        if (!error.empty()) return done(Result<std::vector<ModelInfo>>::fail(error));
        done(decodeModelList(body));
    });
}

void OpenRouterClient::checkKey(std::function<void(Result<KeyInfo>)> done) {
    getJson("/key", true, [done = std::move(done)](int, std::string body, std::string error) {
        if (!error.empty()) return done(Result<KeyInfo>::fail(error));
        done(decodeKeyInfo(body));
    });
}

} // namespace chaiba::llm
