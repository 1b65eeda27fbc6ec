// The browser's ui::ImageAtlases: each set's SVG files are fetched once, then the browser itself
// rasterises them at the asked cell size (an <img> of each SVG drawn into a canvas at exactly that
// size), and the canvas' pixels become one WebGL texture for ImGui. A size is made once it has been
// asked for kSettleMs without change, so a window being resized does not rasterise at every step.
#pragma once

#include "src/ui/image_atlas.h"

#include <memory>
#include <string>
#include <vector>

namespace chaiba::web {

class WebImageAtlases final : public ui::ImageAtlases {
public:
    static constexpr double kSettleMs = 200.0;      // a new size waits this long without change
    static constexpr double kForgetMs = 30000.0;    // a size nobody drew for this long is freed
    static constexpr int kMaxSizesPerSet = 6;       // beyond it the least recently drawn is freed
    static constexpr int kMinCellPx = 8, kMaxCellPx = 512;

    const ui::ImageAtlas* find(const ui::ImageSet& set, int cellPx) override;
    ui::ImageSetState state(std::string_view setName) const override;
    std::string failure(std::string_view setName) const override;

    // Once per main-loop iteration, drawn or not: starts the rasterisation a settled size waits
    // for and frees the sizes nobody draws any more.
    void update(double nowMs);

    // From the page's JavaScript (the exported C functions in the .cpp).
    void setLoaded(int id, const std::string& error);
    void atlasMade(int id, int cellPx, int widthPx, int heightPx, const unsigned char* rgba, const std::string& error);

    // How many atlases were rasterised since the page opened (the tests check a resize makes few).
    unsigned long long made() const { return madeCount_; }

private:
    struct Made {
        ui::ImageAtlas atlas;
        unsigned texture = 0;
        double lastUsedMs = 0;
    };
    struct Wanted {
        int cellPx = 0;
        double firstMs = 0, lastMs = 0;
    };
    struct Entry {
        std::string name;
        int count = 0;
        bool filesLoaded = false;
        std::string failure; // non-empty: Failed
        std::vector<std::unique_ptr<Made>> made;
        std::vector<Wanted> wanted;
        int makingPx = 0; // the size being rasterised now (0: none)
    };
    Entry* entryNamed(std::string_view name);
    const Entry* entryNamed(std::string_view name) const;
    void freeMade(Entry& e, size_t index);

    std::vector<std::unique_ptr<Entry>> sets_; // a set's id is its index
    unsigned long long madeCount_ = 0;
};

// The page's one instance (the JavaScript callbacks reach it).
WebImageAtlases& imageAtlases();

} // namespace chaiba::web
