// Multi-line text editors of the browser's own: a <textarea> laid over the page where ImGui drew
// its frame. They wrap long lines (ImGui 1.86's InputTextMultiline cannot, so a paragraph of a
// world file ran off the edge, on a phone after ~45 characters), and bring the platform's
// selection, input methods, spell checking and touch keyboard. Implemented in web/; where there
// are none (Platform::textAreas() null) callers draw ImGui's editor (ui/document_editor.h).
#pragma once

#include <cstdint>
#include <string>

namespace chaiba::ui {

class TextAreas {
public:
    virtual ~TextAreas() = default;
    // Opens editor `id` holding `text` (an open one is refilled) and gives it the keyboard.
    virtual void open(const std::string& id, const std::string& text, const std::string& label) = 0;
    // Shows editor `id` over this rectangle (ImGui's pixels) with text of fontPx pixels in the
    // theme's colours (ImGui's packed RGBA; the page drawn behind shows through), for the frame
    // being drawn; an open editor not placed in a drawn frame is hidden, its text kept.
    virtual void place(const std::string& id, float x, float y, float w, float h, float fontPx,
                       std::uint32_t textColour, std::uint32_t borderColour) = 0;
    // What editor `id` holds now ("" once closed).
    virtual std::string text(const std::string& id) const = 0;
    // Removes editor `id` (the keyboard goes back to the page).
    virtual void close(const std::string& id) = 0;
};

} // namespace chaiba::ui
