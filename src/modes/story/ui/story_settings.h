// The Story screen's settings (models per role, simple v1 or agentic v2), kept in the settings store
// under a versioned key, and their section in the Settings panel (one call from settings_panel.cpp).
#pragma once

#include "src/persist/key_value_store.h"

#include <string>

namespace chaiba::ui {
struct ScreenContext;
}

namespace chaiba::story {

struct StorySettings {
    std::string orchestrator;         // "" = the narrator's model
    std::string orchestratorFallback; // "" = none
    std::string narrator;             // "" = the world's config, else the first model of the list
    std::string image;                // "" = create_image off
    bool simple = false;              // v1: one streamed narrator call, no orchestrator
};

constexpr const char* kStorySettingsKey = "story.v1.settings";

StorySettings loadStorySettings(const KeyValueStore& store);
void saveStorySettings(KeyValueStore& store, const StorySettings& settings);

// The live settings the panel edits (the Story screen registers them; null before it exists), and
// the screen's context, whose catalog the model fields pick from (with prices).
void registerStorySettings(StorySettings* settings, KeyValueStore* store, const ui::ScreenContext* context = nullptr);

} // namespace chaiba::story

namespace chaiba::ui {
struct Fonts;
// The "Story" section of the Settings panel; nothing when no Story screen registered its settings.
void drawStorySettingsSection(const Fonts& fonts);
} // namespace chaiba::ui
