// Rating plot: layout (legend rows, then the plot area with a tick column at the left and a caption
// row below), round rating ticks, the lines, and the hover guide with a sorted tooltip.
#include "src/ui/rating_plot.h"

#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>

namespace chaiba::ui {

namespace {

// Mid-lightness colours: enough contrast on white and on near-black, distinct from each other.
constexpr ImU32 kSeriesColours[12] = {
    IM_COL32(31, 119, 210, 255), // blue
    IM_COL32(230, 112, 20, 255), // orange
    IM_COL32(40, 160, 70, 255),  // green
    IM_COL32(214, 50, 60, 255),  // red
    IM_COL32(150, 90, 200, 255), // purple
    IM_COL32(0, 160, 170, 255),  // teal
    IM_COL32(200, 60, 160, 255), // magenta
    IM_COL32(150, 110, 60, 255), // brown
    IM_COL32(190, 160, 0, 255),  // ochre
    IM_COL32(90, 120, 150, 255), // slate
    IM_COL32(120, 170, 30, 255), // olive green
    IM_COL32(240, 90, 130, 255), // pink
};

constexpr const char* kEmptyText = "Ratings appear after the first finished game.";

// A tick step of 1, 2, 2.5 or 5 times a power of ten giving at most `maxTicks` intervals.
double niceStep(double range, int maxTicks) {
    const double raw = range / std::max(1, maxTicks);
    const double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * p >= raw) return m * p;
    return 10 * p;
}

ImU32 withAlpha(ImU32 colour, float alpha) {
    ImVec4 v = ImGui::ColorConvertU32ToFloat4(colour);
    v.w *= alpha;
    return ImGui::ColorConvertFloat4ToU32(v);
}

// A dashed polyline: dashes of `dash` pixels with equal gaps, the pattern running on across points.
void dashedPolyline(ImDrawList* dl, const ImVec2* points, int count, ImU32 colour, float thickness,
                    float dash) {
    float phase = 0; // distance into the current dash+gap period
    for (int i = 1; i < count; ++i) {
        const ImVec2 a = points[i - 1], b = points[i];
        const float len = std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
        float t = 0;
        while (t < len) {
            const bool on = phase < dash;
            const float step = std::min(len - t, (on ? dash : 2 * dash) - phase);
            if (on && len > 0) {
                const float t0 = t / len, t1 = (t + step) / len;
                dl->AddLine(ImVec2(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0),
                            ImVec2(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1), colour, thickness);
            }
            t += step;
            phase += step;
            if (phase >= 2 * dash) phase = 0;
        }
    }
}

// Legend entry sample: a short line, dashed for anchored series.
void legendSample(ImDrawList* dl, ImVec2 at, float length, const RatingSeries& s, ImU32 colour,
                  float thickness) {
    const ImVec2 pts[2] = {at, ImVec2(at.x + length, at.y)};
    if (s.anchored)
        dashedPolyline(dl, pts, 2, colour, thickness * 0.75f, length / 5.0f);
    else
        dl->AddLine(pts[0], pts[1], colour, thickness);
}

void hoverTooltip(const Fonts& fonts, const std::vector<RatingSeries>& series, int index, int count) {
    // Sorting is only done while hovering; the vector lives for the tooltip alone.
    std::vector<int> order(series.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return series[static_cast<size_t>(a)].ratings[static_cast<size_t>(index)] >
               series[static_cast<size_t>(b)].ratings[static_cast<size_t>(index)];
    });
    ImGui::BeginTooltip();
    ImGui::TextDisabled("point %d of %d", index + 1, count);
    float nameW = 0;
    for (const RatingSeries& s : series) nameW = std::max(nameW, ImGui::CalcTextSize(s.name.c_str()).x);
    const float lineH = ImGui::GetTextLineHeight();
    const float swatch = lineH * 0.6f;
    for (int i : order) {
        const RatingSeries& s = series[static_cast<size_t>(i)];
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + (lineH - swatch) * 0.5f),
                                                  ImVec2(p.x + swatch, p.y + (lineH + swatch) * 0.5f),
                                                  s.colour);
        ImGui::SetCursorScreenPos(ImVec2(p.x + swatch + lineH * 0.4f, p.y));
        ImGui::TextUnformatted(s.name.c_str());
        ImGui::SameLine(swatch + lineH * 0.4f + nameW + lineH * 1.2f + ImGui::GetStyle().WindowPadding.x);
        ImGui::PushFont(fonts.mono);
        ImGui::Text("%5.0f%s", s.ratings[static_cast<size_t>(index)], s.anchored ? " *" : "  ");
        ImGui::PopFont();
    }
    ImGui::EndTooltip();
}

} // namespace

ImU32 seriesColour(int index) {
    const int n = static_cast<int>(sizeof kSeriesColours / sizeof kSeriesColours[0]);
    return kSeriesColours[((index % n) + n) % n];
}

void drawRatingPlot(const Fonts& fonts, const std::vector<RatingSeries>& series, ImVec2 size,
                    const char* id) {
    const Palette& pal = palette();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (size.x <= 0) size.x = std::max(avail.x, 1.0f);
    if (size.y <= 0) size.y = std::max(avail.y, 1.0f);
    const ImVec2 a = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, size);
    if (!ImGui::IsItemVisible()) return;
    markItem(id);
    const bool hovered = ImGui::IsItemHovered();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(a, ImVec2(a.x + size.x, a.y + size.y), true);

    const float css = fonts.uiSize / kUiFontCssPx;
    const float text = fonts.uiSize * 0.85f;
    const float lineH = text * 1.3f;
    // Every series should have the same length; a shorter one limits the points shown.
    int count = series.empty() ? 0 : INT_MAX;
    for (const RatingSeries& s : series) count = std::min(count, static_cast<int>(s.ratings.size()));

    // Step 1. Nothing to plot yet: a sentence in the middle of the area.
    if (count < 2) {
        const float wrap = std::max(size.x - 4 * text, text * 8);
        const ImVec2 ext = fonts.ui->CalcTextSizeA(fonts.uiSize, FLT_MAX, wrap, kEmptyText);
        dl->AddText(fonts.ui, fonts.uiSize,
                    ImVec2(a.x + std::max(0.0f, (size.x - ext.x) * 0.5f),
                           a.y + std::max(0.0f, (size.y - ext.y) * 0.5f)),
                    pal.muted, kEmptyText, nullptr, wrap);
        dl->PopClipRect();
        return;
    }

    // Step 2. Legend rows (wrapping), remembering which entry the mouse is on.
    const float sample = text * 1.6f;
    const float entryGap = text * 1.2f;
    const float thickness = 2.0f * css;
    int highlighted = -1;
    float x = a.x, y = a.y;
    for (size_t i = 0; i < series.size(); ++i) {
        const float w =
            sample + text * 0.4f + fonts.ui->CalcTextSizeA(text, FLT_MAX, 0, series[i].name.c_str()).x;
        if (x > a.x && x + w > a.x + size.x) {
            x = a.x;
            y += lineH;
        }
        if (hovered && mouse.x >= x && mouse.x < x + w && mouse.y >= y && mouse.y < y + lineH)
            highlighted = static_cast<int>(i);
        x += w + entryGap;
    }
    const float legendH = y - a.y + lineH;
    x = a.x;
    y = a.y;
    for (size_t i = 0; i < series.size(); ++i) {
        const RatingSeries& s = series[i];
        const float nameW = fonts.ui->CalcTextSizeA(text, FLT_MAX, 0, s.name.c_str()).x;
        const float w = sample + text * 0.4f + nameW;
        if (x > a.x && x + w > a.x + size.x) {
            x = a.x;
            y += lineH;
        }
        const bool dim = highlighted >= 0 && highlighted != static_cast<int>(i);
        legendSample(dl, ImVec2(x, y + lineH * 0.5f), sample, s, withAlpha(s.colour, dim ? 0.3f : 1.0f),
                     thickness);
        dl->AddText(fonts.ui, text, ImVec2(x + sample + text * 0.4f, y + (lineH - text) * 0.5f),
                    dim ? pal.muted : ImGui::GetColorU32(ImGuiCol_Text), s.name.c_str());
        x += w + entryGap;
    }

    // Step 3. Axes: rating ticks at round values, the plot rectangle, the caption row.
    double lo = DBL_MAX, hi = -DBL_MAX;
    for (const RatingSeries& s : series)
        for (double r : s.ratings) {
            lo = std::min(lo, r);
            hi = std::max(hi, r);
        }
    if (hi - lo < 40) {
        const double mid = (hi + lo) * 0.5;
        lo = mid - 20;
        hi = mid + 20;
    }
    const float labelW = fonts.mono->CalcTextSizeA(text, FLT_MAX, 0, "0000").x;
    const ImVec2 p0(a.x + labelW + text * 0.6f, a.y + legendH + text * 0.8f);
    const ImVec2 p1(a.x + size.x - text * 0.6f, a.y + size.y - lineH * 1.1f);
    if (p1.x - p0.x < text * 4 || p1.y - p0.y < text * 3) {
        dl->PopClipRect();
        return; // too small for a chart: the legend alone
    }
    // A margin above and below so no line runs along the frame; ticks at round values inside.
    const double margin = (hi - lo) * 0.06;
    lo -= margin;
    hi += margin;
    const double step = niceStep(hi - lo, std::max(2, static_cast<int>((p1.y - p0.y) / (lineH * 2.0f))));
    auto yOf = [&](double r) { return p1.y - static_cast<float>((r - lo) / (hi - lo)) * (p1.y - p0.y); };
    auto xOf = [&](int i) {
        return p0.x + (p1.x - p0.x) * static_cast<float>(i) / static_cast<float>(count - 1);
    };
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_TableBorderLight);
    char label[16];
    for (double t = std::ceil(lo / step) * step; t <= hi; t += step) {
        const float ty = std::round(yOf(t));
        dl->AddLine(ImVec2(p0.x, ty), ImVec2(p1.x, ty), grid, css);
        std::snprintf(label, sizeof label, "%.0f", t);
        const float w = fonts.mono->CalcTextSizeA(text, FLT_MAX, 0, label).x;
        dl->AddText(fonts.mono, text, ImVec2(p0.x - text * 0.5f - w, ty - text * 0.5f), pal.muted, label);
    }
    dl->AddLine(ImVec2(p0.x, p0.y), ImVec2(p0.x, p1.y), pal.panelBorder, css);
    dl->AddLine(ImVec2(p0.x, p1.y), ImVec2(p1.x, p1.y), pal.panelBorder, css);
    const float captionY = p1.y + (lineH * 1.1f - text) * 0.5f + css;
    dl->AddText(fonts.ui, text, ImVec2(p0.x, captionY), pal.muted, "first game");
    const char* latest = "latest \xE2\x86\x92";
    const float latestW = fonts.ui->CalcTextSizeA(text, FLT_MAX, 0, latest).x;
    dl->AddText(fonts.ui, text, ImVec2(p1.x - latestW, captionY), pal.muted, latest);

    // Step 4. The lines: anchored ones first (thin, dashed), the highlighted one last.
    static ImVector<ImVec2> points; // reused across frames: no allocation once grown
    points.resize(count);
    auto drawSeries = [&](size_t i) {
        const RatingSeries& s = series[i];
        for (int k = 0; k < count; ++k) points[k] = ImVec2(xOf(k), yOf(s.ratings[static_cast<size_t>(k)]));
        const bool dim = highlighted >= 0 && highlighted != static_cast<int>(i);
        const ImU32 colour = withAlpha(s.colour, dim ? 0.2f : 1.0f);
        const float w = highlighted == static_cast<int>(i) ? thickness * 1.5f : thickness;
        if (s.anchored)
            dashedPolyline(dl, points.Data, count, colour, w * 0.75f, 5.0f * css);
        else
            dl->AddPolyline(points.Data, count, colour, ImDrawFlags_None, w);
        dl->AddCircleFilled(points[count - 1], w * 1.5f, colour, 12);
    };
    for (int pass = 0; pass < 2; ++pass)
        for (size_t i = 0; i < series.size(); ++i)
            if (series[i].anchored == (pass == 0) && static_cast<int>(i) != highlighted) drawSeries(i);
    if (highlighted >= 0) drawSeries(static_cast<size_t>(highlighted));

    // Step 5. Hover inside the plot: a vertical guide, a dot per series and the sorted values.
    if (hovered && mouse.x >= p0.x - text && mouse.x <= p1.x + text && mouse.y >= p0.y && mouse.y <= p1.y) {
        const float f = (mouse.x - p0.x) / (p1.x - p0.x) * static_cast<float>(count - 1);
        const int index = std::clamp(static_cast<int>(std::lround(f)), 0, count - 1);
        const float gx = xOf(index);
        dl->AddLine(ImVec2(gx, p0.y), ImVec2(gx, p1.y), pal.muted, css);
        for (const RatingSeries& s : series)
            dl->AddCircleFilled(ImVec2(gx, yOf(s.ratings[static_cast<size_t>(index)])), thickness * 1.6f,
                                s.colour, 12);
        hoverTooltip(fonts, series, index, count);
    }
    dl->PopClipRect();
}

} // namespace chaiba::ui
