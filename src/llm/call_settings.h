// The settings of a model call, shared by every mode: key, base URL, sampling, reasoning effort and
// the answer timeout. The key is a secret: stored under its own key, never in a settings blob, an
// export or a log (see src/app/settings.h for how it is stored).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace chaiba::llm {

enum class ReasoningEffort { Default, Minimal, Low, Medium, High };
const char* effortName(ReasoningEffort effort);

inline constexpr const char* kDefaultBaseUrl = "https://openrouter.ai/api/v1";

struct CallSettings {
    std::string apiKey;                    // secret; see file comment
    std::string baseUrl = kDefaultBaseUrl; // any OpenAI-compatible server
    double temperature = -1.0;             // < 0: the model's default; else 0..2
    int maxTokens = 0;                     // 0: the model's default; else 1..200000
    ReasoningEffort reasoningEffort = ReasoningEffort::Default;
    int requestTimeoutSeconds = 300;       // 1..3600: a model answer slower than this is a timeout
};

// A base URL is http(s)://host[...] without trailing slash; returns an error sentence or nothing.
std::optional<std::string> validateBaseUrl(std::string_view url);
// A key looks plausible (non-empty, printable, no spaces); returns an error sentence or nothing.
std::optional<std::string> validateApiKey(std::string_view key);

} // namespace chaiba::llm
