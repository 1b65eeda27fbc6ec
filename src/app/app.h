// The application: owns the settings and the screens, and draws one frame at a time. Platform
// services (clipboard, downloads, time) come in through Platform; storage through KeyValueStore.
#pragma once

#include "src/app/key_value_store.h"
#include "src/app/platform.h"
#include "src/app/settings.h"
#include "engine/chess/position.h"
#include "src/ui/board_view.h"
#include "src/ui/fonts.h"
#include "src/ui/settings_panel.h"

#include <string>
#include <vector>

namespace chaiba {

class App {
public:
    App(KeyValueStore& store, Platform& platform, bool storagePersistent);

    // Fonts and the pixel ratio they were built for (re-set after a devicePixelRatio change).
    void setFonts(const ui::Fonts& fonts, float pixelRatio);
    // Draws the whole page; call between ImGui::NewFrame() and ImGui::Render().
    void frame();
    // True while something animates or waits on the network/engine: the loop keeps full rate.
    bool wantsContinuousFrames() const;
    // Milliseconds since some origin, for animations (set by the platform each frame).
    double nowMs() const { return platform_.nowMs(); }

    const Settings& settings() const { return settings_; }
    // The automation API's view of the app (window.chaiba.state()): JSON.
    std::string stateJson() const;

private:
    void drawHeader();
    void drawBody();
    void drawMatchCard(float width);
    void save();

    KeyValueStore& store_;
    Platform& platform_;
    Settings settings_;
    std::vector<std::string> loadWarnings_;
    bool storagePersistent_;
    ui::Fonts fonts_;
    float pixelRatio_ = 1.0f;
    Theme appliedTheme_ = Theme::Light;
    float appliedRatio_ = 0.0f;
    ui::SettingsPanel settingsPanel_;
    ui::BoardView board_;
    chess::Position position_ = chess::Position::startPosition();
    chess::Move lastMove_;
    std::string statusLine_;
};

} // namespace chaiba
