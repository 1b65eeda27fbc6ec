// The md4c document laid out word by word into the window's draw list (see markdown_view.h).
#include "src/modes/story/ui/markdown_view.h"

#include "src/ui/fonts.h"
#include "src/ui/image_header.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <unordered_map>

namespace chaiba::ui {

namespace {

using story::MdBlock;
using story::MdBlockKind;

ImU32 tinted(ImU32 base, ImU32 tint, float amount) {
    const ImVec4 a = ImGui::ColorConvertU32ToFloat4(base), b = ImGui::ColorConvertU32ToFloat4(tint);
    return ImGui::ColorConvertFloat4ToU32(
        ImVec4(a.x + (b.x - a.x) * amount, a.y + (b.y - a.y) * amount, a.z + (b.z - a.z) * amount, 1.0f));
}

// Lays out one block's runs from (x0, y) within [x0, right]; draws when `draw`. Returns the height.
float layoutRuns(const MdBlock& block, const Fonts& fonts, ImFont* baseFont, float size, float x0, float y,
                 float right, ImU32 color, bool draw) {
    ImDrawList* list = ImGui::GetWindowDrawList();
    const float lineHeight = size * 1.35f;
    float x = x0;
    float lineY = y;
    // Emphasis in the page's accent (there is no italic face): the plot colour it used is the text
    // colour in the light theme, so italics did not show at all.
    const ImU32 emphasis = tinted(color, ui::palette().accent, 0.7f);
    const ImU32 link = ImGui::GetColorU32(ImGuiCol_ButtonActive);
    for (const story::MdRun& run : block.runs) {
        ImFont* font = (run.style & story::MdCode)     ? fonts.mono
                       : (run.style & story::MdStrong) ? fonts.bold
                                                       : baseFont;
        if (!font) font = ImGui::GetFont();
        const ImU32 runColor = (run.style & story::MdLink)       ? link
                               : (run.style & story::MdEmphasis) ? emphasis
                                                                 : color;
        const char* p = run.text.data();
        const char* end = p + run.text.size();
        while (p < end) {
            if (*p == '\n') {
                x = x0;
                lineY += lineHeight;
                ++p;
                continue;
            }
            // A word and the spaces after it.
            const char* wordEnd = p;
            while (wordEnd < end && *wordEnd != ' ' && *wordEnd != '\n') ++wordEnd;
            const char* spaceEnd = wordEnd;
            while (spaceEnd < end && *spaceEnd == ' ') ++spaceEnd;
            const float wordWidth = font->CalcTextSizeA(size, FLT_MAX, 0, p, wordEnd).x;
            if (x > x0 && x + wordWidth > right) {
                x = x0;
                lineY += lineHeight;
            }
            if (draw) {
                if (run.style & story::MdCode)
                    list->AddRectFilled(ImVec2(x - 1, lineY), ImVec2(x + wordWidth + 1, lineY + size * 1.15f),
                                        ImGui::GetColorU32(ImGuiCol_FrameBg), 2.0f);
                list->AddText(font, size, ImVec2(x, lineY), runColor, p, wordEnd);
                if (run.style & story::MdLink)
                    list->AddLine(ImVec2(x, lineY + size * 1.1f), ImVec2(x + wordWidth, lineY + size * 1.1f),
                                  runColor);
            }
            x += font->CalcTextSizeA(size, FLT_MAX, 0, p, spaceEnd).x;
            p = spaceEnd;
        }
    }
    return lineY - y + lineHeight;
}

// The world path an image source names ("images/a.png", "./images/a.png", "/images/a.png"), or ""
// for a picture from elsewhere (a web address, a data URL): only the world's own files are shown.
std::string worldImagePath(const std::string& src) {
    if (src.find("://") != std::string::npos || src.rfind("data:", 0) == 0) return "";
    std::string path = src;
    while (path.rfind("./", 0) == 0) path.erase(0, 2);
    while (!path.empty() && path.front() == '/') path.erase(0, 1);
    return path;
}

// A framed caption (the picture's alt text and source), with a second line saying why no pixels are
// shown when there is a reason. Returns the height.
float drawCaptionFrame(const std::string& src, const std::string& alt, const std::string& why,
                       const Fonts& fonts, float body, float x0, float y, float right) {
    ImDrawList* list = ImGui::GetWindowDrawList();
    const ImU32 muted = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    MdBlock line;
    line.runs.push_back({"Image: " + alt + "  (" + src + ")", story::MdEmphasis});
    float height = layoutRuns(line, fonts, fonts.ui, body * 0.9f, x0 + 10, y + 8, right - 10, muted, true);
    if (!why.empty()) {
        MdBlock reason;
        reason.runs.push_back({why, story::MdPlain});
        height += layoutRuns(reason, fonts, fonts.ui, body * 0.9f, x0 + 10, y + 8 + height, right - 10,
                             palette().danger, true);
    }
    height += 16;
    list->AddRect(ImVec2(x0, y), ImVec2(right, y + height), muted, 4.0f);
    return height;
}

// A picture from the world's files fitted to [x0, right] (at most images.maxHeight high), centred,
// with its caption below; a placeholder of the same size while it decodes; the caption frame with
// the reason when it cannot be shown. Returns the height.
float drawPicture(const std::string& src, const std::string& alt, const Fonts& fonts,
                  const MarkdownLook& look, float body, float x0, float y, float right, float clipTop,
                  float clipBottom) {
    const MarkdownImages* images = look.images;
    const std::string path = worldImagePath(src);
    if (!images || !images->textures || !images->files)
        return drawCaptionFrame(src, alt, "", fonts, body, x0, y, right); // no pixels on this platform
    const std::string item = images->itemPrefix + (path.empty() ? src : path);
    ShownPicture shown{item, path, ImageStatus::Failed, 0, 0, 0, 0, ""};
    ImageView view;
    if (path.empty()) {
        view.status = ImageStatus::Failed;
        view.error = "not shown: only pictures stored in the world's files are shown";
    } else {
        const story::WorldFiles* files = images->files;
        const ImageLoader load = [files, path]() -> ImageBytes {
            story::ReadResult read = files->read(path);
            if (!read.ok()) return {"", read.error.message};
            if (read.content.size() > story::kMaxWorldFileBytes)
                return {"", "the picture file is " + std::to_string(read.content.size() / 1024) +
                                " KiB; pictures of at most " +
                                std::to_string(story::kMaxWorldFileBytes >> 10) + " KiB are shown"};
            return {std::move(read.content), ""};
        };
        const std::string key = images->keyPrefix + path;
        view = images->textures->view(key, false, 0, load); // the natural size, for the layout
        if (view.status != ImageStatus::Failed) {
            const ImageSize size = fitImage(view.width, view.height, right - x0, images->maxHeight);
            const bool visible = y < clipBottom && y + size.height > clipTop;
            if (visible)
                view = images->textures->view(key, true, int(std::max(size.width, size.height) + 0.5f), load);
        }
    }
    shown.status = view.status;
    shown.width = view.width;
    shown.height = view.height;
    shown.textureWidth = view.textureWidth;
    shown.textureHeight = view.textureHeight;
    shown.error = view.error;
    if (images->shown) images->shown->push_back(shown);
    if (view.status == ImageStatus::Failed) {
        const float height = drawCaptionFrame(src, alt, view.error, fonts, body, x0, y, right);
        markItemRect(images->itemPrefix + "error." + (path.empty() ? src : path), x0, y, right - x0, height);
        return height;
    }
    ImDrawList* list = ImGui::GetWindowDrawList();
    const ImU32 muted = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImageSize size = fitImage(view.width, view.height, right - x0, images->maxHeight);
    const ImVec2 p0(x0 + (right - x0 - size.width) / 2, y), p1(p0.x + size.width, y + size.height);
    if (view.status == ImageStatus::Ready) {
        list->AddImage(view.texture, p0, p1);
    } else {
        list->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg), 4.0f);
        const char* loading = "Loading the picture…";
        const ImVec2 textSize = fonts.ui->CalcTextSizeA(body * 0.9f, FLT_MAX, 0, loading);
        list->AddText(fonts.ui, body * 0.9f,
                      ImVec2((p0.x + p1.x - textSize.x) / 2, (p0.y + p1.y - textSize.y) / 2), muted, loading);
    }
    markItemRect(item, p0.x, p0.y, size.width, size.height);
    float height = size.height + body * 0.3f;
    if (!alt.empty()) {
        MdBlock caption;
        caption.runs.push_back({alt, story::MdEmphasis});
        const float captionWidth = fonts.ui->CalcTextSizeA(body * 0.9f, FLT_MAX, 0, alt.c_str()).x;
        const float captionX = captionWidth < right - x0 ? x0 + (right - x0 - captionWidth) / 2 : x0;
        height += layoutRuns(caption, fonts, fonts.ui, body * 0.9f, captionX, y + height, right, muted, true);
    }
    return height;
}

} // namespace

void drawMarkdown(const story::MdDocument& doc, const Fonts& fonts, const MarkdownLook& look) {
    const float body = fonts.uiSize * look.scale;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImU32 text = ImGui::GetColorU32(look.muted ? ImGuiCol_TextDisabled : ImGuiCol_Text);
    const ImU32 muted = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    ImDrawList* list = ImGui::GetWindowDrawList();
    const float clipTop = ImGui::GetWindowPos().y - 200,
                clipBottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() + 200;
    float y = origin.y;
    for (std::size_t i = 0; i < doc.blocks.size(); ++i) {
        const MdBlock& block = doc.blocks[i];
        const float indent = block.quoteDepth * body * 1.1f + block.listDepth * body * 1.4f;
        const float x0 = origin.x + indent;
        const float right = origin.x + look.width;
        float size = body;
        ImFont* font = fonts.ui;
        ImU32 color = block.quoteDepth > 0 ? tinted(text, muted, 0.5f) : text;
        if (block.kind == MdBlockKind::Heading) {
            size = body * (block.level <= 1 ? 1.45f : block.level == 2 ? 1.25f : 1.1f);
            font = fonts.bold;
            if (i > 0) y += body * 0.5f;
        }
        if (block.kind == MdBlockKind::CodeBlock) {
            font = fonts.mono;
            size = body * 0.9f;
        }
        float height = 0;
        if (block.kind == MdBlockKind::Rule) {
            height = body;
            list->AddLine(ImVec2(x0, y + height / 2), ImVec2(right, y + height / 2), muted);
        } else if (block.kind == MdBlockKind::Image) {
            std::string alt;
            for (const story::MdRun& run : block.runs) alt += run.text;
            height = drawPicture(block.imageSrc, alt, fonts, look, body, x0, y, right, clipTop, clipBottom);
        } else {
            const float markerWidth = block.marker.empty() ? 0 : body * 1.3f;
            const bool visible = y < clipBottom && y + 4000 > clipTop;
            height = layoutRuns(block, fonts, font, size, x0 + markerWidth, y, right, color, false);
            const bool reallyVisible = visible && y + height > clipTop;
            if (block.kind == MdBlockKind::CodeBlock)
                list->AddRectFilled(ImVec2(x0 - 4, y - 2), ImVec2(right, y + height + 2),
                                    ImGui::GetColorU32(ImGuiCol_FrameBg), 3.0f);
            if (reallyVisible) layoutRuns(block, fonts, font, size, x0 + markerWidth, y, right, color, true);
            if (!block.marker.empty())
                list->AddText(fonts.ui, body, ImVec2(x0 + (block.marker.size() > 3 ? 0 : body * 0.3f), y),
                              muted, block.marker.c_str());
            if (block.quoteDepth > 0)
                list->AddRectFilled(
                    ImVec2(origin.x + block.quoteDepth * body * 1.1f - body * 0.6f, y),
                    ImVec2(origin.x + block.quoteDepth * body * 1.1f - body * 0.6f + 3, y + height), muted);
        }
        y += height;
        // Paragraph spacing; list items of one list sit closer together.
        const bool nextIsItem = i + 1 < doc.blocks.size() && doc.blocks[i + 1].kind == MdBlockKind::ListItem;
        y += (block.kind == MdBlockKind::ListItem && nextIsItem) ? body * 0.15f : body * 0.6f;
    }
    ImGui::Dummy(ImVec2(look.width, std::max(1.0f, y - origin.y)));
}

void drawMarkdownImage(const std::string& src, const std::string& caption, const Fonts& fonts,
                       const MarkdownLook& look) {
    story::MdDocument doc;
    MdBlock block;
    block.kind = MdBlockKind::Image;
    block.imageSrc = src;
    block.runs.push_back({caption, story::MdPlain});
    doc.blocks.push_back(std::move(block));
    drawMarkdown(doc, fonts, look);
}

void drawMarkdownText(const std::string& text, const Fonts& fonts, const MarkdownLook& look) {
    // Parsing is cheap but not free: keep the last few hundred documents (the story's replies).
    static std::unordered_map<std::string, story::MdDocument> cache;
    if (cache.size() > 400) cache.clear();
    auto it = cache.find(text);
    if (it == cache.end()) it = cache.emplace(text, story::parseMarkdown(text)).first;
    drawMarkdown(it->second, fonts, look);
}

void mutedText(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

} // namespace chaiba::ui
