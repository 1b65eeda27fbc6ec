// The sample world's recorded tour (assets/story/sample/recording.json, format "chaiba-story-demo",
// written by tests/e2e/record_story_sample.py): the conversations a real `chaiba story` session left
// (a main line and a branch of it), a turn the player took back as it was played, and the scenes
// the page's replay shows in order. Read once at the edge, checked whole; what the replay shows
// after N steps is worked out here, so the screen only draws it.
#pragma once

#include "src/modes/story/transcript.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

// Play: turns fromTurn..toTurn of its conversation, entry by entry. Undo: `undone` played (the turn
// after those shown), then taken back. Branch: the switch to a branch (its shared turns shown whole),
// then the branch's own turns entry by entry.
enum class DemoSceneKind { Play, Undo, Branch };

// What it is: one scene of the tour; `conversation` indexes StoryDemo::conversations.
struct DemoScene {
    DemoSceneKind kind = DemoSceneKind::Play;
    std::size_t conversation = 0;
    int fromTurn = 0, toTurn = 0; // Play
    TurnRecord undone;            // Undo
};

// What it is: the whole tour as typed data.
struct StoryDemo {
    std::string title;
    std::vector<Conversation> conversations;
    std::vector<DemoScene> scenes;
};

// Checked whole: a scene's turns continue where its conversation's last scene left off, an undone
// turn is the one after those shown, a branch shares its source's turns up to its branch point.
// A readable error (never a crash) on anything malformed.
llm::Result<StoryDemo> storyDemoFromJson(std::string_view text);

// What the replay shows, in order: a turn (its first `entries` entries), a turn taken back (greyed),
// or a banner (the undo's, the branch's).
struct DemoItem {
    enum class Kind { Turn, Undone, Banner };
    Kind kind = Kind::Turn;
    const TurnRecord* turn = nullptr; // into the StoryDemo, which outlives the view
    std::size_t entries = 0;
    std::string text;
};

// What it is: the replay after `step` steps (1..demoSteps): the scene it is in, the conversation
// shown, a line naming it, and the items to draw.
struct DemoView {
    std::size_t scene = 0;
    DemoSceneKind kind = DemoSceneKind::Play;
    const Conversation* conversation = nullptr;
    std::string showing; // "the main line (conversation main)", "a branch from turn 5 of main (conversation c1)"
    std::vector<DemoItem> items;
};

std::size_t demoSteps(const StoryDemo& demo);
DemoView demoView(const StoryDemo& demo, std::size_t step);

// "Undo: the player took back turn 4; ...", "Branch from turn 5: ..." (the banners' texts).
std::string undoBanner(const TurnRecord& undone);
std::string branchBanner(const Conversation& branch);

} // namespace chaiba::story
