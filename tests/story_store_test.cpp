// Worlds in a key-value store (the page's IndexedDB store): files, index, images in base64, the
// world list, the sample install, pitch worlds; and markdown through MD4C into typed blocks.
#include "src/modes/story/agent_log.h"
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/kv_world_files.h"
#include "src/modes/story/markdown_doc.h"
#include "src/modes/story/world_config.h"

#include <doctest/doctest.h>


using namespace chaiba;
using namespace chaiba::story;

TEST_CASE("KvWorldFiles: write, list, read, remove, and the path rules") {
    MemoryStore store;
    KvWorldFiles world(store, "w1");
    CHECK(world.list().empty());
    CHECK(world.write("NPCs/a.md", "# A\n").ok());
    CHECK(world.write("factions.md", "F").ok());
    CHECK(world.write("NPCs/a.md", "# A again\n").ok());
    CHECK(world.list() == std::vector<std::string>{"NPCs/a.md", "factions.md"});
    CHECK(world.read("NPCs/a.md").content == "# A again\n");
    CHECK(world.read("missing.md").missing());
    CHECK(world.write("../escape.md", "x").kind == WorldErrorKind::InvalidPath);
    CHECK(world.remove("factions.md").ok());
    CHECK(world.remove("factions.md").kind == WorldErrorKind::Missing);
    CHECK(world.list() == std::vector<std::string>{"NPCs/a.md"});
    // Another world in the same store is separate.
    KvWorldFiles other(store, "w2");
    CHECK(other.list().empty());
    CHECK(store.get("story.v1.w.w1.f.NPCs/a.md").value() == "# A again\n");
}

TEST_CASE("KvWorldFiles: images are kept as base64 text and read back as bytes") {
    MemoryStore store;
    KvWorldFiles world(store, "w");
    const std::string bytes("\x89PNG\r\n\x1a\n\0\xff", 10);
    REQUIRE(world.write("images/x.png", bytes).ok());
    CHECK(world.read("images/x.png").content == bytes);
    CHECK(store.get("story.v1.w.w.f.images/x.png").value() == base64Encode(bytes));
    store.set("story.v1.w.w.f.images/x.png", "not base64 !!");
    CHECK(world.read("images/x.png").error.kind == WorldErrorKind::Io);
}

TEST_CASE("KvWorldFiles: undo and export round trip through the store") {
    MemoryStore store;
    KvWorldFiles world(store, "w");
    REQUIRE(world.write("config.yaml", "setting: s\ntone: t\nplayer:\n  name: P\n").ok());
    REQUIRE(world.write("a.md", "one").ok());
    llm::Result<std::string> archive = exportWorld(world);
    REQUIRE(archive.isOk());
    KvWorldFiles copy(store, "copy");
    REQUIRE(importWorld(*archive.value, copy).ok());
    CHECK(copy.list() == world.list());
    CHECK(copy.read("a.md").content == "one");
    copy.clear();
    CHECK(copy.list().empty());
    CHECK(world.read("a.md").content == "one");
}

TEST_CASE("world list: save, load, newer versions and corrupt lists are errors, ids are free") {
    MemoryStore store;
    CHECK(loadWorldList(store).value->empty());
    REQUIRE(!saveWorldList(store, {{"a", "A"}, {"b", "B"}}));
    auto list = loadWorldList(store);
    REQUIRE(list.isOk());
    CHECK(list.value->size() == 2);
    CHECK((*list.value)[1].title == "B");
    store.set("story.v1.worlds", R"({"version":2,"worlds":[]})");
    CHECK(!loadWorldList(store).isOk());
    store.set("story.v1.worlds", "{oops");
    CHECK(!loadWorldList(store).isOk());
    CHECK(newWorldId({{"glass-harbour", ""}}, "Glass Harbour!") == "glass-harbour-2");
    CHECK(newWorldId({}, "???") == "world");
}

TEST_CASE("the sample world installs from the assets, and a pitch world has a valid config") {
    llm::DirectoryAssetSource assets(std::string(CHAIBA_SOURCE_DIR) + "/assets");
    MemoryStore store;
    KvWorldFiles sample(store, "brackwater");
    REQUIRE(installSampleWorld(assets, sample).ok());
    CHECK(sample.exists("NPCs/mira-teal.md"));
    CHECK(!sample.exists("recording.json"));
    CHECK(!loadWorldConfig(sample).usedDefault);
    llm::MemoryAssetSource broken;
    broken.set("story/sample.files", "missing.md\n");
    MemoryWorldFiles none;
    CHECK(installSampleWorld(broken, none).kind == WorldErrorKind::Missing);

    KvWorldFiles pitched(store, "p");
    REQUIRE(writePitchWorld(pitched, "Glass \"Harbour\"", "A port city where\nwindows keep ledgers.").ok());
    const LoadedWorldConfig config = loadWorldConfig(pitched);
    CHECK(!config.usedDefault);
    CHECK(config.config.title == "Glass \"Harbour\"");
    CHECK(config.config.setting == "A port city where windows keep ledgers.");
}

TEST_CASE("markdown: headings, emphasis, lists, quotes, code, rules and images as typed blocks") {
    const MdDocument doc = parseMarkdown("# Title\n\nSome *soft* and **loud** `code` text.\n\n"
                                         "- one\n- two\n\n3. third\n\n> quoted line\n\n---\n\n"
                                         "![a heron](images/heron.png)\n\n```\nraw\n```\n");
    REQUIRE(doc.blocks.size() == 9);
    CHECK(doc.blocks[0].kind == MdBlockKind::Heading);
    CHECK(doc.blocks[0].level == 1);
    const std::vector<MdRun>& runs = doc.blocks[1].runs;
    REQUIRE(runs.size() == 7);
    CHECK(runs[1].text == "soft");
    CHECK(runs[1].style == MdEmphasis);
    CHECK(runs[3].style == MdStrong);
    CHECK(runs[5].style == MdCode);
    CHECK(doc.blocks[2].kind == MdBlockKind::ListItem);
    CHECK(doc.blocks[2].marker == "\xE2\x80\xA2");
    CHECK(doc.blocks[2].listDepth == 1);
    CHECK(doc.blocks[4].marker == "3.");
    CHECK(doc.blocks[5].quoteDepth == 1);
    CHECK(doc.blocks[6].kind == MdBlockKind::Rule);
    CHECK(doc.blocks[7].kind == MdBlockKind::Image);
    CHECK(doc.blocks[7].imageSrc == "images/heron.png");
    CHECK(doc.blocks[8].kind == MdBlockKind::CodeBlock);
    CHECK(plainText(parseMarkdown("plain")) == "plain");
}

TEST_CASE("agent log: a stored log reads back typed, and a malformed one is an error") {
    TurnLog log;
    log.conversationId = "main";
    log.turn = 3;
    log.timing = {40, 100, 150, 170};
    log.costUsd = 0.0125;
    log.contextTokens = 3026;
    log.notes = {"orchestrator fell back"};
    AgentStep step;
    step.agent = AgentKind::FactionTurn;
    step.label = "The Guild";
    step.model = "m/x";
    step.status = StepStatus::Refused;
    step.error = "REFUSED: no";
    step.usage.promptTokens = 900;
    step.toolCalls.push_back({"edit_file", "{}", "Edited", true});
    step.input.push_back({llm::Role::System, "sys", {}, "", "", false});
    log.steps.push_back(step);
    llm::Result<TurnLog> back = turnLogFromJson(turnLogToJson(log));
    REQUIRE(back.isOk());
    CHECK(back.value->turn == 3);
    CHECK(back.value->timing.narratorFirstTokenMs == 150);
    CHECK(back.value->contextTokens == 3026);
    REQUIRE(back.value->steps.size() == 1);
    const AgentStep& s = back.value->steps[0];
    CHECK(s.agent == AgentKind::FactionTurn);
    CHECK(s.status == StepStatus::Refused);
    CHECK(s.usage.promptTokens == 900);
    CHECK(s.toolCalls.at(0).isError);
    CHECK(s.input.at(0).role == llm::Role::System);
    CHECK(!turnLogFromJson("[1]").isOk());
    CHECK(!turnLogFromJson(R"({"steps":[{"agent":"wizard"}]})").isOk());
    CHECK(!turnLogFromJson(R"({"turn":"three","steps":[]})").isOk());
}
