// Pictures from image files (SVG) that the platform rasterises into one texture at the size they
// are drawn, so they stay sharp at every size. The browser implements it (web/image_atlas_web);
// native builds and tests have none, and callers then draw their own fallback.
#pragma once

#include <imgui.h>

#include <span>
#include <string>
#include <string_view>

namespace chaiba::ui {

// One set of pictures the site ships: `urls` (relative to the page), all square. `indexUrl` is a
// JSON file {"sets": [names]} that lists the sets this build has, so a set left out of the build
// is reported as such instead of as missing files.
struct ImageSet {
    std::string_view name;      // its key, e.g. "cburnett"
    std::string_view indexUrl;  // e.g. "pieces/index.json"
    std::span<const std::string_view> urls;
};

// A set rasterised into one texture: picture i sits in cell (i % columns, i / columns), each
// cellPx × cellPx, with paddingPx of transparent pixels between cells (no bleeding when sampled).
struct ImageAtlas {
    ImTextureID texture = nullptr;
    int cellPx = 0;
    int columns = 1, rows = 1;
    int paddingPx = 0;
    int widthPx = 0, heightPx = 0;

    ImVec2 uvMin(int index) const {
        const int col = index % columns, row = index / columns;
        return ImVec2(float(col * (cellPx + paddingPx)) / float(widthPx),
                      float(row * (cellPx + paddingPx)) / float(heightPx));
    }
    ImVec2 uvMax(int index) const {
        const ImVec2 a = uvMin(index);
        return ImVec2(a.x + float(cellPx) / float(widthPx), a.y + float(cellPx) / float(heightPx));
    }
};

enum class ImageSetState { Loading, Ready, Failed };

class ImageAtlases {
public:
    virtual ~ImageAtlases() = default;
    // The set rasterised at `cellPx` (device pixels). Asking is the request, so call it each frame
    // the pictures are drawn: the exact size once it is made; meanwhile the nearest size already
    // made (a new size is made only after it has been asked for a moment without change, so a
    // window being resized does not rasterise at every step); nullptr before the first one is
    // ready or when the set failed. The pointer is valid until the next frame.
    virtual const ImageAtlas* find(const ImageSet& set, int cellPx) = 0;
    virtual ImageSetState state(std::string_view setName) const = 0;
    // Why the set failed, in plain words ("" unless Failed).
    virtual std::string failure(std::string_view setName) const = 0;
};

} // namespace chaiba::ui
