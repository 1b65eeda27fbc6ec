// Pictures as GPU textures for ImGui::Image: a cache keyed by a name the caller chooses (a world
// and a path), filled asynchronously by the platform (the browser decodes and uploads; a platform
// without one draws no pixels). Bounded: least recently drawn textures are freed first.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace chaiba::ui {

enum class ImageStatus { Loading, Ready, Failed };

// What it is: one picture as the cache knows it this frame. The natural size is known as soon as
// the header was read (Loading with width > 0), so a layout keeps its place while pixels arrive.
struct ImageView {
    ImageStatus status = ImageStatus::Loading;
    void* texture = nullptr; // ImTextureID when Ready
    int width = 0;           // natural size in pixels (0 until known)
    int height = 0;
    int textureWidth = 0; // the decoded (possibly downscaled) size
    int textureHeight = 0;
    std::string error; // Failed: why, in a reader's words
};

// The encoded file, or why it could not be read (too large, missing): called only when the cache
// needs the bytes (first sight, or decoding again after the texture was freed).
struct ImageBytes {
    std::string bytes;
    std::string error;
};
using ImageLoader = std::function<ImageBytes()>;

// Figures for the automation API and the tests.
struct ImageTextureStats {
    int textures = 0;          // live GPU textures
    double megapixels = 0;     // their pixels
    int decoding = 0;          // decodes in flight
    int known = 0;             // pictures whose header (or error) is remembered
    std::uint64_t decoded = 0; // textures made this session
    std::uint64_t freed = 0;   // textures freed to stay within the bounds
    std::uint64_t failed = 0;  // decodes that failed this session
    int maxTextures = 0;       // the bounds
    double maxMegapixels = 0;
};

class ImageTextures {
public:
    virtual ~ImageTextures() = default;
    // The picture named `key`. `visible` asks for pixels (a decode starts if there is no texture);
    // otherwise only the header is read, for the layout. wantLongSidePx: the long side it is drawn
    // at, in pixels (the texture is decoded at up to twice that, at most kMaxDecodedSidePx).
    virtual ImageView view(const std::string& key, bool visible, int wantLongSidePx,
                           const ImageLoader& load) = 0;
    // Forgets every picture whose key starts with `prefix` (their files changed); frees textures.
    virtual void forget(const std::string& prefix) = 0;
    virtual ImageTextureStats stats() const = 0;
};

} // namespace chaiba::ui
