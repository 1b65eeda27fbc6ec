// OpenRouterClient over the scripted fake transport: the error policy (stop, back off, retry
// limits), Retry-After, streaming through the transport, the key only in the header, /models, /key.
#include "src/llm/model_catalog.h"
#include "src/llm/openrouter_client.h"
#include "tests/fakes/fake_transport.h"

#include <doctest/doctest.h>

using namespace chaiba;
using namespace chaiba::llm;
using chaiba::fakes::FakeClock;
using chaiba::fakes::FakeReply;
using chaiba::fakes::FakeTransport;

namespace {

const char* kOkBody = R"({"id":"gen-1","choices":[{"finish_reason":"stop","message":{"content":"hello"}}],
                         "usage":{"prompt_tokens":3,"completion_tokens":1,"cost":0.25}})";
const char* kSecret = "sk-or-v1-SECRET-123";

struct Harness {
    FakeTransport transport;
    FakeClock clock;
    OpenRouterClient client;
    std::vector<RetryNotice> retries;
    std::optional<ChatOutcome> outcome;
    RequestCaps capsByKind{}; // each request's maxRequestsByKind

    Harness() : client(transport, clock, config()) {}
    static OpenRouterConfig config() {
        OpenRouterConfig c;
        c.baseUrl = "http://127.0.0.1:9/api/v1/";
        c.apiKey = kSecret;
        return c;
    }
    void send(bool stream = false, int maxRequests = 0) {
        ChatRequest r;
        r.model = "m";
        r.messages.push_back({Role::User, "hi", {}, {}, {}, false});
        r.stream = stream;
        r.maxRequests = maxRequests;
        r.maxRequestsByKind = capsByKind;
        ChatHandlers h;
        h.onRetry = [this](const RetryNotice& n) { retries.push_back(n); };
        h.onDone = [this](ChatOutcome o) { outcome = std::move(o); };
        client.send(std::move(r), std::move(h));
    }
    // Polls, advancing the clock by the announced delays, until the call is done.
    void run() {
        for (int i = 0; i < 100 && !outcome; ++i) {
            client.poll();
            if (!retries.empty()) clock.advance(retries.back().delayMs);
        }
    }
};

FakeReply status(int code, std::vector<net::HttpHeader> headers = {}) {
    FakeReply r =
        FakeReply::json(code, R"({"error":{"code":)" + std::to_string(code) + R"(,"message":"scripted"}})");
    for (auto& h : headers) r.headers.push_back(h);
    return r;
}

} // namespace

TEST_CASE("client: success sends the key only as the Authorization header to the base URL") {
    Harness h;
    h.transport.push(FakeReply::json(200, kOkBody));
    h.send();
    CHECK(h.transport.requests().empty()); // nothing starts inside send()
    h.run();
    REQUIRE(h.outcome);
    REQUIRE(h.outcome->reply);
    CHECK(h.outcome->reply->content == "hello");
    CHECK(h.outcome->reply->usage.costUsd.value() == doctest::Approx(0.25));
    REQUIRE(h.transport.requests().size() == 1);
    const net::HttpRequest& req = h.transport.requests()[0];
    CHECK(req.method == "POST");
    CHECK(req.url == "http://127.0.0.1:9/api/v1/chat/completions");
    CHECK(net::findHeader(req.headers, "authorization") == std::string("Bearer ") + kSecret);
    CHECK(req.body.find(kSecret) == std::string::npos);
    REQUIRE(h.outcome->attempts.size() == 1);
    CHECK(h.outcome->attempts[0].requestJson.find(kSecret) == std::string::npos);
    CHECK(h.outcome->attempts[0].responseText.find(kSecret) == std::string::npos);
}

TEST_CASE("client: 401, 402, 403 and 400 stop at once") {
    for (int code : {400, 401, 402, 403}) {
        CAPTURE(code);
        Harness h;
        h.transport.push(status(code));
        h.send();
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->error);
        CHECK(h.outcome->error->httpStatus == code);
        CHECK(h.retries.empty());
        CHECK(h.transport.requests().size() == 1);
        CHECK(h.outcome->error->message.find(kSecret) == std::string::npos);
    }
}

TEST_CASE("client: 429 honours Retry-After and succeeds on the next try") {
    Harness h;
    h.transport.push(status(429, {{"Retry-After", "7"}}));
    h.transport.push(FakeReply::json(200, kOkBody));
    h.send();
    h.client.poll(); // starts the request
    h.client.poll(); // delivers the 429
    REQUIRE(h.retries.size() == 1);
    CHECK(h.retries[0].delayMs == 7000);
    CHECK(h.retries[0].error.kind == ChatErrorKind::RateLimited);
    CHECK(h.retries[0].maxAttempts == 5);
    h.clock.advance(6999);
    h.client.poll();
    h.client.poll();
    CHECK(h.transport.requests().size() == 1); // still waiting
    h.clock.advance(1);
    h.client.poll();
    h.client.poll();
    REQUIRE(h.outcome);
    CHECK(h.outcome->reply);
    CHECK(h.outcome->attempts.size() == 2);
    CHECK(h.outcome->attempts[0].httpStatus == 429);
}

TEST_CASE("client: 429 without Retry-After backs off exponentially with jitter, 5 tries in all") {
    Harness h;
    for (int i = 0; i < 6; ++i) h.transport.push(status(429));
    h.send();
    h.run();
    REQUIRE(h.outcome);
    REQUIRE(h.outcome->error);
    CHECK(h.outcome->error->kind == ChatErrorKind::RateLimited);
    CHECK(h.transport.requests().size() == 5);
    CHECK(h.outcome->error->requests == 5);
    REQUIRE(h.retries.size() == 4);
    for (int i = 0; i < 4; ++i) {
        const int base = 1000 << i;
        CAPTURE(i);
        CHECK(h.retries[i].delayMs >= base);
        CHECK(h.retries[i].delayMs <= base + base / 4);
        CHECK(h.retries[i].failedAttempt == i + 1);
    }
}

TEST_CASE("client: 408, 5xx, transport errors and garbage retry 3 times, then fail") {
    struct Row {
        FakeReply reply;
        ChatErrorKind kind;
    };
    std::vector<Row> rows = {
        {status(408), ChatErrorKind::Timeout},
        {status(500), ChatErrorKind::ServerError},
        {status(502), ChatErrorKind::ServerError},
        {status(503), ChatErrorKind::ServerError},
        {FakeReply::failure(net::TransportErrorKind::Offline), ChatErrorKind::Transport},
        {FakeReply::failure(net::TransportErrorKind::Blocked), ChatErrorKind::Transport},
        {FakeReply::failure(net::TransportErrorKind::Timeout), ChatErrorKind::Timeout},
        {FakeReply::json(200, "<html>garbage"), ChatErrorKind::MalformedResponse},
    };
    for (const Row& row : rows) {
        CAPTURE(static_cast<int>(row.kind));
        Harness h;
        for (int i = 0; i < 5; ++i) h.transport.push(row.reply);
        h.send();
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->error);
        CHECK(h.outcome->error->kind == row.kind);
        CHECK(h.transport.requests().size() == 4);
        CHECK(h.retries.size() == 3);
        CHECK(h.outcome->attempts.size() == 4);
        CHECK(h.outcome->error->requests == 4); // a caller with retry rules counts all four
    }
}

TEST_CASE("client: a failed call's error counts the failed requests of its own kind in a row") {
    // A 429 first, then timeouts until the retries run out: the timeout rule of a caller sees the
    // four timeouts (the 429 is another kind, with rules of its own).
    Harness h;
    h.transport.push(status(429));
    for (int i = 0; i < 4; ++i) h.transport.push(status(408));
    h.send();
    h.run();
    REQUIRE(h.outcome);
    REQUIRE(h.outcome->error);
    CHECK(h.outcome->error->kind == ChatErrorKind::Timeout);
    CHECK(h.transport.requests().size() == 5);
    CHECK(h.outcome->error->requests == 4);
}

TEST_CASE("client: a request's maxRequests caps the call's requests, whatever failed") {
    // A caller with retry rules of its own (a tournament's failure rules) passes the tries they
    // have left: the client's own retries stop there, every failure counted.
    SUBCASE("always 429: the cap, not the client's 5 tries") {
        Harness h;
        for (int i = 0; i < 6; ++i) h.transport.push(status(429));
        h.send(false, 2);
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->error);
        CHECK(h.outcome->error->kind == ChatErrorKind::RateLimited);
        CHECK(h.transport.requests().size() == 2);
        CHECK(h.outcome->error->requests == 2);
        REQUIRE(h.retries.size() == 1);
        CHECK(h.retries[0].maxAttempts == 2); // "retry 1 of 1"
    }
    SUBCASE("a cap of 1: no retry at all") {
        Harness h;
        h.transport.push(status(503));
        h.transport.push(FakeReply::json(200, kOkBody));
        h.send(false, 1);
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->error);
        CHECK(h.outcome->error->kind == ChatErrorKind::ServerError);
        CHECK(h.transport.requests().size() == 1);
        CHECK(h.retries.empty());
    }
    SUBCASE("failures of different kinds share the cap") {
        Harness h;
        h.transport.push(status(429));
        for (int i = 0; i < 4; ++i) h.transport.push(status(408));
        h.send(false, 3);
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->error);
        CHECK(h.outcome->error->kind == ChatErrorKind::Timeout);
        CHECK(h.transport.requests().size() == 3);
        CHECK(h.outcome->error->requests == 2);
    }
    SUBCASE("a cap above the policy's tries changes nothing") {
        Harness h;
        for (int i = 0; i < 6; ++i) h.transport.push(status(429));
        h.send(false, 9);
        h.run();
        REQUIRE(h.outcome);
        CHECK(h.transport.requests().size() == 5);
    }
}

TEST_CASE("client: a request's caps per error kind bound the failures of that kind in a row") {
    // A tournament's first call of a turn has no maxRequests yet, but its rules per kind bind it:
    // "malformed answer: retry once" is 2 requests, not the client's 4.
    const auto cap = [](RequestCaps& caps, ChatErrorKind kind, int n) {
        caps[static_cast<std::size_t>(kind)] = n;
    };
    const auto generous = [](Harness& h) { // a client policy that would retry past the caps
        OpenRouterConfig c = Harness::config();
        c.maxRetries = c.maxRateLimitTries = 10;
        h.client.configure(c);
    };
    SUBCASE("an undecodable answer every time: 2 requests") {
        Harness h;
        cap(h.capsByKind, ChatErrorKind::MalformedResponse, 2);
        for (int i = 0; i < 5; ++i) h.transport.push(FakeReply::json(200, "not json"));
        h.send();
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->error);
        CHECK(h.outcome->error->kind == ChatErrorKind::MalformedResponse);
        CHECK(h.transport.requests().size() == 2);
        CHECK(h.outcome->error->requests == 2);
        REQUIRE(h.retries.size() == 1);
        CHECK(h.retries[0].maxAttempts == 2); // "try 1 of 2"
    }
    SUBCASE("no cap per kind: the client's policy, 4 requests for an undecodable answer") {
        Harness h;
        for (int i = 0; i < 5; ++i) h.transport.push(FakeReply::json(200, "not json"));
        h.send();
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->error);
        CHECK(h.transport.requests().size() == 4);
        CHECK(h.outcome->error->requests == 4);
    }
    SUBCASE("always 5xx under a generous policy: the cap's 4 requests") {
        Harness h;
        generous(h);
        cap(h.capsByKind, ChatErrorKind::ServerError, 4);
        for (int i = 0; i < 12; ++i) h.transport.push(status(503));
        h.send();
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->error);
        CHECK(h.transport.requests().size() == 4);
        REQUIRE(h.retries.size() == 3);
        CHECK(h.retries[0].maxAttempts == 4);
    }
    SUBCASE("always 429 under a generous policy: the cap's 6 requests") {
        Harness h;
        generous(h);
        cap(h.capsByKind, ChatErrorKind::RateLimited, 6);
        for (int i = 0; i < 12; ++i) h.transport.push(status(429));
        h.send();
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->error);
        CHECK(h.outcome->error->kind == ChatErrorKind::RateLimited);
        CHECK(h.transport.requests().size() == 6);
        CHECK(h.outcome->error->requests == 6);
    }
    SUBCASE("another kind before them does not count toward a kind's cap") {
        Harness h;
        cap(h.capsByKind, ChatErrorKind::MalformedResponse, 2);
        h.transport.push(status(503));
        for (int i = 0; i < 4; ++i) h.transport.push(FakeReply::json(200, "not json"));
        h.send();
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->error);
        CHECK(h.outcome->error->kind == ChatErrorKind::MalformedResponse);
        CHECK(h.transport.requests().size() == 3);
        CHECK(h.outcome->error->requests == 2);
        REQUIRE(h.retries.size() == 2);
        CHECK(h.retries[1].maxAttempts == 3);
    }
}

TEST_CASE("client: a retry that then succeeds returns the reply and logs both attempts") {
    Harness h;
    h.transport.push(status(502));
    h.transport.push(FakeReply::failure(net::TransportErrorKind::Timeout));
    h.transport.push(FakeReply::json(200, kOkBody));
    h.send();
    h.run();
    REQUIRE(h.outcome);
    REQUIRE(h.outcome->reply);
    CHECK(h.retries.size() == 2);
    CHECK(h.outcome->attempts.size() == 3);
    CHECK(h.outcome->attempts[1].error->kind == ChatErrorKind::Timeout);
}

TEST_CASE("client: streaming through the transport, deltas delivered, mid-stream error retried") {
    Harness h;
    FakeReply broken;
    broken.chunks = {"data: {\"choices\":[{\"delta\":{\"content\":\"He\"}}]}\n\n",
                     "data: {\"error\":{\"code\":502,\"message\":\"gone\"},\"choices\":[]}\n\n"};
    FakeReply good;
    good.chunks = {": OPENROUTER PROCESSING\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"He\"}}]}\n",
                   "\ndata: {\"choices\":[{\"delta\":{\"content\":\"llo\"},\"finish_reason\":\"stop\"}]}\n\n",
                   "data: "
                   "{\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":2,\"cost\":0.1}}"
                   "\n\ndata: [DONE]\n\n"};
    h.transport.push(broken);
    h.transport.push(good);
    std::string text;
    ChatRequest r;
    r.model = "m";
    r.stream = true;
    ChatHandlers handlers;
    handlers.onText = [&](const std::string& d) { text += d; };
    handlers.onRetry = [&](const RetryNotice& n) { h.retries.push_back(n); };
    handlers.onDone = [&](ChatOutcome o) { h.outcome = std::move(o); };
    h.client.send(r, handlers);
    h.run();
    REQUIRE(h.outcome);
    REQUIRE(h.outcome->reply);
    CHECK(h.outcome->reply->content == "Hello");
    CHECK(h.outcome->reply->usage.costUsd.value() == doctest::Approx(0.1));
    REQUIRE(h.retries.size() == 1);
    CHECK(h.retries[0].error.kind == ChatErrorKind::StreamError);
    CHECK(text == "HeHello"); // the first attempt's text was shown before it failed
    CHECK(h.transport.requests()[0].stream);
}

TEST_CASE("client: OpenRouter streamed tool calls reach onToolCalls as they grow, before the reply") {
    Harness h;
    FakeReply stream;
    stream.chunks = {
        "data: {\"choices\":[{\"delta\":{\"content\":\"On it\"}}]}\n\n",
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"function\":"
        "{\"name\":\"add_task\",\"arguments\":\"{\\\"id\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":"
        "\"\\\":\\\"qual\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"};
    h.transport.push(stream);
    std::vector<std::vector<ToolCall>> seen;
    bool doneBeforeCalls = false;
    ChatRequest r;
    r.model = "m";
    r.stream = true;
    ChatHandlers handlers;
    handlers.onToolCalls = [&](const std::vector<ToolCall>& sofar) {
        doneBeforeCalls = doneBeforeCalls || h.outcome.has_value();
        seen.push_back(sofar);
    };
    handlers.onDone = [&](ChatOutcome o) { h.outcome = std::move(o); };
    h.client.send(r, handlers);
    h.run();
    REQUIRE(h.outcome);
    REQUIRE(h.outcome->reply);
    CHECK_FALSE(doneBeforeCalls);
    REQUIRE(seen.size() == 2); // the text chunk reports no calls
    REQUIRE(seen[0].size() == 1);
    CHECK(seen[0][0].name == "add_task");
    CHECK(seen[0][0].arguments == R"({"id)");
    REQUIRE(seen[1].size() == 1);
    CHECK(seen[1][0].arguments == R"({"id":"qual"})");
    REQUIRE(h.outcome->reply->toolCalls.size() == 1);
    CHECK(h.outcome->reply->toolCalls[0].arguments == seen[1][0].arguments);
}

TEST_CASE("client: an OpenRouter stream cancelled from onToolCalls runs no other callback of the call") {
    Harness h;
    FakeReply stream;
    stream.chunks = {
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"function\":"
        "{\"name\":\"get_graph\",\"arguments\":\"{}\"}}]}}]}\n\n"
        "data: {\"choices\":[{\"delta\":{\"content\":\"late\"},\"finish_reason\":\"tool_calls\"}]}\n\n"
        "data: [DONE]\n\n"};
    h.transport.push(stream);
    int reports = 0;
    std::string text;
    bool done = false;
    ChatRequest r;
    r.model = "m";
    r.stream = true;
    ChatHandlers handlers;
    ChatCallId id = 0;
    handlers.onToolCalls = [&](const std::vector<ToolCall>&) {
        ++reports;
        h.client.cancel(id);
    };
    handlers.onText = [&](const std::string& d) { text += d; };
    handlers.onDone = [&](ChatOutcome) { done = true; };
    id = h.client.send(r, handlers);
    for (int i = 0; i < 10; ++i) h.client.poll();
    CHECK(reports == 1);
    CHECK(text.empty());
    CHECK_FALSE(done);
    CHECK(h.client.activeCalls() == 0);
}

TEST_CASE("client: a stream cut short without finish is an error, not a silent partial reply") {
    Harness h;
    FakeReply cut;
    cut.chunks = {"data: {\"choices\":[{\"delta\":{\"content\":\"He\"}}]}\n\n"};
    for (int i = 0; i < 4; ++i) h.transport.push(cut);
    h.send(true);
    h.run();
    REQUIRE(h.outcome);
    REQUIRE(h.outcome->error);
    CHECK(h.outcome->error->kind == ChatErrorKind::MalformedResponse);
}

TEST_CASE("client: cancel stops all callbacks") {
    Harness h;
    h.transport.push(FakeReply::json(200, kOkBody));
    ChatRequest r;
    r.model = "m";
    bool called = false;
    ChatHandlers handlers;
    handlers.onDone = [&](ChatOutcome) { called = true; };
    const ChatCallId id = h.client.send(r, handlers);
    h.client.poll(); // starts the request; the fake answers on its next poll
    h.client.cancel(id);
    h.client.poll();
    h.client.poll();
    CHECK_FALSE(called);
    CHECK(h.client.activeCalls() == 0);
}

TEST_CASE("client: /models is public, /key carries the key") {
    Harness h;
    h.transport.push(FakeReply::json(200, R"({"data":[{"id":"a/b","supported_parameters":["tools"]}]})"));
    h.transport.push(FakeReply::json(200, R"({"data":{"label":"mine","limit_remaining":3.5}})"));
    std::optional<Result<std::vector<ModelInfo>>> models;
    std::optional<Result<KeyInfo>> key;
    h.client.fetchModels([&](Result<std::vector<ModelInfo>> r) { models = std::move(r); });
    h.client.checkKey([&](Result<KeyInfo> r) { key = std::move(r); });
    h.client.poll();
    REQUIRE(models);
    REQUIRE(models->isOk());
    CHECK(models->value->at(0).supportsTools);
    REQUIRE(key);
    REQUIRE(key->isOk());
    CHECK(key->value->label == "mine");
    CHECK(h.transport.requests()[0].url == "http://127.0.0.1:9/api/v1/models");
    CHECK_FALSE(net::findHeader(h.transport.requests()[0].headers, "Authorization").has_value());
    CHECK(h.transport.requests()[1].url == "http://127.0.0.1:9/api/v1/key");
    CHECK(net::findHeader(h.transport.requests()[1].headers, "Authorization").has_value());

    Harness bad;
    bad.transport.push(status(401));
    std::optional<Result<KeyInfo>> refused;
    bad.client.checkKey([&](Result<KeyInfo> r) { refused = std::move(r); });
    bad.client.poll();
    REQUIRE(refused);
    CHECK_FALSE(refused->isOk());
    CHECK(refused->error.find("valid") != std::string::npos);
}

TEST_CASE("catalog: cached list, refresh failure keeps it, default selection and key check") {
    Harness h;
    ModelCatalog catalog;
    DefaultModels defaults;
    defaults.models = {"openai/gpt-4o", "x/unknown"};
    CHECK(catalog.defaultSelection(defaults) == defaults.models); // not loaded: all defaults
    h.transport.push(FakeReply::json(
        200, R"({"data":[{"id":"openai/gpt-4o","supported_parameters":["tools"]},{"id":"a/b"}]})"));
    catalog.refresh(h.client);
    CHECK(catalog.state() == ModelCatalog::State::Loading);
    h.client.poll();
    REQUIRE(catalog.state() == ModelCatalog::State::Ready);
    CHECK(catalog.models().size() == 2);
    CHECK(catalog.withTools().size() == 1);
    CHECK(catalog.find("a/b") != nullptr);
    CHECK(catalog.defaultSelection(defaults) == std::vector<std::string>{"openai/gpt-4o"});
    DefaultModels none;
    none.models = {"gone/model"};
    CHECK(catalog.defaultSelection(none) == std::vector<std::string>{"openai/gpt-4o"}); // last resort

    h.transport.push(status(503));
    catalog.refresh(h.client);
    h.client.poll();
    CHECK(catalog.state() == ModelCatalog::State::Failed);
    CHECK(catalog.error().find("503") != std::string::npos);
    CHECK(catalog.models().size() == 2);

    KeyCheck key;
    h.transport.push(status(401));
    key.check(h.client);
    h.client.poll();
    CHECK(key.state() == KeyCheck::State::Invalid);
    h.transport.push(FakeReply::json(200, R"({"data":{"label":"ok","limit_remaining":1.5}})"));
    key.check(h.client);
    h.client.poll();
    REQUIRE(key.state() == KeyCheck::State::Valid);
    CHECK(key.info()->limitRemainingUsd.value() == doctest::Approx(1.5));
}

TEST_CASE("client: a Retry-After longer than the limit fails at once and says how long") {
    Harness h;
    h.transport.push(status(429, {{"Retry-After", "86400"}}));
    h.send();
    h.run();
    REQUIRE(h.outcome);
    REQUIRE(h.outcome->error);
    CHECK(h.retries.empty());
    CHECK(h.transport.requests().size() == 1);
    CHECK(h.outcome->error->message.find("wait 3600 s") != std::string::npos); // capped when parsed
}

TEST_CASE("client: configure changes key and base URL for the next call, a call in flight keeps its own") {
    Harness h;
    h.transport.push(status(503)); // the first call fails once and retries after configure()
    h.transport.push(FakeReply::json(200, kOkBody));
    h.transport.push(FakeReply::json(200, kOkBody));
    h.send();
    h.client.poll(); // the first call's request goes out with the first key

    OpenRouterConfig next = Harness::config();
    next.apiKey = "sk-or-v1-NEW-456";
    next.baseUrl = "http://127.0.0.1:10/v2/";
    h.client.configure(next);
    CHECK(h.client.config().apiKey == "sk-or-v1-NEW-456");
    CHECK(h.client.config().baseUrl == "http://127.0.0.1:10/v2"); // trailing slash dropped as at construction

    std::optional<ChatOutcome> second;
    ChatRequest r;
    r.model = "m2";
    r.messages.push_back({Role::User, "hi", {}, {}, {}, false});
    ChatHandlers handlers;
    handlers.onDone = [&](ChatOutcome o) { second = std::move(o); };
    h.client.send(std::move(r), std::move(handlers));
    h.run(); // the 503 comes back, the retry and the second call go out
    for (int i = 0; i < 10 && !second; ++i) h.client.poll();

    REQUIRE(h.outcome);
    CHECK(h.outcome->reply);
    REQUIRE(second);
    CHECK(second->reply);
    const auto& requests = h.transport.requests();
    REQUIRE(requests.size() == 3);
    // The first call, its retry included, stays with the settings it was sent with.
    int oldKey = 0, newKey = 0;
    for (const net::HttpRequest& req : requests) {
        const bool first = req.body.find("\"m2\"") == std::string::npos;
        const std::string auth = net::findHeader(req.headers, "authorization").value_or("");
        if (first) {
            ++oldKey;
            CHECK(auth == std::string("Bearer ") + kSecret);
            CHECK(req.url == "http://127.0.0.1:9/api/v1/chat/completions");
        } else {
            ++newKey;
            CHECK(auth == "Bearer sk-or-v1-NEW-456");
            CHECK(req.url == "http://127.0.0.1:10/v2/chat/completions");
        }
    }
    CHECK(oldKey == 2);
    CHECK(newKey == 1);
    // Public and key requests started after configure() use the new settings too.
    h.transport.push(FakeReply::json(200, R"({"data":{"label":"k","usage":0}})"));
    bool checked = false;
    h.client.checkKey([&](Result<KeyInfo>) { checked = true; });
    for (int i = 0; i < 5 && !checked; ++i) h.client.poll();
    CHECK(checked);
    CHECK(h.transport.requests().back().url == "http://127.0.0.1:10/v2/key");
    CHECK(net::findHeader(h.transport.requests().back().headers, "authorization") == std::string("Bearer sk-or-v1-NEW-456"));
}

TEST_CASE("client: a long answer is read whole, the log keeps a cut copy, a huge one is refused") {
    // 300 KiB of content in 64 KiB chunks: larger than the log's copy, a valid answer all the same.
    const std::string content(300 * 1024, 'x');
    const std::string body = R"({"id":"gen-9","choices":[{"finish_reason":"stop","message":{"content":")" + content +
                             R"("}}],"usage":{"prompt_tokens":3,"completion_tokens":1}})";
    FakeReply big = FakeReply::json(200, "");
    big.chunks.clear();
    for (std::size_t at = 0; at < body.size(); at += 64 * 1024) big.chunks.push_back(body.substr(at, 64 * 1024));
    Harness h;
    h.transport.push(big);
    h.send();
    h.run();
    REQUIRE(h.outcome.has_value());
    REQUIRE_MESSAGE(h.outcome->reply.has_value(), (h.outcome->error ? h.outcome->error->message : ""));
    CHECK(h.outcome->reply->content.size() == content.size());
    REQUIRE(h.outcome->attempts.size() == 1);
    CHECK(h.outcome->attempts[0].responseText.size() == 256 * 1024);

    // 17 MiB: refused with the reason, never kept whole.
    FakeReply huge = FakeReply::json(200, "");
    huge.chunks.assign(17, std::string(1024 * 1024, ' '));
    Harness g;
    g.transport.setResponder([&](const net::HttpRequest&) { return huge; });
    g.send();
    g.run();
    REQUIRE(g.outcome.has_value());
    REQUIRE(g.outcome->error.has_value());
    CHECK(g.outcome->error->message.find("larger than 16 MiB") != std::string::npos);
}
