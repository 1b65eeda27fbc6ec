// The Anthropic client: its wire format (anthropic_json.h) plugged into the shared HTTP client.
#include "src/llm/anthropic_client.h"

#include <memory>

namespace chaiba::llm {

namespace {

class AnthropicWire final : public ChatWire {
public:
    explicit AnthropicWire(AnthropicConfig config) : config_(std::move(config)) {}
    std::string url() const override { return config_.baseUrl + "/v1/messages"; }
    std::vector<net::HttpHeader> headers() const override {
        return {{"x-api-key", config_.apiKey},
                {"anthropic-version", kAnthropicVersion},
                {"anthropic-dangerous-direct-browser-access", "true"},
                {"content-type", "application/json"}};
    }
    std::string buildBody(const ChatRequest& request) const override {
        return buildAnthropicRequestJson(request);
    }
    Result<ChatReply> decodeBody(std::string_view body) const override {
        return decodeAnthropicResponse(body);
    }
    ChatError decodeError(int status, std::string_view body,
                          const std::vector<net::HttpHeader>& headers) const override {
        return decodeAnthropicError(status, body, net::findHeader(headers, "retry-after"));
    }
    std::unique_ptr<ChatStreamDecoder> newStreamDecoder() const override {
        return std::make_unique<AnthropicStreamDecoder>();
    }

private:
    AnthropicConfig config_;
};

AnthropicConfig normalized(AnthropicConfig config) {
    while (!config.baseUrl.empty() && config.baseUrl.back() == '/') config.baseUrl.pop_back();
    return config;
}

} // namespace

AnthropicClient::AnthropicClient(net::HttpTransport& transport, const net::Clock& clock,
                                 AnthropicConfig config)
    : HttpChatClient(transport, clock, config.retry, std::make_unique<AnthropicWire>(normalized(config))),
      config_(normalized(std::move(config))) {}

} // namespace chaiba::llm
