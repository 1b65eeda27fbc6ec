// The Screen interface: one page of the app (a mode's match, its arena, later a story or a plan)
// that the shell shows under its header, ticks, draws and drives through the automation API. It
// knows no game; a mode implements it and the shell registers it.
#pragma once

#include "src/llm/chat.h"
#include "src/llm/openrouter_json.h"
#include "src/ui/platform.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::ui {

struct Fonts;

// What the shell lends every screen. The shell owns it, outlives its screens and updates it in
// place (fonts after a pixel-ratio change, the chat service when a key is added or forgotten, the
// catalog when it arrives), so a screen keeps a reference and reads it at the moment of use.
struct ScreenContext {
    const Fonts* fonts = nullptr;
    Platform* platform = nullptr;
    // The page's one chat client; null without an API key (language models cannot play). The
    // shell pumps it once per tick: a screen never polls it (nor any transport).
    llm::ChatService* chat = nullptr;
    const std::vector<llm::ModelInfo>* catalog = nullptr; // sorted by id; empty until loaded
    const std::string* catalogStatus = nullptr;           // "412 models", "loading…", why not
    const bool* catalogLoading = nullptr;                 // a fetch of the catalog is under way
    const std::vector<std::string>* selectedModels = nullptr; // the person's list (may be empty)
    const std::vector<std::string>* defaultModels = nullptr;  // the shipped list

    // Requests to the shell; each takes effect at once.
    std::function<void()> saveSettings;   // after a screen changed a setting lent to it
    std::function<void()> openSettings;   // e.g. from an "Open Settings" button beside a key error
    std::function<void()> refreshCatalog; // reload the model catalog (ignored while loading)
    std::function<void(std::string_view id)> showScreen;
    std::function<std::string_view()> shownScreen; // the id of the screen shown now

    // The models to offer first: the person's selection, else the shipped defaults.
    const std::vector<std::string>& models() const {
        return selectedModels->empty() ? *defaultModels : *selectedModels;
    }
    // "loading" while a fetch runs, else "ready" with a list or "unavailable" without one.
    std::string_view catalogState() const {
        if (catalogLoading && *catalogLoading) return "loading";
        return catalog && !catalog->empty() ? "ready" : "unavailable";
    }
    // Why `what` (model names, or "3 model(s)") has no price, for a cost estimate: the catalog is
    // loading, missing (and why), or does not list it. Lower case, no final full stop.
    std::string unpricedNote(const std::string& what) const {
        const std::string_view state = catalogState();
        if (state == "loading") return "loading the prices of " + what + "\xE2\x80\xA6 (counted as free until the catalog arrives)";
        if (state == "unavailable")
            return "no price known for " + what + ": " +
                   (catalogStatus && !catalogStatus->empty() ? *catalogStatus : std::string("no model catalog")) +
                   " (counted as free)";
        return "no price known for " + what + " (the catalog does not list it; counted as free)";
    }
    // The catalog's entry of a model, if the catalog has it.
    std::optional<llm::ModelInfo> modelInfo(std::string_view id) const {
        for (const llm::ModelInfo& m : *catalog)
            if (m.id == id) return m;
        return std::nullopt;
    }
};

// One command of a screen's automation API: its name (camelCase, as window.chaiba.<screen>.<name>
// calls it) and whether it answers later (it answers {"pending": true} until its answer is ready;
// the page's method is then a promise of the answer).
struct CommandInfo {
    std::string name;
    bool async = false;
};

class Screen {
public:
    virtual ~Screen() = default;

    // "match": the automation API's name for it, the header item "header.<id>", the stored choice.
    virtual std::string_view id() const = 0;
    // The header tab's label ("Match").
    virtual std::string_view title() const = 0;

    // Advances the screen's own state machines (sessions, autosave); called once per loop
    // iteration for every screen, shown or not, after the shell pumped the network.
    virtual void tick(double nowMs) = 0;
    // Draws the page area the shell leaves under its header (inside the shell's window).
    virtual void draw() = 0;
    // The screen's own windows and popups (dialogs, debug windows), drawn every frame outside the
    // shell's window, shown or not, so a dialog stays open across a change of screen.
    virtual void drawWindows() {}

    // True while the shown screen animates, thinks or waits: the loop keeps its full rate.
    virtual bool wantsContinuousFrames() const = 0;
    // The shortest time between two frames drawn only because the content changed (no input for a
    // moment): a screen of many live games redraws at a calmer rate than the browser's, which
    // leaves the GPU (software rendering on small machines) and the main thread to the games.
    virtual double contentFrameIntervalMs() const { return 0.0; }
    // Changes whenever something visible changed outside of input (a move, a result, a reply).
    virtual uint64_t changeCounter() const = 0;
    // What the screen spent on model calls this session (USD), for the header's total.
    virtual double spentUsd() const { return 0; }

    // The automation API: the screen's state as one JSON object, and its commands. A command
    // takes its argument as JSON text (decoded once, by the screen) and returns an error
    // sentence, or nothing and, for commands that answer, the answer as JSON in *resultJson.
    virtual std::string stateJson() const = 0;
    virtual std::optional<std::string> command(std::string_view name, std::string_view argumentJson,
                                               std::string* resultJson) = 0;
    // The commands command() takes: window.chaiba.<screen> has a method for each (CommandInfo).
    virtual std::vector<CommandInfo> commands() const { return {}; }
};

// A document a command takes (a config, a bundle) as the page's methods send it: an object's JSON
// text as it is, or a string holding the document's text (a person pasting a file) unwrapped.
std::string documentArgument(std::string_view argumentJson);

} // namespace chaiba::ui
