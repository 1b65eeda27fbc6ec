// The LLM core's tool loop with a scripted chat service: errors fed back and fixed, parallel calls
// answered in emitted order, and each stop condition (terminal tool, no calls, round cap, cost cap,
// Stop, a failed request).
#include "src/llm/tool_loop.h"
#include "tests/fakes/fake_chat.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace chaiba::llm;
using chaiba::fakes::FakeChat;

namespace {

ChatReply callsReply(std::vector<ToolCall> calls, double costUsd = 0.01) {
    ChatReply r;
    r.toolCalls = std::move(calls);
    r.finishReason = "tool_calls";
    r.usage.promptTokens = 100;
    r.usage.completionTokens = 20;
    r.usage.totalTokens = 120;
    r.usage.costUsd = costUsd;
    return r;
}

ChatRequest baseRequest() {
    ChatRequest r;
    r.model = "test/model";
    r.messages.push_back({Role::System, "You keep a counter.", {}, {}, {}, false});
    r.messages.push_back({Role::User, "Add 2 and 3, then finish.", {}, {}, {}, false});
    r.tools.push_back({"add", "adds", R"({"type":"object"})"});
    r.tools.push_back({"finish", "ends", R"({"type":"object"})"});
    return r;
}

// A tiny tool set: add {"n": int} (an error without a whole number), finish (terminal).
struct Counter {
    int total = 0;
    std::vector<std::string> ran; // call ids in the order they ran
    ToolResult run(const ToolCall& call) {
        ran.push_back(call.id);
        if (call.name == "finish") return ToolResult::finish("done: " + std::to_string(total));
        if (call.name != "add") return ToolResult::error("Error: unknown tool \"" + call.name + "\".");
        const nlohmann::json args = nlohmann::json::parse(call.arguments, nullptr, false);
        if (args.is_discarded() || !args.is_object() || !args.contains("n") || !args["n"].is_number_integer())
            return ToolResult::error("Error: add needs {\"n\": <whole number>}.");
        total += args["n"].get<int>();
        return ToolResult::ok("total " + std::to_string(total));
    }
};

ToolLoopHooks counterHooks(Counter& counter) {
    ToolLoopHooks h;
    h.runTool = [&counter](const ToolCall& call) { return counter.run(call); };
    return h;
}

ToolLoopOutcome runToEnd(FakeChat& chat, ToolLoop& loop) {
    loop.start();
    for (int i = 0; i < 100 && loop.running(); ++i) chat.poll();
    REQUIRE_FALSE(loop.running());
    REQUIRE(loop.outcome().has_value());
    return *loop.takeOutcome();
}

} // namespace

TEST_CASE("tool loop: a text answer without calls ends the loop") {
    FakeChat chat;
    chat.pushText("Nothing to do.", 0.02);
    Counter counter;
    ToolLoop loop(chat, baseRequest(), counterHooks(counter));
    const ToolLoopOutcome out = runToEnd(chat, loop);
    CHECK(out.stop == LoopStop::NoToolCalls);
    CHECK(out.rounds == 1);
    CHECK(out.costUsd == doctest::Approx(0.02));
    CHECK(out.lastReply->content == "Nothing to do.");
    CHECK(chat.requests().size() == 1);
    CHECK(loop.log().records().size() == 1);
    CHECK(loop.messages().back().role == Role::Assistant);
}

TEST_CASE("tool loop: a tool error goes back to the model, which fixes it") {
    FakeChat chat;
    chat.pushReply(callsReply({{"c1", "add", R"({"n": "two"})"}}));
    chat.pushReply(callsReply({{"c2", "add", R"({"n": 2})"}, {"c3", "add", R"({"n": 3})"}}));
    chat.pushReply(callsReply({{"c4", "finish", "{}"}}));
    Counter counter;
    ToolLoop loop(chat, baseRequest(), counterHooks(counter));
    const ToolLoopOutcome out = runToEnd(chat, loop);
    CHECK(out.stop == LoopStop::Terminal);
    CHECK(out.rounds == 3);
    CHECK(counter.total == 5);
    REQUIRE(chat.requests().size() == 3);
    // The second request carries the first reply's call and its error result, matched by id.
    const std::vector<ChatMessage>& second = chat.requests()[1].messages;
    REQUIRE(second.size() == 4);
    CHECK(second[2].role == Role::Assistant);
    CHECK(second[2].toolCalls.at(0).id == "c1");
    CHECK(second[3].role == Role::Tool);
    CHECK(second[3].toolCallId == "c1");
    CHECK(second[3].content == "Error: add needs {\"n\": <whole number>}.");
    // Tools go on every request of the loop.
    for (const ChatRequest& r : chat.requests()) CHECK(r.tools.size() == 2);
}

TEST_CASE("tool loop: parallel calls run and are answered in emitted order") {
    FakeChat chat;
    chat.pushReply(callsReply({{"a", "add", R"({"n": 1})"},
                               {"b", "nope", "{}"},
                               {"c", "add", R"({"n": 10})"},
                               {"d", "add", "not json"}}));
    chat.pushText("All done.");
    Counter counter;
    std::vector<std::pair<std::string, bool>> recorded;
    ToolLoopHooks hooks = counterHooks(counter);
    hooks.onToolResult = [&](const ToolCall& call, const ToolResult& r) { recorded.push_back({call.id, r.isError}); };
    ToolLoop loop(chat, baseRequest(), hooks);
    const ToolLoopOutcome out = runToEnd(chat, loop);
    CHECK(out.stop == LoopStop::NoToolCalls);
    CHECK(counter.ran == std::vector<std::string>{"a", "b", "c", "d"});
    CHECK(recorded == std::vector<std::pair<std::string, bool>>{{"a", false}, {"b", true}, {"c", false}, {"d", true}});
    const std::vector<ChatMessage>& second = chat.requests().at(1).messages;
    REQUIRE(second.size() == 7); // system, user, assistant with 4 calls, 4 results
    const char* ids[] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; ++i) {
        CHECK(second[size_t(3 + i)].role == Role::Tool);
        CHECK(second[size_t(3 + i)].toolCallId == ids[i]);
    }
    CHECK(second[4].content == "Error: unknown tool \"nope\".");
    CHECK(second[5].content == "total 11");
}

TEST_CASE("tool loop: the round cap ends a loop that never finishes") {
    FakeChat chat;
    chat.setResponder([](const ChatRequest&) {
        ChatOutcome o;
        o.reply = callsReply({{"x", "add", R"({"n": 1})"}});
        return o;
    });
    Counter counter;
    ToolLoopOptions options;
    options.maxRounds = 4;
    ToolLoop loop(chat, baseRequest(), counterHooks(counter), options);
    const ToolLoopOutcome out = runToEnd(chat, loop);
    CHECK(out.stop == LoopStop::RoundCap);
    CHECK(out.rounds == 4);
    CHECK(chat.requests().size() == 4);
    CHECK(counter.total == 4);
}

TEST_CASE("tool loop: rounds the caller does not count leave the cap alone") {
    FakeChat chat;
    chat.setResponder([](const ChatRequest&) {
        ChatOutcome o;
        o.reply = callsReply({{"x", "add", R"({"n": 1})"}});
        return o;
    });
    Counter counter;
    ToolLoopHooks hooks = counterHooks(counter);
    int round = 0;
    hooks.afterRound = [&](const ChatReply&, const std::vector<ToolResult>&) {
        return std::optional<RoundDecision>(RoundDecision::carryOn(++round % 2 == 0)); // every other one is free
    };
    ToolLoopOptions options;
    options.maxRounds = 3;
    ToolLoop loop(chat, baseRequest(), hooks, options);
    const ToolLoopOutcome out = runToEnd(chat, loop);
    CHECK(out.stop == LoopStop::RoundCap);
    CHECK(out.countedRounds == 3);
    CHECK(out.rounds == 6);
}

TEST_CASE("tool loop: the cost cap stops before a round it cannot afford") {
    FakeChat chat;
    chat.setResponder([](const ChatRequest&) {
        ChatOutcome o;
        o.reply = callsReply({{"x", "add", R"({"n": 1})"}}, 0.4);
        return o;
    });
    Counter counter;
    ToolLoopOptions options;
    options.costCapUsd = 1.0;
    ToolLoop loop(chat, baseRequest(), counterHooks(counter), options);
    const ToolLoopOutcome out = runToEnd(chat, loop);
    CHECK(out.stop == LoopStop::CostCap);
    CHECK(out.rounds == 3); // 0.4, 0.8 (< 1: another round), 1.2 (>= 1: stop)
    CHECK(out.costUsd == doctest::Approx(1.2));
    CHECK(chat.requests().size() == 3);
}

TEST_CASE("tool loop: Stop cancels the call in flight and nothing runs after it") {
    FakeChat chat;
    chat.pushReply(callsReply({{"x", "finish", "{}"}}));
    Counter counter;
    bool replied = false;
    ToolLoopHooks hooks = counterHooks(counter);
    hooks.onReply = [&](const ChatReply&) { replied = true; };
    ToolLoop loop(chat, baseRequest(), hooks);
    loop.start();
    CHECK(loop.running());
    loop.stop();
    CHECK_FALSE(loop.running());
    chat.poll();
    CHECK(chat.idle());
    CHECK_FALSE(replied);
    CHECK(counter.ran.empty());
    REQUIRE(loop.outcome().has_value());
    CHECK(loop.outcome()->stop == LoopStop::Stopped);
    CHECK(loop.outcome()->rounds == 0);
}

TEST_CASE("tool loop: Stop from a tool ends the loop after that round") {
    FakeChat chat;
    chat.setResponder([](const ChatRequest&) {
        ChatOutcome o;
        o.reply = callsReply({{"x", "add", R"({"n": 1})"}});
        return o;
    });
    Counter counter;
    ToolLoop* self = nullptr;
    ToolLoopHooks hooks;
    hooks.runTool = [&](const ToolCall& call) {
        ToolResult r = counter.run(call);
        if (counter.total == 2) self->stop();
        return r;
    };
    ToolLoop loop(chat, baseRequest(), hooks);
    self = &loop;
    const ToolLoopOutcome out = runToEnd(chat, loop);
    CHECK(out.stop == LoopStop::Stopped);
    CHECK(chat.requests().size() == 2);
}

TEST_CASE("tool loop: a failed request ends the loop with the typed error, logged") {
    FakeChat chat;
    chat.pushReply(callsReply({{"x", "add", R"({"n": 1})"}}));
    chat.pushError(ChatErrorKind::InsufficientCredits, 402, "out of credits");
    Counter counter;
    CallLog shared;
    ToolLoopOptions options;
    options.turn = 7;
    ToolLoop loop(chat, baseRequest(), counterHooks(counter), options, &shared);
    const ToolLoopOutcome out = runToEnd(chat, loop);
    CHECK(out.stop == LoopStop::Failed);
    REQUIRE(out.error.has_value());
    CHECK(out.error->kind == ChatErrorKind::InsufficientCredits);
    REQUIRE(shared.records().size() == 2);
    CHECK(shared.records()[1].error.has_value());
    CHECK(shared.records()[1].turn == 7);
    CHECK(shared.records()[1].attempt == 2);
    CHECK(shared.totalUsage().promptTokens == 100);
}

TEST_CASE("tool loop: with a caller's transcript the loop asks for each request and adds nothing") {
    FakeChat chat;
    chat.pushReply(callsReply({{"x", "add", R"({"n": 4})"}}));
    chat.pushReply(callsReply({{"y", "finish", "{}"}}));
    Counter counter;
    std::vector<ChatMessage> transcript = baseRequest().messages;
    ToolLoopHooks hooks = counterHooks(counter);
    hooks.buildRequest = [&] {
        ChatRequest r = baseRequest();
        r.messages = transcript;
        return r;
    };
    hooks.onReply = [&](const ChatReply& reply) {
        transcript.push_back({Role::Assistant, reply.content, reply.toolCalls, {}, {}, false});
    };
    hooks.onToolResult = [&](const ToolCall& call, const ToolResult& r) {
        transcript.push_back({Role::Tool, "[recorded] " + r.content, {}, call.id, {}, false});
    };
    ToolLoop loop(chat, baseRequest(), hooks);
    const ToolLoopOutcome out = runToEnd(chat, loop);
    CHECK(out.stop == LoopStop::Terminal);
    CHECK(loop.messages().size() == 2); // the base only
    CHECK(chat.requests()[1].messages.back().content == "[recorded] total 4");
}

// A broken model made 20 paid calls of the same failing tool and the log said "ok": with a limit,
// the loop ends (Repeating) after the same call failed that many times in a row, saying which.
TEST_CASE("tool loop: the same failing call repeated ends the loop, a changed call does not") {
    FakeChat chat;
    chat.setResponder([](const ChatRequest&) {
        ChatOutcome o;
        o.reply = callsReply({{"x", "add", R"({"n": "two"})"}});
        return o;
    });
    Counter counter;
    ToolLoopOptions options;
    options.maxRounds = 20;
    options.maxRepeatedErrors = 3;
    ToolLoop loop(chat, baseRequest(), counterHooks(counter), options);
    const ToolLoopOutcome out = runToEnd(chat, loop);
    CHECK(out.stop == LoopStop::Repeating);
    CHECK(chat.requests().size() == 3);
    CHECK(out.repeatedError.find("add({\"n\": \"two\"})") != std::string::npos);
    CHECK(out.repeatedError.find("whole number") != std::string::npos);
    // A model that fixes its call after an error is not stopped (and without a limit nothing is).
    FakeChat learning;
    int asked = 0;
    learning.setResponder([&asked](const ChatRequest&) {
        ChatOutcome o;
        ++asked;
        o.reply = asked <= 2 ? callsReply({{"a", "add", R"({"n": "two"})"}})
                  : asked == 3 ? callsReply({{"b", "add", R"({"n": 2})"}})
                               : callsReply({{"c", "finish", "{}"}});
        return o;
    });
    Counter second;
    ToolLoop fixed(learning, baseRequest(), counterHooks(second), options);
    const ToolLoopOutcome ok = runToEnd(learning, fixed);
    CHECK(ok.stop == LoopStop::Terminal);
    CHECK(second.total == 2);
}
