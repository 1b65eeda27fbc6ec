// The browser's picture decoder behind the page's ImageCache (see image_texture.h).
#include "web/image_texture.h"

#include "web/browser_web.h"

#include <GLES3/gl3.h>
#include <emscripten.h>
#include <imgui.h>

#include <memory>

namespace chaiba::web {

namespace {

// clang-format off
// Decodes `size` bytes at `data` (copied at once) into an ImageBitmap of width x height, kept in
// Module.chaibaImages until uploaded or discarded; answers through _chaiba_image_decoded/_failed.
EM_JS(void, js_image_decode, (int handle, const char* data, int size, const char* mime, int width, int height), {
    const images = Module.chaibaImages || (Module.chaibaImages = new Map());
    const blob = new Blob([HEAPU8.slice(data, data + size)], { type: UTF8ToString(mime) });
    const options = { premultiplyAlpha: "none", resizeWidth: width, resizeHeight: height, resizeQuality: "high" };
    createImageBitmap(blob, options).then((bitmap) => {
        images.set(handle, bitmap);
        _chaiba_image_decoded(handle);
    }, (error) => {
        const text = String((error && error.message) || error || "");
        const n = lengthBytesUTF8(text) + 1;
        const p = _malloc(n);
        stringToUTF8(text, p, n);
        _chaiba_image_failed(handle, p);
        _free(p);
    });
});

// Uploads the decoded bitmap into texture `texture` (a GL name from glGenTextures) with mipmaps,
// restoring the bound texture; releases the bitmap. 0 when there is no bitmap.
EM_JS(int, js_image_upload, (int handle, int texture), {
    const images = Module.chaibaImages;
    const bitmap = images && images.get(handle);
    if (!bitmap) return 0;
    images.delete(handle);
    const gl = GLctx;
    const previous = gl.getParameter(gl.TEXTURE_BINDING_2D);
    gl.bindTexture(gl.TEXTURE_2D, GL.textures[texture]);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
    gl.generateMipmap(gl.TEXTURE_2D);
    gl.bindTexture(gl.TEXTURE_2D, previous);
    bitmap.close();
    return 1;
});

EM_JS(void, js_image_discard, (int handle), {
    const images = Module.chaibaImages;
    const bitmap = images && images.get(handle);
    if (!bitmap) return;
    images.delete(handle);
    bitmap.close();
});
// clang-format on

class BrowserDecoder final : public ui::ImageDecoderBackend {
public:
    void startDecode(int handle, const std::string& bytes, ui::ImageFormat format, int width,
                     int height) override {
        js_image_decode(handle, bytes.data(), static_cast<int>(bytes.size()), ui::imageMimeType(format),
                        width, height);
    }
    std::uintptr_t upload(int handle) override {
        GLuint texture = 0;
        glGenTextures(1, &texture);
        if (!texture) {
            js_image_discard(handle);
            return 0;
        }
        if (!js_image_upload(handle, static_cast<int>(texture))) {
            glDeleteTextures(1, &texture);
            return 0;
        }
        return texture;
    }
    void discard(int handle) override { js_image_discard(handle); }
    void deleteTexture(std::uintptr_t texture) override {
        const GLuint name = static_cast<GLuint>(texture);
        glDeleteTextures(1, &name);
    }
    int frameNumber() const override { return ImGui::GetFrameCount(); }
};

struct PageImages {
    BrowserDecoder decoder;
    ui::ImageCache cache{decoder};
};

PageImages& pageImages() {
    static PageImages images; // lives as long as the page
    return images;
}

} // namespace

ui::ImageTextures& imageTextures() {
    return pageImages().cache;
}

} // namespace chaiba::web

extern "C" {
// The decoder's answers (kept alive by EMSCRIPTEN_KEEPALIVE, called from the EM_JS above).
EMSCRIPTEN_KEEPALIVE void chaiba_image_decoded(int handle) {
    chaiba::web::pageImages().cache.onDecoded(handle);
    chaiba::web::requestWake(); // the picture appears in the next frame
}
EMSCRIPTEN_KEEPALIVE void chaiba_image_failed(int handle, const char* why) {
    chaiba::web::pageImages().cache.onFailed(handle, why ? why : "");
    chaiba::web::requestWake();
}
}
