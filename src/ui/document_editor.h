// A document being edited (a world file, a strategy document): the browser's own text editor
// laid over the page where the platform has one (ui/text_areas.h: long lines wrap), ImGui's
// InputTextMultiline otherwise. The editor is hidden, its text kept, while another window covers
// its place or it is not drawn (another tab), and comes back as it was.
#pragma once

#include <imgui.h>

#include <string>

namespace chaiba {
class Platform;
}

namespace chaiba::ui {

struct Fonts;
class TextAreas;

class DocumentEditor {
public:
    explicit DocumentEditor(std::string id) : id_(std::move(id)) {}
    ~DocumentEditor() { end(); }
    DocumentEditor(const DocumentEditor&) = delete;
    DocumentEditor& operator=(const DocumentEditor&) = delete;

    // Starts editing `text` (label: what is edited, for screen readers).
    void begin(Platform* platform, const std::string& text, const std::string& label);
    bool active() const { return active_; }
    // The editor at the cursor, `size` as ImGui's (a width or height of 0 or less: what is left,
    // less its magnitude). Registers its rectangle under the editor's id (ui::markItem).
    void draw(ImVec2 size, const Fonts& fonts);
    // What it holds now.
    std::string text() const;
    // Ends editing (saved or cancelled); the browser's editor is removed.
    void end();

private:
    std::string id_;
    TextAreas* areas_ = nullptr; // null: ImGui's editor over buffer_
    std::string buffer_;
    bool active_ = false;
};

} // namespace chaiba::ui
