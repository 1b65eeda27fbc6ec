// One player's card on the match screen: name, model or level, status (thinking with elapsed
// time, waiting, error), cost and tokens, and the buttons for instructions and the debug log.
#pragma once

#include <string>

namespace chaiba::ui {

struct Fonts;

struct PlayerCardModel {
    bool white = true;
    std::string name;      // "openai/gpt-4o", "Engine · level 4 · ≈1600", "You"
    std::string detail;    // "LLM · tools", "built-in engine", "random mover", "human"
    bool isLlm = false;
    bool toMove = false;
    bool thinking = false;
    double thinkingMs = 0;
    int attempt = 0;       // current model answer of this turn (LLM)
    int maxAttempts = 0;
    bool error = false;
    std::string status;    // error message, or "your move", "waiting"
    // While thinking: the request failed and waits before it is sent again ("rate limited, again in
    // 0:24 (retry 1/3)"); shown instead of "thinking", the whole text on hover.
    std::string retryWait;
    double costUsd = 0;
    long long tokens = 0;
};

enum class CardAction { None, EditInstructions, ShowDebug };

// Draws the card in a child region of the given width; returns a button the user pressed.
CardAction drawPlayerCard(const Fonts& fonts, const PlayerCardModel& model, float width, const char* id);

} // namespace chaiba::ui
