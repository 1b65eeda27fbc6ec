// What a picture is before any decoding: its format and size read from the first bytes of a PNG,
// JPEG, GIF or WebP file (so a bad or oversized picture is refused before the browser decodes it),
// and the sizes a picture is decoded at and drawn at. Pure functions, tested natively.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace chaiba::ui {

enum class ImageFormat { Png, Jpeg, Gif, WebP };
const char* imageMimeType(ImageFormat format); // "image/png", ...

constexpr int kMaxImageSidePx = 16384;       // a longer side is refused (decoding bombs)
constexpr double kMaxImageMegapixels = 50.0; // more pixels are refused before decoding
constexpr int kMaxDecodedSidePx = 2048;      // textures are at most this long on their long side

// What it is: a picture's natural size, or why it cannot be shown (error non-empty).
struct ImageHeader {
    ImageFormat format = ImageFormat::Png;
    int width = 0;
    int height = 0;
    std::string error;
    bool ok() const { return error.empty(); }
};

// Reads the header; an unknown format, a truncated header, a zero or oversized size is an error.
ImageHeader readImageHeader(std::string_view bytes);

struct ImageSize {
    float width = 0;
    float height = 0;
};

// The picture scaled to fit maxWidth x maxHeight at its natural aspect (scaled up or down).
ImageSize fitImage(int naturalWidth, int naturalHeight, float maxWidth, float maxHeight);

// The size to decode at: the natural size, shrunk (never grown) so the long side is at most
// min(wantLongSidePx, kMaxDecodedSidePx), at least 1 pixel a side.
struct DecodeSize {
    int width = 0;
    int height = 0;
};
DecodeSize decodeSize(int naturalWidth, int naturalHeight, int wantLongSidePx);

} // namespace chaiba::ui
