// The OpenRouter client: one Call per send(), each HTTP attempt recorded, retries scheduled on the
// clock and fired from poll(). Every callback re-finds its call by id, since any handler may cancel.
#include "src/llm/openrouter_client.h"

#include "src/llm/sse.h"

#include <algorithm>

namespace chaiba::llm {

namespace {
constexpr std::size_t kMaxRecordedResponse = 256 * 1024; // the log's copy of an answer
constexpr std::size_t kMaxAnswerBytes = 16 * 1024 * 1024; // a longer answer is refused, not kept
} // namespace

struct OpenRouterClient::Call {
    OpenRouterConfig config; // as it was at send(): configure() does not reach calls in flight
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
    StreamAssembler assembler;
    std::optional<ChatError> streamError;
    ChatOutcome outcome;
};

OpenRouterClient::OpenRouterClient(net::HttpTransport& transport, const net::Clock& clock,
                                   OpenRouterConfig config)
    : transport_(transport), clock_(clock), rng_(config.jitterSeed) {
    configure(std::move(config));
}

void OpenRouterClient::configure(OpenRouterConfig config) {
    config_ = std::move(config);
    while (!config_.baseUrl.empty() && config_.baseUrl.back() == '/') config_.baseUrl.pop_back();
}

OpenRouterClient::~OpenRouterClient() {
    for (auto& [id, call] : calls_)
        if (call->inFlight) transport_.cancel(call->transportId);
}

std::vector<net::HttpHeader> OpenRouterClient::headers(const OpenRouterConfig& config, bool withKey, bool json) {
    std::vector<net::HttpHeader> h;
    if (withKey && !config.apiKey.empty()) h.push_back({"Authorization", "Bearer " + config.apiKey});
    if (json) h.push_back({"Content-Type", "application/json"});
    if (!config.referer.empty()) h.push_back({"HTTP-Referer", config.referer});
    if (!config.title.empty()) h.push_back({"X-Title", config.title});
    return h;
}

ChatCallId OpenRouterClient::send(ChatRequest request, ChatHandlers handlers) {
    const ChatCallId id = nextId_++;
    auto call = std::make_unique<Call>();
    call->config = config_;
    call->body = buildChatRequestJson(request);
    call->request = std::move(request);
    call->handlers = std::move(handlers);
    call->retryAtMs = clock_.nowMs(); // first attempt starts on the next poll(), never inside send()
    calls_.emplace(id, std::move(call));
    return id;
}

void OpenRouterClient::cancel(ChatCallId id) {
    auto it = calls_.find(id);
    if (it == calls_.end()) return;
    if (it->second->inFlight) transport_.cancel(it->second->transportId);
    calls_.erase(it);
}

void OpenRouterClient::startAttempt(ChatCallId id) {
    Call& call = *calls_.at(id);
    call.retryAtMs.reset();
    ++call.attempt;
    call.status = 0;
    call.responseHeaders.clear();
    call.responseText.clear();
    call.answer.clear();
    call.answerTooLarge = false;
    call.parser = SseParser();
    call.assembler = StreamAssembler();
    call.streamError.reset();
    net::HttpRequest req;
    req.method = "POST";
    req.url = call.config.baseUrl + "/chat/completions";
    req.headers = headers(call.config, true, true);
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
        c->parser.feed(chunk, [&](const std::string& data) { deltas.push_back(c->assembler.accept(data)); });
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

int OpenRouterClient::backoffMs(const OpenRouterConfig& config, int retryNumber) {
    long long delay = config.baseBackoffMs;
    for (int i = 1; i < retryNumber && delay < config.maxBackoffMs; ++i) delay *= 2;
    delay = std::min<long long>(delay, config.maxBackoffMs);
    std::uniform_int_distribution<long long> jitter(0, delay / 4);
    return static_cast<int>(delay + jitter(rng_));
}

void OpenRouterClient::finishAttempt(ChatCallId id, std::optional<ChatError> error) {
    Call& call = *calls_.at(id);
    std::optional<ChatReply> reply;
    if (!error) {
        if (call.status < 200 || call.status >= 300) {
            error = decodeHttpError(call.status, call.responseText,
                                    net::findHeader(call.responseHeaders, "Retry-After"));
        } else if (call.request.stream) {
            call.parser.finish([&](const std::string& data) {
                StreamDelta d = call.assembler.accept(data);
                if (d.error && !call.streamError) call.streamError = d.error;
            });
            if (call.streamError)
                error = call.streamError;
            else if (!call.assembler.sawAnything())
                error = ChatError{ChatErrorKind::MalformedResponse, call.status, "the stream was empty",
                                  std::nullopt};
            else if (!call.assembler.sawDone() && call.assembler.reply().finishReason.empty())
                error = ChatError{ChatErrorKind::MalformedResponse, call.status, "the stream ended early",
                                  std::nullopt};
            else
                reply = call.assembler.reply();
        } else if (call.answerTooLarge) {
            error = ChatError{ChatErrorKind::MalformedResponse, call.status,
                              "the answer is larger than " + std::to_string(kMaxAnswerBytes / (1024 * 1024)) +
                                  " MiB and was not read",
                              std::nullopt};
        } else {
            Result<ChatReply> decoded = decodeChatResponse(call.answer);
            if (decoded.isOk())
                reply = std::move(decoded.value);
            else
                error = ChatError{ChatErrorKind::MalformedResponse, call.status,
                                  "malformed response: " + decoded.error, std::nullopt};
        }
    }
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
    const bool rateLimited = error->kind == ChatErrorKind::RateLimited ||
                             (error->kind == ChatErrorKind::StreamError && error->httpStatus == 429);
    if (rateLimited) ++call.rateLimited;
    const bool allowed =
        rateLimited ? call.rateLimited < call.config.maxRateLimitTries : call.otherRetries < call.config.maxRetries;
    const bool waitTooLong = error->retryAfterMs && *error->retryAfterMs > call.config.maxRetryAfterMs;
    if (waitTooLong)
        error->message += " (the server asks to wait " + std::to_string(*error->retryAfterMs / 1000) +
                          " s: not retried automatically)";
    if (isRetryable(*error) && allowed && !waitTooLong) {
        RetryNotice notice;
        notice.failedAttempt = call.attempt;
        notice.error = *error;
        if (rateLimited) {
            notice.maxAttempts = call.config.maxRateLimitTries;
            notice.delayMs = error->retryAfterMs ? *error->retryAfterMs : backoffMs(call.config, call.rateLimited);
        } else {
            ++call.otherRetries;
            notice.maxAttempts = call.config.maxRetries + 1;
            notice.delayMs = error->retryAfterMs ? *error->retryAfterMs : backoffMs(call.config, call.otherRetries);
        }
        call.retryAtMs = clock_.nowMs() + notice.delayMs;
        if (call.handlers.onRetry) {
            auto handler = call.handlers.onRetry;
            handler(notice);
        }
        return;
    }
    call.outcome.error = std::move(error);
    ChatOutcome outcome = std::move(call.outcome);
    ChatHandlers handlers = std::move(call.handlers);
    calls_.erase(id);
    if (handlers.onDone) handlers.onDone(std::move(outcome));
}

void OpenRouterClient::poll() {
    transport_.poll();
    const std::int64_t now = clock_.nowMs();
    std::vector<ChatCallId> due;
    for (const auto& [id, call] : calls_)
        if (!call->inFlight && call->retryAtMs && *call->retryAtMs <= now) due.push_back(id);
    for (ChatCallId id : due)
        if (calls_.count(id)) startAttempt(id);
}

void OpenRouterClient::getJson(const std::string& path, bool withKey,
                               std::function<void(int, std::string, std::string)> done) {
    net::HttpRequest req;
    req.url = config_.baseUrl + path;
    req.headers = headers(config_, withKey, false);
    req.timeoutMs = 30000;
    struct State {
        int status = 0;
        std::string body;
    };
    auto state = std::make_shared<State>();
    net::HttpHandlers h;
    h.onResponse = [state](int status, const std::vector<net::HttpHeader>&) { state->status = status; };
    h.onBody = [state](std::string_view chunk) { state->body.append(chunk); };
    h.onComplete = [state, done = std::move(done)](const std::optional<net::TransportError>& error) {
        if (error) return done(0, {}, std::string("network: ") + net::transportErrorName(error->kind));
        if (state->status != 200)
            return done(state->status, {}, decodeHttpError(state->status, state->body, {}).message);
        done(state->status, state->body, {});
    };
    transport_.start(std::move(req), std::move(h));
}

void OpenRouterClient::fetchModels(std::function<void(Result<std::vector<ModelInfo>>)> done) {
    getJson("/models", false, [done = std::move(done)](int, std::string body, std::string error) {
        if (!error.empty()) return done(Result<std::vector<ModelInfo>>::fail(error));
        done(decodeModelList(body));
    });
}

void OpenRouterClient::checkKey(std::function<void(Result<KeyInfo>)> done) {
    getJson("/key", true, [done = std::move(done)](int, std::string body, std::string error) {
        if (!error.empty()) return done(Result<KeyInfo>::fail(error));
        done(decodeKeyInfo(body));
    });
}

} // namespace chaiba::llm
