// Debug window: one collapsing header per call, read-only monospace text for the JSON.
#include "src/ui/debug_window.h"

#include "src/ui/format.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <nlohmann/json.hpp>

namespace chaiba::ui {

namespace {

// Pretty-prints JSON for reading; anything else (SSE text, garbage) is shown as it came.
std::string pretty(const std::string& text) {
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded()) return text;
    return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A bordered, scrolling box of wrapped text: long JSON lines wrap (a word longer than the box is
// cut across lines) instead of running off the edge. Very long texts show their start; the copy
// button beside the box copies all of it.
constexpr size_t kShownChars = 48 * 1024;

void readOnlyText(const char* label, const std::string& text, float height) {
    ImGui::BeginChild(label, ImVec2(-1, height), true);
    ImGui::PushTextWrapPos(0.0f);
    if (text.size() <= kShownChars) {
        ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    } else {
        ImGui::TextUnformatted(text.c_str(), text.c_str() + kShownChars);
        ImGui::TextDisabled("\xE2\x80\xA6 %zu more characters (copy to read all)", text.size() - kShownChars);
    }
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
}

// The message a reply assembles to (streamed answers arrive as many small chunks): its text, its
// reasoning and its tool calls with their arguments decoded.
std::string assembledMessage(const llm::ChatReply& reply) {
    nlohmann::json m = nlohmann::json::object();
    if (!reply.content.empty()) m["content"] = reply.content;
    if (!reply.reasoning.empty()) m["reasoning"] = reply.reasoning;
    if (!reply.toolCalls.empty()) {
        nlohmann::json calls = nlohmann::json::array();
        for (const llm::ToolCall& t : reply.toolCalls) {
            nlohmann::json args = nlohmann::json::parse(t.arguments, nullptr, false);
            calls.push_back({{"name", t.name}, {"arguments", args.is_discarded() ? nlohmann::json(t.arguments) : args}});
        }
        m["tool_calls"] = calls;
    }
    m["finish_reason"] = reply.finishReason;
    return m.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

void DebugWindow::DrawWindow(const Fonts& fonts, const char* title, const std::vector<llm::CallRecord>& calls,
                             const std::vector<std::string>& notes, void (*copy)(const std::string&, void*),
                             void* copyArg) {
    DrawWindow(fonts, title, std::vector<CallSource>{{"", &calls}}, notes, copy, copyArg);
}

void DebugWindow::DrawWindow(const Fonts& fonts, const char* title, const std::vector<CallSource>& sources,
                             const std::vector<std::string>& notes, void (*copy)(const std::string&, void*),
                             void* copyArg) {
    if (!open) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowSize(ImVec2(std::min(vp->WorkSize.x * 0.9f, fonts.uiSize * 46), vp->WorkSize.y * 0.8f),
                             ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::Begin(title, &open, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    markWindow("debug.window");
    if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !ImGui::IsAnyItemActive() &&
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
        open = false;
    double cost = 0;
    long long prompt = 0, completion = 0, cached = 0;
    std::size_t count = 0;
    for (const CallSource& source : sources) {
        if (!source.calls) continue;
        count += source.calls->size();
        for (const auto& c : *source.calls) {
            cost += c.costUsd;
            if (c.reply) {
                prompt += c.reply->usage.promptTokens;
                completion += c.reply->usage.completionTokens;
                cached += c.reply->usage.cachedTokens;
            }
        }
    }
    ImGui::Text("%zu calls \xC2\xB7 %s \xC2\xB7 %lld prompt (%lld cached) + %lld completion tokens", count,
                formatCost(cost).c_str(), prompt, cached, completion);
    if (count == 0) {
        ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
        ImGui::TextWrapped("%s", emptyText.empty() ? "No model call yet." : emptyText.c_str());
        markItem("debug.empty");
        ImGui::PopStyleColor();
    }
    if (!notes.empty() && ImGui::CollapsingHeader("Notes (retries, rejected moves, errors)")) {
        for (const auto& n : notes) ImGui::BulletText("%s", n.c_str());
    }
    ImGui::Separator();
    ImGui::BeginChild("##calls");
    for (size_t s = 0; s < sources.size(); ++s) {
        if (!sources[s].calls) continue;
        const std::vector<llm::CallRecord>& calls = *sources[s].calls;
        ImGui::PushID(static_cast<int>(s));
        for (size_t i = calls.size(); i-- > 0;) {
            ImGui::PushID(static_cast<int>(i));
            // The first log's items keep their plain names (debug.call.<i>).
            const std::string item = (s == 0 ? "" : std::to_string(s) + ".") + std::to_string(i);
            DrawCall(fonts, calls[i], sources[s].label, item, copy, copyArg);
            ImGui::PopID();
        }
        ImGui::PopID();
    }
    ImGui::EndChild();
    ImGui::End();
}

void DebugWindow::DrawCall(const Fonts& fonts, const llm::CallRecord& c, const std::string& label,
                           const std::string& item, void (*copy)(const std::string&, void*), void* copyArg) {
    const Palette& pal = palette();
    std::string header = (label.empty() ? "" : label + " \xC2\xB7 ") + "turn " + std::to_string(c.turn) +
                         " \xC2\xB7 answer " + std::to_string(c.attempt) + " \xC2\xB7 " + c.model;
    if (c.error)
        header += " \xC2\xB7 error: " + c.error->message;
    else if (!c.feedback.empty())
        header += " \xC2\xB7 rejected";
    header += " \xC2\xB7 " + formatCost(c.costUsd);
    if (!c.httpAttempts.empty())
        header += " \xC2\xB7 " + formatElapsed(static_cast<double>(c.httpAttempts.back().latencyMs));
    ImGui::PushStyleColor(ImGuiCol_Text, c.error ? pal.danger : ImGui::GetColorU32(ImGuiCol_Text));
    const bool expanded = ImGui::CollapsingHeader(header.c_str());
    ImGui::PopStyleColor();
    markItem("debug.call." + item);
    if (expanded) {
        if (!c.feedback.empty()) ImGui::TextWrapped("Feedback sent: %s", c.feedback.c_str());
        if (c.reply) {
            const auto& u = c.reply->usage;
            ImGui::Text(
                "finish: %s \xC2\xB7 tokens %lld prompt (%lld cached, %lld written) + %lld completion "
                "(%lld reasoning)",
                c.reply->finishReason.c_str(), u.promptTokens, u.cachedTokens, u.cacheWriteTokens,
                u.completionTokens, u.reasoningTokens);
        }
        for (size_t a = 0; a < c.httpAttempts.size(); ++a) {
            const auto& h = c.httpAttempts[a];
            ImGui::PushID(static_cast<int>(a));
            ImGui::Text("HTTP attempt %d \xC2\xB7 status %d \xC2\xB7 %s", h.attempt, h.httpStatus,
                        formatElapsed(static_cast<double>(h.latencyMs)).c_str());
            if (h.error)
                ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.danger), "%s",
                                   h.error->message.c_str());
            ImGui::PushFont(fonts.mono);
            const std::string request = pretty(h.requestJson);
            const std::string response = pretty(h.responseText);
            ImGui::TextUnformatted("request");
            ImGui::SameLine();
            if (chaiba::ui::smallButton("copy##req") && copy) copy(request, copyArg);
            readOnlyText("##request", request, fonts.uiSize * 14);
            markItem("debug.request");
            // The answer as one message (the last attempt is the one that answered); the bytes
            // as they came stay one click away.
            const bool answered = c.reply && a + 1 == c.httpAttempts.size();
            if (answered) {
                const std::string message = assembledMessage(*c.reply);
                ImGui::TextUnformatted("answer");
                ImGui::SameLine();
                if (chaiba::ui::smallButton("copy##msg") && copy) copy(message, copyArg);
                readOnlyText("##message", message, fonts.uiSize * 10);
                markItem("debug.answer");
            }
            const bool raw = !answered || ImGui::TreeNode("##raw", "response as received (%zu bytes)",
                                                          h.responseText.size());
            // Opened: scrolled into view, as a reader expects of what they just unfolded.
            const bool justOpened = answered && raw && ImGui::IsItemToggledOpen();
            if (answered) markItem("debug.raw");
            if (raw) {
                if (!answered) ImGui::TextUnformatted("response");
                ImGui::SameLine();
                if (chaiba::ui::smallButton("copy##resp") && copy) copy(response, copyArg);
                readOnlyText("##response", response, fonts.uiSize * 10);
                if (justOpened) ImGui::SetScrollHereY(1.0f);
                markItem("debug.response");
                if (answered) ImGui::TreePop();
            }
            ImGui::PopFont();
            ImGui::PopID();
        }
    }
}

} // namespace chaiba::ui
