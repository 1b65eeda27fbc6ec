// The HTTP side every chat provider shares: one call per send(), each attempt recorded, streaming
// through the SSE parser, and the retry policy: 401/402/403 stop; 429 backs off (Retry-After when
// readable, else exponential with jitter) up to maxRateLimitTries; 408, 5xx, transport and
// undecodable answers retry up to maxRetries times; a request's maxRequests caps them all, its
// maxRequestsByKind the failures of one kind in a row. A ChatWire supplies one provider's format.
#pragma once

#include "engine/common/splitmix64.h"
#include "src/llm/chat.h"
#include "src/llm/sse.h"
#include "src/net/http.h"

#include <map>
#include <memory>

namespace chaiba::llm {

struct RetryPolicy {
    int maxRateLimitTries = 5; // total tries while answered 429
    int maxRetries = 3;        // retries after 408/5xx/transport/malformed
    int baseBackoffMs = 1000;
    int maxBackoffMs = 30000;
    int maxRetryAfterMs = 120000; // a longer Retry-After (e.g. a daily limit) fails at once
    std::uint32_t jitterSeed = 0x5eed;
};

// Folds one provider's streamed `data:` payloads into a reply.
class ChatStreamDecoder {
public:
    virtual ~ChatStreamDecoder() = default;
    virtual StreamDelta accept(const std::string& data) = 0;
    virtual bool sawAnything() const = 0;
    // The stream reached its end marker (or at least a finish reason): it was not cut short.
    virtual bool finished() const = 0;
    virtual ChatReply reply() const = 0;
};

// One provider's wire format: where to POST, which headers, the body, and the decoders.
class ChatWire {
public:
    virtual ~ChatWire() = default;
    virtual std::string url() const = 0;
    virtual std::vector<net::HttpHeader> headers() const = 0; // the key lives only here
    virtual std::string buildBody(const ChatRequest& request) const = 0;
    virtual Result<ChatReply> decodeBody(std::string_view body) const = 0;
    virtual ChatError decodeError(int status, std::string_view body,
                                  const std::vector<net::HttpHeader>& headers) const = 0;
    virtual std::unique_ptr<ChatStreamDecoder> newStreamDecoder() const = 0;
};

// ChatService over HTTP for any ChatWire. Non-blocking: attempts start and retries fire in poll().
class HttpChatClient : public ChatService {
public:
    HttpChatClient(net::HttpTransport& transport, const net::Clock& clock, RetryPolicy policy,
                   std::unique_ptr<ChatWire> wire);
    ~HttpChatClient() override;

    ChatCallId send(ChatRequest request, ChatHandlers handlers) override;
    void cancel(ChatCallId id) override;
    void poll() override;
    int activeCalls() const { return static_cast<int>(calls_.size()); }
    // True after the server refused the key (401) until a call succeeds or the key changes: the
    // page's header says so instead of "key set".
    bool keyRefused() const { return keyRefused_; }

    struct Call; // one call's state (defined in the .cpp)

protected:
    // For a provider changing its settings in place: calls already sent keep theirs.
    ChatWire& wire() { return *wire_; }
    void setPolicy(RetryPolicy policy) { policy_ = policy; }
    void clearKeyRefused() { keyRefused_ = false; }

    net::HttpTransport& transport_;
    const net::Clock& clock_;

private:
    void startAttempt(ChatCallId id);
    void finishAttempt(ChatCallId id, std::optional<ChatError> error);
    int backoffMs(const RetryPolicy& policy, int retryNumber);

    RetryPolicy policy_;
    std::unique_ptr<ChatWire> wire_;
    SplitMix64 rng_; // the backoff jitter
    ChatCallId nextId_ = 1;
    std::map<ChatCallId, std::unique_ptr<Call>> calls_;
    bool keyRefused_ = false;
};

} // namespace chaiba::llm
