// The catalog's model picker (model_picker.h).
#include "src/ui/model_picker.h"

#include "src/ui/item_registry.h"
#include "src/ui/screen.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

namespace chaiba::ui {

namespace {

bool containsNoCase(const std::string& hay, const char* needle) {
    if (!needle[0]) return true;
    auto it = std::search(hay.begin(), hay.end(), needle, needle + std::strlen(needle), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
    return it != hay.end();
}

std::string perMillion(double usdPerToken) {
    char buf[32];
    const double m = usdPerToken * 1e6;
    if (m == 0) return "$0";
    std::snprintf(buf, sizeof buf, m < 10 ? "$%.2f" : "$%.0f", m);
    return buf;
}

} // namespace

ModelCatalogView modelCatalogView(const ScreenContext& context) {
    ModelCatalogView c;
    c.catalogStatus = context.catalogStatus ? *context.catalogStatus : std::string();
    if (context.catalog && !context.catalog->empty()) {
        for (const auto& m : *context.catalog)
            c.models.push_back({m.id,
                                perMillion(m.pricing.promptUsdPerToken) + " / " + perMillion(m.pricing.completionUsdPerToken) +
                                    " per M",
                                m.supportsTools});
    } else {
        for (const auto& id : context.models()) c.models.push_back({id, "", true});
    }
    return c;
}

bool drawModelCombo(const ModelCatalogView& catalog, const char* id, const char* preview, std::string& model,
                    char* filter, size_t filterSize, bool& refreshRequested) {
    const Palette& pal = palette();
    bool changed = false;
    if (ImGui::BeginCombo(id, preview, ImGuiComboFlags_HeightLarge)) {
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        ImGui::SetNextItemWidth(-1);
        ImGui::InputTextWithHint("##filter", "search models", filter, filterSize);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
        ImGui::TextUnformatted(catalog.catalogStatus.empty() ? "default models" : catalog.catalogStatus.c_str());
        ImGui::PopStyleColor();
        ImGui::SameLine();
        if (smallButton("refresh")) refreshRequested = true;
        int shown = 0;
        for (const ModelChoice& m : catalog.models) {
            if (!containsNoCase(m.id, filter)) continue;
            if (++shown > 300) break;
            std::string row = m.id;
            if (!m.priceLabel.empty()) row += "  \xC2\xB7  " + m.priceLabel;
            row += m.tools ? "  \xC2\xB7  tools" : "  \xC2\xB7  text mode";
            if (ImGui::Selectable(row.c_str(), m.id == model)) {
                model = m.id;
                changed = true;
            }
            markItem("model." + m.id); // one picker is open at a time
        }
        // A model id typed by hand.
        if (filter[0] && ImGui::Selectable((std::string("use \"") + filter + "\"").c_str())) {
            model = filter;
            changed = true;
        }
        ImGui::EndCombo();
    }
    return changed;
}

} // namespace chaiba::ui
