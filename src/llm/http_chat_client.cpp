// The shared chat client: one Call per send(), each HTTP attempt recorded, retries scheduled on the
// clock and fired from poll(). Every callback re-finds its call by id, since any handler may cancel.
#include "src/llm/http_chat_client.h"
#include "src/net/section_timer.h"

#include <algorithm>

namespace chaiba::llm {

namespace {
constexpr std::size_t kMaxRecordedResponse = 256 * 1024; // the log's copy of an answer
constexpr std::size_t kMaxAnswerBytes = 16 * 1024 * 1024; // a longer answer is refused, not kept
} // namespace

struct HttpChatClient::Call {
    // As they were at send(): a key or base URL changed in place does not reach a call in flight
    // (its retries included), so one call is never split over two accounts.
    std::string url;
    std::vector<net::HttpHeader> headers;
    RetryPolicy policy;
    ChatRequest request;
    ChatHandlers handlers;
    std::string body;
    int attempt = 0;
    int rateLimited = 0;  // 429 answers so far
    int otherRetries = 0; // retries spent on other errors
    std::optional<std::int64_t> retryAtMs;
    net::RequestId transportId = 0;
    bool inFlight = false;
    std::int64_t attemptStartMs = 0;
    int status = 0;
    std::vector<net::HttpHeader> responseHeaders;
    std::string responseText; // the recorded copy, cut at kMaxRecordedResponse
    std::string answer;       // a non-streamed answer, whole, for decoding (up to kMaxAnswerBytes)
    bool answerTooLarge = false;
    SseParser parser;
    std::unique_ptr<ChatStreamDecoder> decoder;
    std::optional<ChatError> streamError;
    ChatOutcome outcome;
};

HttpChatClient::HttpChatClient(net::HttpTransport& transport, const net::Clock& clock, RetryPolicy policy,
                               std::unique_ptr<ChatWire> wire)
    : transport_(transport), clock_(clock), policy_(policy), wire_(std::move(wire)),
      rng_(policy_.jitterSeed) {}

HttpChatClient::~HttpChatClient() {
    for (auto& [id, call] : calls_)
        if (call->inFlight) transport_.cancel(call->transportId);
}

ChatCallId HttpChatClient::send(ChatRequest request, ChatHandlers handlers) {
    const ChatCallId id = nextId_++;
    auto call = std::make_unique<Call>();
    call->url = wire_->url();
    call->headers = wire_->headers();
    call->policy = policy_;
    call->body = wire_->buildBody(request);
    call->request = std::move(request);
    call->handlers = std::move(handlers);
    call->retryAtMs = clock_.nowMs(); // first attempt starts on the next poll(), never inside send()
    calls_.emplace(id, std::move(call));
    return id;
}

void HttpChatClient::cancel(ChatCallId id) {
    auto it = calls_.find(id);
    if (it == calls_.end()) return;
    if (it->second->inFlight) transport_.cancel(it->second->transportId);
    calls_.erase(it);
}

void HttpChatClient::startAttempt(ChatCallId id) {
    net::SectionTimer timer("llm.startAttempt");
    Call& call = *calls_.at(id);
    call.retryAtMs.reset();
    ++call.attempt;
    call.status = 0;
    call.responseHeaders.clear();
    call.responseText.clear();
    call.answer.clear();
    call.answerTooLarge = false;
    call.parser = SseParser();
    call.decoder = wire_->newStreamDecoder();
    call.streamError.reset();
    net::HttpRequest req;
    req.method = "POST";
    req.url = call.url;
    req.headers = call.headers;
    req.body = call.body;
    req.timeoutMs = call.request.timeoutMs;
    req.stream = call.request.stream;
    net::HttpHandlers h;
    h.onResponse = [this, id](int status, const std::vector<net::HttpHeader>& hdrs) {
        auto it = calls_.find(id);
        if (it == calls_.end()) return;
        it->second->status = status;
        it->second->responseHeaders = hdrs;
    };
    h.onBody = [this, id](std::string_view chunk) {
        auto it = calls_.find(id);
        if (it == calls_.end()) return;
        Call* c = it->second.get();
        if (c->responseText.size() < kMaxRecordedResponse)
            c->responseText.append(chunk.substr(0, kMaxRecordedResponse - c->responseText.size()));
        if (!c->request.stream && c->status >= 200 && c->status < 300 && !c->answerTooLarge) {
            if (c->answer.size() + chunk.size() > kMaxAnswerBytes) {
                c->answerTooLarge = true;
                c->answer.clear();
                c->answer.shrink_to_fit();
            } else {
                c->answer.append(chunk);
            }
        }
        if (!c->request.stream || c->status < 200 || c->status >= 300) return;
        std::vector<StreamDelta> deltas;
        c->parser.feed(chunk, [&](const std::string& data) { deltas.push_back(c->decoder->accept(data)); });
        for (StreamDelta& d : deltas) {
            if (d.error && !c->streamError) c->streamError = d.error;
            // Handlers may cancel this call: check it still exists before each one.
            if (!d.text.empty() && c->handlers.onText) {
                auto handler = c->handlers.onText;
                handler(d.text);
                if (calls_.find(id) == calls_.end()) return;
            }
            if (!d.reasoning.empty() && c->handlers.onReasoning) {
                auto handler = c->handlers.onReasoning;
                handler(d.reasoning);
                if (calls_.find(id) == calls_.end()) return;
            }
            if (d.toolCalls && c->handlers.onToolCalls) {
                auto handler = c->handlers.onToolCalls;
                handler(*d.toolCalls);
                if (calls_.find(id) == calls_.end()) return;
            }
        }
    };
    h.onComplete = [this, id](const std::optional<net::TransportError>& error) {
        auto it = calls_.find(id);
        if (it == calls_.end()) return;
        it->second->inFlight = false;
        if (!error) return finishAttempt(id, std::nullopt);
        ChatError e;
        e.kind = error->kind == net::TransportErrorKind::Timeout ? ChatErrorKind::Timeout
                                                                 : ChatErrorKind::Transport;
        e.message = std::string("network: ") + net::transportErrorName(error->kind) +
                    (error->message.empty() ? std::string() : " (" + error->message + ")");
        finishAttempt(id, e);
    };
    call.inFlight = true;
    call.attemptStartMs = clock_.nowMs();
    call.transportId = transport_.start(std::move(req), std::move(h));
}

int HttpChatClient::backoffMs(const RetryPolicy& policy, int retryNumber) {
    long long delay = policy.baseBackoffMs;
    for (int i = 1; i < retryNumber && delay < policy.maxBackoffMs; ++i) delay *= 2;
    delay = std::min<long long>(delay, policy.maxBackoffMs);
    return static_cast<int>(delay + static_cast<long long>(rng_.below(static_cast<std::uint64_t>(delay / 4) + 1)));
}

// Why a stream gave no event: nothing at all, an HTML page (a proxy's or a captive portal's), or
// some other text; the start of what came is quoted so the person sees which server answered.
static std::string notAStream(int status, const std::string& body) {
    const size_t start = body.find_first_not_of(" \t\r\n");
    if (start == std::string::npos) return "the stream was empty";
    std::string head = body.substr(start, 120);
    for (char& c : head)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    const bool html = head[0] == '<';
    return std::string(html ? "the server answered with an HTML page" : "the server answered with text") +
           " instead of an event stream (HTTP " + std::to_string(status) + "): " + head +
           (body.size() - start > head.size() ? "\xE2\x80\xA6" : "");
}

void HttpChatClient::finishAttempt(ChatCallId id, std::optional<ChatError> error) {
    net::SectionTimer timer("llm.finishAttempt");
    Call& call = *calls_.at(id);
    std::optional<ChatReply> reply;
    // Step 1. Decode: an HTTP error, a stream (its error event, or cut short), or a whole body.
    if (!error) {
        if (call.status < 200 || call.status >= 300) {
            error = wire_->decodeError(call.status, call.responseText, call.responseHeaders);
        } else if (call.request.stream) {
            call.parser.finish([&](const std::string& data) {
                StreamDelta d = call.decoder->accept(data);
                if (d.error && !call.streamError) call.streamError = d.error;
            });
            if (call.streamError)
                error = call.streamError;
            else if (!call.decoder->sawAnything())
                error = ChatError{ChatErrorKind::MalformedResponse, call.status,
                                  notAStream(call.status, call.responseText), std::nullopt};
            else if (!call.decoder->finished())
                error = ChatError{ChatErrorKind::MalformedResponse, call.status, "the stream ended early",
                                  std::nullopt};
            else
                reply = call.decoder->reply();
        } else if (call.answerTooLarge) {
            error = ChatError{ChatErrorKind::MalformedResponse, call.status,
                              "the answer is larger than " + std::to_string(kMaxAnswerBytes / (1024 * 1024)) +
                                  " MiB and was not read",
                              std::nullopt};
        } else {
            Result<ChatReply> decoded = wire_->decodeBody(call.answer);
            if (decoded.isOk())
                reply = std::move(decoded.value);
            else
                error = ChatError{ChatErrorKind::MalformedResponse, call.status,
                                  "malformed response: " + decoded.error, std::nullopt};
        }
    }
    if (error && error->kind == ChatErrorKind::Unauthorized) keyRefused_ = true;
    else if (!error) keyRefused_ = false;
    // Step 2. Record the attempt.
    ChatAttempt record;
    record.attempt = call.attempt;
    record.requestJson = call.body;
    record.httpStatus = call.status;
    record.responseText = call.responseText;
    record.error = error;
    record.latencyMs = clock_.nowMs() - call.attemptStartMs;
    call.outcome.attempts.push_back(std::move(record));

    if (!error) {
        call.outcome.reply = std::move(reply);
        ChatOutcome outcome = std::move(call.outcome);
        ChatHandlers handlers = std::move(call.handlers);
        calls_.erase(id);
        if (handlers.onDone) handlers.onDone(std::move(outcome));
        return;
    }
    // Step 3. Retry when the policy allows it, announcing the delay; else report the error.
    const bool rateLimited = error->kind == ChatErrorKind::RateLimited ||
                             (error->kind == ChatErrorKind::StreamError && error->httpStatus == 429);
    if (rateLimited) ++call.rateLimited;
    int sameKind = 0; // this failure and the ones of its kind just before it
    for (auto it = call.outcome.attempts.rbegin(); it != call.outcome.attempts.rend(); ++it, ++sameKind)
        if (!it->error || it->error->kind != error->kind) break;
    // The caller's cap (ChatRequest::maxRequests) counts every request of the call, whatever failed;
    // its cap per kind (maxRequestsByKind) the requests that failed this way in a row.
    int cap = call.request.maxRequests;
    const ChatErrorKind capKind = rateLimited ? ChatErrorKind::RateLimited : error->kind;
    if (const int kindCap = call.request.maxRequestsByKind[static_cast<std::size_t>(capKind)]; kindCap > 0) {
        const int kindLimit = call.attempt - sameKind + kindCap;
        cap = cap > 0 ? std::min(cap, kindLimit) : kindLimit;
    }
    const bool allowed = (rateLimited ? call.rateLimited < call.policy.maxRateLimitTries
                                      : call.otherRetries < call.policy.maxRetries) &&
                         (cap <= 0 || call.attempt < cap);
    const bool waitTooLong = error->retryAfterMs && *error->retryAfterMs > call.policy.maxRetryAfterMs;
    if (waitTooLong)
        error->message += " (the server asks to wait " + std::to_string(*error->retryAfterMs / 1000) +
                          " s: not retried automatically)";
    if (isRetryable(*error) && allowed && !waitTooLong) {
        RetryNotice notice;
        notice.failedAttempt = call.attempt;
        notice.error = *error;
        if (rateLimited) {
            notice.maxAttempts = call.policy.maxRateLimitTries;
            notice.delayMs = error->retryAfterMs ? *error->retryAfterMs : backoffMs(call.policy, call.rateLimited);
        } else {
            ++call.otherRetries;
            notice.maxAttempts = call.policy.maxRetries + 1;
            notice.delayMs = error->retryAfterMs ? *error->retryAfterMs : backoffMs(call.policy, call.otherRetries);
        }
        if (cap > 0) notice.maxAttempts = std::min(notice.maxAttempts, cap);
        call.retryAtMs = clock_.nowMs() + notice.delayMs;
        if (call.handlers.onRetry) {
            auto handler = call.handlers.onRetry;
            handler(notice);
        }
        return;
    }
    error->requests = std::max(1, sameKind);
    call.outcome.error = std::move(error);
    ChatOutcome outcome = std::move(call.outcome);
    ChatHandlers handlers = std::move(call.handlers);
    calls_.erase(id);
    net::SectionTimer doneTimer("llm.onDone (the mode's handling)");
    if (handlers.onDone) handlers.onDone(std::move(outcome));
}

void HttpChatClient::poll() {
    transport_.poll();
    const std::int64_t now = clock_.nowMs();
    std::vector<ChatCallId> due;
    for (const auto& [id, call] : calls_)
        if (!call->inFlight && call->retryAtMs && *call->retryAtMs <= now) due.push_back(id);
    for (ChatCallId id : due)
        if (calls_.count(id)) startAttempt(id);
}

} // namespace chaiba::llm
