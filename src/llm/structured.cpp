// Structured answers: channel choice, request set-up and the lenient reader.
#include "src/llm/structured.h"

#include <nlohmann/json.hpp>

namespace chaiba::llm {

using nlohmann::json;

namespace {

// The text with the raw control characters inside its JSON strings escaped ("line one<newline>
// line two" becomes "line one\nline two"): models write multi-line strings that way, which JSON
// forbids and a strict parser refuses.
std::string escapeControlsInStrings(const std::string& text) {
    std::string out;
    out.reserve(text.size() + 16);
    bool inString = false, escaped = false;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (inString && !escaped && u < 0x20) {
            static const char* hex = "0123456789abcdef";
            if (c == '\n') out += "\\n";
            else if (c == '\r') out += "\\r";
            else if (c == '\t') out += "\\t";
            else out += std::string("\\u00") + hex[u >> 4] + hex[u & 15];
            continue;
        }
        out += c;
        if (inString) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        }
    }
    return out;
}

// The first balanced JSON object in text (strings and escapes respected), or "". An object that
// parses only once the raw control characters in its strings are escaped is given escaped.
std::string firstObject(const std::string& text) {
    for (std::size_t start = text.find('{'); start != std::string::npos; start = text.find('{', start + 1)) {
        int depth = 0;
        bool inString = false, escaped = false;
        for (std::size_t i = start; i < text.size(); ++i) {
            const char c = text[i];
            if (inString) {
                if (escaped) escaped = false;
                else if (c == '\\') escaped = true;
                else if (c == '"') inString = false;
                continue;
            }
            if (c == '"') inString = true;
            else if (c == '{') ++depth;
            else if (c == '}' && --depth == 0) {
                const std::string candidate = text.substr(start, i - start + 1);
                if (!json::parse(candidate, nullptr, false).is_discarded()) return candidate;
                const std::string repaired = escapeControlsInStrings(candidate);
                if (!json::parse(repaired, nullptr, false).is_discarded()) return repaired;
                break;
            }
        }
    }
    return {};
}

// The required properties the schema names that the object lacks, comma-separated.
std::string missingRequired(const json& object, const std::string& schemaJson) {
    const json schema = json::parse(schemaJson, nullptr, false);
    if (schema.is_discarded() || !schema.is_object()) return {};
    auto required = schema.find("required");
    if (required == schema.end() || !required->is_array()) return {};
    std::string missing;
    for (const json& name : *required)
        if (name.is_string() && !object.contains(name.get<std::string>()))
            missing += (missing.empty() ? "" : ", ") + name.get<std::string>();
    return missing;
}

} // namespace

const char* answerChannelName(AnswerChannel channel) {
    switch (channel) {
    case AnswerChannel::JsonSchema: return "json_schema";
    case AnswerChannel::ToolCall: return "tool_call";
    case AnswerChannel::Text: return "text";
    }
    return "text";
}

AnswerChannel channelFor(const ModelInfo* model) {
    if (!model) return AnswerChannel::ToolCall;
    if (model->supportsStructuredOutputs) return AnswerChannel::JsonSchema;
    if (model->supportsTools) return AnswerChannel::ToolCall;
    return AnswerChannel::Text;
}

void applyStructured(ChatRequest& request, const StructuredSpec& spec, AnswerChannel channel) {
    switch (channel) {
    case AnswerChannel::JsonSchema:
        request.responseFormat = ResponseSchema{spec.name, spec.schemaJson, true};
        return;
    case AnswerChannel::ToolCall:
        request.tools = {ToolDefinition{spec.name, spec.description, spec.schemaJson}};
        request.forcedTool = spec.name;
        request.parallelToolCalls = false;
        return;
    case AnswerChannel::Text: {
        const std::string instruction = "\n\nAnswer with exactly one JSON object (" + spec.description +
                                        ") that follows this JSON Schema, and nothing else:\n" + spec.schemaJson;
        for (auto it = request.messages.rbegin(); it != request.messages.rend(); ++it)
            if (it->role == Role::User) {
                it->content += instruction;
                return;
            }
        request.messages.push_back({Role::User, instruction.substr(2), {}, {}, {}, false});
        return;
    }
    }
}

Result<std::string> readStructured(const ChatReply& reply, const StructuredSpec& spec) {
    std::string text;
    for (const ToolCall& call : reply.toolCalls)
        if (call.name == spec.name) {
            text = call.arguments;
            break;
        }
    json object = text.empty() ? json() : json::parse(text, nullptr, false);
    // Tool arguments with raw control characters in a string: read once they are escaped (a
    // model may also write a line of prose in the content beside the call).
    if (!text.empty() && object.is_discarded())
        object = json::parse(escapeControlsInStrings(text), nullptr, false);
    if (text.empty() || object.is_discarded()) {
        object = json::parse(reply.content, nullptr, false);
        if (object.is_discarded() || !object.is_object()) {
            const std::string found = firstObject(reply.content.empty() ? text : reply.content);
            object = found.empty() ? json() : json::parse(found, nullptr, false);
        }
    }
    if (object.is_discarded() || !object.is_object())
        return Result<std::string>::fail("the answer holds no JSON object; answer with one JSON object (" +
                                         spec.description + ")");
    if (const std::string missing = missingRequired(object, spec.schemaJson); !missing.empty())
        return Result<std::string>::fail("the JSON object lacks " + missing);
    return Result<std::string>::ok(object.dump());
}

} // namespace chaiba::llm
