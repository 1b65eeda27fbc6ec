// Shared plumbing of the LLM commands (play, models, key): the base URL and key from flags and the
// environment, and a blocking pump for one-off requests over the libcurl transport.
#pragma once

#include "src/agent/openrouter_client.h"
#include "src/cli/args.h"
#include "src/net/curl_transport.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace chaiba::cli {

// The base URL from --base-url (validated), else the default; prints the error and returns nothing.
inline std::optional<std::string> baseUrlFrom(const Args& args) {
    const std::string url = args.value("base-url").value_or(kDefaultBaseUrl);
    if (auto bad = validateBaseUrl(url)) {
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
    if (auto bad = validateApiKey(key)) {
        std::fprintf(stderr, "error: OPENROUTER_API_KEY: %s\n", bad->c_str());
        return std::nullopt;
    }
    return std::string(key);
}

// Pumps the transport until done() or maxMs elapsed.
template <class Done>
void pumpUntil(agent::OpenRouterClient& client, net::CurlTransport& transport, Done done, int maxMs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(maxMs);
    while (!done() && std::chrono::steady_clock::now() < deadline) {
        client.poll();
        transport.wait(20);
    }
}

} // namespace chaiba::cli
