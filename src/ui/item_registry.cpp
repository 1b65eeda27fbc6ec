// Item registry: two maps, the frame being drawn and the last finished one.
#include "src/ui/item_registry.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>

namespace chaiba::ui {

namespace {
std::map<std::string, ItemRect> gCurrent;
std::map<std::string, ItemRect> gLast;

std::string escaped(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}
} // namespace

void beginItemFrame() { gCurrent.clear(); }

void endItemFrame() { gLast = gCurrent; }

// A window opening with an auto-fitted size is laid out once while hidden, at a provisional
// position: nothing is recorded from such a frame.
bool windowHidden() { return ImGui::GetCurrentWindowRead()->Hidden; }

// What is visible of an item: its rectangle cut to the window's clip rectangle (a row scrolled
// half out of a list), nothing at all when it is scrolled out of view (a test must not click it).
void recordVisible(const std::string& name, ImVec2 a, ImVec2 b) {
    const ImRect clip = ImGui::GetCurrentWindowRead()->ClipRect;
    const bool sideways = a.x < clip.Min.x - 1.0f || b.x > clip.Max.x + 1.0f;
    a = ImVec2(std::max(a.x, clip.Min.x), std::max(a.y, clip.Min.y));
    b = ImVec2(std::min(b.x, clip.Max.x), std::min(b.y, clip.Max.y));
    if (b.x <= a.x || b.y <= a.y) {
        gCurrent.erase(name);
        return;
    }
    gCurrent[name] = ItemRect{a.x, a.y, b.x - a.x, b.y - a.y, sideways};
}

void markItem(const std::string& name) {
    if (windowHidden()) return;
    recordVisible(name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

void markWindow(const std::string& name) {
    if (windowHidden()) return;
    const ImVec2 a = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
    gCurrent[name] = ItemRect{a.x, a.y, s.x, s.y};
}

void markItemRect(const std::string& name, float x, float y, float w, float h) {
    if (windowHidden()) return;
    recordVisible(name, ImVec2(x, y), ImVec2(x + w, y + h));
}

std::string itemsJson(float pixelRatio) {
    std::string out = "{";
    char buf[160];
    const float r = pixelRatio > 0 ? pixelRatio : 1.0f;
    for (const auto& [name, rect] : gLast) {
        std::snprintf(buf, sizeof buf, "[%.1f,%.1f,%.1f,%.1f%s]", static_cast<double>(rect.x / r),
                      static_cast<double>(rect.y / r), static_cast<double>(rect.w / r), static_cast<double>(rect.h / r),
                      rect.cutSideways ? ",1" : "");
        if (out.size() > 1) out += ',';
        out += "\"" + escaped(name) + "\":" + buf;
    }
    return out + "}";
}

} // namespace chaiba::ui
