// Server-sent events for streamed chat completions: a line parser that survives chunks split
// anywhere, and an assembler that folds the `data:` payloads into one ChatReply.
#pragma once

#include "src/llm/chat.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::llm {

// Splits a byte stream into SSE event payloads: `data:` lines (joined by '\n' within one event),
// `:` comment lines and other fields skipped, an event ends at a blank line.
class SseParser {
public:
    using Sink = std::function<void(const std::string& data)>;
    void feed(std::string_view bytes, const Sink& sink);
    // End of stream: a last event without its blank line still counts.
    void finish(const Sink& sink);

private:
    void line(std::string_view text, const Sink& sink);
    std::string partial_;
    std::string data_;
    bool haveData_ = false;
};

// What one payload contributed.
struct StreamDelta {
    std::string text;
    std::string reasoning;
    // Set when the payload changed the tool calls (a new call, its id or name, a piece of its
    // arguments): every call so far, in index order, arguments as far as they came (partial JSON),
    // so a UI can show a call while it is still being written.
    std::optional<std::vector<ToolCall>> toolCalls;
    bool done = false;              // "[DONE]"
    std::optional<ChatError> error; // an error chunk, or a payload that is not JSON
};

class StreamAssembler {
public:
    StreamDelta accept(const std::string& data);
    bool sawDone() const { return sawDone_; }
    bool sawAnything() const { return chunks_ > 0; }
    // The reply so far (tool calls in index order; missing ids filled in).
    ChatReply reply() const;
    // The tool calls so far, as reply() would give them.
    std::vector<ToolCall> toolCalls() const;

private:
    ChatReply reply_;
    std::map<long long, ToolCall> toolCalls_;
    std::string reasoningDetails_; // JSON array text being accumulated
    bool sawDone_ = false;
    int chunks_ = 0;
};

} // namespace chaiba::llm
