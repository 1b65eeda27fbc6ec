// WebImageAtlases: SVG files → the browser's own rasteriser → a canvas → one GL texture per size.
// The SVG text is fetched (not loaded as an <img> by URL) so a host that serves .svg with a wrong
// type still works, and a file without a viewBox (cburnett's) gets one, so it scales as a vector.
#include "web/image_atlas_web.h"

#include "web/browser_web.h"

#include <GLES3/gl3.h>
#include <emscripten.h>

#include <algorithm>
#include <cstdlib>

namespace chaiba::web {

namespace {

constexpr int kPaddingPx = 2;
constexpr int kMaxColumns = 6;

// Fetches the set's index (does this build have the set?) and its files; parses each as SVG and
// keeps the documents. Answers through chaiba_image_set_loaded(id, error).
EM_JS(void, js_image_set_load, (int id, const char* indexUrl, const char* name, const char* urlsText), {
    var index = UTF8ToString(indexUrl), setName = UTF8ToString(name);
    var urls = UTF8ToString(urlsText).split("\n");
    var sets = Module['chaibaImageSets'] = Module['chaibaImageSets'] || {};
    var answer = function(error) {
        Module['ccall']('chaiba_image_set_loaded', null, ['number', 'string'], [id, error]);
    };
    var fetchOk = function(url) {
        return fetch(url).then(function(r) {
            if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
            return r;
        });
    };
    fetchOk(index).then(function(r) { return r.json(); }).then(function(list) {
        if (!list || !Array.isArray(list.sets) || list.sets.indexOf(setName) < 0)
            throw new Error('this site was built without the ' + setName + ' files');
        return Promise.all(urls.map(function(u) { return fetchOk(u).then(function(r) { return r.text(); }); }));
    }).then(function(texts) {
        var docs = texts.map(function(text, i) {
            var doc = new DOMParser().parseFromString(text, 'image/svg+xml');
            var root = doc.documentElement;
            if (!root || root.nodeName !== 'svg' || doc.getElementsByTagName('parsererror').length)
                throw new Error(urls[i] + ' is not an SVG image');
            if (!root.getAttribute('viewBox')) {
                var w = parseFloat(root.getAttribute('width')), h = parseFloat(root.getAttribute('height'));
                if (!(w > 0 && h > 0)) throw new Error(urls[i] + ' has neither a viewBox nor a size');
                root.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
            }
            return doc;
        });
        sets[id] = docs;
        answer("");
    }).catch(function(e) { answer(String(e && e.message || e)); });
});

// Draws every document of set `id` at cellPx × cellPx into a grid on a canvas, then hands the
// canvas' RGBA pixels to chaiba_image_atlas_made (or the reason it failed).
EM_JS(void, js_image_atlas_make, (int id, int cellPx, int columns, int paddingPx), {
    var docs = Module['chaibaImageSets'][id];
    var rows = Math.ceil(docs.length / columns);
    var width = columns * cellPx + (columns - 1) * paddingPx, height = rows * cellPx + (rows - 1) * paddingPx;
    var answer = function(w, h, ptr, error) {
        Module['ccall']('chaiba_image_atlas_made', null, ['number', 'number', 'number', 'number', 'number', 'string'],
                        [id, cellPx, w, h, ptr, error]);
    };
    var serializer = new XMLSerializer();
    Promise.all(docs.map(function(doc, i) {
        // The SVG asked at the cell's size: the browser rasterises the vector at that size.
        doc.documentElement.setAttribute('width', String(cellPx));
        doc.documentElement.setAttribute('height', String(cellPx));
        var blob = new Blob([serializer.serializeToString(doc)], {type: 'image/svg+xml'});
        var url = URL.createObjectURL(blob);
        return new Promise(function(resolve, reject) {
            var img = new Image();
            img.onload = function() { URL.revokeObjectURL(url); resolve(img); };
            img.onerror = function() { URL.revokeObjectURL(url); reject(new Error('picture ' + (i + 1) + ' did not render')); };
            img.src = url;
        });
    })).then(function(images) {
        var canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        var ctx = canvas.getContext('2d');
        images.forEach(function(img, i) {
            ctx.drawImage(img, (i % columns) * (cellPx + paddingPx), Math.floor(i / columns) * (cellPx + paddingPx),
                          cellPx, cellPx);
        });
        var pixels = ctx.getImageData(0, 0, width, height).data;
        var ptr = _malloc(pixels.length);
        HEAPU8.set(pixels, ptr);
        answer(width, height, ptr, "");
        _free(ptr);
    }).catch(function(e) { answer(0, 0, 0, String(e && e.message || e)); });
});

} // namespace

WebImageAtlases& imageAtlases() {
    static WebImageAtlases instance;
    return instance;
}

WebImageAtlases::Entry* WebImageAtlases::entryNamed(std::string_view name) {
    for (auto& e : sets_)
        if (e->name == name) return e.get();
    return nullptr;
}

const WebImageAtlases::Entry* WebImageAtlases::entryNamed(std::string_view name) const {
    for (const auto& e : sets_)
        if (e->name == name) return e.get();
    return nullptr;
}

const ui::ImageAtlas* WebImageAtlases::find(const ui::ImageSet& set, int cellPx) {
    Entry* e = entryNamed(set.name);
    if (!e) {
        // Step 1. First asked: fetch the files (once per page).
        auto entry = std::make_unique<Entry>();
        entry->name = std::string(set.name);
        entry->count = static_cast<int>(set.urls.size());
        std::string urls;
        for (std::string_view url : set.urls) urls += (urls.empty() ? "" : "\n") + std::string(url);
        const int id = static_cast<int>(sets_.size());
        sets_.push_back(std::move(entry));
        e = sets_.back().get();
        js_image_set_load(id, std::string(set.indexUrl).c_str(), e->name.c_str(), urls.c_str());
    }
    if (!e->failure.empty()) return nullptr;
    cellPx = std::clamp(cellPx, kMinCellPx, kMaxCellPx);
    const double now = emscripten_get_now();
    // Step 2. The exact size when made.
    for (auto& m : e->made) {
        if (m->atlas.cellPx != cellPx) continue;
        m->lastUsedMs = now;
        return &m->atlas;
    }
    // Step 3. Otherwise ask for it, and lend the nearest size made so far (scaled) meanwhile.
    auto w = std::find_if(e->wanted.begin(), e->wanted.end(), [&](const Wanted& x) { return x.cellPx == cellPx; });
    if (w == e->wanted.end()) e->wanted.push_back({cellPx, now, now});
    else w->lastMs = now;
    Made* nearest = nullptr;
    for (auto& m : e->made)
        if (!nearest || std::abs(m->atlas.cellPx - cellPx) < std::abs(nearest->atlas.cellPx - cellPx)) nearest = m.get();
    if (!nearest) return nullptr;
    nearest->lastUsedMs = now;
    return &nearest->atlas;
}

ui::ImageSetState WebImageAtlases::state(std::string_view setName) const {
    const Entry* e = entryNamed(setName);
    if (!e) return ui::ImageSetState::Loading;
    if (!e->failure.empty()) return ui::ImageSetState::Failed;
    return e->made.empty() ? ui::ImageSetState::Loading : ui::ImageSetState::Ready;
}

std::string WebImageAtlases::failure(std::string_view setName) const {
    const Entry* e = entryNamed(setName);
    return e ? e->failure : std::string();
}

void WebImageAtlases::freeMade(Entry& e, size_t index) {
    glDeleteTextures(1, &e.made[index]->texture);
    e.made.erase(e.made.begin() + static_cast<std::ptrdiff_t>(index));
}

void WebImageAtlases::update(double nowMs) {
    for (size_t id = 0; id < sets_.size(); ++id) {
        Entry& e = *sets_[id];
        if (!e.failure.empty()) continue;
        // Sizes nobody drew for a while are freed (a board not on screen, an old window size).
        for (size_t i = e.made.size(); i-- > 0;)
            if (nowMs - e.made[i]->lastUsedMs > kForgetMs) freeMade(e, i);
        if (!e.filesLoaded || e.makingPx != 0) continue;
        // The sizes asked in the latest drawn frame are current; older ones were passing sizes.
        double newest = 0;
        for (const Wanted& w : e.wanted) newest = std::max(newest, w.lastMs);
        std::erase_if(e.wanted, [&](const Wanted& w) { return w.lastMs < newest - 50.0; });
        for (const Wanted& w : e.wanted) {
            // The first size at once (glyphs until then); later ones once they held still.
            if (!e.made.empty() && nowMs - w.firstMs < kSettleMs) continue;
            e.makingPx = w.cellPx;
            const int columns = std::min(e.count, kMaxColumns);
            js_image_atlas_make(static_cast<int>(id), w.cellPx, columns, kPaddingPx);
            break;
        }
    }
}

void WebImageAtlases::setLoaded(int id, const std::string& error) {
    if (id < 0 || id >= static_cast<int>(sets_.size())) return;
    Entry& e = *sets_[static_cast<size_t>(id)];
    if (!error.empty()) e.failure = error;
    else e.filesLoaded = true;
    requestWake();
}

void WebImageAtlases::atlasMade(int id, int cellPx, int widthPx, int heightPx, const unsigned char* rgba,
                                const std::string& error) {
    if (id < 0 || id >= static_cast<int>(sets_.size())) return;
    Entry& e = *sets_[static_cast<size_t>(id)];
    e.makingPx = 0;
    std::erase_if(e.wanted, [&](const Wanted& w) { return w.cellPx == cellPx; });
    requestWake();
    if (!error.empty() || !rgba) {
        e.failure = "rasterising at " + std::to_string(cellPx) + " px failed: " + error;
        for (size_t i = e.made.size(); i-- > 0;) freeMade(e, i);
        return;
    }
    // The texture ImGui samples (straight alpha, as the canvas gives it and ImGui blends it).
    GLint previous = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
    auto made = std::make_unique<Made>();
    glGenTextures(1, &made->texture);
    glBindTexture(GL_TEXTURE_2D, made->texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, widthPx, heightPx, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
    ui::ImageAtlas& a = made->atlas;
    a.texture = reinterpret_cast<ImTextureID>(static_cast<intptr_t>(made->texture));
    a.cellPx = cellPx;
    a.columns = std::min(e.count, kMaxColumns);
    a.rows = (e.count + a.columns - 1) / a.columns;
    a.paddingPx = kPaddingPx;
    a.widthPx = widthPx;
    a.heightPx = heightPx;
    made->lastUsedMs = emscripten_get_now();
    // One atlas per size; the least recently drawn goes beyond the cap.
    for (size_t i = e.made.size(); i-- > 0;)
        if (e.made[i]->atlas.cellPx == cellPx) freeMade(e, i);
    while (static_cast<int>(e.made.size()) >= kMaxSizesPerSet) {
        size_t oldest = 0;
        for (size_t i = 1; i < e.made.size(); ++i)
            if (e.made[i]->lastUsedMs < e.made[oldest]->lastUsedMs) oldest = i;
        freeMade(e, oldest);
    }
    e.made.push_back(std::move(made));
    ++madeCount_;
}

} // namespace chaiba::web

extern "C" EMSCRIPTEN_KEEPALIVE void chaiba_image_set_loaded(int id, const char* error) {
    chaiba::web::imageAtlases().setLoaded(id, error ? error : "");
}

extern "C" EMSCRIPTEN_KEEPALIVE void chaiba_image_atlas_made(int id, int cellPx, int widthPx, int heightPx,
                                                             const unsigned char* rgba, const char* error) {
    chaiba::web::imageAtlases().atlasMade(id, cellPx, widthPx, heightPx, rgba, error ? error : "");
}
