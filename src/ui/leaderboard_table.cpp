// Leaderboard table: an ImGui table with fixed columns sized to their content (numbers right-aligned
// in the mono font) and a stretching player column. Columns that do not fit the width are disabled
// by priority; the rest can still be hidden by hand from the header's context menu.
#include "src/ui/leaderboard_table.h"

#include "src/ui/format.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/text_fit.h"
#include "src/ui/theme.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace chaiba::ui {

namespace {

enum Column {
    Rank,
    Player,
    Rating,
    Games,
    Wdl,
    Forfeits,
    Acpl,
    Blunders,
    ToPm50,
    Illegal,
    CostPerGame,
    TokensPerMove,
    Spent,
    Context,
    ColumnCount
};

struct ColumnInfo {
    const char* label;
    const char* help; // header tooltip
    int priority;     // 0 = always shown; higher numbers are hidden first on narrow screens
};

constexpr ColumnInfo kColumns[ColumnCount] = {
    {"#", "rank by rating (ties share a rank)", 0},
    {"Player", nullptr, 0},
    {"Rating \xC2\xB1"
     "95%",
     "Bradley\xE2\x80\x93Terry rating \xC2\xB1 half its 95% bootstrap interval;\n"
     "* anchored: fixed at a calibrated engine level",
     0},
    {"Games", "finished games counted in the rating", 1},
    {"W/D/L", "wins / draws / losses", 2},
    {"Forfeits", "games lost by forfeit (illegal moves, timeouts, errors)", 5},
    {"ACPL",
     "average centipawn loss per move, judged by the built-in engine at a fixed budget\n"
     "(the same as `chaiba arena`); \xE2\x80\x93 until the player's games are analysed",
     3},
    {"Blunders/100", "moves judged blunders (??) per 100 analysed moves", 4},
    {"To \xC2\xB1" "50",
     "about how many more games bring this player's 95% interval under \xC2\xB1" "50\n"
     "(intervals narrow with the square root of the games); 0: already there",
     5},
    {"Illegal/100", "illegal move attempts per 100 turns", 3},
    {"$/game", "average cost per game", 4},
    {"Tok/move", "average tokens (prompt + completion) per turn", 8},
    {"Spent", "total cost of this player's turns", 6},
    {"Context", "what the model is sent each turn: the full conversation, or only the position (stateless)", 9},
};

constexpr const char* kDash = "\xE2\x80\x93";

// One rating scale in the table: the live view puts the live Elo in the rating's column.
const char* columnLabel(int c, bool liveElo) { return liveElo && c == Rating ? "Live Elo" : kColumns[c].label; }
const char* columnHelp(int c, bool liveElo) {
    return liveElo && c == Rating ? "live Elo (start 1500, K = 32), updated game by game in finish order: unanchored,\n"
                                    "a view of the tournament's course, not the ranking (that is the Bradley\xE2\x80\x93Terry rating)"
                                  : kColumns[c].help;
}

bool isLlm(const LeaderboardRowView& r) {
    return r.kind == "llm";
}

// Costs with the same decimals down a column: "$0.0412", "$0.8650", "$12.30", "$140".
void costText(char* buf, size_t n, double usd) {
    if (!(usd > 0))
        std::snprintf(buf, n, "$0");
    else if (usd < 0.0001)
        std::snprintf(buf, n, "<$0.0001");
    else if (usd < 1)
        std::snprintf(buf, n, "$%.4f", usd);
    else if (usd < 100)
        std::snprintf(buf, n, "$%.2f", usd);
    else
        std::snprintf(buf, n, "$%.0f", usd);
}

// The text of one numeric cell into `buf`; `muted` for placeholders and zeros.
const char* cellText(Column c, const LeaderboardRowView& r, char* buf, size_t n, bool& muted, bool liveElo) {
    muted = false;
    const bool llm = isLlm(r);
    auto dash = [&muted] {
        muted = true;
        return kDash;
    };
    // No game yet: no rank and no rating to speak of (the row sits below the played ones).
    if (r.games == 0 && (c == Rank || c == Rating)) return dash();
    switch (c) {
    case Rank: std::snprintf(buf, n, "%d", r.rank); break;
    case Rating:
        if (liveElo) { // the live view: the Elo column's figure in the rating's place
            std::snprintf(buf, n, "%4.0f", r.elo);
            break;
        }
        // Fixed-width "1612 ±84 " / "1518 *   " so the ratings line up in the mono font.
        if (r.anchored)
            std::snprintf(buf, n, "%4.0f *   ", r.rating);
        else
            std::snprintf(buf, n, "%4.0f \xC2\xB1%-3d", r.rating,
                          std::min(999, static_cast<int>(std::lround((r.high - r.low) * 0.5))));
        break;
    case Games: std::snprintf(buf, n, "%d", r.games); break;
    case Wdl: std::snprintf(buf, n, "%d/%d/%d", r.wins, r.draws, r.losses); break;
    case Forfeits:
        std::snprintf(buf, n, "%d", r.forfeits);
        muted = r.forfeits == 0;
        break;
    case Illegal:
        if (!llm) return dash();
        std::snprintf(buf, n, "%.1f", r.illegalPer100);
        muted = r.illegalPer100 == 0;
        break;
    case CostPerGame:
        if (!llm) return dash();
        costText(buf, n, r.avgCostPerGame);
        break;
    case TokensPerMove:
        if (!llm) return dash();
        std::snprintf(
            buf, n, "%s",
            formatTokens(static_cast<uint64_t>(std::llround(std::max(0.0, r.avgTokensPerMove)))).c_str());
        break;
    case Spent:
        if (!llm) return dash();
        costText(buf, n, r.spentUsd);
        break;
    case Acpl:
        if (!r.analysed) return dash();
        std::snprintf(buf, n, "%.0f", r.avgCpLoss);
        break;
    case Blunders:
        if (!r.analysed) return dash();
        std::snprintf(buf, n, "%.1f", r.blundersPer100);
        muted = r.blundersPer100 == 0;
        break;
    case ToPm50:
        if (r.anchored || r.gamesToPlusMinus50 < 0) return dash();
        std::snprintf(buf, n, "%d", r.gamesToPlusMinus50);
        muted = r.gamesToPlusMinus50 == 0;
        break;
    case Context:
        if (!llm || r.context.empty()) return dash();
        std::snprintf(buf, n, "%s", r.context.c_str());
        break;
    case Player:
    case ColumnCount: buf[0] = 0; break;
    }
    return buf;
}

const char* kindText(const std::string& kind) {
    if (kind == "llm") return "language model";
    if (kind == "engine") return "built-in engine";
    if (kind == "random") return "random mover";
    return kind.c_str();
}

void rightAligned(const char* text, ImU32 colour) {
    const float w = ImGui::CalcTextSize(text).x;
    const float avail = ImGui::GetContentRegionAvail().x;
    if (avail > w) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - w);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(text);
    ImGui::PopStyleColor();
}

void playerTooltip(const Fonts& fonts, const LeaderboardRowView& r) {
    ImGui::BeginTooltip();
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(r.name.c_str());
    ImGui::PopFont();
    ImGui::TextDisabled("%s", kindText(r.kind));
    if (r.anchored)
        ImGui::Text("anchored at %.0f: a calibrated engine level", r.rating);
    else
        ImGui::Text("rating %.0f, 95%% interval %.0f\xE2\x80\x93%.0f", r.rating, r.low, r.high);
    ImGui::Text("%d games: %d won, %d drawn, %d lost", r.games, r.wins, r.draws, r.losses);
    if (!r.anchored && r.gamesToPlusMinus50 > 0)
        ImGui::Text("about %d more games for an interval under \xC2\xB1" "50", r.gamesToPlusMinus50);
    ImGui::EndTooltip();
}

} // namespace

int drawLeaderboardTable(const Fonts& fonts, const std::vector<LeaderboardRowView>& rows, float height,
                         const char* id, bool liveElo) {
    const Palette& pal = palette();
    const ImGuiStyle& style = ImGui::GetStyle();
    const float css = fonts.uiSize / kUiFontCssPx;
    const ImVec2 cellPadding(6.0f * css, 4.0f * css);
    char buf[64];

    // Step 1. Column widths from the headers and every cell (mono digits), then which fit.
    float widths[ColumnCount] = {};
    ImGui::PushFont(fonts.ui);
    for (int c = 0; c < ColumnCount; ++c) widths[c] = ImGui::CalcTextSize(columnLabel(c, liveElo)).x;
    ImGui::PopFont();
    ImGui::PushFont(fonts.mono);
    for (const LeaderboardRowView& r : rows) {
        for (int c = 0; c < ColumnCount; ++c) {
            if (c == Player) continue;
            bool muted = false;
            widths[c] =
                std::max(widths[c], ImGui::CalcTextSize(cellText(Column(c), r, buf, sizeof buf, muted, liveElo)).x);
        }
    }
    ImGui::PopFont();
    const float arrow =
        std::floor(ImGui::GetFontSize() * 0.65f + style.FramePadding.x); // TableHeader's sort arrow
    widths[Rating] += arrow;
    const float swatch = ImGui::GetTextLineHeight() * 0.6f;
    // The Player column keeps room for the longest name without its provider ("gpt-4o-mini" of
    // "openai/gpt-4o-mini"), up to 16 em: low-priority columns go before a name is cut.
    float longestName = ImGui::CalcTextSize("openai/gpt-4").x * 0.75f;
    ImGui::PushFont(fonts.bold);
    for (const LeaderboardRowView& r : rows) {
        const size_t slash = r.name.find('/');
        const char* start = r.name.c_str() + (slash == std::string::npos ? 0 : slash + 1);
        longestName = std::max(longestName, ImGui::CalcTextSize(start, r.name.c_str() + r.name.size()).x);
    }
    ImGui::PopFont();
    const float playerMin = swatch + std::min(longestName, fonts.uiSize * 16.0f);
    bool fits[ColumnCount];
    float needed = playerMin + cellPadding.x * 2;
    const bool anyModel = std::any_of(rows.begin(), rows.end(), isLlm);
    for (int c = 0; c < ColumnCount; ++c) {
        // No model playing: no context, cost, tokens or illegal attempts to tell.
        const bool modelsOnly = c == Context || c == Illegal || c == CostPerGame || c == TokensPerMove || c == Spent;
        fits[c] = (!modelsOnly || anyModel) && !(liveElo && c == ToPm50);
        if (c != Player && fits[c]) needed += widths[c] + cellPadding.x * 2 + css;
    }
    const float avail = ImGui::GetContentRegionAvail().x - style.ScrollbarSize;
    // A phone: every column kept, the table scrolls sideways under the frozen rank and name (hiding
    // columns there left only the player and the rating). Wider windows drop the columns of least weight.
    const bool scrollX = needed > avail && avail < fonts.uiSize * 40;
    for (int priority = 9; priority > 0 && needed > avail && !scrollX; --priority) {
        for (int c = 0; c < ColumnCount; ++c) {
            if (kColumns[c].priority != priority || !fits[c]) continue;
            fits[c] = false;
            needed -= widths[c] + cellPadding.x * 2 + css;
        }
    }

    // Step 2. The table: header row frozen, rows scroll inside `height`.
    int clicked = -1;
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, cellPadding);
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_Hideable | ImGuiTableFlags_Sortable |
                                  ImGuiTableFlags_NoSavedSettings | (scrollX ? ImGuiTableFlags_ScrollX : 0);
    if (ImGui::BeginTable(id, ColumnCount, flags, ImVec2(0, height))) {
        markItem(id);
        ImGui::TableSetupScrollFreeze(scrollX ? 2 : 0, 1);
        for (int c = 0; c < ColumnCount; ++c) {
            ImGuiTableColumnFlags f =
                c == Player && !scrollX ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed;
            if (c == Rating)
                f |= ImGuiTableColumnFlags_DefaultSort | ImGuiTableColumnFlags_PreferSortDescending |
                     ImGuiTableColumnFlags_NoSortAscending;
            else
                f |= ImGuiTableColumnFlags_NoSort;
            if (c == Rank || c == Player || c == Rating) f |= ImGuiTableColumnFlags_NoHide;
            if (!fits[c]) f |= ImGuiTableColumnFlags_Disabled;
            ImGui::TableSetupColumn(columnLabel(c, liveElo), f, c == Player ? (scrollX ? std::min(playerMin, avail * 0.45f) : 0.0f) : widths[c]);
        }
        // Headers right-aligned over right-aligned numbers (TableHeader draws at the cursor).
        ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
        for (int c = 0; c < ColumnCount; ++c) {
            if (!ImGui::TableSetColumnIndex(c)) continue;
            if (c != Player) {
                const float w = ImGui::CalcTextSize(columnLabel(c, liveElo)).x + (c == Rating ? arrow : 0.0f);
                const float room = ImGui::GetContentRegionAvail().x;
                if (room > w) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + room - w);
            }
            ImGui::TableHeader(columnLabel(c, liveElo));
            if (c == Acpl) markItem(std::string(id) + ".acpl");
            if (c == Blunders) markItem(std::string(id) + ".blunders");
            if (c == ToPm50) markItem(std::string(id) + ".toPm50");
            if (columnHelp(c, liveElo) && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", columnHelp(c, liveElo));
        }

        const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
        for (size_t i = 0; i < rows.size(); ++i) {
            const LeaderboardRowView& r = rows[i];
            ImGui::TableNextRow();
            ImGui::PushID(static_cast<int>(i));
            // The whole row is one selectable under the cells.
            ImGui::TableSetColumnIndex(Player);
            const ImVec2 cell = ImGui::GetCursorScreenPos();
            const float cellRight = cell.x + ImGui::GetContentRegionAvail().x;
            if (ImGui::Selectable("##row", false,
                                  ImGuiSelectableFlags_SpanAllColumns |
                                      ImGuiSelectableFlags_AllowItemOverlap))
                clicked = static_cast<int>(i);
            const bool rowHovered = ImGui::IsItemHovered();
            ImGui::SetCursorScreenPos(cell);
            const float lineH = ImGui::GetTextLineHeight();
            if (r.colour != 0) {
                const ImVec2 a(cell.x, cell.y + (lineH - swatch) * 0.5f);
                ImGui::GetWindowDrawList()->AddRectFilled(a, ImVec2(a.x + swatch, a.y + swatch), r.colour);
            }
            // The name: provider dropped, then cut with "…", when the column is narrow.
            ImFont* nameFont = r.rank == 1 ? fonts.bold : fonts.ui;
            const float nameX = cell.x + swatch + cellPadding.x;
            bool dropped = false, cut = false; // provider left out; name ended with "…"
            const char* shown = shortName(nameFont, fonts.uiSize, r.name, cellRight - nameX, dropped);
            fitText(ImGui::GetWindowDrawList(), nameFont, fonts.uiSize, ImVec2(nameX, cell.y), text, shown,
                    r.name.c_str() + r.name.size(), cellRight - nameX, cut);
            if (cut) markItemRect(std::string(id) + ".nameCut." + std::to_string(i), nameX, cell.y, cellRight - nameX, lineH);
            if (rowHovered && ImGui::IsMouseHoveringRect(cell, ImVec2(cellRight, cell.y + lineH)))
                playerTooltip(fonts, r);

            bool anchorHovered = false;
            ImGui::PushFont(fonts.mono);
            for (int c = 0; c < ColumnCount; ++c) {
                if (c == Player || !ImGui::TableSetColumnIndex(c)) continue;
                bool muted = false;
                const char* t = cellText(Column(c), r, buf, sizeof buf, muted, liveElo);
                rightAligned(t, muted || c == Rank ? pal.muted : text);
                if (c == Rating && r.anchored && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenOverlapped))
                    anchorHovered = true;
            }
            ImGui::PopFont();
            if (anchorHovered) ImGui::SetTooltip("anchored: calibrated engine level");
            ImGui::PopID();
        }
        if (rows.empty()) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(Player);
            ImGui::TextDisabled("No finished games yet.");
        }
        ImGui::EndTable();
    }
    ImGui::PopStyleVar();
    return clicked;
}

} // namespace chaiba::ui
