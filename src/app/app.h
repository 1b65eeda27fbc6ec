// The application shell: owns the settings, the one model client, the catalog and the key check,
// and the registered screens; draws the header (a tab per screen, the session's cost, the key
// state), the Settings panel and the shown screen, and routes the automation API to the screens.
// Platform services (clipboard, downloads, time, HTTP, the engine player) come in through
// AppServices, so the same App runs in the page and in tests.
//
// Registered screens, in header order (each a ui::Screen of its mode):
//   "match"  MatchScreen  (src/modes/chess/match_screen.h)   one game on a board
//   "arena"  ArenaScreen  (src/modes/chess/arena_screen.h)   a tournament and its leaderboard
// Beside the arena, the planner's "Plan with AI" panel (src/modes/planner/ui/plan_panel.h; its
// automation API is the screen name "planner"), whose plan runs play in the arena (PlanArenaHost).
#pragma once

#include "src/llm/assets.h"
#include "src/llm/openrouter_client.h"
#include "src/modes/chess/chess_screens.h"
#include "src/modes/planner/ui/plan_panel.h"
#include "src/persist/key_value_store.h"
#include "src/app/plan_arena_host.h"
#include "src/app/settings.h"
#include "src/app/settings_panel.h"
#include "src/ui/fonts.h"
#include "src/ui/platform.h"
#include "src/ui/screen.h"

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
    ChessServices chess; // the chess screens' stores and engine (store and assets default to the above)
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

private:
    void drawHeader();
    void save();
    void ensureChat();
    void refreshCatalog();
    void checkKey();
    std::string pieceSetProblem() const; // for Settings: why the chosen pieces are not drawn, or ""
    ui::Screen* findScreen(std::string_view id) const;
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
    ChessAssets chessAssets_; // the chess screens' prompts and opening suite (also the Settings defaults)
    std::vector<std::unique_ptr<ui::Screen>> screens_;
    size_t shown_ = 0;
    // "Plan with AI": the panel beside the arena and the host its plan runs play on.
    std::unique_ptr<PlanArenaHost> planHost_;
    std::unique_ptr<planner::PlanPanel> planner_;
};

} // namespace chaiba
