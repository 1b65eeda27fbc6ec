// The OpenRouter wire format at the edge: request bodies built from typed ChatRequests, response
// and error bodies decoded into typed structs (chat, /models, /key). Nothing untyped leaves here.
#pragma once

#include "src/llm/chat.h"

#include <string>
#include <string_view>
#include <vector>

namespace chaiba::llm {

// The JSON body of POST /chat/completions.
std::string buildChatRequestJson(const ChatRequest& request);

// A whole (non-streaming) chat response.
Result<ChatReply> decodeChatResponse(std::string_view body);

// Decodes `usage` (shared with the stream); an absent field stays zero.
Usage decodeUsageJson(std::string_view usageJson);

// The error for an HTTP status and its body ({error:{code,message,metadata}} when readable);
// retryAfterHeader is the Retry-After header when the transport could read it.
// What a provider tells the person for the statuses whose wording is its own; everything else
// (408, 429, 5xx, other 4xx) reads the same for every provider.
struct HttpErrorAdvice {
    std::string unauthorized;       // 401
    std::string paymentRequired;    // 402
    std::string forbidden;          // 403
    std::string overloaded;         // 529 (Anthropic); empty: an ordinary server error
};
// A typed error from an HTTP status: kind, Retry-After, and "HTTP <status>: <advice> — <the
// provider's message>" (the message from the body's error.message, else its first 200 characters).
ChatError httpStatusError(int status, std::string_view body, std::string providerMessage,
                          const std::optional<std::string>& retryAfterHeader, const HttpErrorAdvice& advice);

ChatError decodeHttpError(int status, std::string_view body,
                          const std::optional<std::string>& retryAfterHeader);

// Retry-After in milliseconds when it is a plain number of seconds.
std::optional<int> parseRetryAfterMs(std::string_view header);

struct ModelPricing {
    double promptUsdPerToken = 0;
    double completionUsdPerToken = 0;
    double requestUsd = 0;
    double cacheReadUsdPerToken = 0;
    double cacheWriteUsdPerToken = 0;
    double reasoningUsdPerToken = 0;
};

// One entry of GET /models.
struct ModelInfo {
    std::string id;
    std::string name;
    long long contextLength = 0;
    ModelPricing pricing;
    bool supportsTools = false;
    bool supportsReasoning = false;
    bool supportsStructuredOutputs = false; // response_format with a JSON Schema
};

Result<std::vector<ModelInfo>> decodeModelList(std::string_view body);

// GET /key: the key's label and credit (limit absent: unlimited).
struct KeyInfo {
    std::string label;
    std::optional<double> limitUsd;
    std::optional<double> limitRemainingUsd;
    double usageUsd = 0;
    bool isFreeTier = false;
};

Result<KeyInfo> decodeKeyInfo(std::string_view body);

// Cost of a usage by a price list (when the provider did not report one).
double estimateCostUsd(const Usage& usage, const ModelPricing& pricing);

} // namespace chaiba::llm
