// What a screen asks of the platform it runs on (the browser, or a test double): clipboard,
// downloads, time, the file chooser, pictures decoded or rasterised into textures, text editors
// laid over the page. Implemented in web/ for the page.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace chaiba {

namespace ui {
class ImageTextures; // src/ui/image_textures.h
class ImageAtlases;  // src/ui/image_atlas.h
class TextAreas;     // src/ui/text_areas.h
}

// A file the person chose in the browser's file dialog (or why it could not be read).
struct PickedFile {
    std::string name;
    std::string text;  // the text; for a binary pick, the bytes in base64
    std::string error; // non-empty: nothing was read
};

class Platform {
public:
    virtual ~Platform() = default;
    virtual void copyToClipboard(const std::string& text) = 0;
    virtual void downloadTextFile(const std::string& fileName, const std::string& mimeType,
                                  const std::string& text) = 0;
    virtual double nowMs() const = 0;  // monotonic milliseconds
    // Opens the file chooser (accept: ".json,application/json"); the chosen file arrives later
    // through takePickedFile(), or its error when it is larger than maxBytes (0: no limit) or
    // cannot be read. Platforms without one (tests) pick nothing. binary: any file (a PNG), its
    // bytes base64-encoded in PickedFile::text.
    virtual void pickTextFile(const std::string& accept, std::size_t maxBytes = 0, bool binary = false) {
        (void)accept, (void)maxBytes, (void)binary;
    }
    virtual std::optional<PickedFile> takePickedFile() { return std::nullopt; }
    // Pictures decoded into textures (ui/image_textures.h); none where nothing decodes them
    // (tests, native): pictures are then drawn as their caption.
    virtual ui::ImageTextures* imageTextures() { return nullptr; }
    // Image files rasterised into textures (the boards' piece sets); null where there are none
    // (native builds, tests): callers draw their fallback.
    virtual ui::ImageAtlases* imageAtlases() { return nullptr; }
    // The browser's own multi-line text editors (long lines wrap); null where there are none:
    // callers draw ImGui's (ui/document_editor.h does both).
    virtual ui::TextAreas* textAreas() { return nullptr; }
};

} // namespace chaiba
