// `chaiba models`: the model catalog (GET /models) of the configured server: id, context length,
// prices per million tokens, tools and reasoning support. Public: no key needed.
#include "src/cli/llm_cli.h"

#include <vector>

namespace chaiba::cli {

const Usage& modelsUsage() {
    static const Usage usage{"models",
                             "[--base-url URL] [--tools]",
                             "the server's model catalog: prices, tools, reasoning (no key needed)",
                             {baseUrlOption(), {"tools", "", "only the models that take tools"}},
                             ""};
    return usage;
}

int runModelsCommand(const std::vector<std::string>& argv) {
    Args args(argv, modelsUsage());
    if (args.error() || !args.positional().empty()) {
        std::fprintf(stderr, "error: %s\n%s", args.error() ? args.error()->c_str() : "unexpected argument",
                     usageLines(modelsUsage()).c_str());
        return 2;
    }
    const std::optional<std::string> base = baseUrlFrom(args);
    if (!base) return 2;
    net::CurlTransport transport;
    net::SteadyClock clock;
    llm::OpenRouterConfig config;
    config.baseUrl = *base;
    llm::OpenRouterClient client(transport, clock, config);
    std::optional<llm::Result<std::vector<llm::ModelInfo>>> result;
    client.fetchModels([&](llm::Result<std::vector<llm::ModelInfo>> r) { result = std::move(r); });
    pumpUntil(
        client, transport, [&] { return result.has_value(); }, 30000);
    if (!result) {
        std::fprintf(stderr, "error: no answer from %s/models\n", base->c_str());
        return 1;
    }
    if (!result->isOk()) {
        std::fprintf(stderr, "error: %s\n", result->error.c_str());
        return 1;
    }
    std::printf("%-44s %9s %10s %10s %5s %9s\n", "model", "context", "$/M in", "$/M out", "tools",
                "reasoning");
    int shown = 0;
    for (const llm::ModelInfo& m : *result->value) {
        if (args.has("tools") && !m.supportsTools) continue;
        std::printf("%-44s %9lld %10.3f %10.3f %5s %9s\n", m.id.c_str(), m.contextLength,
                    m.pricing.promptUsdPerToken * 1e6, m.pricing.completionUsdPerToken * 1e6,
                    m.supportsTools ? "yes" : "no", m.supportsReasoning ? "yes" : "no");
        ++shown;
    }
    std::printf("%d models\n", shown);
    return 0;
}

} // namespace chaiba::cli
