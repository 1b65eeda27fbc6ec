// Validation of the call settings' free-text fields.
#include "src/llm/call_settings.h"

namespace chaiba::llm {

const char* effortName(ReasoningEffort effort) {
    switch (effort) {
    case ReasoningEffort::Default: return "default";
    case ReasoningEffort::Minimal: return "minimal";
    case ReasoningEffort::Low: return "low";
    case ReasoningEffort::Medium: return "medium";
    case ReasoningEffort::High: return "high";
    }
    return "default";
}

std::optional<std::string> validateBaseUrl(std::string_view url) {
    const bool http = url.rfind("http://", 0) == 0;
    const bool https = url.rfind("https://", 0) == 0;
    if (!http && !https) return "the base URL must start with http:// or https://";
    const size_t hostStart = http ? 7 : 8;
    if (url.size() <= hostStart || url[hostStart] == '/') return "the base URL has no host";
    for (char c : url)
        if (static_cast<unsigned char>(c) <= ' ') return "the base URL must not contain spaces";
    if (url.back() == '/') return "the base URL must not end with '/'";
    return std::nullopt;
}

std::optional<std::string> validateApiKey(std::string_view key) {
    if (key.empty()) return "the API key is empty";
    if (key.size() > 512) return "the API key is too long to be a real key";
    for (char c : key) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= ' ' || u >= 127) return "the API key contains spaces or unusual characters";
    }
    return std::nullopt;
}

} // namespace chaiba::llm
