// Story turn changes: every file change of a turn recorded, and undone exactly in reverse order.
#include "src/modes/story/story_tools.h"
#include "src/modes/story/turn_changes.h"

#include <doctest/doctest.h>

using namespace chaiba::story;

namespace {

MemoryWorldFiles startWorld() {
    return MemoryWorldFiles(
        {{"factions.md", "## Guild\n### Recent Actions\n- none\n"}, {"NPCs/mira.md", "Mira: wary"}});
}

} // namespace

TEST_CASE("story turn undo reverts edits, overwrites and creations in reverse order") {
    MemoryWorldFiles world = startWorld();
    StoryRng rng(1);
    TurnChanges turn;
    auto run = [&](const char* name, const char* args) {
        const StoryToolResult result = runStoryTool(world, turn, name, args, rng);
        REQUIRE_MESSAGE(!result.isError, result.text);
    };
    // A file created then edited twice in the same turn, an existing file edited, another overwritten.
    run("write_file", R"({"path": "NPCs/osric.md", "content": "Osric: clerk"})");
    run("edit_file", R"({"path": "NPCs/osric.md", "old_string": "clerk", "new_string": "clerk, nervous"})");
    run("edit_file", R"({"path": "NPCs/osric.md", "old_string": "nervous", "new_string": "terrified"})");
    run("edit_file", R"({"path": "factions.md", "old_string": "- none", "new_string": "- raised the toll"})");
    run("write_file", R"({"path": "NPCs/mira.md", "content": "Mira: grateful"})");
    run("twist_of_fate", R"({"stakes": "1-50: a; 51-100: b"})");
    CHECK(turn.changes().size() == 5);
    CHECK(turn.touchedPaths() == std::vector<std::string>{"NPCs/osric.md", "factions.md", "NPCs/mira.md"});
    CHECK(turn.changes()[0].created());
    CHECK(world.read("NPCs/osric.md").content == "Osric: clerk, terrified");

    REQUIRE(undo(world, turn).ok());
    CHECK(world.files() == startWorld().files());
}

TEST_CASE("story turn undo brings back a removed file and stops at a failure") {
    MemoryWorldFiles world = startWorld();
    TurnChanges turn;
    REQUIRE(world.remove("NPCs/mira.md").ok());
    turn.record("NPCs/mira.md", std::string("Mira: wary"), std::nullopt);
    CHECK(turn.changes()[0].removed());
    REQUIRE(undo(world, turn).ok());
    CHECK(world.read("NPCs/mira.md").content == "Mira: wary");

    TurnChanges broken;
    broken.record("../outside.md", std::string("x"), std::string("y"));
    const WorldError error = undo(world, broken);
    CHECK_FALSE(error.ok());
    CHECK(error.message.find("undo stopped at ../outside.md") == 0);
}

TEST_CASE("story undo of an empty turn changes nothing") {
    MemoryWorldFiles world = startWorld();
    CHECK(undo(world, TurnChanges{}).ok());
    CHECK(world.files() == startWorld().files());
}
