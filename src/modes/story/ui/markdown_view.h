// Draws a parsed markdown document (story/markdown_doc.h) with ImGui as a reader expects: headings
// larger and bold, strong in bold, emphasis tinted, lists with markers, quotes with a bar, code in
// the mono font, images as a framed caption; words wrap at the given width.
#pragma once

#include "src/modes/story/markdown_doc.h"

#include <string>

namespace chaiba::ui {

struct Fonts;

struct MarkdownLook {
    float width = 600;  // wrap width in pixels
    float scale = 1.0f; // body text size relative to the UI font
    bool muted = false; // all text in the muted colour (off-screen summaries)
};

// Draws at the cursor and advances it past the document.
void drawMarkdown(const story::MdDocument& doc, const Fonts& fonts, const MarkdownLook& look);
// Parses (cached by text) and draws.
void drawMarkdownText(const std::string& text, const Fonts& fonts, const MarkdownLook& look);

} // namespace chaiba::ui
