// Game tile: one invisible button, everything else drawn straight into the window's draw list with
// font sizes derived from the tile width, so a 4x4 grid of small tiles stays readable and cheap.
// Text that does not fit ends in "…" (no string is built per frame; a tooltip shows it all).
#include "src/modes/chess/ui/game_tile.h"

#include "src/modes/chess/ui/board_view.h"
#include "src/modes/chess/ui/eval_graph.h"
#include "engine/search/analysis.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/text_fit.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace chaiba::ui {

namespace {

using Status = GameTileModel::Status;

// Sizes of one tile, all derived from its width and the UI font size (which carries the pixel
// ratio): text shrinks from the UI size down to 3/4 of it on narrow tiles.
struct TileMetrics {
    float text = 0;  // font size of the name and status rows
    float small = 0; // ratings and the footer
    float pad = 0;   // inner margin
    float row = 0;   // height of a text row
    float gap = 0;   // between the board and the name rows
    float board = 0; // board side
    float height = 0;
};

TileMetrics metricsFor(const Fonts& fonts, float width) {
    TileMetrics m;
    const float css = fonts.uiSize / kUiFontCssPx; // device pixels per CSS pixel
    m.text = std::clamp(width * 0.068f, fonts.uiSize * 0.75f, fonts.uiSize * 0.95f);
    m.small = std::max(m.text * 0.86f, 10.0f * css);
    m.pad = std::max(3.0f * css, m.text * 0.45f);
    m.row = std::floor(m.text * 1.4f);
    m.gap = std::floor(m.pad * 0.4f);
    m.board = std::floor(std::max(8.0f, width - 2 * m.pad));
    m.height = m.pad + m.row + m.gap + m.board + m.gap + m.row + m.row + m.row + m.pad * 0.6f;
    return m;
}

ImU32 statusColour(Status s) {
    const Palette& pal = palette();
    switch (s) {
    case Status::Thinking: return pal.accent;
    case Status::Retrying: return pal.warning;
    case Status::Paused: return pal.danger;
    case Status::Waiting:
    case Status::Finished: break;
    }
    return pal.muted;
}

// The side's colour as a disc (white or black, outlined), as on the player cards.
void drawDisc(ImDrawList* dl, ImVec2 centre, float r, bool white, float outline) {
    dl->AddCircleFilled(centre, r, white ? IM_COL32(255, 255, 255, 255) : IM_COL32(0, 0, 0, 255), 16);
    dl->AddCircle(centre, r, palette().panelBorder, 16, outline);
}

// One player's row: colour disc, name (bold when to move), rating, and the status dot at the right.
void drawNameRow(ImDrawList* dl, const Fonts& fonts, const TileMetrics& m, ImVec2 at, float width, bool white,
                 const std::string& name, const std::string& rating, bool toMove, Status status,
                 bool& truncated) {
    const Palette& pal = palette();
    const float mid = at.y + m.row * 0.5f;
    const float r = m.text * 0.34f;
    const float outline = std::max(1.0f, fonts.uiSize / 14.0f);
    drawDisc(dl, ImVec2(at.x + r, mid), r, white, outline);
    float x = at.x + r * 2 + m.text * 0.4f;
    const float right = at.x + width;

    // The status dot: pulsing while thinking, steady otherwise; a ring while waiting.
    const float dotR = m.text * 0.26f;
    const float dotSpace = dotR * 2 + m.text * 0.3f;
    if (toMove && status != Status::Finished) {
        const ImVec2 c(right - dotR, mid);
        ImU32 colour = statusColour(status);
        if (status == Status::Thinking) {
            const float phase = 0.5f + 0.5f * std::sin(static_cast<float>(ImGui::GetTime()) * 5.0f);
            ImVec4 v = ImGui::ColorConvertU32ToFloat4(colour);
            v.w *= 0.35f + 0.65f * phase;
            colour = ImGui::ColorConvertFloat4ToU32(v);
        }
        if (status == Status::Waiting)
            dl->AddCircle(c, dotR * 0.85f, colour, 16, outline);
        else
            dl->AddCircleFilled(c, dotR, colour, 16);
    }

    ImFont* nameFont = toMove && status != Status::Finished ? fonts.bold : fonts.ui;
    const float textY = mid - m.text * 0.5f;
    // When the name does not fit: drop the provider ("openai/gpt-4o" -> "gpt-4o"), then the
    // rating if the name would keep less than 2/3 of the row (both are in the tooltip).
    const float room = right - dotSpace - x;
    float ratingW = rating.empty() ? 0 : textWidth(fonts.mono, m.small, rating.c_str()) + m.text * 0.4f;
    const char* shown = shortName(nameFont, m.text, name, room - ratingW, truncated);
    const char* end = name.c_str() + name.size();
    if (ratingW > 0 && textWidth(nameFont, m.text, shown, end) > room - ratingW &&
        room - ratingW < width * 0.65f) {
        ratingW = 0;
        truncated = true;
    }
    const float nameW = fitText(dl, nameFont, m.text, ImVec2(x, textY), ImGui::GetColorU32(ImGuiCol_Text),
                                shown, end, room - ratingW, truncated);
    if (ratingW > 0) {
        x += nameW + m.text * 0.4f;
        // Mono digits sit on the name's baseline.
        fitText(dl, fonts.mono, m.small, ImVec2(x, textY + (m.text - m.small) * 0.8f), pal.muted, rating,
                right - dotSpace - x, truncated);
    }
}

// A player line of the tooltip: "○ name  1612".
void tooltipPlayer(const Fonts& fonts, bool white, const std::string& name, const std::string& rating) {
    const float h = ImGui::GetTextLineHeight();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    drawDisc(ImGui::GetWindowDrawList(), ImVec2(p.x + h * 0.36f, p.y + h * 0.5f), h * 0.3f, white,
             std::max(1.0f, fonts.uiSize / 14.0f));
    ImGui::Dummy(ImVec2(h * 0.72f, h));
    ImGui::SameLine();
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(name.c_str());
    ImGui::PopFont();
    if (rating.empty()) return;
    ImGui::SameLine();
    ImGui::PushFont(fonts.mono);
    ImGui::TextDisabled("%s", rating.c_str());
    ImGui::PopFont();
}

void tooltip(const Fonts& fonts, const GameTileModel& model) {
    ImGui::BeginTooltip();
    tooltipPlayer(fonts, true, model.white, model.whiteRating);
    tooltipPlayer(fonts, false, model.black, model.blackRating);
    if (!model.statusText.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, statusColour(model.status));
        ImGui::TextUnformatted(model.statusText.c_str());
        ImGui::PopStyleColor();
    }
    if (model.lastMoveText.empty())
        ImGui::Text("move %d", model.moveNumber);
    else
        ImGui::Text("move %d \xC2\xB7 last %s", model.moveNumber, model.lastMoveText.c_str());
    if (!model.quality.empty()) ImGui::TextUnformatted(model.quality.c_str());
    if (!model.footer.empty()) ImGui::TextDisabled("%s", model.footer.c_str());
    ImGui::EndTooltip();
}

} // namespace

float gameTileHeight(const Fonts& fonts, float width) {
    return metricsFor(fonts, width).height;
}

bool drawGameTile(const Fonts& fonts, const GameTileModel& model, float width, const char* id) {
    const Palette& pal = palette();
    const TileMetrics m = metricsFor(fonts, width);
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const ImVec2 b(a.x + width, a.y + m.height);
    const bool clicked = ImGui::InvisibleButton(id, ImVec2(width, m.height));
    if (!ImGui::IsItemVisible()) return clicked; // scrolled away: nothing to draw
    markItem(id);
    const bool hovered = ImGui::IsItemHovered();
    const bool held = ImGui::IsItemActive();
    ImDrawList* dl = ImGui::GetWindowDrawList();

    // Step 1. Background and frame: hover tint, thick frame when selected.
    if (hovered || held)
        dl->AddRectFilled(a, b, ImGui::GetColorU32(held ? ImGuiCol_FrameBgActive : ImGuiCol_FrameBgHovered));
    const float thin = std::max(1.0f, ImGui::GetStyle().ChildBorderSize * 0.5f);
    const float frame = model.selected ? ImGui::GetStyle().ChildBorderSize * 1.5f : thin;
    dl->AddRect(ImVec2(a.x + frame * 0.5f, a.y + frame * 0.5f),
                ImVec2(b.x - frame * 0.5f, b.y - frame * 0.5f), model.selected ? pal.accent : pal.panelBorder,
                0.0f, 0, frame);

    // Step 2. Black above the board, White below (as chess sites show it).
    bool truncated = false;
    const float x = a.x + m.pad;
    const float inner = width - 2 * m.pad;
    float y = a.y + m.pad;
    const bool finished = model.status == Status::Finished;
    drawNameRow(dl, fonts, m, ImVec2(x, y), inner, false, model.black, model.blackRating,
                !model.whiteToMove && !finished, model.status, truncated);
    y += m.row + m.gap;
    const bool coordinates = m.board / 8.0f >= fonts.uiSize * 1.9f;
    drawBoardStatic(dl, fonts, model.position, model.lastMove, ImVec2(a.x + (width - m.board) * 0.5f, y),
                    m.board, false, coordinates);
    y += m.board + m.gap;
    drawNameRow(dl, fonts, m, ImVec2(x, y), inner, true, model.white, model.whiteRating,
                model.whiteToMove && !finished, model.status, truncated);
    y += m.row;

    // Step 3. Status (coloured) with the last move at the right, then the footer. When both do
    // not fit, a result, retry or pause keeps the row; otherwise the move stays whole.
    const float textY = y + (m.row - m.text) * 0.5f;
    ImFont* statusFont = finished ? fonts.bold : fonts.ui;
    const float moveSize = m.text * 0.92f;
    const float moveGap = m.text * 0.6f;
    const auto judged = static_cast<search::MoveJudgement>(model.lastMoveJudgement);
    const char* mark = search::judgementSymbol(judged);
    const float markW = *mark ? textWidth(fonts.mono, moveSize, mark) : 0.0f;
    const float moveW =
        model.lastMoveText.empty() ? 0 : textWidth(fonts.mono, moveSize, model.lastMoveText.c_str()) + markW;
    bool showMove = moveW > 0;
    if (showMove && textWidth(statusFont, m.text, model.statusText.c_str()) + moveGap + moveW > inner) {
        const bool statusFirst =
            finished || model.status == Status::Retrying || model.status == Status::Paused;
        if (statusFirst || moveW > inner * 0.5f) {
            showMove = false;
            truncated = true;
        }
    }
    if (showMove) {
        const float moveY = textY + (m.text - moveSize) * 0.6f;
        dl->AddText(fonts.mono, moveSize, ImVec2(x + inner - moveW, moveY), ImGui::GetColorU32(ImGuiCol_Text),
                    model.lastMoveText.c_str());
        if (markW > 0) {
            dl->AddText(fonts.mono, moveSize, ImVec2(x + inner - markW, moveY), judgementColor(judged), mark);
            markItemRect(std::string(id) + ".mark." + search::judgementName(judged), x + inner - markW, moveY,
                         markW, moveSize);
        }
    }
    fitText(dl, statusFont, m.text, ImVec2(x, textY), statusColour(model.status), model.statusText,
            inner - (showMove ? moveW + moveGap : 0.0f), truncated);
    y += m.row;
    fitText(dl, fonts.ui, m.small, ImVec2(x, y + (m.row - m.small) * 0.3f), pal.muted,
            model.quality.empty() ? model.footer : model.quality, inner, truncated);
    if (!model.quality.empty()) truncated = true; // the footer moves to the tooltip

    if (hovered && truncated) tooltip(fonts, model);
    return clicked;
}

} // namespace chaiba::ui
