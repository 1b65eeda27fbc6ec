// Settings panel: API key (paste, save, forget), base URL, models, model parameters, the page's
// look, then each mode's own sections. A widget struct in the
// imgui_club style: DrawWindow() opens its own window, DrawContents() draws inside the caller's.
#pragma once

#include "src/app/settings.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::ui {

struct Fonts;

// What the panel shows besides the shell's settings: shipped defaults, the catalog, the modes.
struct SettingsContext {
    std::vector<std::string> defaultModels;
    std::vector<std::string> catalogIds;  // empty while the catalog is not loaded
    // The modes' own sections, at the end; true when a value kept in the settings blob changed.
    std::function<bool()> drawModeSections;
};

struct SettingsPanel {
    bool open = false;

    // Edits `settings`; returns true when something changed that must be saved.
    bool DrawWindow(const Fonts& fonts, Settings& settings, const SettingsContext& context);
    bool DrawContents(const Fonts& fonts, Settings& settings, const SettingsContext& context);

    // Shown at the top of the panel (e.g. a storage error, or what the last save said).
    std::string notice;
    bool noticeIsError = false;
    // The result of the last key check ("Key "x" works · $4.20 credit left"), set by the app.
    std::string keyStatus;
    // The stored key was refused (its check, or a request answered 401): shown as such, not "stored".
    bool keyRefused = false;
    // True once after the user pressed "Check key".
    bool takeCheckKeyRequest() {
        const bool r = checkKeyRequested_;
        checkKeyRequested_ = false;
        return r;
    }

private:
    void syncBuffers(const Settings& settings);
    bool drawModels(const Fonts& fonts, Settings& settings, const SettingsContext& context);

    char keyBuffer_[520] = {};
    char baseUrlBuffer_[520] = {};
    bool showKey_ = false;
    bool checkKeyRequested_ = false;
    bool buffersLoaded_ = false;
    std::string keyError_;
    char modelFilter_[64] = {};
    std::string urlError_;
};

} // namespace chaiba::ui
