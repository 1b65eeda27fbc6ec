// A mode as the shell sees it: the screens it adds to the header (in order) and what it draws or
// answers beside them (windows, its part of Settings, automation endpoints that are not screens,
// its spend and changes, its settings). App loops over the modules it is given and names no game; the page's
// modes are composed in src/app/page_modes.cpp.
#pragma once

#include "src/app/settings.h"
#include "src/app/settings_panel.h"
#include "src/llm/assets.h"
#include "src/net/http.h"
#include "src/persist/key_value_store.h"
#include "src/ui/screen.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba {

// What the shell lends every mode; all of it outlives the modes.
struct ModeHost {
    ui::ScreenContext& context;
    KeyValueStore* store = nullptr; // settings and small state (localStorage on the web)
    Platform* platform = nullptr;
    net::HttpTransport* transport = nullptr;
    const net::Clock* clock = nullptr;
    const llm::AssetSource* assets = nullptr;
    const Settings& settings; // the shell's, edited in its Settings window (a mode reads its keys from .stored)
    std::vector<std::string>& settingsWarnings; // a mode's stored value it could not read, in a sentence
    // Stores an OpenRouter key typed into a mode (the shell's Settings own it); an error sentence.
    std::function<std::optional<std::string>(const std::string& key)> saveKey;
    std::function<void(std::string_view id)> showScreen;
};

// A header entry that is not a screen (a panel a mode opens over one): drawn after the tabs, and in
// the list of screens on a phone. `open` runs between frames.
struct HeaderLink {
    std::string id;    // its item: "header.<id>"
    std::string label; // "Plan with AI"
    std::function<void()> open;
};

class ModeModule {
public:
    virtual ~ModeModule() = default;
    virtual std::vector<HeaderLink> headerLinks() { return {}; }
    // The screens this mode adds to the header, in order; owned by the module.
    virtual std::vector<ui::Screen*> screens() = 0;
    // "chess", "Werewolf", "stories": what the header's tagline says is played; empty: nothing.
    virtual std::string_view noun() const { return {}; }
    virtual void tick(double /*nowMs*/) {}   // after every screen's tick
    virtual void beginFrame() {}              // before anything of the frame is drawn
    virtual void drawWindows() {}             // after the screens' windows
    // Its sections of the Settings window (drawn while it is open, after the shell's); true when
    // a value it keeps in the settings blob changed (the shell then saves, see writeSettings).
    virtual bool drawSettings() { return false; }
    // Puts its values into the settings blob before the shell stores it (its own keys of the flat
    // object; read back in its constructor from ModeHost::settings.stored).
    virtual void writeSettings(nlohmann::json& /*blob*/) const {}
    // The shell's settings changed (a key saved, a base URL, a timeout, anything of the Settings
    // window), before any frame: a mode that keeps a copy of them takes the new values now, so a
    // command right after (a new match with the key just configured) sees them.
    virtual void settingsChanged() {}
    virtual double spentUsd() const { return 0; }                  // beyond its screens'
    virtual uint64_t changeCounter() const { return 0; }           // beyond its screens'
    virtual bool wantsContinuousFrames() const { return false; }   // beyond the shown screen's
    // Automation endpoints that are not screens (window.chaiba.<id>): their ids, each endpoint's
    // commands, state and command dispatch (as ui::Screen's).
    virtual std::vector<std::string> endpoints() const { return {}; }
    bool hasEndpoint(std::string_view id) const {
        for (const std::string& e : endpoints())
            if (e == id) return true;
        return false;
    }
    virtual std::vector<ui::CommandInfo> endpointCommands(std::string_view /*id*/) const { return {}; }
    virtual std::string endpointState(std::string_view /*id*/) const { return "{}"; }
    virtual std::optional<std::string> endpointCommand(std::string_view id, std::string_view /*name*/,
                                                       std::string_view /*argumentJson*/, std::string* /*resultJson*/) {
        return "no endpoint '" + std::string(id) + "'";
    }
};

} // namespace chaiba
