// SSE parsing and stream assembly (see sse.h). Tool-call deltas are merged by `index`: the first
// carries id and name, later ones append to `arguments`; empty or repeated ids are tolerated.
#include "src/llm/sse.h"

#include "src/llm/openrouter_json.h"

#include <nlohmann/json.hpp>

namespace chaiba::llm {

using nlohmann::json;

void SseParser::feed(std::string_view bytes, const Sink& sink) {
    partial_.append(bytes);
    std::size_t start = 0;
    for (;;) {
        const std::size_t nl = partial_.find('\n', start);
        if (nl == std::string::npos) break;
        std::string_view text(partial_.data() + start, nl - start);
        if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
        line(text, sink);
        start = nl + 1;
    }
    partial_.erase(0, start);
}

void SseParser::finish(const Sink& sink) {
    if (!partial_.empty()) {
        std::string rest;
        rest.swap(partial_);
        if (!rest.empty() && rest.back() == '\r') rest.pop_back();
        line(rest, sink);
    }
    line("", sink);
}

void SseParser::line(std::string_view text, const Sink& sink) {
    if (text.empty()) {
        if (haveData_) sink(data_);
        data_.clear();
        haveData_ = false;
        return;
    }
    if (text.front() == ':') return;         // comment, e.g. ": OPENROUTER PROCESSING"
    if (text.rfind("data:", 0) != 0) return; // event:, id:, retry: — unused here
    text.remove_prefix(5);
    if (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    if (haveData_) data_ += '\n';
    data_.append(text);
    haveData_ = true;
}

namespace {

std::string str(const json& obj, const char* name) {
    auto it = obj.find(name);
    return (it != obj.end() && it->is_string()) ? it->get<std::string>() : std::string();
}

// Folds one chunk's tool_calls deltas into `calls`; true when anything changed (a new call, its
// id or name, a non-empty piece of arguments), so an empty keep-alive delta reports nothing.
bool mergeToolCalls(std::map<long long, ToolCall>& calls, const json& deltas) {
    bool changed = false;
    long long position = 0;
    for (const json& tc : deltas) {
        if (!tc.is_object()) continue;
        long long index = position++;
        if (auto ix = tc.find("index"); ix != tc.end() && ix->is_number_integer()) index = ix->get<long long>();
        const auto [slot, added] = calls.try_emplace(index);
        ToolCall& call = slot->second;
        changed = changed || added;
        if (const std::string id = str(tc, "id"); !id.empty() && call.id.empty()) {
            call.id = id;
            changed = true;
        }
        auto fn = tc.find("function");
        if (fn == tc.end() || !fn->is_object()) continue;
        if (const std::string name = str(*fn, "name"); !name.empty() && call.name.empty()) {
            call.name = name;
            changed = true;
        }
        const std::string piece = str(*fn, "arguments");
        call.arguments += piece;
        changed = changed || !piece.empty();
    }
    return changed;
}

} // namespace

StreamDelta StreamAssembler::accept(const std::string& data) {
    StreamDelta out;
    ++chunks_;
    if (data == "[DONE]") {
        sawDone_ = true;
        out.done = true;
        return out;
    }
    const json chunk = json::parse(data, nullptr, false);
    if (chunk.is_discarded() || !chunk.is_object()) {
        out.error =
            ChatError{ChatErrorKind::MalformedResponse, 0, "a stream chunk is not JSON", std::nullopt};
        return out;
    }
    if (auto err = chunk.find("error"); err != chunk.end() && err->is_object()) {
        ChatError e{ChatErrorKind::StreamError, 0, "", std::nullopt};
        if (auto code = err->find("code"); code != err->end() && code->is_number_integer())
            e.httpStatus = code->get<int>();
        const std::string msg = str(*err, "message");
        e.message = "error in the stream" +
                    (e.httpStatus ? " (" + std::to_string(e.httpStatus) + ")" : std::string()) + ": " +
                    (msg.empty() ? std::string("no message") : msg);
        out.error = e;
        return out;
    }
    if (reply_.id.empty()) reply_.id = str(chunk, "id");
    if (reply_.model.empty()) reply_.model = str(chunk, "model");
    if (auto u = chunk.find("usage"); u != chunk.end() && u->is_object())
        reply_.usage = decodeUsageJson(u->dump());
    auto choices = chunk.find("choices");
    if (choices == chunk.end() || !choices->is_array() || choices->empty() || !(*choices)[0].is_object())
        return out;
    const json& choice = (*choices)[0];
    if (const std::string fr = str(choice, "finish_reason"); !fr.empty()) reply_.finishReason = fr;
    auto delta = choice.find("delta");
    if (delta == choice.end() || !delta->is_object()) return out;
    out.text = str(*delta, "content");
    out.reasoning = str(*delta, "reasoning");
    reply_.content += out.text;
    reply_.reasoning += out.reasoning;
    if (auto rd = delta->find("reasoning_details"); rd != delta->end() && rd->is_array()) {
        for (const json& item : *rd) {
            const std::string itemText = item.dump(-1, ' ', false, json::error_handler_t::replace);
            reasoningDetails_ += (reasoningDetails_.empty() ? "" : ",") + itemText;
        }
    }
    if (auto tcs = delta->find("tool_calls"); tcs != delta->end() && tcs->is_array())
        if (mergeToolCalls(toolCalls_, *tcs)) out.toolCalls = toolCalls();
    return out;
}

std::vector<ToolCall> StreamAssembler::toolCalls() const {
    std::vector<ToolCall> out;
    out.reserve(toolCalls_.size());
    for (const auto& [index, call] : toolCalls_) {
        out.push_back(call);
        if (out.back().id.empty()) out.back().id = "call_" + std::to_string(index);
    }
    return out;
}

ChatReply StreamAssembler::reply() const {
    ChatReply r = reply_;
    r.toolCalls = toolCalls();
    if (!reasoningDetails_.empty()) r.reasoningDetailsJson = "[" + reasoningDetails_ + "]";
    return r;
}

} // namespace chaiba::llm
