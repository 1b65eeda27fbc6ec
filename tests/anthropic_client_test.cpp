// AnthropicClient and its wire format: the request body (system apart, tool_use/tool_result
// blocks, tool_choice), whole replies, recorded SSE streams (tests/data/anthropic/*.sse) fed in
// small pieces, the headers, and the shared retry policy (529 overloaded, 429 retry-after, 401).
#include "src/llm/anthropic_client.h"
#include "tests/fakes/fake_transport.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace chaiba;
using namespace chaiba::llm;
using chaiba::fakes::FakeClock;
using chaiba::fakes::FakeReply;
using chaiba::fakes::FakeTransport;
using nlohmann::json;

namespace {

const char* kSecret = "sk-ant-api03-SECRET-777";

std::string recording(const std::string& name) {
    std::ifstream in(std::string(CHAIBA_SOURCE_DIR) + "/tests/data/anthropic/" + name, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "missing recording " << name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A recorded stream as a scripted reply cut into `piece`-byte chunks (events split anywhere).
FakeReply streamed(const std::string& name, size_t piece = 37) {
    FakeReply r;
    r.headers = {{"content-type", "text/event-stream"}};
    const std::string text = recording(name);
    for (size_t i = 0; i < text.size(); i += piece) r.chunks.push_back(text.substr(i, piece));
    return r;
}

ChatRequest toolRequest() {
    ChatRequest r;
    r.model = "claude-sonnet-4-5";
    r.messages.push_back({Role::System, "You plan.", {}, {}, {}, false});
    r.messages.push_back({Role::User, "Add groups", {}, {}, {}, false});
    ChatMessage said{Role::Assistant,
                     "Adding.",
                     {{"toolu_1", "add_task", R"({"id":"groups"})"}, {"toolu_2", "get_graph", "not json"}},
                     {},
                     {},
                     false};
    r.messages.push_back(said);
    r.messages.push_back({Role::Tool, "Error: needs a name", {}, "toolu_1", {}, false});
    r.messages.push_back({Role::Tool, "task groups: Groups", {}, "toolu_2", {}, false});
    r.messages.push_back({Role::User, "[SYSTEM] the person undid it", {}, {}, {}, false});
    r.tools.push_back(
        {"add_task", "Add a task.", R"({"type":"object","properties":{"id":{"type":"string"}}})"});
    r.tools.push_back({"get_graph", "The plan.", R"({"type":"object"})"});
    return r;
}

struct Harness {
    FakeTransport transport;
    FakeClock clock;
    AnthropicClient client;
    std::vector<RetryNotice> retries;
    std::string streamedText;
    std::optional<ChatOutcome> outcome;

    Harness() : client(transport, clock, config()) {}
    static AnthropicConfig config() {
        AnthropicConfig c;
        c.baseUrl = "http://127.0.0.1:9/";
        c.apiKey = kSecret;
        return c;
    }
    void send(bool stream) {
        ChatRequest r = toolRequest();
        r.stream = stream;
        ChatHandlers h;
        h.onText = [this](const std::string& d) { streamedText += d; };
        h.onRetry = [this](const RetryNotice& n) { retries.push_back(n); };
        h.onDone = [this](ChatOutcome o) { outcome = std::move(o); };
        client.send(std::move(r), std::move(h));
    }
    void run() {
        for (int i = 0; i < 100 && !outcome; ++i) {
            client.poll();
            if (!retries.empty()) clock.advance(retries.back().delayMs);
        }
    }
};

FakeReply errorReply(int status, const std::string& type, std::vector<net::HttpHeader> headers = {}) {
    FakeReply r = FakeReply::json(status, R"({"type":"error","error":{"type":")" + type +
                                              R"(","message":"scripted"}})");
    for (auto& h : headers) r.headers.push_back(h);
    return r;
}

} // namespace

TEST_CASE("anthropic: the request body puts the system apart and tools into content blocks") {
    ChatRequest r = toolRequest();
    r.forcedTool = "get_graph";
    const json body = json::parse(buildAnthropicRequestJson(r));
    CHECK(body["model"] == "claude-sonnet-4-5");
    CHECK(body["max_tokens"] == kAnthropicDefaultMaxTokens);
    CHECK(body["system"] == "You plan.");
    REQUIRE(body["messages"].size() == 3); // user, assistant, user (results + the note, merged)
    const json& assistant = body["messages"][1];
    CHECK(assistant["role"] == "assistant");
    CHECK(assistant["content"][0] == json{{"type", "text"}, {"text", "Adding."}});
    CHECK(assistant["content"][1]["type"] == "tool_use");
    CHECK(assistant["content"][1]["input"] == json{{"id", "groups"}});
    CHECK(assistant["content"][2]["input"] == json::object()); // malformed arguments: {}
    const json& results = body["messages"][2];
    CHECK(results["role"] == "user");
    REQUIRE(results["content"].size() == 3);
    CHECK(results["content"][0] ==
          json{{"type", "tool_result"}, {"tool_use_id", "toolu_1"}, {"content", "Error: needs a name"}});
    CHECK(results["content"][1]["tool_use_id"] == "toolu_2");
    CHECK(results["content"][2]["type"] == "text");
    CHECK(body["tools"][0]["input_schema"]["properties"]["id"]["type"] == "string");
    CHECK(body["tools"][0]["name"] == "add_task");
    CHECK(body["tool_choice"] ==
          json{{"type", "tool"}, {"name", "get_graph"}, {"disable_parallel_tool_use", true}});
    CHECK_FALSE(body.contains("stream"));

    r.forcedTool.clear();
    r.toolChoice = ToolChoice::None;
    r.stream = true;
    r.messages[0].cacheBreakpoint = true;
    const json closing = json::parse(buildAnthropicRequestJson(r));
    CHECK(closing["tool_choice"] == json{{"type", "none"}});
    CHECK(closing["stream"] == true);
    CHECK(closing["system"][0]["cache_control"]["type"] == "ephemeral");
}

TEST_CASE("anthropic: a whole reply decodes text, tool_use, thinking and usage") {
    Result<ChatReply> r = decodeAnthropicResponse(R"({"id":"msg_1","type":"message","role":"assistant",
        "model":"claude-sonnet-4-5","stop_reason":"tool_use","content":[
        {"type":"thinking","thinking":"Hmm.","signature":"sig"},
        {"type":"text","text":"Adding."},
        {"type":"tool_use","id":"toolu_9","name":"add_task","input":{"id":"a","name":"A"}}],
        "usage":{"input_tokens":100,"cache_read_input_tokens":50,"cache_creation_input_tokens":10,"output_tokens":20}})");
    REQUIRE(r.isOk());
    CHECK(r.value->id == "msg_1");
    CHECK(r.value->content == "Adding.");
    CHECK(r.value->reasoning == "Hmm.");
    CHECK(r.value->finishReason == "tool_calls");
    REQUIRE(r.value->toolCalls.size() == 1);
    CHECK(json::parse(r.value->toolCalls[0].arguments) == json{{"id", "a"}, {"name", "A"}});
    CHECK(r.value->usage.promptTokens == 160);
    CHECK(r.value->usage.cachedTokens == 50);
    CHECK(r.value->usage.cacheWriteTokens == 10);
    CHECK(r.value->usage.completionTokens == 20);
    CHECK_FALSE(r.value->usage.costUsd);
    // The thinking block goes back first on the next assistant turn.
    ChatRequest next;
    next.messages.push_back(
        {Role::Assistant, r.value->content, r.value->toolCalls, {}, r.value->reasoningDetailsJson, false});
    const json body = json::parse(buildAnthropicRequestJson(next));
    CHECK(body["messages"][0]["content"][0] ==
          json{{"type", "thinking"}, {"thinking", "Hmm."}, {"signature", "sig"}});

    CHECK_FALSE(decodeAnthropicResponse("<html>").isOk());
    CHECK_FALSE(decodeAnthropicResponse(R"({"type":"message"})").isOk());
}

TEST_CASE("anthropic: recorded streams decode whatever the chunking") {
    for (size_t piece : {size_t(1), size_t(7), size_t(64), size_t(100000)}) {
        CAPTURE(piece);
        Harness h;
        h.transport.push(streamed("tool_use.sse", piece));
        h.send(true);
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->reply);
        const ChatReply& r = *h.outcome->reply;
        CHECK(r.id == "msg_014p7gG3wDgGV9EUtLvnow3U");
        CHECK(r.content == "Adding the group stage.");
        CHECK(h.streamedText == "Adding the group stage.");
        CHECK(r.reasoning == "The root needs a group stage first.");
        CHECK(r.finishReason == "tool_calls");
        REQUIRE(r.toolCalls.size() == 2);
        CHECK(r.toolCalls[0].id == "toolu_01T1x1fJ34qAmk2tNTrN7Up6");
        CHECK(json::parse(r.toolCalls[0].arguments) == json{{"id", "groups"}, {"name", "Groups"}});
        CHECK(r.toolCalls[1].name == "get_graph");
        CHECK(r.toolCalls[1].arguments == "{}");
        CHECK(r.usage.promptTokens == 3700);
        CHECK(r.usage.cacheWriteTokens == 1200);
        CHECK(r.usage.completionTokens == 89);
        CHECK(json::parse(r.reasoningDetailsJson)[0]["signature"] ==
              "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds");
    }
    Harness h;
    h.transport.push(streamed("text.sse"));
    h.send(true);
    h.run();
    REQUIRE(h.outcome->reply);
    CHECK(h.outcome->reply->content == "The plan has two stages.");
    CHECK(h.outcome->reply->finishReason == "stop");
    CHECK(h.outcome->reply->usage.cachedTokens == 1800);
    CHECK(h.outcome->reply->usage.completionTokens == 15);
}

TEST_CASE("anthropic: the key only travels in x-api-key, with the version and browser headers") {
    Harness h;
    h.transport.push(streamed("text.sse"));
    h.send(true);
    h.run();
    REQUIRE(h.transport.requests().size() == 1);
    const net::HttpRequest& req = h.transport.requests()[0];
    CHECK(req.method == "POST");
    CHECK(req.url == "http://127.0.0.1:9/v1/messages");
    CHECK(net::findHeader(req.headers, "x-api-key") == std::string(kSecret));
    CHECK(net::findHeader(req.headers, "anthropic-version") == std::string("2023-06-01"));
    CHECK(net::findHeader(req.headers, "anthropic-dangerous-direct-browser-access") == std::string("true"));
    CHECK(net::findHeader(req.headers, "content-type") == std::string("application/json"));
    CHECK_FALSE(net::findHeader(req.headers, "authorization"));
    CHECK(req.body.find(kSecret) == std::string::npos);
    CHECK(h.outcome->attempts[0].requestJson.find(kSecret) == std::string::npos);
}

TEST_CASE("anthropic: an overloaded error mid-stream and a 529 are retried like server errors") {
    Harness h;
    h.transport.push(streamed("overloaded.sse"));
    h.transport.push(errorReply(529, "overloaded_error"));
    h.transport.push(streamed("text.sse"));
    h.send(true);
    h.run();
    REQUIRE(h.outcome);
    REQUIRE(h.outcome->reply);
    REQUIRE(h.retries.size() == 2);
    CHECK(h.retries[0].error.kind == ChatErrorKind::StreamError);
    CHECK(h.retries[0].error.httpStatus == 529);
    CHECK(h.retries[0].error.message.find("overloaded_error") != std::string::npos);
    CHECK(h.retries[1].error.kind == ChatErrorKind::ServerError);
    CHECK(h.retries[1].error.message.find("overloaded") != std::string::npos);
    CHECK(h.outcome->attempts.size() == 3);
}

TEST_CASE("anthropic: 429 waits for retry-after, while 401, 403 and 400 stop at once") {
    {
        Harness h;
        h.transport.push(errorReply(429, "rate_limit_error", {{"retry-after", "7"}}));
        h.transport.push(streamed("text.sse"));
        h.send(true);
        h.run();
        REQUIRE(h.retries.size() == 1);
        CHECK(h.retries[0].error.kind == ChatErrorKind::RateLimited);
        CHECK(h.retries[0].delayMs == 7000);
        CHECK(h.outcome->reply);
    }
    const std::vector<std::tuple<int, const char*, ChatErrorKind>> stops = {
        {401, "authentication_error", ChatErrorKind::Unauthorized},
        {403, "permission_error", ChatErrorKind::Moderation},
        {400, "invalid_request_error", ChatErrorKind::BadRequest}};
    for (const auto& [status, type, kind] : stops) {
        CAPTURE(status);
        Harness h;
        h.transport.push(errorReply(status, type));
        h.send(false);
        h.run();
        REQUIRE(h.outcome);
        REQUIRE(h.outcome->error);
        CHECK(h.outcome->error->kind == kind);
        CHECK(h.outcome->error->message.find("scripted") != std::string::npos);
        CHECK(h.retries.empty());
        CHECK(h.transport.requests().size() == 1);
    }
}

TEST_CASE("anthropic: a stream cut short is retried, then reported as malformed") {
    Harness h;
    for (int i = 0; i < 4; ++i) h.transport.push(streamed("cut_short.sse"));
    h.send(true);
    h.run();
    REQUIRE(h.outcome);
    REQUIRE(h.outcome->error);
    CHECK(h.outcome->error->kind == ChatErrorKind::MalformedResponse);
    CHECK(h.outcome->error->message == "the stream ended early");
    CHECK(h.outcome->attempts.size() == 4); // 1 + maxRetries
}

TEST_CASE("anthropic: a whole (non-streamed) reply goes through the client") {
    Harness h;
    h.transport.push(FakeReply::json(200, R"({"id":"msg_2","type":"message","role":"assistant","model":"m",
        "stop_reason":"end_turn","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":3,"output_tokens":1}})"));
    h.send(false);
    h.run();
    REQUIRE(h.outcome->reply);
    CHECK(h.outcome->reply->content == "hi");
    CHECK(h.outcome->reply->finishReason == "stop");
}
