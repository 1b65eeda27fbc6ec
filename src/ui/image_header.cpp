// Picture headers and sizes (see image_header.h). Byte layouts:
//   PNG   89 50 4E 47 0D 0A 1A 0A, then the IHDR chunk: width and height big-endian at 16 and 20.
//   GIF   "GIF87a" or "GIF89a", logical screen width and height little-endian at 6 and 8.
//   JPEG  FF D8, then segments FF xx <length BE16>; a start-of-frame (C0-CF but C4, C8, CC) holds
//         precision (1), height (2), width (2).
//   WebP  "RIFF" <size> "WEBP", then "VP8 " (lossy: 14-bit width and height little-endian at 26
//         and 28), "VP8L" (lossless: 0x2F at 20, then width-1 and height-1 in 14 bits each) or
//         "VP8X" (extended: canvas width-1 and height-1 as 24-bit little-endian at 24 and 27).
#include "src/ui/image_header.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace chaiba::ui {

namespace {

std::uint32_t byteAt(std::string_view b, std::size_t i) {
    return static_cast<unsigned char>(b[i]);
}
std::uint32_t be16(std::string_view b, std::size_t i) {
    return byteAt(b, i) << 8 | byteAt(b, i + 1);
}
std::uint32_t le16(std::string_view b, std::size_t i) {
    return byteAt(b, i) | byteAt(b, i + 1) << 8;
}
std::uint32_t be32(std::string_view b, std::size_t i) {
    return be16(b, i) << 16 | be16(b, i + 2);
}
std::uint32_t le24(std::string_view b, std::size_t i) {
    return le16(b, i) | byteAt(b, i + 2) << 16;
}

ImageHeader failed(std::string why) {
    ImageHeader h;
    h.error = std::move(why);
    return h;
}

ImageHeader sized(ImageFormat format, std::uint32_t width, std::uint32_t height) {
    if (width == 0 || height == 0) return failed("the picture has no pixels (0 wide or 0 high)");
    if (width > kMaxImageSidePx || height > kMaxImageSidePx ||
        double(width) * double(height) > kMaxImageMegapixels * 1e6)
        return failed("the picture is too large to show: " + std::to_string(width) + "x" +
                      std::to_string(height) + " pixels (at most " + std::to_string(kMaxImageSidePx) +
                      " a side and " + std::to_string(int(kMaxImageMegapixels)) + " megapixels)");
    ImageHeader h;
    h.format = format;
    h.width = static_cast<int>(width);
    h.height = static_cast<int>(height);
    return h;
}

ImageHeader jpegHeader(std::string_view b) {
    std::size_t i = 2;
    while (i + 4 <= b.size()) {
        if (byteAt(b, i) != 0xFF) return failed("the JPEG data is damaged (no marker where one belongs)");
        const std::uint32_t marker = byteAt(b, i + 1);
        if (marker == 0xFF) { // fill byte
            ++i;
            continue;
        }
        if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) { // no length
            i += 2;
            continue;
        }
        if (marker == 0xD9 || marker == 0xDA) break; // end of image, start of scan: no frame before
        const std::uint32_t length = be16(b, i + 2);
        if (length < 2)
            return failed("the JPEG data is damaged (a segment of length " + std::to_string(length) + ")");
        const bool frame =
            marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (frame) {
            if (i + 9 > b.size()) break;
            return sized(ImageFormat::Jpeg, be16(b, i + 7), be16(b, i + 5));
        }
        i += 2 + length;
    }
    return failed("the JPEG data ends before its size (no frame header)");
}

ImageHeader webpHeader(std::string_view b) {
    if (b.size() < 30) return failed("the WebP data is too short");
    const std::string_view chunk = b.substr(12, 4);
    if (chunk == "VP8 ") {
        if (byteAt(b, 23) != 0x9D || byteAt(b, 24) != 0x01 || byteAt(b, 25) != 0x2A)
            return failed("the WebP data is damaged (no VP8 start code)");
        return sized(ImageFormat::WebP, le16(b, 26) & 0x3FFF, le16(b, 28) & 0x3FFF);
    }
    if (chunk == "VP8L") {
        if (byteAt(b, 20) != 0x2F) return failed("the WebP data is damaged (no VP8L signature)");
        const std::uint32_t bits =
            byteAt(b, 21) | byteAt(b, 22) << 8 | byteAt(b, 23) << 16 | byteAt(b, 24) << 24;
        return sized(ImageFormat::WebP, (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1);
    }
    if (chunk == "VP8X") return sized(ImageFormat::WebP, le24(b, 24) + 1, le24(b, 27) + 1);
    return failed("the WebP data has an unknown first chunk");
}

} // namespace

const char* imageMimeType(ImageFormat format) {
    switch (format) {
    case ImageFormat::Png: return "image/png";
    case ImageFormat::Jpeg: return "image/jpeg";
    case ImageFormat::Gif: return "image/gif";
    case ImageFormat::WebP: return "image/webp";
    }
    return "application/octet-stream";
}

ImageHeader readImageHeader(std::string_view b) {
    if (b.empty()) return failed("the picture file is empty");
    if (b.size() >= 8 && b.substr(0, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8)) {
        if (b.size() < 24 || b.substr(12, 4) != "IHDR") return failed("the PNG data ends before its size");
        return sized(ImageFormat::Png, be32(b, 16), be32(b, 20));
    }
    if (b.size() >= 6 && (b.substr(0, 6) == "GIF87a" || b.substr(0, 6) == "GIF89a")) {
        if (b.size() < 10) return failed("the GIF data ends before its size");
        return sized(ImageFormat::Gif, le16(b, 6), le16(b, 8));
    }
    if (b.size() >= 3 && byteAt(b, 0) == 0xFF && byteAt(b, 1) == 0xD8 && byteAt(b, 2) == 0xFF)
        return jpegHeader(b);
    if (b.size() >= 12 && b.substr(0, 4) == "RIFF" && b.substr(8, 4) == "WEBP") return webpHeader(b);
    return failed("not a PNG, JPEG, GIF or WebP picture");
}

ImageSize fitImage(int naturalWidth, int naturalHeight, float maxWidth, float maxHeight) {
    if (naturalWidth <= 0 || naturalHeight <= 0 || maxWidth <= 0 || maxHeight <= 0) return {0, 0};
    const float scale = std::min(maxWidth / float(naturalWidth), maxHeight / float(naturalHeight));
    return {float(naturalWidth) * scale, float(naturalHeight) * scale};
}

DecodeSize decodeSize(int naturalWidth, int naturalHeight, int wantLongSidePx) {
    if (naturalWidth <= 0 || naturalHeight <= 0) return {0, 0};
    const int longSide = std::max(naturalWidth, naturalHeight);
    const int limit = std::max(1, std::min(wantLongSidePx, kMaxDecodedSidePx));
    if (longSide <= limit) return {naturalWidth, naturalHeight};
    const double scale = double(limit) / double(longSide);
    return {std::max(1, int(std::lround(naturalWidth * scale))),
            std::max(1, int(std::lround(naturalHeight * scale)))};
}

} // namespace chaiba::ui
