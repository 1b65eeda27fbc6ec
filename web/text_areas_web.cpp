// The text editors' C++ side: calls into Module.chaibaTextAreas (web/text_areas.js).
#include "web/text_areas_web.h"

#include <emscripten.h>

#include <cstdlib>

namespace {

EM_JS(void, js_text_area_open, (const char* id, const char* text, const char* label), {
    Module['chaibaTextAreas'].open(UTF8ToString(id), UTF8ToString(text), UTF8ToString(label));
});

EM_JS(void, js_text_area_place,
      (const char* id, float x, float y, float w, float h, float fontPx, float ratio, unsigned text, unsigned border), {
    Module['chaibaTextAreas'].place(UTF8ToString(id), x, y, w, h, fontPx, ratio, text, border);
});

EM_JS(char*, js_text_area_text, (const char* id), {
    var text = Module['chaibaTextAreas'].text(UTF8ToString(id));
    var len = lengthBytesUTF8(text) + 1;
    var ptr = _malloc(len);
    stringToUTF8(text, ptr, len);
    return ptr;
});

EM_JS(void, js_text_area_close, (const char* id), { Module['chaibaTextAreas'].close(UTF8ToString(id)); });

EM_JS(void, js_text_areas_end_frame, (), { Module['chaibaTextAreas'].endFrame(); });

} // namespace

namespace chaiba::web {

void WebTextAreas::open(const std::string& id, const std::string& text, const std::string& label) {
    js_text_area_open(id.c_str(), text.c_str(), label.c_str());
}

void WebTextAreas::place(const std::string& id, float x, float y, float w, float h, float fontPx,
                         std::uint32_t textColour, std::uint32_t borderColour) {
    js_text_area_place(id.c_str(), x, y, w, h, fontPx, ratio_, textColour, borderColour);
}

std::string WebTextAreas::text(const std::string& id) const {
    char* p = js_text_area_text(id.c_str());
    std::string out = p ? p : "";
    std::free(p);
    return out;
}

void WebTextAreas::close(const std::string& id) { js_text_area_close(id.c_str()); }

void WebTextAreas::endFrame() { js_text_areas_end_frame(); }

WebTextAreas& textAreas() {
    static WebTextAreas areas;
    return areas;
}

} // namespace chaiba::web
