// The Story tests' shared fixture: a small world, the shipped prompts, and one turn driven to its
// end over the fake chat (story_agents_test.cpp, story_memory_test.cpp).
#pragma once

#include "src/modes/story/story_turn.h"
#include "tests/fakes/fake_chat.h"
#include "tests/fakes/fake_transport.h"

#include <doctest/doctest.h>

namespace chaiba::story::testing {

inline MemoryWorldFiles smallWorld() {
    return MemoryWorldFiles({{"factions.md", "# Factions\n\n## The Lamplighters' Guild\nKeepers of lamps.\n\n"
                                             "### Recent Actions\n- Left a walk dark.\n"},
                             {"NPCs/mira-teal.md", "# Mira Teal, ferrywoman\n\nBlunt.\n"},
                             {"locations/stilt-quay.md", "# Stilt Quay\n\nWet planks.\n"}});
}

inline const StoryPrompts& prompts() {
    static const StoryPrompts loaded = [] {
        llm::DirectoryAssetSource assets(std::string(CHAIBA_SOURCE_DIR) + "/assets");
        llm::Result<StoryPrompts> p = loadStoryPrompts(assets);
        REQUIRE_MESSAGE(p.isOk(), p.error);
        return *p.value;
    }();
    return loaded;
}

// One turn driven to its end over the fake chat.
struct Harness {
    MemoryWorldFiles world = smallWorld();
    fakes::FakeChat chat;
    fakes::FakeClock clock;
    StoryRng rng{7};
    WorldConfig config = defaultWorldConfig();
    TurnSettings settings;
    std::optional<TurnResult> result;
    std::vector<std::string> notes;
    std::string streamed;

    Harness() {
        settings.models = {"m/narrator", "m/orch", "m/orch-fallback", "", "", ""};
        settings.streamNarrator = false;
    }
    TurnResult run(const std::string& say,
                   const Conversation& conversation = Conversation{"c1", "", "", 0, {}, {}, 0}) {
        StoryTurn turn(chat, world, prompts(), config, settings, clock, rng);
        return drive(turn, say, conversation);
    }
    TurnResult drive(StoryTurn& turn, const std::string& say,
                     const Conversation& conversation = Conversation{"c1", "", "", 0, {}, {}, 0}) {
        TurnHandlers handlers;
        handlers.onNote = [&](const std::string& note) { notes.push_back(note); };
        handlers.onNarratorText = [&](const std::string& delta) { streamed += delta; };
        handlers.onDone = [&](const TurnResult& r) { result = r; };
        turn.start(conversation, say, handlers);
        for (int i = 0; i < 200 && !result; ++i) {
            clock.advance(10);
            chat.poll();
        }
        REQUIRE(result.has_value());
        return *result;
    }
    const llm::ChatRequest& request(std::size_t i) const { return chat.requests().at(i); }
    static std::string systemOf(const llm::ChatRequest& r) {
        return r.messages.empty() ? "" : r.messages[0].content;
    }
};

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}


} // namespace chaiba::story::testing
