// The Story settings: stored JSON (versioned) and their Settings panel section.
#include "src/modes/story/ui/story_settings.h"


#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/model_picker.h"
#include "src/ui/screen.h"
#include "src/ui/theme.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cstring>

namespace chaiba::story {

namespace {
StorySettings* gSettings = nullptr;
KeyValueStore* gStore = nullptr;
const ui::ScreenContext* gContext = nullptr;

std::string stringField(const nlohmann::json& doc, const char* name) {
    return doc.contains(name) && doc[name].is_string() ? doc[name].get<std::string>() : std::string();
}
} // namespace

StorySettings loadStorySettings(const KeyValueStore& store) {
    StorySettings settings;
    const std::optional<std::string> text = store.get(kStorySettingsKey);
    if (!text) return settings;
    const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
    if (!doc.is_object()) return settings;
    settings.orchestrator = stringField(doc, "orchestrator");
    settings.orchestratorFallback = stringField(doc, "fallback");
    settings.narrator = stringField(doc, "narrator");
    settings.image = stringField(doc, "image");
    settings.simple = doc.contains("simple") && doc["simple"].is_boolean() && doc["simple"].get<bool>();
    return settings;
}

void saveStorySettings(KeyValueStore& store, const StorySettings& s) {
    store.set(kStorySettingsKey, nlohmann::json{{"version", 1},
                                                {"orchestrator", s.orchestrator},
                                                {"fallback", s.orchestratorFallback},
                                                {"narrator", s.narrator},
                                                {"image", s.image},
                                                {"simple", s.simple}}
                                     .dump());
}

void registerStorySettings(StorySettings* settings, KeyValueStore* store, const ui::ScreenContext* context) {
    gSettings = settings;
    gStore = store;
    gContext = context;
}

} // namespace chaiba::story

namespace chaiba::ui {

namespace {
// One model field: the catalog's picker with prices (a model id typed by hand too), empty for the
// hint's default; true when it changed.
bool modelField(const Fonts& fonts, const char* label, std::string& value, const char* hint, const char* item) {
    if (story::gContext) {
        static char filter[128] = {}; // one picker is open at a time
        const ModelCatalogView catalog = modelCatalogView(*story::gContext);
        std::string preview = value.empty() ? std::string("(") + hint + ")" : value;
        for (const ModelChoice& m : catalog.models)
            if (m.id == value && !m.priceLabel.empty()) preview += "  \xC2\xB7  " + m.priceLabel;
        ImGui::PushID(label);
        ImGui::SetNextItemWidth(fonts.uiSize * 17);
        bool refresh = false;
        bool changed = drawModelCombo(catalog, "##model", preview.c_str(), value, filter, sizeof filter, refresh);
        markItem(item);
        if (refresh && story::gContext->refreshCatalog) story::gContext->refreshCatalog();
        ImGui::SameLine();
        ImGui::TextUnformatted(label);
        if (!value.empty()) {
            ImGui::SameLine();
            if (smallButton("default")) {
                value.clear();
                changed = true;
            }
        }
        ImGui::PopID();
        return changed;
    }
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, "%s", value.c_str());
    ImGui::SetNextItemWidth(fonts.uiSize * 18);
    if (ImGui::InputTextWithHint(label, hint, buffer, sizeof buffer)) {
        value = buffer;
        return true;
    }
    return false;
}
} // namespace

void drawStorySettingsSection(const Fonts& fonts) {
    story::StorySettings* s = story::gSettings;
    if (!s || !story::gStore) return;
    ImGui::Spacing();
    if (fonts.bold) ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted("Story (AI game master)");
    if (fonts.bold) ImGui::PopFont();
    ImGui::Separator();
    bool changed = false;
    int mode = s->simple ? 1 : 0;
    changed |= ImGui::RadioButton("Agentic (v2): orchestrator, off-screen agents, narrator", &mode, 0);
    changed |= ImGui::RadioButton("Simple (v1): the narrator alone", &mode, 1);
    s->simple = mode == 1;
    changed |= modelField(fonts, "Narrator model", s->narrator, "the world's config, else your first model",
                          "story.settings.narrator");
    changed |= modelField(fonts, "Orchestrator model", s->orchestrator, "the narrator's model", "story.settings.orchestrator");
    changed |= modelField(fonts, "Orchestrator fallback", s->orchestratorFallback, "none", "story.settings.fallback");
    changed |= modelField(fonts, "Image model", s->image, "none: create_image is off", "story.settings.image");
    if (changed) story::saveStorySettings(*story::gStore, *s);
}

} // namespace chaiba::ui
