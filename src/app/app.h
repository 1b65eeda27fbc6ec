// The application shell: owns the settings, the one model client, the catalog and the key check,
// and the modes it is given; draws the header (a tab per screen, the session's cost, the key
// state), the Settings panel and the shown screen, and routes the automation API to the screens
// and the modes' other endpoints. Platform services (clipboard, downloads, time, HTTP) come in
// through AppServices, the modes through AppServices::makeModes (the page's: src/app/page_modes.h),
// so the same App runs in the page and in tests and names no game.
#pragma once

#include "src/app/mode_module.h"
#include "src/app/settings.h"
#include "src/app/settings_panel.h"
#include "src/llm/assets.h"
#include "src/llm/openrouter_client.h"
#include "src/persist/key_value_store.h"
#include "src/ui/fonts.h"
#include "src/ui/platform.h"
#include "src/ui/screen.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba {

struct AppServices {
    KeyValueStore* store = nullptr; // settings, the catalog cache, the shown screen
    Platform* platform = nullptr;
    bool storagePersistent = true;
    std::string storageWarning; // storage is read but saving fails (full), in plain words
    net::HttpTransport* transport = nullptr;
    const net::Clock* clock = nullptr;
    const llm::AssetSource* assets = nullptr;
    // The modes, made once the shell's context exists; their screens make the header, in order.
    std::function<std::vector<std::unique_ptr<ModeModule>>(ModeHost& host)> makeModes;
};

// What one automation call answers: an error sentence, or the command's answer as JSON ("" when
// the command answers nothing).
struct CommandResult {
    std::optional<std::string> error;
    std::string resultJson;
};

class App {
public:
    explicit App(AppServices services);
    ~App();

    // Fonts and the pixel ratio they were built for (re-set after a devicePixelRatio change).
    void setFonts(const ui::Fonts& fonts, float pixelRatio);
    // Pumps the network once (the one client, hence the transport), then ticks every screen;
    // call once per loop iteration, even when idle.
    void tick();
    // Draws the whole page; call between ImGui::NewFrame() and ImGui::Render().
    void frame();
    // True while the shown screen animates, thinks or waits on the network: the loop keeps full rate.
    bool wantsContinuousFrames() const;
    // The shown screen's shortest interval between frames drawn for content changes alone.
    double contentFrameIntervalMs() const;
    // Changes whenever something visible changed outside of input (a move, a result, a reply):
    // the loop draws a frame when it differs from the last drawn value.
    uint64_t changeCounter() const;

    const Settings& settings() const { return settings_; }

    // ---- the automation API (window.chaiba); the same paths as the buttons -----------------
    // The shell's own commands: key, base URL, answer timeout, which screen is shown.
    std::optional<std::string> configure(const std::string& apiKey, const std::string& baseUrl, bool setKey,
                                         bool setUrl);
    std::optional<std::string> setRequestTimeout(int seconds);
    std::optional<std::string> showScreen(std::string_view id);
    // A screen's state ("{}" plus an error for an unknown screen) and commands.
    std::optional<std::string> screenState(std::string_view screen, std::string* stateJson) const;
    CommandResult screenCommand(std::string_view screen, std::string_view name, std::string_view argumentJson);
    // Every endpoint of window.chaiba, for the page to build one object each:
    // [{"id": "werewolf-arena", "api": "werewolfArena", "screen": true, "commands": [{"name", "async"}]}].
    std::string endpointsJson() const;

private:
    void drawHeader();
    void save();
    void ensureChat();
    void refreshCatalog();
    void checkKey();
    ui::Screen* findScreen(std::string_view id) const;
    ModeModule* findEndpoint(std::string_view id) const;
    ui::Screen& shown() const { return *screens_[shown_]; }

    AppServices services_;
    Settings settings_;
    std::vector<std::string> loadWarnings_;
    ui::Fonts fonts_;
    float pixelRatio_ = 1.0f;
    Theme appliedTheme_ = Theme::Light;
    float appliedRatio_ = 0.0f;

    std::vector<std::string> defaultModels_;
    // The page's one client: a new key or base URL changes it in place (calls in flight keep
    // theirs), so nothing else is ever polled.
    std::unique_ptr<llm::OpenRouterClient> chat_;
    uint64_t configChanges_ = 0;  // key or base URL changed: the header redraws
    std::vector<llm::ModelInfo> catalog_;
    std::string catalogStatus_;
    bool catalogLoading_ = false;
    std::string keyStatus_;
    bool keyCheckFailed_ = false;  // the last key check was refused (cleared by a new key)
    uint64_t asyncChanges_ = 0;  // catalog and key-check replies

    ui::SettingsPanel settingsPanel_;
    // What the screens read of the shell (see ui::ScreenContext); updated in place.
    ui::ScreenContext context_;
    std::unique_ptr<ModeHost> host_;                  // what the modes are lent
    std::vector<std::unique_ptr<ModeModule>> modules_; // destroyed last first
    std::vector<ui::Screen*> screens_;                 // the modes', in header order
    std::unique_ptr<ui::Screen> noModes_;              // shown when no mode was given
    size_t shown_ = 0;
};

} // namespace chaiba
