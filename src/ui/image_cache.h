// The picture cache behind ImageTextures (image_textures.h), platform-neutral so its bounds are
// tested natively: it reads headers, starts decodes through a DecoderBackend (the browser's, or a
// fake), keeps at most maxTextures textures and maxMegapixels pixels, and frees the least recently
// drawn first (never one drawn in this or the previous frame: those are on screen).
#pragma once

#include "src/ui/image_header.h"
#include "src/ui/image_textures.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace chaiba::ui {

// What a platform does for the cache. Handles are the cache's numbers for one decode.
class ImageDecoderBackend {
public:
    virtual ~ImageDecoderBackend() = default;
    // Starts decoding `bytes` (copied) scaled to width x height; the result arrives through
    // ImageCache::onDecoded or onFailed, later (or at once, in a fake).
    virtual void startDecode(int handle, const std::string& bytes, ImageFormat format, int width,
                             int height) = 0;
    // Turns a finished decode into a texture (0: it could not be made); the decoded pixels are released.
    virtual std::uintptr_t upload(int handle) = 0;
    // Releases a finished decode nobody wants any more.
    virtual void discard(int handle) = 0;
    virtual void deleteTexture(std::uintptr_t texture) = 0;
    // The frame being drawn (ImGui's frame count in the page).
    virtual int frameNumber() const = 0;
};

struct ImageCacheLimits {
    int maxTextures = 24;      // live textures
    double maxMegapixels = 16; // their decoded pixels (16 MP = 64 MB of RGBA)
    int maxDecoding = 3;       // decodes in flight at once (each holds the encoded copy)
    int maxKnown = 512;        // remembered headers and errors (a few dozen bytes each)
};

class ImageCache final : public ImageTextures {
public:
    ImageCache(ImageDecoderBackend& backend, ImageCacheLimits limits = {});
    ~ImageCache() override;
    ImageCache(const ImageCache&) = delete;
    ImageCache& operator=(const ImageCache&) = delete;

    ImageView view(const std::string& key, bool visible, int wantLongSidePx,
                   const ImageLoader& load) override;
    void forget(const std::string& prefix) override;
    ImageTextureStats stats() const override;

    // The backend's answers.
    void onDecoded(int handle);
    void onFailed(int handle, const std::string& why);

private:
    struct Entry {
        ImageHeader header;
        std::string error; // reading or decoding failed (header.error copied here too)
        std::uintptr_t texture = 0;
        int textureWidth = 0;
        int textureHeight = 0;
        int decoding = 0;    // the handle of the decode in flight, 0 when none
        int decodeWidth = 0; // the size that decode asked for
        int decodeHeight = 0;
        std::uint64_t lastUse = 0; // the cache's use counter at the last view()
        int lastFrame = -10;
    };
    ImageView viewOf(const Entry& entry) const;
    void startDecode(const std::string& key, Entry& entry, const std::string& bytes, int wantLongSidePx);
    void freeTexture(Entry& entry);
    void keepWithinBounds();
    void forgetOldHeaders(const std::string& keep); // keep: the picture being viewed

    ImageDecoderBackend& backend_;
    ImageCacheLimits limits_;
    std::unordered_map<std::string, Entry> entries_;
    std::unordered_map<int, std::string> pending_; // decode handle -> key
    std::uint64_t useCounter_ = 0;
    int nextHandle_ = 1;
    std::uint64_t decoded_ = 0, freed_ = 0, failed_ = 0;
};

} // namespace chaiba::ui
