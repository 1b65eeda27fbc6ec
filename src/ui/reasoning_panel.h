// One side's reasoning panel: per move, the move and why (the tool's reasoning, and the model's
// own reasoning text when it exposes it), failed attempts with the feedback they got, and the
// text streaming in while the model thinks. Auto-scrolls like ImGui's console example.
#pragma once

#include <string>
#include <vector>

namespace chaiba::ui {

struct Fonts;

struct FailedAttempt {
    std::string answer;    // what the model proposed (move text or prose)
    std::string feedback;  // what it was told
};

struct ReasoningEntry {
    int ply = 0;
    std::string label;           // "12. Nf3" or "12... Nf6"
    std::string reasoning;       // the move's reasoning (tool argument or answer text)
    std::string modelReasoning;  // reasoning tokens' text, when the model exposes them
    std::vector<FailedAttempt> failed;
};

struct ReasoningPanelModel {
    std::string title;  // "White · gpt-4o"
    std::vector<ReasoningEntry> entries;
    bool thinking = false;
    std::string liveText;
    std::string liveReasoning;
    std::string closing;  // forfeit or error text at the end
    std::string emptyText = "No moves yet.";
};

// Draws inside a bordered child of the given size; `viewedPly` (0-based ply of the move whose
// position is shown, -1 for none) is highlighted.
void drawReasoningPanel(const Fonts& fonts, const ReasoningPanelModel& model, float width, float height,
                        const char* id, int viewedPly);

} // namespace chaiba::ui
