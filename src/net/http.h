// The HTTP transport interface: one request type, callbacks for status, body chunks and the end,
// transport failures (offline, blocked, timeout, aborted) kept apart from HTTP status codes.
// Implementations never block: they make progress inside poll(), called from the main loop.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::net {

struct HttpHeader {
    std::string name;
    std::string value;
};

// What it is: one request. timeoutMs bounds the whole exchange (0: no limit); stream asks the
// transport to deliver the body as it arrives instead of in one piece (both deliver via onBody).
struct HttpRequest {
    std::string method = "GET";
    std::string url;
    std::vector<HttpHeader> headers;
    std::string body;
    int timeoutMs = 0;
    bool stream = false;
};

// A failure below HTTP: the request produced no (complete) HTTP response.
enum class TransportErrorKind {
    Offline, // DNS failure, connection refused, network down
    Blocked, // the browser refused (CORS, mixed content) — indistinguishable from offline there
    Timeout, // timeoutMs elapsed
    Aborted, // cancelled below us (not by cancel(): cancel() delivers nothing)
    Other,   // anything else (TLS, protocol), with a message
};

const char* transportErrorName(TransportErrorKind kind);

struct TransportError {
    TransportErrorKind kind = TransportErrorKind::Other;
    std::string message;
};

// Callbacks of one request, in this order: onResponse once (status and headers as readable),
// onBody zero or more times, then onComplete exactly once. onComplete carries a TransportError
// when the exchange failed (possibly after onResponse, e.g. a stream cut short). Any may be empty.
struct HttpHandlers {
    std::function<void(int status, const std::vector<HttpHeader>& headers)> onResponse;
    std::function<void(std::string_view chunk)> onBody;
    std::function<void(const std::optional<TransportError>& error)> onComplete;
};

using RequestId = std::uint64_t;

class HttpTransport {
public:
    virtual ~HttpTransport() = default;
    // Starts a request; callbacks run later, from poll(), never from inside start().
    virtual RequestId start(HttpRequest request, HttpHandlers handlers) = 0;
    // Stops a request; none of its callbacks runs afterwards. Unknown ids are ignored.
    virtual void cancel(RequestId id) = 0;
    // Makes progress and delivers callbacks. Cheap when idle.
    virtual void poll() = 0;
    // Requests started and not yet completed or cancelled.
    virtual int activeCount() const = 0;
};

// Milliseconds from an arbitrary origin, for backoff timers (a fake one in tests).
class Clock {
public:
    virtual ~Clock() = default;
    virtual std::int64_t nowMs() const = 0;
};

// A steady clock for real use.
class SteadyClock final : public Clock {
public:
    std::int64_t nowMs() const override;
};

// Case-insensitive header lookup; nothing when absent.
std::optional<std::string> findHeader(const std::vector<HttpHeader>& headers, std::string_view name);

} // namespace chaiba::net
