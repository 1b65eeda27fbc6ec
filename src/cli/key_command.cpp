// `chaiba key`: checks OPENROUTER_API_KEY against the server (GET /key) and shows its label and
// remaining credit. The key itself is never printed.
#include "src/cli/llm_cli.h"

#include <vector>

namespace chaiba::cli {

const Usage& keyUsage() {
    static const Usage usage{"key",
                             "[--base-url URL]",
                             "check OPENROUTER_API_KEY: label and remaining credit",
                             {baseUrlOption()},
                             kKeyNote};
    return usage;
}

int runKeyCommand(const std::vector<std::string>& argv) {
    Args args(argv, keyUsage());
    if (args.error() || !args.positional().empty()) {
        std::fprintf(stderr, "error: %s\n%s", args.error() ? args.error()->c_str() : "unexpected argument",
                     usageLines(keyUsage()).c_str());
        return 2;
    }
    const std::optional<std::string> base = baseUrlFrom(args);
    const std::optional<std::string> key = base ? apiKeyFromEnvironment() : std::nullopt;
    if (!base || !key) return 2;
    net::CurlTransport transport;
    net::SteadyClock clock;
    llm::OpenRouterConfig config;
    config.baseUrl = *base;
    config.apiKey = *key;
    llm::OpenRouterClient client(transport, clock, config);
    std::optional<llm::Result<llm::KeyInfo>> result;
    client.checkKey([&](llm::Result<llm::KeyInfo> r) { result = std::move(r); });
    pumpUntil(
        client, transport, [&] { return result.has_value(); }, 30000);
    if (!result) {
        std::fprintf(stderr, "error: no answer from %s/key\n", base->c_str());
        return 1;
    }
    if (!result->isOk()) {
        std::fprintf(stderr, "error: %s\n", result->error.c_str());
        return 1;
    }
    const llm::KeyInfo& k = *result->value;
    std::printf("key: valid\nlabel: %s\nusage: $%.4f\n", k.label.c_str(), k.usageUsd);
    if (k.limitUsd)
        std::printf("limit: $%.4f\n", *k.limitUsd);
    else
        std::printf("limit: none\n");
    if (k.limitRemainingUsd) std::printf("remaining: $%.4f\n", *k.limitRemainingUsd);
    std::printf("free tier: %s\n", k.isFreeTier ? "yes" : "no");
    return 0;
}

} // namespace chaiba::cli
