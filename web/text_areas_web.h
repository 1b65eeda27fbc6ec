// The page's text editors over the canvas (src/ui/text_areas.h), driving web/text_areas.js.
#pragma once

#include "src/ui/text_areas.h"

namespace chaiba::web {

class WebTextAreas final : public ui::TextAreas {
public:
    void open(const std::string& id, const std::string& text, const std::string& label) override;
    void place(const std::string& id, float x, float y, float w, float h, float fontPx, std::uint32_t textColour,
               std::uint32_t borderColour) override;
    std::string text(const std::string& id) const override;
    void close(const std::string& id) override;
    // ImGui's pixels per CSS pixel (the canvas' ratio), for placing the editors.
    void setPixelRatio(float ratio) { ratio_ = ratio > 0 ? ratio : 1.0f; }
    // After each drawn frame: the editors it did not place are hidden.
    void endFrame();

private:
    float ratio_ = 1.0f;
};

WebTextAreas& textAreas();

} // namespace chaiba::web
