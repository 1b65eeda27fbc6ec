// OpenRouter wire format: request bodies (tools, tool_choice, reasoning, cache_control), response,
// error, /models and /key decoding, including malformed bodies.
#include "src/llm/openrouter_json.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace chaiba;
using namespace chaiba::llm;
using nlohmann::json;

TEST_CASE("buildChatRequestJson: tools, choice, parameters and message shapes") {
    ChatRequest r;
    r.model = "anthropic/claude-sonnet-4";
    r.messages.push_back({Role::System, "sys", {}, {}, {}, false});
    ChatMessage ctx{Role::User, "ctx", {}, {}, {}, true};
    r.messages.push_back(ctx);
    ChatMessage a{Role::Assistant,     "",   {{"call_1", "make_move", R"({"move":"e4"})"}}, {},
                  R"([{"type":"x"}])", false};
    r.messages.push_back(a);
    r.messages.push_back({Role::Tool, "Move accepted", {}, "call_1", {}, false});
    r.tools.push_back(
        {"make_move", "Play a move", R"({"type":"object","properties":{"move":{"type":"string"}}})"});
    r.toolChoice = ToolChoice::Required;
    r.temperature = 0.5;
    r.maxTokens = 1000;
    r.reasoningEffort = ReasoningEffort::Low;
    r.stream = true;
    const json j = json::parse(buildChatRequestJson(r));
    CHECK(j["model"] == "anthropic/claude-sonnet-4");
    CHECK(j["messages"][0] == json{{"role", "system"}, {"content", "sys"}});
    CHECK(j["messages"][1]["content"][0]["cache_control"]["type"] == "ephemeral");
    CHECK(j["messages"][1]["content"][0]["text"] == "ctx");
    CHECK(j["messages"][2]["content"].is_null());
    CHECK(j["messages"][2]["tool_calls"][0]["function"]["arguments"] == R"({"move":"e4"})");
    CHECK(j["messages"][2]["reasoning_details"][0]["type"] == "x");
    CHECK(j["messages"][3]["tool_call_id"] == "call_1");
    CHECK(j["tools"][0]["type"] == "function");
    CHECK(j["tools"][0]["function"]["parameters"]["properties"]["move"]["type"] == "string");
    CHECK(j["tool_choice"] == "required");
    CHECK(j["temperature"] == 0.5);
    CHECK(j["max_tokens"] == 1000);
    CHECK(j["reasoning"]["effort"] == "low");
    CHECK(j["stream"] == true);
}

TEST_CASE("buildChatRequestJson: defaults leave optional fields out") {
    ChatRequest r;
    r.model = "m";
    const json j = json::parse(buildChatRequestJson(r));
    CHECK_FALSE(j.contains("tools"));
    CHECK_FALSE(j.contains("temperature"));
    CHECK_FALSE(j.contains("max_tokens"));
    CHECK_FALSE(j.contains("reasoning"));
    CHECK_FALSE(j.contains("stream"));
    CHECK_FALSE(j.contains("modalities"));
}

TEST_CASE("decodeChatResponse: tool calls, reasoning and usage") {
    const char* body = R"({"id":"gen-1","model":"m","choices":[{"finish_reason":"tool_calls","message":{
        "role":"assistant","content":null,"reasoning":"think","tool_calls":[{"id":"c1","type":"function",
        "function":{"name":"make_move","arguments":"{\"move\":\"e4\"}"}}]}}],
        "usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120,
        "prompt_tokens_details":{"cached_tokens":60,"cache_write_tokens":5},
        "completion_tokens_details":{"reasoning_tokens":7},"cost":0.0012}})";
    Result<ChatReply> r = decodeChatResponse(body);
    REQUIRE(r.isOk());
    CHECK(r.value->id == "gen-1");
    CHECK(r.value->content.empty());
    CHECK(r.value->reasoning == "think");
    CHECK(r.value->finishReason == "tool_calls");
    REQUIRE(r.value->toolCalls.size() == 1);
    CHECK(r.value->toolCalls[0].arguments == R"({"move":"e4"})");
    CHECK(r.value->usage.promptTokens == 100);
    CHECK(r.value->usage.cachedTokens == 60);
    CHECK(r.value->usage.cacheWriteTokens == 5);
    CHECK(r.value->usage.reasoningTokens == 7);
    CHECK(r.value->usage.costUsd.value() == doctest::Approx(0.0012));
}

TEST_CASE("decodeChatResponse: malformed bodies are errors, not crashes") {
    for (const char* body : {"", "not json", "[]", "{}", R"({"choices":[]})", R"({"choices":[1]})",
                             R"({"choices":[{"message":"x"}]})", R"({"error":{"message":"boom"}})"}) {
        CAPTURE(body);
        CHECK_FALSE(decodeChatResponse(body).isOk());
    }
    // Mistyped optional fields are ignored, not fatal.
    Result<ChatReply> r =
        decodeChatResponse(R"({"choices":[{"message":{"content":5,"tool_calls":"x"}}],"usage":7})");
    REQUIRE(r.isOk());
    CHECK(r.value->content.empty());
    CHECK(r.value->toolCalls.empty());
}

TEST_CASE("decodeHttpError: every status maps to its kind and keeps the provider's words") {
    struct Row {
        int status;
        ChatErrorKind kind;
        bool retryable;
    };
    for (Row row :
         {Row{400, ChatErrorKind::BadRequest, false}, Row{401, ChatErrorKind::Unauthorized, false},
          Row{402, ChatErrorKind::InsufficientCredits, false}, Row{403, ChatErrorKind::Moderation, false},
          Row{404, ChatErrorKind::BadRequest, false}, Row{408, ChatErrorKind::Timeout, true},
          Row{429, ChatErrorKind::RateLimited, true}, Row{500, ChatErrorKind::ServerError, true},
          Row{502, ChatErrorKind::ServerError, true}, Row{503, ChatErrorKind::ServerError, true}}) {
        CAPTURE(row.status);
        const ChatError e =
            decodeHttpError(row.status, R"({"error":{"code":1,"message":"provider says"}})", {});
        CHECK(e.kind == row.kind);
        CHECK(e.httpStatus == row.status);
        CHECK(isRetryable(e) == row.retryable);
        CHECK(e.message.find("provider says") != std::string::npos);
    }
    const ChatError mod = decodeHttpError(
        403, R"({"error":{"code":403,"message":"flagged","metadata":{"reasons":["violence","hate"]}}})", {});
    CHECK(mod.message.find("violence, hate") != std::string::npos);
    CHECK(decodeHttpError(401, "", {}).message.find("valid") != std::string::npos);
    CHECK(decodeHttpError(402, "<html>", {}).message.find("credits") != std::string::npos);
}

TEST_CASE("Retry-After: seconds are read, dates and junk are not") {
    CHECK(parseRetryAfterMs("3") == 3000);
    CHECK(parseRetryAfterMs(" 0 ") == 0);
    CHECK_FALSE(parseRetryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT").has_value());
    CHECK_FALSE(parseRetryAfterMs("").has_value());
    CHECK_FALSE(parseRetryAfterMs("-1").has_value());
    CHECK(decodeHttpError(429, "{}", std::string("2")).retryAfterMs == 2000);
}

TEST_CASE("decodeModelList: prices as strings, capabilities, bad entries skipped") {
    const char* body = R"({"data":[
        {"id":"openai/gpt-4o","name":"GPT-4o","context_length":128000,
         "pricing":{"prompt":"0.0000025","completion":"0.00001","request":"0","input_cache_read":"0.00000125"},
         "supported_parameters":["tools","tool_choice","temperature"]},
        {"name":"no id"},
        {"id":"deepseek/r1","pricing":{"prompt":"junk"},"supported_parameters":["reasoning"]}]})";
    auto r = decodeModelList(body);
    REQUIRE(r.isOk());
    REQUIRE(r.value->size() == 2);
    const ModelInfo& m = (*r.value)[0];
    CHECK(m.contextLength == 128000);
    CHECK(m.pricing.promptUsdPerToken == doctest::Approx(0.0000025));
    CHECK(m.pricing.completionUsdPerToken == doctest::Approx(0.00001));
    CHECK(m.supportsTools);
    CHECK_FALSE(m.supportsReasoning);
    CHECK((*r.value)[1].name == "deepseek/r1");
    CHECK((*r.value)[1].pricing.promptUsdPerToken == 0);
    CHECK((*r.value)[1].supportsReasoning);
    CHECK_FALSE(decodeModelList("{}").isOk());
    CHECK_FALSE(decodeModelList("nope").isOk());
}

TEST_CASE("decodeKeyInfo and cost estimate") {
    auto k = decodeKeyInfo(
        R"({"data":{"label":"sk-or-v1-abc...","limit":10,"limit_remaining":7.5,"usage":2.5,"is_free_tier":false}})");
    REQUIRE(k.isOk());
    CHECK(k.value->label == "sk-or-v1-abc...");
    CHECK(k.value->limitRemainingUsd.value() == doctest::Approx(7.5));
    auto unlimited = decodeKeyInfo(R"({"data":{"label":"x","limit":null,"usage":0}})");
    REQUIRE(unlimited.isOk());
    CHECK_FALSE(unlimited.value->limitUsd.has_value());
    CHECK_FALSE(decodeKeyInfo(R"({"error":{}})").isOk());

    Usage u;
    u.promptTokens = 1000;
    u.cachedTokens = 400;
    u.completionTokens = 100;
    ModelPricing p;
    p.promptUsdPerToken = 1e-6;
    p.cacheReadUsdPerToken = 1e-7;
    p.completionUsdPerToken = 4e-6;
    // 600 uncached * 1e-6 + 400 * 1e-7 + 100 * 4e-6
    CHECK(estimateCostUsd(u, p) == doctest::Approx(0.0006 + 0.00004 + 0.0004));
}

TEST_CASE("decoders: every truncation of a valid body is an error, never a crash or a partial reply") {
    const std::string chat =
        R"({"id":"gen-1","choices":[{"finish_reason":"stop","message":{"content":"e4",)"
        R"("tool_calls":[{"id":"c","function":{"name":"make_move","arguments":"{}"}}]}}],)"
        R"("usage":{"prompt_tokens":3,"cost":0.1}})";
    const std::string models =
        R"({"data":[{"id":"a/b","pricing":{"prompt":"0.1"},"supported_parameters":["tools"]}]})";
    const std::string key = R"({"data":{"label":"x","limit":1,"usage":0}})";
    REQUIRE(decodeChatResponse(chat).isOk());
    REQUIRE(decodeModelList(models).isOk());
    REQUIRE(decodeKeyInfo(key).isOk());
    for (std::size_t n = 0; n < chat.size(); ++n) CHECK_FALSE(decodeChatResponse(chat.substr(0, n)).isOk());
    for (std::size_t n = 0; n < models.size(); ++n) CHECK_FALSE(decodeModelList(models.substr(0, n)).isOk());
    for (std::size_t n = 0; n < key.size(); ++n) CHECK_FALSE(decodeKeyInfo(key.substr(0, n)).isOk());
    // Error bodies of any shape still give a message with the status.
    for (std::size_t n = 0; n < chat.size(); n += 5) {
        const ChatError e = decodeHttpError(500, chat.substr(0, n), std::string("x"));
        CHECK(e.message.rfind("HTTP 500", 0) == 0);
        CHECK_FALSE(e.retryAfterMs.has_value());
    }
}

TEST_CASE("image output: modalities are sent and the reply's images decoded") {
    ChatRequest r;
    r.model = "google/gemini-image";
    r.messages.push_back({Role::User, "a lamp", {}, {}, {}, false});
    r.modalities = {"image", "text"};
    const json body = json::parse(buildChatRequestJson(r));
    CHECK(body["modalities"] == json::array({"image", "text"}));
    Result<ChatReply> reply = decodeChatResponse(
        R"({"choices": [{"message": {"content": "here", "images": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAA="}}, {"type": "image_url"}]}}]})");
    REQUIRE(reply.isOk());
    CHECK(reply.value->imageUrls == std::vector<std::string>{"data:image/png;base64,AAA="});
}
