// Fitting text: ImFont::CalcTextSizeA with a width limit finds where to cut (UTF-8 safe).
#include "src/ui/text_fit.h"

#include <algorithm>
#include <cfloat>

namespace chaiba::ui {

namespace {
constexpr const char* kEllipsis = "\xE2\x80\xA6";
} // namespace

float textWidth(ImFont* font, float size, const char* begin, const char* end) {
    return font->CalcTextSizeA(size, FLT_MAX, 0.0f, begin, end).x;
}

float fitText(ImDrawList* dl, ImFont* font, float size, ImVec2 at, ImU32 colour, const char* begin,
              const char* end, float maxWidth, bool& truncated) {
    if (!end) end = begin + std::char_traits<char>::length(begin);
    if (begin == end) return 0;
    if (maxWidth <= 0) {
        truncated = true;
        return 0;
    }
    const float full = textWidth(font, size, begin, end);
    if (full <= maxWidth) {
        dl->AddText(font, size, at, colour, begin, end);
        return full;
    }
    truncated = true;
    const float ellipsis = textWidth(font, size, kEllipsis);
    const char* stop = begin;
    const float kept =
        font->CalcTextSizeA(size, std::max(0.0f, maxWidth - ellipsis), 0.0f, begin, end, &stop).x;
    if (stop > begin) dl->AddText(font, size, at, colour, begin, stop);
    dl->AddText(font, size, ImVec2(at.x + kept, at.y), colour, kEllipsis);
    return kept + ellipsis;
}

float fitText(ImDrawList* dl, ImFont* font, float size, ImVec2 at, ImU32 colour, const std::string& text,
              float maxWidth, bool& truncated) {
    return fitText(dl, font, size, at, colour, text.c_str(), text.c_str() + text.size(), maxWidth, truncated);
}

const char* shortName(ImFont* font, float size, const std::string& name, float maxWidth, bool& truncated) {
    const char* begin = name.c_str();
    const size_t slash = name.find_last_of('/');
    if (slash == std::string::npos || slash + 1 >= name.size()) return begin;
    if (textWidth(font, size, begin, begin + name.size()) <= maxWidth) return begin;
    truncated = true;
    return begin + slash + 1;
}

bool fittedName(const std::string& name, float width, float height, float textDy) {
    bool cut = false;
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const char* shown = shortName(font, size, name, width, cut);
    fitText(ImGui::GetWindowDrawList(), font, size, ImVec2(at.x, at.y + textDy), ImGui::GetColorU32(ImGuiCol_Text), shown,
            name.c_str() + name.size(), width, cut);
    ImGui::Dummy(ImVec2(std::max(1.0f, width), height));
    if (cut && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", name.c_str());
    return cut;
}

} // namespace chaiba::ui
