// Draws a parsed markdown document (story/markdown_doc.h) with ImGui as a reader expects: headings
// larger and bold, strong in bold, emphasis tinted, lists with markers, quotes with a bar, code in
// the mono font, pictures from the world's files at their natural aspect fitted to the width with
// the caption below (a framed caption where nothing decodes them, with the reason when a picture
// cannot be shown); words wrap at the given width.
#pragma once

#include "src/modes/story/markdown_doc.h"
#include "src/modes/story/world_files.h"
#include "src/ui/image_textures.h"

#include <string>
#include <vector>

namespace chaiba::ui {

struct Fonts;

// What it is: one picture as it was drawn in a frame (for the automation API and the tests).
struct ShownPicture {
    std::string item; // its name in window.chaiba.ui()
    std::string path; // the world path
    ImageStatus status = ImageStatus::Loading;
    int width = 0; // natural size (0 when unknown)
    int height = 0;
    int textureWidth = 0; // the decoded size (0 until decoded)
    int textureHeight = 0;
    std::string error;
};

// Where a document's pictures come from. Without it (or without textures) pictures are captions.
struct MarkdownImages {
    ImageTextures* textures = nullptr;          // null: this platform draws no pixels
    const story::WorldFiles* files = nullptr;   // the world the paths are relative to
    std::string keyPrefix;                      // names the world in the texture cache
    std::string itemPrefix = "story.image.";    // item names: itemPrefix + path
    float maxHeight = 320;                      // pixels (about 40% of the view)
    std::vector<ShownPicture>* shown = nullptr; // filled with every picture drawn, when set
};

struct MarkdownLook {
    float width = 600;  // wrap width in pixels
    float scale = 1.0f; // body text size relative to the UI font
    bool muted = false; // all text in the muted colour (off-screen summaries)
    const MarkdownImages* images = nullptr;
};

// Draws at the cursor and advances it past the document.
void drawMarkdown(const story::MdDocument& doc, const Fonts& fonts, const MarkdownLook& look);
// Parses (cached by text) and draws.
void drawMarkdownText(const std::string& text, const Fonts& fonts, const MarkdownLook& look);
// Plain text in the disabled colour, wrapped at the window's edge (the Story screen's asides).
void mutedText(const std::string& text);
// One picture (a world path) with its caption, as a document's image block is drawn.
void drawMarkdownImage(const std::string& src, const std::string& caption, const Fonts& fonts,
                       const MarkdownLook& look);

} // namespace chaiba::ui
