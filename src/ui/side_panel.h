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
    // On a screen too narrow to share (a phone): either the panel, open, takes the whole area
    // (true: the screen draws nothing else) or a one-line bar that opens it is drawn at the cursor
    // (false: the screen draws below it). The default draws nothing.
    virtual bool drawNarrow(float availWidth, float height) {
        (void)availWidth, (void)height;
        return false;
    }
};

} // namespace chaiba::ui
