// The rating plot: every participant's rating after each finished game, one line per series,
// drawn with ImDrawList (round ticks, light grid, a wrapping legend, a hover guide and tooltip).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace chaiba::ui {

struct Fonts;

struct RatingSeries {
    std::string name;
    ImU32 colour = 0;            // seriesColour(index) unless the caller has its own
    std::vector<double> ratings; // one value per point; every series has the same length
    bool anchored = false;       // drawn dashed and thinner (a calibrated engine level)
};

// Draws the plot at the cursor in `size` pixels (a component <= 0 takes the available width or
// height) and advances the cursor. x is the point index (finished games, possibly subsampled),
// y the rating. Fewer than two points show a sentence instead of an empty chart. Hovering a
// legend entry highlights its line. `id` is the ImGui ID of the plot's item.
void drawRatingPlot(const Fonts& fonts, const std::vector<RatingSeries>& series, ImVec2 size, const char* id);

// A distinct colour per series index from a fixed 12-colour palette that reads on the light and
// the dark theme; indices beyond 11 wrap around.
ImU32 seriesColour(int index);

} // namespace chaiba::ui
