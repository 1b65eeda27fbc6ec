// A panel the shell lends to a screen, drawn at the screen's left edge (e.g. the planner's "Plan
// with AI" beside the arena). The screen knows only this interface: what the panel is and which
// mode it belongs to stay with the shell that composes them.
#pragma once

namespace chaiba::ui {

class SidePanel {
public:
    virtual ~SidePanel() = default;
    // Draws the panel (or, when closed, the tab that opens it) at the cursor, `height` tall, in at
    // most `availWidth`; returns the width it took (0: nothing drawn, the screen keeps it all).
    virtual float drawSide(float availWidth, float height) = 0;
};

} // namespace chaiba::ui
