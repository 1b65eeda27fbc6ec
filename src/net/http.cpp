// Small shared pieces of the HTTP interface: names for transport errors, header lookup, the clock.
#include "src/net/http.h"

#include <chrono>

namespace chaiba::net {

const char* transportErrorName(TransportErrorKind kind) {
    switch (kind) {
    case TransportErrorKind::Offline: return "offline or unreachable";
    case TransportErrorKind::Blocked: return "blocked by the browser";
    case TransportErrorKind::Timeout: return "timed out";
    case TransportErrorKind::Aborted: return "aborted";
    case TransportErrorKind::Other: return "transport error";
    }
    return "transport error";
}

std::int64_t SteadyClock::nowMs() const {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

namespace {
char lower(char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}
bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}
} // namespace

std::optional<std::string> findHeader(const std::vector<HttpHeader>& headers, std::string_view name) {
    for (const HttpHeader& h : headers)
        if (equalsIgnoreCase(h.name, name)) return h.value;
    return std::nullopt;
}

} // namespace chaiba::net
