// The one way to ask a model (src/llm/ask.h) with a scripted chat service: a refused answer is asked
// again with the reason in the request, the tries end in a failure or the fallback model, failed
// requests (429, 500, 401) are typed and backed off on the caller's clock, garbage is refused,
// costs and tokens are summed, and the call log holds every attempt.
#include "src/llm/ask.h"
#include "src/llm/openrouter_client.h"
#include "tests/fakes/fake_chat.h"
#include "tests/fakes/fake_transport.h"

#include <doctest/doctest.h>

using namespace chaiba;
using namespace chaiba::llm;
using chaiba::fakes::FakeChat;

namespace {
const StructuredSpec kVote{"vote", "your vote",
                           R"({"type":"object","properties":{"target":{"type":"string"},)"
                           R"("reasoning":{"type":"string"}},"required":["target","reasoning"]})"};

AskRequest voteRequest(std::vector<AskModel> models = {
                           {"test/model", AnswerChannel::JsonSchema, std::nullopt}}) {
    AskRequest r;
    r.base.messages.push_back({Role::System, "You play.", {}, {}, {}, false});
    r.base.messages.push_back({Role::User, "Vote now.", {}, {}, {}, false});
    r.base.timeoutMs = 10000;
    r.answer = kVote;
    r.models = std::move(models);
    return r;
}

AskPolicy policy(int apiRetries, int refusalRetries) {
    AskPolicy p;
    p.apiRetries = apiRetries;
    p.refusalRetries = refusalRetries;
    p.retryTemplate = "Not accepted: {error}. Again.";
    return p;
}

// Only P1 and P2 may be voted for.
std::string onlyP1OrP2(const ChatReply&, const std::string& answer) {
    if (answer.find("\"P1\"") != std::string::npos || answer.find("\"P2\"") != std::string::npos) return {};
    return "choose P1 or P2";
}

// Sends the due request at nowMs, delivers it and handles the answer.
void exchange(Ask& ask, FakeChat& chat, std::int64_t nowMs, const AnswerCheck& check = onlyP1OrP2) {
    REQUIRE(ask.dueAtMs().has_value());
    REQUIRE(*ask.dueAtMs() <= nowMs);
    ask.send(chat);
    CHECK(ask.inFlight());
    chat.poll();
    ask.advance(nowMs, check);
}
} // namespace

TEST_CASE("ask: a refused answer is asked again with the reason, then accepted") {
    FakeChat chat;
    chat.pushText(R"({"target":"P7","reasoning":"a guess"})", 0.01);
    chat.pushText(R"({"target":"P2","reasoning":"better"})", 0.02);
    Ask ask(voteRequest(), policy(0, 1));
    ask.start(0);
    exchange(ask, chat, 0);
    CHECK_FALSE(ask.done());
    CHECK(ask.dueAtMs() == 0); // a refusal is asked again at once
    exchange(ask, chat, 0);
    REQUIRE(ask.done());
    const AskResult& r = *ask.result();
    CHECK(r.ok());
    CHECK(r.answer == R"({"reasoning":"better","target":"P2"})");
    CHECK(r.requests == 2);
    CHECK(r.refusals == 1);
    CHECK(r.error.empty());
    REQUIRE(chat.requests().size() == 2);
    CHECK(chat.requests()[0].messages.back().content == "Vote now.");
    CHECK(chat.requests()[1].messages.back().content == "Vote now.\n\nNot accepted: choose P1 or P2. Again.");
    CHECK(chat.requests()[1].responseFormat->name == "vote");
    CHECK(chat.requests()[1].timeoutMs == 10000);
    REQUIRE(ask.log().records().size() == 2);
    CHECK(ask.log().records()[0].feedback == "choose P1 or P2");
    CHECK(ask.log().records()[1].feedback.empty());
    CHECK(ask.log().records()[1].attempt == 2);
}

TEST_CASE("ask: garbage is refused with the reader's reason and ends Refused after the tries") {
    FakeChat chat;
    chat.pushText("I would rather not say.");
    chat.pushText(R"({"target":"P1"})"); // lacks the required reasoning
    Ask ask(voteRequest({{"test/model", AnswerChannel::Text, std::nullopt}}), policy(0, 1));
    ask.start(0);
    exchange(ask, chat, 0);
    exchange(ask, chat, 0);
    REQUIRE(ask.done());
    const AskResult& r = *ask.result();
    CHECK(r.failure == AskFailure::Refused);
    CHECK(r.error == "the JSON object lacks reasoning");
    CHECK(r.answer == R"({"target":"P1"})"); // the last answer seen, raw
    CHECK(r.refusals == 2);
    CHECK(chat.requests().size() == 2); // one retry only
    // The text channel's instruction comes after the fed-back reason.
    const std::string& second = chat.requests()[1].messages.back().content;
    CHECK(second.find("Not accepted: the answer holds no JSON object") != std::string::npos);
    CHECK(second.find("Not accepted") < second.find("Answer with exactly one JSON object"));
}

TEST_CASE("ask: a lenient reading leaves the missing fields to the caller's check") {
    FakeChat chat;
    chat.pushText(R"({"target":"P1"})");
    AskRequest request = voteRequest();
    request.readAs =
        StructuredSpec{kVote.name, kVote.description, R"({"type":"object","required":["target"]})"};
    Ask ask(std::move(request), policy(0, 0));
    ask.start(0);
    exchange(ask, chat, 0);
    REQUIRE(ask.done());
    CHECK(ask.result()->ok());
}

TEST_CASE("ask: failed requests are typed and retried after a doubling backoff, then the failure") {
    FakeChat chat;
    chat.pushError(ChatErrorKind::RateLimited, 429, "slow down");
    chat.pushError(ChatErrorKind::ServerError, 500, "provider down");
    chat.pushError(ChatErrorKind::ServerError, 500, "provider still down");
    Ask ask(voteRequest(), policy(2, 1));
    ask.start(0);
    exchange(ask, chat, 0);
    CHECK(ask.dueAtMs() == 1000);
    exchange(ask, chat, 1000);
    CHECK(ask.dueAtMs() == 3000);
    exchange(ask, chat, 3000);
    REQUIRE(ask.done());
    const AskResult& r = *ask.result();
    CHECK(r.failure == AskFailure::ApiError);
    CHECK(r.error == "server error: provider still down");
    REQUIRE(r.chatError);
    CHECK(r.chatError->httpStatus == 500);
    CHECK(r.apiFailures == 3);
    CHECK(r.requests == 3);
    REQUIRE(ask.log().records().size() == 3);
    REQUIRE(ask.log().records()[0].error);
    CHECK(ask.log().records()[0].error->kind == ChatErrorKind::RateLimited);
    CHECK(ask.log().records()[0].error->httpStatus == 429);
}

TEST_CASE("ask: the requests the chat client already retried count against the ask's API retries") {
    // A call that timed out after `requests` requests of the client's, then an answer ready: with
    // a policy of 2 retries, 3 requests used them all, 2 leave one.
    for (const int requests : {3, 2}) {
        CAPTURE(requests);
        FakeChat chat;
        ChatOutcome timedOut;
        timedOut.error = ChatError{ChatErrorKind::Timeout, 0, "no answer in 10 s", std::nullopt, requests};
        chat.push(timedOut);
        chat.pushText(R"({"target":"P1","reasoning":"r"})");
        Ask ask(voteRequest(), policy(2, 1));
        ask.start(0);
        exchange(ask, chat, 0);
        if (requests == 2) {
            REQUIRE_FALSE(ask.done());
            exchange(ask, chat, *ask.dueAtMs());
        }
        REQUIRE(ask.done());
        CHECK(ask.result()->ok() == (requests == 2));
        CHECK(chat.requests().size() == (requests == 2 ? 2u : 1u));
    }
}

TEST_CASE("ask: a model always rate limited is asked apiRetries + 1 times, the client's retries capped") {
    // The real chat client (5 tries while answered 429) over a transport that always answers 429:
    // each call may make only the requests the ask has left, so the policy's count holds (before,
    // 2 retries were the client's 5 tries, and 5 retries were 5 and then 5 more). With 0 the ask
    // retries nothing and the client's own policy stands.
    for (const auto& [apiRetries, expected] : {std::pair{2, 3}, std::pair{5, 6}, std::pair{0, 5}}) {
        CAPTURE(apiRetries);
        fakes::FakeTransport transport;
        fakes::FakeClock clock;
        transport.setResponder([](const net::HttpRequest&) {
            return fakes::FakeReply::json(429, R"({"error":{"code":429,"message":"slow down"}})");
        });
        OpenRouterConfig clientConfig;
        clientConfig.baseUrl = "http://127.0.0.1:9/api/v1";
        clientConfig.apiKey = "sk-test";
        OpenRouterClient client(transport, clock, clientConfig);
        Ask ask(voteRequest(), policy(apiRetries, 0));
        ask.run(client);
        for (int i = 0; i < 10000 && !ask.done(); ++i) {
            client.poll();
            clock.advance(100);
        }
        REQUIRE(ask.done());
        CHECK(ask.result()->failure == AskFailure::ApiError);
        CHECK(int(transport.requests().size()) == expected);
    }
}

TEST_CASE("ask: an unretryable error ends at once") {
    FakeChat chat;
    chat.pushError(ChatErrorKind::Unauthorized, 401, "bad key");
    Ask ask(voteRequest(), policy(2, 1));
    ask.start(0);
    exchange(ask, chat, 0);
    REQUIRE(ask.done());
    CHECK(ask.result()->failure == AskFailure::ApiError);
    CHECK(ask.result()->error == "invalid API key: bad key");
    CHECK(chat.requests().size() == 1);
}

TEST_CASE("ask: the fallback model gets its own tries, with its own channel and no old feedback") {
    FakeChat chat;
    chat.pushText(R"({"target":"P9","reasoning":"no"})");
    chat.pushText(R"({"target":"P9","reasoning":"still no"})");
    chat.pushReply([] {
        ChatReply r;
        r.toolCalls.push_back({"c1", "vote", R"({"target":"P1","reasoning":"tool"})"});
        r.usage.costUsd = 0.5;
        return r;
    }());
    Ask ask(voteRequest({{"first/model", AnswerChannel::JsonSchema, std::nullopt},
                         {"second/model", AnswerChannel::ToolCall, std::nullopt}}),
            policy(0, 1));
    ask.start(0);
    exchange(ask, chat, 0);
    exchange(ask, chat, 0);
    CHECK_FALSE(ask.done());
    exchange(ask, chat, 0);
    REQUIRE(ask.done());
    const AskResult& r = *ask.result();
    CHECK(r.ok());
    CHECK(r.model == "second/model");
    CHECK(r.modelIndex == 1);
    REQUIRE(chat.requests().size() == 3);
    CHECK(chat.requests()[1].model == "first/model");
    CHECK(chat.requests()[2].model == "second/model");
    CHECK(chat.requests()[2].forcedTool == "vote");
    CHECK(chat.requests()[2].messages.back().content == "Vote now.");
    CHECK(ask.log().records()[2].model == "second/model");
}

TEST_CASE("ask: costs and tokens are summed over every attempt, refused ones included") {
    FakeChat chat;
    ModelPricing prices;
    prices.promptUsdPerToken = 0.001;
    prices.completionUsdPerToken = 0.002;
    ChatReply unpriced;
    unpriced.content = R"({"target":"P5","reasoning":"x"})";
    unpriced.usage.promptTokens = 100;
    unpriced.usage.completionTokens = 10;
    unpriced.usage.totalTokens = 110;
    chat.pushReply(unpriced); // no cost reported: estimated from the prices (0.1 + 0.02)
    ChatReply priced = unpriced;
    priced.content = R"({"target":"P1","reasoning":"y"})";
    priced.usage.costUsd = 0.25;
    chat.pushReply(priced);
    Ask ask(voteRequest({{"test/model", AnswerChannel::JsonSchema, prices}}), policy(0, 1));
    ask.start(0);
    exchange(ask, chat, 0);
    exchange(ask, chat, 0);
    REQUIRE(ask.done());
    CHECK(ask.result()->costUsd == doctest::Approx(0.37));
    CHECK(ask.result()->usage.totalTokens == 220);
    CHECK(ask.log().totalCostUsd() == doctest::Approx(0.37));
    CHECK(ask.log().totalUsage().totalTokens == 220);
}

TEST_CASE("ask: driven by arrivals into a shared log, with every call reported") {
    FakeChat chat;
    CallLog shared;
    chat.pushError(ChatErrorKind::ServerError, 500, "down");
    chat.pushText("plain words");
    AskRequest request = voteRequest({{"a/model", AnswerChannel::Text, std::nullopt}});
    request.answer.reset(); // a text answer
    AskHooks hooks;
    std::vector<std::string> calls;
    std::optional<AskResult> ended;
    hooks.onRequest = [&](const ChatRequest& r, std::size_t index) {
        calls.push_back("request " + r.model + " " + std::to_string(index));
    };
    hooks.onCall = [&](const AskCall& call) {
        calls.push_back("call [" + call.answer + "] [" + call.error + "]");
    };
    hooks.onDone = [&](const AskResult& r) { ended = r; };
    AskPolicy p = policy(1, 0);
    p.turn = 4;
    Ask ask(std::move(request), p, hooks, &shared);
    ask.run(chat);
    chat.poll(); // the 500: retried at once (no clock when driven by arrivals)
    CHECK_FALSE(ended);
    chat.poll();
    REQUIRE(ended);
    CHECK(ended->ok());
    CHECK(ended->answer == "plain words");
    CHECK(chat.requests()[1].messages.back().content == "Vote now.");
    CHECK(calls == std::vector<std::string>{"request a/model 0", "call [] [server error: down]",
                                            "request a/model 0", "call [plain words] []"});
    REQUIRE(shared.records().size() == 2);
    CHECK(shared.records()[0].turn == 4);
    CHECK(&ask.log() == &shared);
}

TEST_CASE("ask: cancel stops the call in flight and ends the ask Stopped") {
    FakeChat chat;
    chat.pushText(R"({"target":"P1","reasoning":"x"})");
    bool doneCalled = false;
    AskHooks hooks;
    hooks.onDone = [&](const AskResult&) { doneCalled = true; };
    Ask ask(voteRequest(), policy(0, 0), hooks);
    ask.run(chat);
    ask.cancel();
    chat.poll();
    REQUIRE(ask.done());
    CHECK(ask.result()->failure == AskFailure::Stopped);
    CHECK_FALSE(doneCalled);
    CHECK(ask.log().records().empty());
}
