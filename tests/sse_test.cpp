// SSE parsing and stream assembly: comments, chunks split anywhere, tool-call deltas by index,
// usage in the last chunk, [DONE], mid-stream errors.
#include "src/llm/sse.h"

#include <doctest/doctest.h>

using namespace chaiba::llm;

namespace {

const char* kStream =
    ": OPENROUTER PROCESSING\n\n"
    "data: {\"id\":\"gen-9\",\"model\":\"m\",\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"I "
    "\"}}]}\n\n"
    ": OPENROUTER PROCESSING\n\n"
    "data: {\"choices\":[{\"delta\":{\"reasoning\":\"hmm\"}}]}\r\n\r\n"
    "data: "
    "{\"choices\":[{\"delta\":{\"content\":\"play\",\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":"
    "\"function\",\"function\":{\"name\":\"make_move\",\"arguments\":\"\"}}]}}]}\n\n"
    "data: "
    "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"\",\"function\":{\"arguments\":\"{"
    "\\\"mo\"}}]}}]}\n\n"
    "data: "
    "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"ve\\\":\\\"e4\\\"}"
    "\"}}]}}]}\n\n"
    "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":9,\"cost\":0.5}}\n\n"
    "data: [DONE]\n\n";

struct Run {
    StreamAssembler assembler;
    std::string text;
    std::string reasoning;
    int errors = 0;
    int done = 0;
};

void feedAll(Run& run, SseParser& parser, std::string_view bytes) {
    parser.feed(bytes, [&](const std::string& data) {
        StreamDelta d = run.assembler.accept(data);
        run.text += d.text;
        run.reasoning += d.reasoning;
        if (d.error) ++run.errors;
        if (d.done) ++run.done;
    });
}

void checkAssembled(const Run& run) {
    const ChatReply r = run.assembler.reply();
    CHECK(run.text == "I play");
    CHECK(run.reasoning == "hmm");
    CHECK(run.errors == 0);
    CHECK(run.done == 1);
    CHECK(r.id == "gen-9");
    CHECK(r.content == "I play");
    CHECK(r.finishReason == "tool_calls");
    REQUIRE(r.toolCalls.size() == 1);
    CHECK(r.toolCalls[0].id == "call_a");
    CHECK(r.toolCalls[0].name == "make_move");
    CHECK(r.toolCalls[0].arguments == R"({"move":"e4"})");
    CHECK(r.usage.promptTokens == 50);
    CHECK(r.usage.completionTokens == 9);
    CHECK(r.usage.costUsd.value() == doctest::Approx(0.5));
}

} // namespace

TEST_CASE("SSE: a whole stream in one chunk") {
    Run run;
    SseParser parser;
    feedAll(run, parser, kStream);
    checkAssembled(run);
}

TEST_CASE("SSE: the same stream split at every possible byte gives the same reply") {
    const std::string all = kStream;
    for (std::size_t cut = 1; cut < all.size(); cut += 7) {
        CAPTURE(cut);
        Run run;
        SseParser parser;
        feedAll(run, parser, std::string_view(all).substr(0, cut));
        feedAll(run, parser, std::string_view(all).substr(cut));
        checkAssembled(run);
    }
    Run run;
    SseParser parser;
    for (char c : all) feedAll(run, parser, std::string_view(&c, 1));
    checkAssembled(run);
}

TEST_CASE("SSE: two tool calls interleaved by index, ids missing") {
    Run run;
    SseParser parser;
    feedAll(
        run, parser,
        "data: "
        "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"name\":\"b\",\"arguments\":"
        "\"{\"}},"
        "{\"index\":0,\"function\":{\"name\":\"a\",\"arguments\":\"[\"}}]}}]}\n\n"
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"]\"}},"
        "{\"index\":1,\"function\":{\"arguments\":\"}\"}}]}}]}\n\n");
    const ChatReply r = run.assembler.reply();
    REQUIRE(r.toolCalls.size() == 2);
    CHECK(r.toolCalls[0].name == "a");
    CHECK(r.toolCalls[0].arguments == "[]");
    CHECK(r.toolCalls[0].id == "call_0");
    CHECK(r.toolCalls[1].name == "b");
    CHECK(r.toolCalls[1].arguments == "{}");
}

TEST_CASE("SSE: mid-stream error chunk and garbage payloads") {
    Run run;
    SseParser parser;
    feedAll(
        run, parser,
        "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n"
        "data: {\"error\":{\"code\":502,\"message\":\"Provider disconnected\"},\"choices\":[{\"delta\":{},"
        "\"finish_reason\":\"error\"}]}\n\n");
    CHECK(run.errors == 1);
    Run garbage;
    SseParser p2;
    int errors = 0;
    p2.feed("data: {not json\n\n", [&](const std::string& d) {
        StreamDelta delta = garbage.assembler.accept(d);
        if (delta.error) {
            ++errors;
            CHECK(delta.error->kind == ChatErrorKind::MalformedResponse);
        }
    });
    CHECK(errors == 1);
    StreamAssembler a;
    const StreamDelta e = a.accept(R"({"error":{"code":502,"message":"Provider disconnected"}})");
    REQUIRE(e.error);
    CHECK(e.error->kind == ChatErrorKind::StreamError);
    CHECK(e.error->httpStatus == 502);
    CHECK(e.error->message.find("Provider disconnected") != std::string::npos);
    CHECK(isRetryable(*e.error));
}

TEST_CASE("SSE: a last event without its blank line is flushed by finish(), other fields ignored") {
    SseParser parser;
    std::vector<std::string> events;
    auto sink = [&](const std::string& d) { events.push_back(d); };
    parser.feed("event: message\nid: 4\ndata: a\ndata: b\n\nretry: 100\ndata: tail", sink);
    CHECK(events == std::vector<std::string>{"a\nb"});
    parser.finish(sink);
    CHECK(events == std::vector<std::string>{"a\nb", "tail"});
}

TEST_CASE("SSE: tool-call deltas report the calls so far, in order, with growing arguments") {
    const std::string stream =
        "data: {\"choices\":[{\"delta\":{\"content\":\"Sure\"}}]}\n\n"
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"function\":{\"name\":"
        "\"add_task\",\"arguments\":\"\"}}]}}]}\n\n"
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"id\\\":"
        "\"}}]}}]}\n\n"
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\"}}]}}]}\n\n"
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"qual\\\"}"
        "\"}},{\"index\":1,\"id\":\"call_b\",\"function\":{\"name\":\"set_status\",\"arguments\":\"{\"}}]}}]}\n\n"
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
        "data: [DONE]\n\n";
    auto snapshots = [](std::string_view bytes, size_t step) {
        StreamAssembler assembler;
        SseParser parser;
        std::vector<std::vector<ToolCall>> seen;
        for (size_t at = 0; at < bytes.size(); at += step)
            parser.feed(bytes.substr(at, step), [&](const std::string& data) {
                StreamDelta d = assembler.accept(data);
                if (d.toolCalls) seen.push_back(*d.toolCalls);
            });
        return seen;
    };
    const std::vector<std::vector<ToolCall>> seen = snapshots(stream, stream.size());
    // The text chunk, the empty piece and the finish report nothing; each change reports all calls.
    REQUIRE(seen.size() == 3);
    REQUIRE(seen[0].size() == 1);
    CHECK(seen[0][0].id == "call_a");
    CHECK(seen[0][0].name == "add_task");
    CHECK(seen[0][0].arguments.empty());
    REQUIRE(seen[1].size() == 1);
    CHECK(seen[1][0].arguments == R"({"id":)");
    REQUIRE(seen[2].size() == 2);
    CHECK(seen[2][0].arguments == R"({"id":"qual"})");
    CHECK(seen[2][1].id == "call_b");
    CHECK(seen[2][1].name == "set_status");
    CHECK(seen[2][1].arguments == "{");
    // Bytes split anywhere give the same reports.
    const std::vector<std::vector<ToolCall>> bytewise = snapshots(stream, 1);
    REQUIRE(bytewise.size() == seen.size());
    for (size_t i = 0; i < seen.size(); ++i) {
        REQUIRE(bytewise[i].size() == seen[i].size());
        for (size_t c = 0; c < seen[i].size(); ++c) CHECK(bytewise[i][c].arguments == seen[i][c].arguments);
    }
}
