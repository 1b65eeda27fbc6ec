// Pictures before decoding (src/ui/image_header.h): the size read from PNG, GIF, JPEG and WebP
// headers, refusals of damaged, empty and oversized pictures, the drawn and decoded sizes, and the
// texture cache's bounds (src/ui/image_cache.h) with a fake decoder.
#include "src/ui/image_cache.h"
#include "src/ui/image_header.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

using namespace chaiba::ui;

namespace {

std::string be32(unsigned v) {
    return {char(v >> 24), char(v >> 16 & 255), char(v >> 8 & 255), char(v & 255)};
}

std::string pngHeader(unsigned width, unsigned height) {
    return std::string("\x89PNG\r\n\x1a\n", 8) + be32(13) + "IHDR" + be32(width) + be32(height) +
           std::string("\x08\x06\x00\x00\x00", 5);
}

// A fake decoder: every decode finishes when finish() is called; textures are numbered.
struct FakeDecoder final : ImageDecoderBackend {
    std::vector<int> started;
    std::map<std::uintptr_t, bool> live; // texture -> alive
    std::uintptr_t nextTexture = 100;
    int frame = 0;
    int discarded = 0;
    void startDecode(int handle, const std::string&, ImageFormat, int, int) override {
        started.push_back(handle);
    }
    std::uintptr_t upload(int) override {
        live[nextTexture] = true;
        return nextTexture++;
    }
    void discard(int) override { ++discarded; }
    void deleteTexture(std::uintptr_t texture) override {
        REQUIRE(live.count(texture));
        live.erase(texture);
    }
    int frameNumber() const override { return frame; }
};

ImageLoader bytesOf(std::string bytes) {
    return [bytes] { return ImageBytes{bytes, ""}; };
}

} // namespace

TEST_CASE("image header: PNG, GIF, JPEG and WebP sizes are read from the first bytes") {
    const ImageHeader png = readImageHeader(pngHeader(640, 360));
    CHECK(png.ok());
    CHECK(png.format == ImageFormat::Png);
    CHECK(png.width == 640);
    CHECK(png.height == 360);

    const ImageHeader gif = readImageHeader(std::string("GIF89a\x20\x03\x58\x02", 10)); // 800 x 600
    CHECK(gif.format == ImageFormat::Gif);
    CHECK(gif.width == 800);
    CHECK(gif.height == 600);

    // SOI, an APP0 segment of 16 bytes, then SOF0: precision 8, height 0x01E0 (480), width 0x0280 (640).
    std::string jpeg("\xFF\xD8\xFF\xE0\x00\x10", 6);
    jpeg += std::string(14, '\0');
    jpeg += std::string("\xFF\xC0\x00\x11\x08\x01\xE0\x02\x80\x03", 10);
    const ImageHeader j = readImageHeader(jpeg);
    CHECK(j.ok());
    CHECK(j.format == ImageFormat::Jpeg);
    CHECK(j.width == 640);
    CHECK(j.height == 480);

    // VP8X: canvas 1024 x 768 stored as width-1 and height-1, 24-bit little-endian.
    std::string webp = "RIFF" + std::string(4, '\0') + "WEBPVP8X" + std::string(8, '\0');
    webp += std::string("\xFF\x03\x00\xFF\x02\x00", 6);
    webp += std::string(4, '\0');
    const ImageHeader w = readImageHeader(webp);
    CHECK(w.ok());
    CHECK(w.format == ImageFormat::WebP);
    CHECK(w.width == 1024);
    CHECK(w.height == 768);
    CHECK(std::string(imageMimeType(ImageFormat::WebP)) == "image/webp");
}

TEST_CASE("image header: damaged, empty, unknown and oversized pictures are refused with a reason") {
    CHECK(readImageHeader("").error == "the picture file is empty");
    CHECK(readImageHeader("hello, world").error == "not a PNG, JPEG, GIF or WebP picture");
    CHECK(readImageHeader(pngHeader(640, 360).substr(0, 20)).error == "the PNG data ends before its size");
    CHECK(readImageHeader(pngHeader(0, 10)).error == "the picture has no pixels (0 wide or 0 high)");
    // 4096 x 4096 is fine (it is decoded smaller); 20000 on a side, or 60 megapixels, is not.
    CHECK(readImageHeader(pngHeader(4096, 4096)).ok());
    CHECK(readImageHeader(pngHeader(20000, 10)).error.find("too large to show: 20000x10") !=
          std::string::npos);
    CHECK_FALSE(readImageHeader(pngHeader(10000, 6000)).ok());
    CHECK(readImageHeader(std::string("\xFF\xD8\xFF\xD9", 4)).error ==
          "the JPEG data ends before its size (no frame header)");
}

TEST_CASE("image header: a picture is fitted at its aspect and decoded no larger than needed") {
    const ImageSize wide = fitImage(1600, 900, 800, 600);
    CHECK(wide.width == doctest::Approx(800));
    CHECK(wide.height == doctest::Approx(450));
    const ImageSize tall = fitImage(1000, 2000, 800, 300); // the height limit decides
    CHECK(tall.width == doctest::Approx(150));
    CHECK(tall.height == doctest::Approx(300));
    const ImageSize small = fitImage(64, 32, 640, 400); // scaled up to the column
    CHECK(small.width == doctest::Approx(640));
    CHECK(small.height == doctest::Approx(320));

    const DecodeSize huge = decodeSize(4096, 4096, 1200); // the drawn size x2 is asked by the cache
    CHECK(huge.width == 1200);
    CHECK(huge.height == 1200);
    const DecodeSize capped = decodeSize(8000, 4000, 100000);
    CHECK(capped.width == kMaxDecodedSidePx);
    CHECK(capped.height == kMaxDecodedSidePx / 2);
    const DecodeSize kept = decodeSize(64, 32, 1000); // never grown
    CHECK(kept.width == 64);
    CHECK(kept.height == 32);
}

TEST_CASE("image cache: textures stay within the count and pixel bounds, the least recently drawn freed") {
    FakeDecoder decoder;
    ImageCacheLimits limits;
    limits.maxTextures = 3;
    limits.maxMegapixels = 100;
    ImageCache cache(decoder, limits);
    for (int i = 0; i < 10; ++i) {
        decoder.frame = i * 5; // each picture drawn in its own, later frame
        const std::string key = "w/p" + std::to_string(i);
        const ImageView loading = cache.view(key, true, 100, bytesOf(pngHeader(200, 100)));
        CHECK(loading.status == ImageStatus::Loading);
        CHECK(loading.width == 200); // the natural size is known before the pixels
        cache.onDecoded(decoder.started.back());
        const ImageView ready = cache.view(key, true, 100, bytesOf(pngHeader(200, 100)));
        CHECK(ready.status == ImageStatus::Ready);
        CHECK(ready.textureWidth == 200);
        CHECK(cache.stats().textures <= 3);
    }
    const ImageTextureStats s = cache.stats();
    CHECK(s.textures == 3);
    CHECK(s.decoded == 10);
    CHECK(s.freed == 7);
    CHECK(decoder.live.size() == 3); // every freed texture was deleted
    // The newest three survive.
    CHECK(cache.view("w/p9", false, 0, bytesOf("")).status == ImageStatus::Ready);
    CHECK(cache.view("w/p0", false, 0, bytesOf("")).status == ImageStatus::Loading);
}

TEST_CASE("image cache: the megapixel bound frees textures too, but never one drawn in this frame") {
    FakeDecoder decoder;
    ImageCacheLimits limits;
    limits.maxTextures = 50;
    limits.maxMegapixels = 4.5; // two 2048 x 1024 textures (2.1 MP each), not three
    ImageCache cache(decoder, limits);
    decoder.frame = 1;
    for (int i = 0; i < 3; ++i) {
        cache.view("w/big" + std::to_string(i), true, 4096, bytesOf(pngHeader(4096, 2048)));
        cache.onDecoded(decoder.started.back());
    }
    // All three are on screen (drawn in this frame): none is freed, the screen bounds them.
    CHECK(cache.stats().textures == 3);
    decoder.frame = 5;
    cache.view("w/big3", true, 4096, bytesOf(pngHeader(4096, 2048)));
    cache.onDecoded(decoder.started.back());
    const ImageTextureStats s = cache.stats();
    CHECK(s.textures == 2);
    CHECK(s.megapixels <= 4.5);
    CHECK(decoder.live.size() == 2);
}

TEST_CASE("image cache: a bad picture, a failed decode and a forgotten world are clear states") {
    FakeDecoder decoder;
    ImageCache cache(decoder);
    const ImageView bad = cache.view("w/bad.png", true, 100, bytesOf("not a picture at all"));
    CHECK(bad.status == ImageStatus::Failed);
    CHECK(bad.error == "the image could not be decoded: not a PNG, JPEG, GIF or WebP picture");
    CHECK(decoder.started.empty()); // refused before any decode

    const ImageView missing = cache.view("w/gone.png", true, 100, [] { return ImageBytes{"", "no file"}; });
    CHECK(missing.status == ImageStatus::Failed);
    CHECK(missing.error == "no file");

    cache.view("w/corrupt.png", true, 100, bytesOf(pngHeader(10, 10)));
    cache.onFailed(decoder.started.back(), "The source image could not be decoded.");
    const ImageView corrupt = cache.view("w/corrupt.png", true, 100, bytesOf(pngHeader(10, 10)));
    CHECK(corrupt.status == ImageStatus::Failed);
    CHECK(corrupt.error == "the image could not be decoded: The source image could not be decoded.");
    CHECK(cache.stats().failed == 1);

    // A decode that finishes after its world was forgotten is discarded, not uploaded.
    cache.view("w/late.png", true, 100, bytesOf(pngHeader(10, 10)));
    const int late = decoder.started.back();
    cache.view("other/kept.png", true, 100, bytesOf(pngHeader(10, 10)));
    cache.onDecoded(decoder.started.back());
    cache.forget("w/");
    cache.onDecoded(late);
    CHECK(decoder.discarded == 1);
    CHECK(cache.stats().textures == 1);
    CHECK(cache.stats().known == 1);
}
