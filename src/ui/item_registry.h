// Named widget rectangles recorded each frame, for the automation API (window.chaiba.ui()) and
// the browser tests: "where is the Settings button" without guessing pixel positions.
#pragma once

#include <map>
#include <string>

namespace chaiba::ui {

struct ItemRect {
    float x = 0, y = 0, w = 0, h = 0;  // canvas pixels
    bool cutSideways = false; // its window's edge cut part of it off at the left or right
};

// Starts a new frame's record; endItemFrame() publishes it (call after the whole frame is drawn).
void beginItemFrame();
void endItemFrame();
// Records the last submitted ImGui item (or the current window when `window` is true) as `name`.
void markItem(const std::string& name);
void markWindow(const std::string& name);
void markItemRect(const std::string& name, float x, float y, float w, float h);
// The record of the last complete frame as JSON {"name":[x,y,w,h],...} in CSS pixels: what is
// visible of each item; a fifth element 1 when the window's left or right edge cut it (a widget
// too wide for its window: clipped, where a vertical cut is only scrolling).
std::string itemsJson(float pixelRatio);

} // namespace chaiba::ui
