// Structured answers: a decision a mode wants as a JSON object ({"target", "reasoning"}, an
// orchestrator's plan) asked the best way the model supports — a JSON Schema through
// response_format, else one forced tool call whose arguments are the object, else plain text with
// the schema in the instructions — and read back leniently (code fences, prose around the object).
#pragma once

#include "src/llm/chat.h"
#include "src/llm/openrouter_json.h"

#include <string>

namespace chaiba::llm {

enum class AnswerChannel : std::uint8_t { JsonSchema, ToolCall, Text };
const char* answerChannelName(AnswerChannel channel);

// The best channel for a model of the catalog (null: unknown model, so tools, the common case).
AnswerChannel channelFor(const ModelInfo* model);

struct StructuredSpec {
    std::string name;        // schema and tool name ([a-zA-Z0-9_-]), e.g. "vote"
    std::string description; // what the object is for (the tool's description)
    std::string schemaJson;  // a JSON Schema of an object
};

// Sets up the request for the channel: response_format; or the spec as the one tool, forced; or an
// instruction appended to the last user message ("Answer with one JSON object ... schema ...").
void applyStructured(ChatRequest& request, const StructuredSpec& spec, AnswerChannel channel);

// The answer's JSON object, as compact JSON text: the forced tool call's arguments, else the
// content as JSON, else the first balanced {...} in the content (fences and prose ignored). The
// object's required properties must be present; an error says what is wrong, for a retry.
Result<std::string> readStructured(const ChatReply& reply, const StructuredSpec& spec);

} // namespace chaiba::llm
