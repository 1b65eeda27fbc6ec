// Structured answers: the channel by model, the request of each channel as OpenRouter receives it,
// and the lenient reader (tool arguments, plain JSON, fenced JSON inside prose, missing fields).
#include "src/llm/openrouter_json.h"
#include "src/llm/structured.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace chaiba::llm;
using nlohmann::json;

namespace {
const StructuredSpec kVote{"vote", "your vote", R"({"type":"object","properties":{"target":{"type":"string"},)"
                                                R"("reasoning":{"type":"string"}},"required":["target","reasoning"]})"};

ChatRequest baseRequest() {
    ChatRequest r;
    r.model = std::string("test/model");
    r.messages.push_back({Role::System, "You play.", {}, {}, {}, false});
    r.messages.push_back({Role::User, "Vote now.", {}, {}, {}, false});
    return r;
}
} // namespace

TEST_CASE("structured: the channel follows what the model supports") {
    ModelInfo m;
    CHECK(channelFor(nullptr) == AnswerChannel::ToolCall);
    CHECK(channelFor(&m) == AnswerChannel::Text);
    m.supportsTools = true;
    CHECK(channelFor(&m) == AnswerChannel::ToolCall);
    m.supportsStructuredOutputs = true;
    CHECK(channelFor(&m) == AnswerChannel::JsonSchema);
    const auto models = decodeModelList(
        R"({"data":[{"id":"a","supported_parameters":["tools","structured_outputs"]},{"id":"b","supported_parameters":["tools"]}]})");
    REQUIRE(models.isOk());
    CHECK(channelFor(&(*models.value)[0]) == AnswerChannel::JsonSchema);
    CHECK(channelFor(&(*models.value)[1]) == AnswerChannel::ToolCall);
}

TEST_CASE("structured: each channel's request body") {
    ChatRequest schema = baseRequest();
    applyStructured(schema, kVote, AnswerChannel::JsonSchema);
    const json a = json::parse(buildChatRequestJson(schema));
    CHECK(a["response_format"]["type"] == "json_schema");
    CHECK(a["response_format"]["json_schema"]["name"] == "vote");
    CHECK(a["response_format"]["json_schema"]["strict"] == true);
    CHECK(a["response_format"]["json_schema"]["schema"]["required"][0] == "target");
    CHECK_FALSE(a.contains("tools"));

    ChatRequest tool = baseRequest();
    applyStructured(tool, kVote, AnswerChannel::ToolCall);
    const json b = json::parse(buildChatRequestJson(tool));
    CHECK(b["tools"].size() == 1);
    CHECK(b["tools"][0]["function"]["name"] == "vote");
    CHECK(b["tool_choice"]["function"]["name"] == "vote");
    CHECK(b["parallel_tool_calls"] == false);
    CHECK_FALSE(b.contains("response_format"));

    ChatRequest text = baseRequest();
    applyStructured(text, kVote, AnswerChannel::Text);
    const json c = json::parse(buildChatRequestJson(text));
    CHECK_FALSE(c.contains("tools"));
    CHECK_FALSE(c.contains("response_format"));
    const std::string last = c["messages"].back()["content"];
    CHECK(last.rfind("Vote now.", 0) == 0);
    CHECK(last.find("exactly one JSON object (your vote)") != std::string::npos);
    CHECK(last.find("\"required\":[\"target\",\"reasoning\"]") != std::string::npos);
}

TEST_CASE("structured: the reader finds the object wherever the channel put it") {
    ChatReply tool;
    tool.toolCalls.push_back({"c1", "vote", R"({"target":"P3","reasoning":"quiet"})"});
    REQUIRE(readStructured(tool, kVote).isOk());
    CHECK(json::parse(*readStructured(tool, kVote).value)["target"] == "P3");

    ChatReply plain;
    plain.content = R"({"target":"P2","reasoning":"r"})";
    CHECK(json::parse(*readStructured(plain, kVote).value)["target"] == "P2");

    ChatReply fenced;
    fenced.content = "Let me think {briefly}.\n```json\n{\"target\": \"P5\", \"reasoning\": \"said \\\"}\\\" oddly\"}\n```\nDone.";
    const auto r = readStructured(fenced, kVote);
    REQUIRE_MESSAGE(r.isOk(), r.error);
    CHECK(json::parse(*r.value)["target"] == "P5");
    CHECK(json::parse(*r.value)["reasoning"] == "said \"}\" oddly");

    ChatReply lacking;
    lacking.content = R"({"target":"P1"})";
    CHECK(readStructured(lacking, kVote).error == "the JSON object lacks reasoning");

    ChatReply none;
    none.content = "I vote for P4 because they are quiet.";
    CHECK(readStructured(none, kVote).error.find("no JSON object") != std::string::npos);

    ChatReply broken; // malformed tool arguments, no content: an error, not a crash
    broken.toolCalls.push_back({"c1", "vote", R"({"target": "P3", )"});
    CHECK_FALSE(readStructured(broken, kVote).isOk());
}

// Models write multi-line reasoning inside a JSON string with raw newlines (a review of real
// Werewolf answers found 2 of 28 written so): JSON forbids them, a strict parser refuses the
// object; the reader escapes them and reads it. A real syntax error is still refused.
TEST_CASE("structured: a JSON string holding raw newlines and tabs is read") {
    ChatReply reply;
    reply.content = "{\"target\": \"P3\", \"reasoning\": \"P3 pushed the vote on P5.\nThen P3 went quiet.\n\t- suspicious\"}";
    Result<std::string> read = readStructured(reply, kVote);
    REQUIRE_MESSAGE(read.isOk(), read.error);
    const json object = json::parse(*read.value);
    CHECK(object["target"] == "P3");
    CHECK(object["reasoning"] == "P3 pushed the vote on P5.\nThen P3 went quiet.\n\t- suspicious");
    // The same as a forced tool call's arguments, and inside prose.
    ChatReply tool;
    tool.toolCalls.push_back({"call_1", "vote", "{\"target\": \"P2\",\n \"reasoning\": \"one\ntwo\"}"});
    REQUIRE(readStructured(tool, kVote).isOk());
    CHECK(json::parse(*readStructured(tool, kVote).value)["reasoning"] == "one\ntwo");
    ChatReply prose;
    prose.content = "My vote:\n```json\n{\"target\": \"P4\", \"reasoning\": \"line\nline\"}\n```";
    REQUIRE(readStructured(prose, kVote).isOk());
    ChatReply broken;
    broken.content = "{\"target\": \"P4\", \"reasoning\": \"line\nline\",}";
    CHECK_FALSE(readStructured(broken, kVote).isOk());
}

// A forced tool call whose arguments hold raw control characters in a string, while the model also
// wrote a line of prose in the content (the reader went to the content, found no object there and
// refused the answer as "no JSON object"). Only strings are repaired: a control character between
// tokens stays a syntax error.
TEST_CASE("structured: tool arguments with raw control characters are read beside prose") {
    ChatReply reply;
    reply.content = "I will cast my vote now.";
    reply.toolCalls.push_back(
        {"call_7", "vote",
         "{\"target\": \"P3\", \"reasoning\": \"P3 defended P5 twice.\r\nThat is what a wolf does.\x0b\"}"});
    const Result<std::string> read = readStructured(reply, kVote);
    REQUIRE_MESSAGE(read.isOk(), read.error);
    const json object = json::parse(*read.value);
    REQUIRE(object.is_object());
    CHECK(object["target"] == "P3");
    CHECK(object["reasoning"] == "P3 defended P5 twice.\r\nThat is what a wolf does.\x0b");

    ChatReply outside;
    outside.content = "I will cast my vote now.";
    outside.toolCalls.push_back({"call_8", "vote", "{\"target\": \"P3\",\x01 \"reasoning\": \"r\"}"});
    CHECK(readStructured(outside, kVote).error.find("no JSON object") != std::string::npos);
}
