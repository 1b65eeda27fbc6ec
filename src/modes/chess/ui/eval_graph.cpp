// Evaluation bar and graph: ImGui draw-list shapes over the analyser's scores.
#include "src/modes/chess/ui/eval_graph.h"

#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace chaiba::ui {

unsigned int judgementColor(search::MoveJudgement j) {
    switch (j) {
    case search::MoveJudgement::Inaccuracy: return IM_COL32(230, 200, 60, 255);
    case search::MoveJudgement::Mistake: return IM_COL32(240, 140, 40, 255);
    case search::MoveJudgement::Blunder: return IM_COL32(220, 50, 50, 255);
    case search::MoveJudgement::Good: break;
    }
    return IM_COL32(160, 160, 160, 255);
}

void drawEvalBar(const Fonts& fonts, const search::PositionEval* eval, const std::string& label, float width,
                 float height, bool flipped) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##evalbar", ImVec2(width, height));
    markItem("analysis.evalbar");
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 black = IM_COL32(40, 40, 40, 255), white = IM_COL32(238, 238, 232, 255);
    const ImVec2 q(p.x + width, p.y + height);
    if (!eval) {
        dl->AddRectFilled(p, q, IM_COL32(110, 110, 110, 255), 2.0f);
    } else {
        const double whiteShare = search::winPercent(search::clampedCp(*eval)) / 100.0;
        const float whiteH = static_cast<float>(height * whiteShare);
        dl->AddRectFilled(p, q, black, 2.0f);
        if (flipped) dl->AddRectFilled(p, ImVec2(q.x, p.y + whiteH), white, 2.0f);
        else dl->AddRectFilled(ImVec2(p.x, q.y - whiteH), q, white, 2.0f);
        dl->AddLine(ImVec2(p.x, p.y + height * 0.5f), ImVec2(q.x, p.y + height * 0.5f), IM_COL32(200, 60, 60, 160));
        // The score on the side that leads, small, inside the bar, as lichess's bar shows it: one
        // decimal, none from ten pawns up ("-1.2", "-41"; the full score is the tooltip's). The
        // whole of "-40.51" did not fit: its minus sign fell off the bar's edge.
        std::string shown = label;
        if (!eval->terminal && eval->mateIn == 0) {
            char text[16];
            const double pawns = eval->whiteCp / 100.0;
            std::snprintf(text, sizeof text, std::fabs(pawns) >= 9.95 ? "%+.0f" : "%+.1f", pawns);
            shown = text;
        }
        const bool whiteLeads = whiteShare >= 0.5;
        ImGui::PushFont(fonts.mono);
        const float scale = std::min(1.0f, (width - 2) / std::max(1.0f, ImGui::CalcTextSize(shown.c_str()).x));
        const float fontSize = ImGui::GetFontSize() * std::max(0.55f, scale);
        const float textW = ImGui::CalcTextSize(shown.c_str()).x * fontSize / ImGui::GetFontSize();
        const bool atTop = whiteLeads == flipped;
        const float y = atTop ? p.y + 2 : q.y - fontSize - 2;
        dl->AddText(ImGui::GetFont(), fontSize, ImVec2(p.x + std::max(1.0f, (width - textW) * 0.5f), y),
                    whiteLeads ? black : white, shown.c_str());
        ImGui::PopFont();
    }
    dl->AddRect(p, q, IM_COL32(90, 90, 90, 255), 2.0f);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Evaluation from White's side: %s", label.c_str());
}

std::optional<int> drawEvalGraph(const Fonts& fonts, const chessmode::GameAnalyser& analyser, int viewPly,
                                 float width, float height, const std::string& caption) {
    const Palette& pal = palette();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const bool clicked = ImGui::InvisibleButton("##evalgraph", ImVec2(width, height));
    markItem("analysis.graph");
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 q(p.x + width, p.y + height);
    dl->AddRectFilled(p, q, IM_COL32(48, 48, 48, 255), 3.0f);
    const int positions = analyser.totalPositions();
    const int plies = std::max(1, positions - 1);
    auto xOf = [&](int ply) { return p.x + 3 + (width - 6) * float(ply) / float(plies); };
    // The curve below the caption's band.
    const float band = caption.empty() ? 0.0f : ImGui::GetTextLineHeight() + 2;
    auto yOf = [&](double whiteWin) { return q.y - 2 - float((height - band - 4) * whiteWin / 100.0); };
    // White's area under the curve, then the curve; the midline is an even game.
    ImVec2 prev;
    bool havePrev = false;
    for (int i = 0; i < positions; ++i) {
        const search::PositionEval* e = analyser.eval(static_cast<std::size_t>(i));
        if (!e) continue; // not scored yet: the curve joins the next scored position (no grey gap)
        const ImVec2 pt(xOf(i), yOf(search::winPercent(search::clampedCp(*e))));
        if (havePrev) {
            dl->AddQuadFilled(prev, pt, ImVec2(pt.x, q.y - 2), ImVec2(prev.x, q.y - 2), IM_COL32(225, 225, 218, 200));
            dl->AddLine(prev, pt, pal.accent, 1.5f);
        }
        prev = pt;
        havePrev = true;
    }
    dl->AddLine(ImVec2(p.x, yOf(50)), ImVec2(q.x, yOf(50)), IM_COL32(150, 150, 150, 120));
    const search::GameAnalysis& a = analyser.analysis();
    for (std::size_t i = 0; i < a.moves.size(); ++i) {
        const search::MoveJudgement j = a.moves[i].judgement;
        if (j == search::MoveJudgement::Good || j == search::MoveJudgement::Inaccuracy) continue;
        const int ply = static_cast<int>(i) + 1;
        const ImVec2 pt(xOf(ply), yOf(search::winPercent(search::clampedCp(a.positions[i + 1]))));
        dl->AddCircleFilled(pt, std::max(2.5f, height * 0.05f), judgementColor(j));
    }
    if (positions > 0) {
        const float x = xOf(std::clamp(viewPly, 0, plies));
        dl->AddLine(ImVec2(x, p.y), ImVec2(x, q.y), IM_COL32(120, 170, 255, 230), 1.5f);
    }
    dl->AddRect(p, q, IM_COL32(90, 90, 90, 255), 3.0f);
    if (!caption.empty()) {
        dl->AddRectFilled(ImVec2(p.x + 1, p.y + 1), ImVec2(q.x - 1, p.y + band), IM_COL32(48, 48, 48, 255), 3.0f);
        dl->AddText(ImVec2(p.x + 6, p.y + 1), IM_COL32(215, 215, 210, 255), caption.c_str());
    }
    if (positions == 0 && caption.empty()) {
        ImGui::PushFont(fonts.ui);
        dl->AddText(ImVec2(p.x + 6, p.y + 4), pal.muted, "no moves yet");
        ImGui::PopFont();
    }
    if (clicked && positions > 1) {
        const float t = (ImGui::GetIO().MousePos.x - p.x - 3) / std::max(1.0f, width - 6);
        return std::clamp(static_cast<int>(t * float(plies) + 0.5f), 0, plies);
    }
    return std::nullopt;
}

std::string analysisSummary(const chessmode::GameAnalyser& analyser) {
    char text[160];
    // Before the first move there is nothing to judge (it said "100% / 100%").
    if (analyser.totalPositions() <= 1) return "Accuracy: after the first moves";
    const search::GameAnalysis& a = analyser.analysis();
    if (!analyser.error().empty()) return analyser.error();
    if (!analyser.complete()) {
        std::snprintf(text, sizeof text, "Analysing: %d of %d positions scored", analyser.scoredPositions(),
                      analyser.totalPositions());
        return text;
    }
    std::snprintf(text, sizeof text, "Accuracy  White %.1f%%  \xC2\xB7  Black %.1f%%   (ACPL %.0f / %.0f)",
                  a.sides[0].accuracy, a.sides[1].accuracy, a.sides[0].averageCpLoss, a.sides[1].averageCpLoss);
    return text;
}

} // namespace chaiba::ui
