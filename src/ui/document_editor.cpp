// The document editor: the browser's text editor placed over the rectangle ImGui laid out for it,
// unless a window in front covers that place (a dialog, the settings): a DOM element would be
// drawn over it.
#include "src/ui/document_editor.h"

#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/platform.h"
#include "src/ui/text_areas.h"

#include <imgui_internal.h>

#include <algorithm>

namespace chaiba::ui {

namespace {

int resizeBuffer(ImGuiInputTextCallbackData* data) {
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        auto* s = static_cast<std::string*>(data->UserData);
        s->resize(static_cast<size_t>(data->BufTextLen));
        data->Buf = s->data();
    }
    return 0;
}

// A window in front of the current one (not its own children, a tooltip or ImGui's implicit
// "Debug" window, which draws nothing here) overlapping r.
bool coveredByWindowInFront(const ImRect& r) {
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiWindow* root = ImGui::GetCurrentWindowRead()->RootWindow;
    bool inFront = false;
    for (const ImGuiWindow* w : g.Windows) { // back to front
        if (w == root) {
            inFront = true;
            continue;
        }
        if (!inFront || w->RootWindow == root || w->IsFallbackWindow || (w->Flags & ImGuiWindowFlags_Tooltip)) continue;
        if (!(w->Active || w->WasActive) || w->Hidden) continue;
        if (w->Rect().Overlaps(r)) return true;
    }
    return false;
}

} // namespace

void DocumentEditor::begin(Platform* platform, const std::string& text, const std::string& label) {
    end();
    areas_ = platform ? platform->textAreas() : nullptr;
    active_ = true;
    if (areas_)
        areas_->open(id_, text, label);
    else
        buffer_ = text;
}

std::string DocumentEditor::text() const {
    if (!active_) return {};
    return areas_ ? areas_->text(id_) : buffer_;
}

void DocumentEditor::end() {
    if (active_ && areas_) areas_->close(id_);
    active_ = false;
    areas_ = nullptr;
    buffer_.clear();
}

void DocumentEditor::draw(ImVec2 size, const Fonts& fonts) {
    if (!active_) return;
    if (!areas_) {
        if (fonts.mono) ImGui::PushFont(fonts.mono);
        ImGui::InputTextMultiline(("##" + id_).c_str(), buffer_.data(), buffer_.capacity() + 1, size,
                                  ImGuiInputTextFlags_CallbackResize, resizeBuffer, &buffer_);
        if (fonts.mono) ImGui::PopFont();
        markItem(id_);
        return;
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 box(size.x > 0 ? size.x : std::max(1.0f, avail.x + size.x),
                     size.y > 0 ? size.y : std::max(1.0f, avail.y + size.y));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::Dummy(box);
    markItem(id_);
    // Shown over the part of the box in view (a scrolled panel cuts it) when that is at least a
    // few lines and nothing stands in front of it; else its frame only.
    ImRect r(at, ImVec2(at.x + box.x, at.y + box.y));
    const ImRect frame = r;
    r.ClipWith(ImGui::GetCurrentWindowRead()->ClipRect);
    const bool inView = r.GetWidth() >= fonts.uiSize * 4 && r.GetHeight() >= fonts.uiSize * 3;
    if (ImGui::GetCurrentWindowRead()->Hidden || !inView || coveredByWindowInFront(r)) {
        ImGui::GetWindowDrawList()->AddRect(frame.Min, frame.Max, ImGui::GetColorU32(ImGuiCol_Border));
        return;
    }
    areas_->place(id_, r.Min.x, r.Min.y, r.GetWidth(), r.GetHeight(), fonts.uiSize * 0.9f,
                  ImGui::GetColorU32(ImGuiCol_Text), ImGui::GetColorU32(ImGuiCol_Border));
}

} // namespace chaiba::ui
