// The New Game dialog: who plays White and Black (language model from the catalog, built-in
// engine level with its rating, a person, the random mover) and where the game starts
// (standard, Chess960 by number or at random, a pasted FEN or PGN).
#pragma once

#include "src/modes/chess/game_setup.h"
#include "src/ui/model_picker.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::ui {

struct Fonts;

// The catalog (model_picker.h) and what the dialog offers beside models.
struct NewGameContext : ModelCatalogView {
    bool haveKey = false;
    int maxEngineLevel = 8;
    std::function<std::string(int)> engineName;
};

struct NewGameDialog {
    bool open = false;
    std::string error;  // shown under the form (set by the caller when starting failed)

    // Opens with a setup to edit.
    void show(const GameSetup& setup);
    // True once after the user asked to reload the model catalog.
    bool refreshRequested() const { return refreshRequested_; }
    void requestRefresh() { refreshRequested_ = true; }
    bool takeRefreshRequest() {
        const bool r = refreshRequested_;
        refreshRequested_ = false;
        return r;
    }
    // Returns the setup when the user pressed Start.
    std::optional<GameSetup> DrawWindow(const Fonts& fonts, const NewGameContext& context);

private:
    bool drawPlayer(const Fonts& fonts, const NewGameContext& context, const char* label, PlayerSpec& spec,
                    char* filter, size_t filterSize);

    GameSetup setup_;
    char fen_[256] = {};
    char pgn_[32768] = {};
    char whiteFilter_[64] = {};
    char blackFilter_[64] = {};
    bool randomNumber_ = true;
    bool refreshRequested_ = false;
    bool popupWasOpen_ = false;  // a dropdown was open last frame: that Esc closes it, not the dialog
    bool focusOnShow_ = false;   // take the keyboard focus when shown (Esc then reaches it)
};

} // namespace chaiba::ui
