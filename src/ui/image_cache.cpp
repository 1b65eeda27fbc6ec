// The bounded picture cache (see image_cache.h).
#include "src/ui/image_cache.h"

#include <algorithm>
#include <cassert>

namespace chaiba::ui {

ImageCache::ImageCache(ImageDecoderBackend& backend, ImageCacheLimits limits)
    : backend_(backend), limits_(limits) {
    assert(limits_.maxTextures >= 1 && limits_.maxDecoding >= 1 && "an image cache must hold something");
}

ImageCache::~ImageCache() {
    for (auto& [key, entry] : entries_) freeTexture(entry);
    for (const auto& [handle, key] : pending_) backend_.discard(handle);
}

ImageView ImageCache::viewOf(const Entry& entry) const {
    ImageView view;
    view.width = entry.header.width;
    view.height = entry.header.height;
    view.error = entry.error;
    view.status = !entry.error.empty() ? ImageStatus::Failed
                  : entry.texture      ? ImageStatus::Ready
                                       : ImageStatus::Loading;
    view.texture = reinterpret_cast<void*>(entry.texture);
    view.textureWidth = entry.textureWidth;
    view.textureHeight = entry.textureHeight;
    return view;
}

ImageView ImageCache::view(const std::string& key, bool visible, int wantLongSidePx,
                           const ImageLoader& load) {
    auto [it, isNew] = entries_.try_emplace(key);
    Entry& entry = it->second;
    entry.lastUse = ++useCounter_;
    entry.lastFrame = backend_.frameNumber();
    std::string bytes;
    bool haveBytes = false;
    if (isNew) {
        ImageBytes read = load();
        if (!read.error.empty()) {
            entry.error = read.error;
        } else {
            entry.header = readImageHeader(read.bytes);
            if (!entry.header.ok()) entry.error = "the image could not be decoded: " + entry.header.error;
            bytes = std::move(read.bytes);
            haveBytes = true;
        }
        forgetOldHeaders(key);
    }
    if (!entry.error.empty() || !visible || entry.decoding) return viewOf(entry);
    // A texture is enough when it is at least the size this view would decode at (a picture drawn
    // larger than before is decoded again, the old texture shown meanwhile).
    const DecodeSize want = decodeSize(entry.header.width, entry.header.height, wantLongSidePx * 2);
    const bool enough = entry.texture && std::max(entry.textureWidth, entry.textureHeight) * 5 >=
                                             std::max(want.width, want.height) * 4;
    if (enough || int(pending_.size()) >= limits_.maxDecoding) return viewOf(entry);
    if (!haveBytes) {
        ImageBytes read = load();
        if (!read.error.empty()) {
            entry.error = read.error;
            return viewOf(entry);
        }
        bytes = std::move(read.bytes);
    }
    startDecode(key, entry, bytes, wantLongSidePx);
    return viewOf(entries_.at(key)); // a fake backend may have answered (and evicted) already
}

void ImageCache::startDecode(const std::string& key, Entry& entry, const std::string& bytes,
                             int wantLongSidePx) {
    const DecodeSize size = decodeSize(entry.header.width, entry.header.height, wantLongSidePx * 2);
    const int handle = nextHandle_++;
    entry.decoding = handle;
    entry.decodeWidth = size.width;
    entry.decodeHeight = size.height;
    pending_[handle] = key;
    backend_.startDecode(handle, bytes, entry.header.format, size.width, size.height);
}

void ImageCache::onDecoded(int handle) {
    const auto found = pending_.find(handle);
    if (found == pending_.end()) return backend_.discard(handle);
    const std::string key = found->second;
    pending_.erase(found);
    const auto it = entries_.find(key);
    if (it == entries_.end() || it->second.decoding != handle) return backend_.discard(handle);
    Entry& entry = it->second;
    entry.decoding = 0;
    const std::uintptr_t texture = backend_.upload(handle);
    if (!texture) {
        ++failed_;
        entry.error = "the image could not be decoded: no texture could be made for it";
        return;
    }
    freeTexture(entry);
    entry.texture = texture;
    entry.textureWidth = entry.decodeWidth;
    entry.textureHeight = entry.decodeHeight;
    ++decoded_;
    keepWithinBounds();
}

void ImageCache::onFailed(int handle, const std::string& why) {
    const auto found = pending_.find(handle);
    if (found == pending_.end()) return;
    const std::string key = found->second;
    pending_.erase(found);
    ++failed_;
    const auto it = entries_.find(key);
    if (it == entries_.end() || it->second.decoding != handle) return;
    it->second.decoding = 0;
    it->second.error = "the image could not be decoded" + (why.empty() ? std::string() : ": " + why);
}

void ImageCache::freeTexture(Entry& entry) {
    if (!entry.texture) return;
    backend_.deleteTexture(entry.texture);
    entry.texture = 0;
    entry.textureWidth = entry.textureHeight = 0;
}

void ImageCache::keepWithinBounds() {
    const int frame = backend_.frameNumber();
    for (;;) {
        const ImageTextureStats now = stats();
        if (now.textures <= limits_.maxTextures && now.megapixels <= limits_.maxMegapixels) return;
        Entry* oldest = nullptr;
        for (auto& [key, entry] : entries_)
            if (entry.texture && entry.lastFrame < frame - 1 && (!oldest || entry.lastUse < oldest->lastUse))
                oldest = &entry;
        if (!oldest) return; // everything left is on screen: the screen itself bounds it
        freeTexture(*oldest);
        ++freed_;
    }
}

void ImageCache::forgetOldHeaders(const std::string& keep) {
    while (int(entries_.size()) > limits_.maxKnown) {
        auto oldest = entries_.end();
        for (auto it = entries_.begin(); it != entries_.end(); ++it)
            if (!it->second.texture && !it->second.decoding && it->first != keep &&
                (oldest == entries_.end() || it->second.lastUse < oldest->second.lastUse))
                oldest = it;
        if (oldest == entries_.end()) return;
        entries_.erase(oldest);
    }
}

void ImageCache::forget(const std::string& prefix) {
    for (auto it = entries_.begin(); it != entries_.end();) {
        if (it->first.compare(0, prefix.size(), prefix) != 0) {
            ++it;
            continue;
        }
        freeTexture(it->second);
        if (it->second.decoding) pending_.erase(it->second.decoding); // its answer is discarded
        it = entries_.erase(it);
    }
}

ImageTextureStats ImageCache::stats() const {
    ImageTextureStats s;
    for (const auto& [key, entry] : entries_) {
        if (entry.texture) {
            ++s.textures;
            s.megapixels += double(entry.textureWidth) * entry.textureHeight / 1e6;
        }
    }
    s.decoding = int(pending_.size());
    s.known = int(entries_.size());
    s.decoded = decoded_;
    s.freed = freed_;
    s.failed = failed_;
    s.maxTextures = limits_.maxTextures;
    s.maxMegapixels = limits_.maxMegapixels;
    return s;
}

} // namespace chaiba::ui
