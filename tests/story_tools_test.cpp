// Story tools: edit_file, write_file, the dispatcher's JSON handling, and the schema files.
#include "src/modes/story/story_images.h"
#include "src/modes/story/story_tools.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace chaiba::story;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

MemoryWorldFiles miraWorld() {
    return MemoryWorldFiles(
        {{"NPCs/mira.md", "# Mira\nMood: wary\nSecret: none\nDebt: 3 coins, 3 coins, 3 coins\n"}});
}

} // namespace

TEST_CASE("story edit_file replaces a unique old_string and records the change") {
    MemoryWorldFiles world = miraWorld();
    const StoryToolResult result = editFile(world, "NPCs/mira.md", "Mood: wary", "Mood: grateful");
    CHECK_FALSE(result.isError);
    CHECK(contains(result.text, "NPCs/mira.md"));
    CHECK(world.read("NPCs/mira.md").content ==
          "# Mira\nMood: grateful\nSecret: none\nDebt: 3 coins, 3 coins, 3 coins\n");
    REQUIRE(result.change);
    CHECK(result.change->path == "NPCs/mira.md");
    CHECK(result.change->before == stampOf(miraWorld().read("NPCs/mira.md").content));
    CHECK(result.change->after == stampOf(world.read("NPCs/mira.md").content));
}

TEST_CASE("story edit_file with no match says so and changes nothing") {
    MemoryWorldFiles world = miraWorld();
    const StoryToolResult result = editFile(world, "NPCs/mira.md", "Mood: happy", "Mood: sad");
    CHECK(result.isError);
    CHECK(contains(result.text, "does not occur in NPCs/mira.md"));
    CHECK_FALSE(result.change);
    CHECK(world.read("NPCs/mira.md").content == miraWorld().read("NPCs/mira.md").content);
}

TEST_CASE("story edit_file with several matches says how many") {
    MemoryWorldFiles world = miraWorld();
    const StoryToolResult result = editFile(world, "NPCs/mira.md", "3 coins", "4 coins");
    CHECK(result.isError);
    CHECK(result.text == "old_string occurs 3 times in NPCs/mira.md; include more context so it occurs once");
    CHECK_FALSE(result.change);
    CHECK(world.read("NPCs/mira.md").content == miraWorld().read("NPCs/mira.md").content);
}

TEST_CASE("story edit_file refuses a missing file, an empty old_string and non-markdown paths") {
    MemoryWorldFiles world = miraWorld();
    CHECK(contains(editFile(world, "NPCs/nobody.md", "a", "b").text, "use write_file to create it"));
    CHECK(editFile(world, "NPCs/mira.md", "", "b").isError);
    CHECK(contains(editFile(world, "config.yaml", "a", "b").text, "markdown (.md) files only"));
    CHECK(contains(editFile(world, "../mira.md", "a", "b").text, "'..'"));
}

TEST_CASE("story write_file creates, overwrites and records before and after") {
    MemoryWorldFiles world = miraWorld();
    const StoryToolResult created = writeFile(world, "locations/quay.md", "# Quay\n");
    CHECK_FALSE(created.isError);
    CHECK(contains(created.text, "Created locations/quay.md"));
    REQUIRE(created.change);
    CHECK_FALSE(created.change->before);
    CHECK(created.change->after == stampOf("# Quay\n"));

    const StoryToolResult overwritten = writeFile(world, "locations/quay.md", "# The Quay\n");
    CHECK(contains(overwritten.text, "Overwrote"));
    REQUIRE(overwritten.change);
    CHECK(overwritten.change->before == stampOf("# Quay\n"));
    CHECK(world.read("locations/quay.md").content == "# The Quay\n");
}

TEST_CASE("story write_file refuses escapes and odd names with a clear error") {
    MemoryWorldFiles world;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"../outside.md", "'..'"},
        {"/tmp/x.md", "absolute"},
        {"NPCs\\mira.md", "backslash"},
        {"NPCs//mira.md", "empty folder or file name"},
        {"NPCs/mi\tra.md", "control characters"},
        {std::string(kMaxWorldPathLength, 'a') + ".md", "bytes long"},
        {"NPCs/mira.txt", "markdown"},
        {"images/mira.png", "markdown (.md) files only"},
    };
    for (const auto& [path, reason] : cases) {
        CAPTURE(path);
        const StoryToolResult result = writeFile(world, path, "x");
        CHECK(result.isError);
        CHECK(contains(result.text, reason));
        CHECK_FALSE(result.change);
    }
    const StoryToolResult tooLarge = writeFile(world, "big.md", std::string(kMaxWorldFileBytes + 1, 'x'));
    CHECK(tooLarge.isError);
    CHECK(contains(tooLarge.text, "at most"));
    CHECK(world.list().empty());
}

TEST_CASE("story runStoryTool decodes arguments and reports bad ones to the model") {
    MemoryWorldFiles world = miraWorld();
    StoryRng rng(7);
    TurnChanges turn;

    StoryToolResult result =
        runStoryTool(world, turn, "write_file", R"({"path": "a.md", "content": "A"})", rng);
    CHECK_FALSE(result.isError);
    result = runStoryTool(world, turn, "edit_file",
                          R"({"path": "NPCs/mira.md", "old_string": "wary", "new_string": "calm"})", rng);
    CHECK_FALSE(result.isError);
    CHECK(turn.changes().size() == 2);

    CHECK(contains(runStoryTool(world, "write_file", "{\"path\": ", rng).text, "not valid JSON"));
    CHECK(contains(runStoryTool(world, "write_file", "[1, 2]", rng).text, "must be a JSON object"));
    CHECK(contains(runStoryTool(world, "write_file", R"({"path": "b.md"})", rng).text, "'content'"));
    CHECK(contains(runStoryTool(world, "write_file", R"({"path": 3, "content": "x"})", rng).text,
                   "'path' must be a string"));
    CHECK(contains(runStoryTool(world, "edit_file", R"({"path": "a.md", "old_string": "A"})", rng).text,
                   "'new_string'"));
    CHECK(contains(runStoryTool(world, "create_image", "{}", rng).text, "no image model configured"));
    CHECK(contains(runStoryTool(world, "search_image", "{}", rng).text, "no image model configured"));
    CHECK(contains(runStoryTool(world, "delete_world", "{}", rng).text, "unknown tool"));
    CHECK(turn.changes().size() == 2); // errors recorded nothing

    result = runStoryTool(world, "twist_of_fate", R"({"stakes": "1-50: heads; 51-100: tails"})", rng);
    CHECK_FALSE(result.isError);
    REQUIRE(result.twist);
    CHECK(result.twist->bands.size() == 2);
    CHECK(contains(runStoryTool(world, "twist_of_fate", R"({"stakes": "1-50: heads"})", rng).text, "51-100"));
}

TEST_CASE("story tool schemas are valid JSON named like their files") {
    for (std::string_view name : kStoryToolNames) {
        CAPTURE(name);
        std::ifstream in(std::string(CHAIBA_SOURCE_DIR) + "/assets/story/tools/" + std::string(name) +
                         ".json");
        REQUIRE(in);
        std::stringstream text;
        text << in.rdbuf();
        const nlohmann::json schema = nlohmann::json::parse(text.str(), nullptr, false);
        REQUIRE_FALSE(schema.is_discarded());
        CHECK(schema.value("name", "") == name);
        CHECK_FALSE(schema.value("description", "").empty());
        REQUIRE(schema.contains("parameters"));
        CHECK(schema["parameters"].value("type", "") == "object");
        CHECK(schema["parameters"]["required"].is_array());
        for (const auto& required : schema["parameters"]["required"])
            CHECK(schema["parameters"]["properties"].contains(required.get<std::string>()));
    }
}

TEST_CASE("story image index with fields of the wrong type skips those pictures instead of ending the program") {
    MemoryWorldFiles world(
        {{"images/index.json",
          R"({"images": [{"slug": 1, "path": "images/a.png", "prompt": "x"}, {"slug": "b", "path": ["images/b.png"]},
                         {"slug": "c", "path": "images/c.png", "prompt": {"no": 1}, "tags": ["t", 2]}]})"}});
    const std::vector<ImageRecord> records = loadImageIndex(world);
    REQUIRE(records.size() == 1);
    CHECK(records[0].slug == "c");
    CHECK(records[0].prompt.empty());
    CHECK(records[0].tags == std::vector<std::string>{"t"});
}
