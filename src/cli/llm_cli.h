// Shared plumbing of the LLM commands (play, arena, models, key): the base URL and key from flags and
// the environment, the assets folder, the client and its catalog, and a blocking pump for one-off
// requests over the libcurl transport.
#pragma once

#include "src/llm/openrouter_client.h"
#include "src/cli/args.h"
#include "src/net/curl_transport.h"

#include "src/llm/call_settings.h"
#include "src/llm/model_catalog.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::cli {

// The options and notes the LLM commands share, worded once for their --help.
inline Option baseUrlOption() {
    return {"base-url", "URL", std::string("an OpenAI-compatible server (default ") + llm::kDefaultBaseUrl + ")"};
}
inline Option assetsOption() {
    return {"assets", "DIR", "prompts and data (default: $CHAIBA_ASSETS_DIR, else the source tree's assets/)"};
}
inline constexpr const char* kKeyNote = "The key is read from OPENROUTER_API_KEY only, never from the command line.";
// The chess commands' (play, arena).
inline Option contextOption() {
    return {"context", "POLICY", "full (the whole conversation), stateless (the position each turn) or windowed "
                                 "(the last --context-moves turns and the position; default full)"};
}
inline Option contextMovesOption() {
    return {"context-moves", "N", "with --context windowed: the earlier turns each request keeps, 1-500 (default 8)"};
}
inline Option chessTimeoutOption() {
    return {"timeout-ms", "MS", "a model call's timeout in ms, 100-3600000 (default 300000)"};
}
inline std::string chessSpecNote() {
    return std::string("SPEC: llm:MODEL_ID | engine:LEVEL | engine (the strongest level) | random.\n") + kKeyNote;
}

// The base URL from --base-url (validated), else the default; prints the error and returns nothing.
inline std::optional<std::string> baseUrlFrom(const Args& args) {
    const std::string url = args.value("base-url").value_or(llm::kDefaultBaseUrl);
    if (auto bad = llm::validateBaseUrl(url)) {
        std::fprintf(stderr, "error: --base-url: %s\n", bad->c_str());
        return std::nullopt;
    }
    return url;
}

// The key from OPENROUTER_API_KEY only (never the command line); prints why not and returns nothing.
inline std::optional<std::string> apiKeyFromEnvironment() {
    const char* key = std::getenv("OPENROUTER_API_KEY");
    if (!key || !*key) {
        std::fprintf(stderr, "error: set the API key in the OPENROUTER_API_KEY environment variable "
                             "(it is never read from the command line)\n");
        return std::nullopt;
    }
    if (auto bad = llm::validateApiKey(key)) {
        std::fprintf(stderr, "error: OPENROUTER_API_KEY: %s\n", bad->c_str());
        return std::nullopt;
    }
    return std::string(key);
}

// Pumps the transport until done() or maxMs elapsed.
template <class Done>
void pumpUntil(llm::OpenRouterClient& client, net::CurlTransport& transport, Done done, int maxMs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(maxMs);
    while (!done() && std::chrono::steady_clock::now() < deadline) {
        client.poll();
        transport.wait(20);
    }
}

// The assets folder: --assets DIR, else CHAIBA_ASSETS_DIR, else the source tree's assets/.
inline std::string assetsDirFrom(const Args& args) {
    if (auto dir = args.value("assets")) return *dir;
    if (const char* env = std::getenv("CHAIBA_ASSETS_DIR"); env && *env) return env;
    return CHAIBA_ASSETS_DIR;
}

// The model side of a command: the libcurl transport, one client and the catalog.
struct LlmPlumbing {
    net::CurlTransport transport;
    net::SteadyClock clock;
    std::unique_ptr<llm::OpenRouterClient> client;
    std::vector<llm::ModelInfo> catalog; // empty when no model plays or the catalog did not load
};

// Fills the call settings' base URL (--base-url) and, when models play, the key (environment
// only); makes the client and, when models play, loads the catalog (which models take tools, their
// prices; a warning when it cannot be had). Prints why and returns nothing on a bad flag or key.
inline std::unique_ptr<LlmPlumbing> openLlm(const Args& args, bool modelsPlay, llm::CallSettings& settings) {
    const std::optional<std::string> baseUrl = baseUrlFrom(args);
    if (!baseUrl) return nullptr;
    settings.baseUrl = *baseUrl;
    if (modelsPlay) {
        const std::optional<std::string> key = apiKeyFromEnvironment();
        if (!key) return nullptr;
        settings.apiKey = *key;
    }
    auto plumbing = std::make_unique<LlmPlumbing>();
    llm::OpenRouterConfig config;
    config.baseUrl = settings.baseUrl;
    config.apiKey = settings.apiKey;
    config.title = "CHAIBA";
    plumbing->client = std::make_unique<llm::OpenRouterClient>(plumbing->transport, plumbing->clock, config);
    if (!modelsPlay) return plumbing;
    std::optional<llm::Result<std::vector<llm::ModelInfo>>> fetched;
    plumbing->client->fetchModels([&](llm::Result<std::vector<llm::ModelInfo>> r) { fetched = std::move(r); });
    pumpUntil(
        *plumbing->client, plumbing->transport, [&] { return fetched.has_value(); }, 20000);
    if (fetched && fetched->isOk())
        plumbing->catalog = std::move(*fetched->value);
    else
        std::fprintf(stderr, "warning: model catalog unavailable (%s); assuming tool support, no price list\n",
                     fetched ? fetched->error.c_str() : "no answer");
    return plumbing;
}

} // namespace chaiba::cli
