// Story conversations: JSON round trips, undo of a turn (transcript and files together), a branch
// with the world as it was, export and import of a whole world, and refusals of bad input.
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/story_tools.h"

#include <doctest/doctest.h>

using namespace chaiba;
using namespace chaiba::story;

namespace {

MemoryWorldFiles startWorld() {
    return MemoryWorldFiles({{"factions.md", "## Guild\n- none\n"}, {"NPCs/mira.md", "Mira: wary"}});
}

// A turn that ran these tools against the world.
TurnRecord playTurn(MemoryWorldFiles& world, const std::string& say,
                    const std::vector<std::pair<std::string, std::string>>& calls) {
    StoryRng rng(3);
    TurnRecord turn;
    turn.entries.push_back({EntryKind::Player, AgentKind::Narrator, say, {}, {}, false, std::nullopt});
    for (const auto& [name, args] : calls) {
        const StoryToolResult result = runStoryTool(world, turn.changes, name, args, rng);
        REQUIRE_MESSAGE(!result.isError, result.text);
        TranscriptEntry entry{EntryKind::ToolCall, AgentKind::Narrator, result.text, name, args, false,
                              result.twist};
        if (result.twist) entry.kind = EntryKind::Dice;
        turn.entries.push_back(entry);
    }
    turn.entries.push_back(
        {EntryKind::Narrator, AgentKind::Narrator, "Reply to " + say, {}, {}, false, std::nullopt});
    return turn;
}

WorldFileMap storyFiles(const MemoryWorldFiles& world) {
    WorldFileMap out;
    for (const auto& [path, content] : world.files())
        if (path.rfind("conversations/", 0) != 0 && path.rfind("logs/", 0) != 0) out.emplace(path, content);
    return out;
}

} // namespace

TEST_CASE("story conversation: JSON round trip keeps entries, dice bands, decision and changes") {
    MemoryWorldFiles world = startWorld();
    Conversation conversation{"c1", "", "", 0, {}};
    TurnRecord turn = playTurn(world, "I climb",
                               {{"twist_of_fate", R"({"stakes": "1-40: fall; 41-100: climb"})"},
                                {"write_file", R"({"path": "NPCs/osric.md", "content": "Osric"})"}});
    turn.decision.preSteps.push_back({PreStepKind::FactionTurn, "", "Guild", "night falls"});
    turn.decision.suggestedTwists.push_back({"the climb", "wet stones"});
    REQUIRE(recordTurn(world, conversation, turn, TurnLog{}).ok());
    CHECK(world.exists("conversations/c1.json"));
    CHECK(world.exists("logs/c1/turn-1.json"));
    llm::Result<Conversation> loaded = loadConversation(world, "c1");
    REQUIRE_MESSAGE(loaded.isOk(), loaded.error);
    CHECK(conversationToJson(*loaded.value) == conversationToJson(conversation));
    const TurnRecord& back = loaded.value->turns.at(0);
    CHECK(back.number == 1);
    CHECK(back.entries.at(1).kind == EntryKind::Dice);
    CHECK(back.entries.at(1).twist->bands.at(1).outcome == "climb");
    CHECK(back.decision.preSteps.at(0).faction == "Guild");
    CHECK(back.changes.changes().at(0).created());
    CHECK(loaded.value->title == "I climb");
}

TEST_CASE("story conversation: undo reverts the last turn's files and transcript together") {
    MemoryWorldFiles world = startWorld();
    Conversation conversation{"c1", "", "", 0, {}};
    REQUIRE(recordTurn(world, conversation,
                       playTurn(world, "one", {{"write_file", R"({"path": "a.md", "content": "A"})"}}), {})
                .ok());
    const WorldFileMap afterOne = storyFiles(world);
    REQUIRE(recordTurn(world, conversation,
                       playTurn(world, "two",
                                {{"edit_file", R"({"path": "a.md", "old_string": "A", "new_string": "B"})"},
                                 {"write_file", R"({"path": "b.md", "content": "new"})"}}),
                       {})
                .ok());
    REQUIRE(undoLastTurn(world, conversation).ok());
    CHECK(storyFiles(world) == afterOne);
    CHECK(conversation.turns.size() == 1);
    CHECK(loadConversation(world, "c1").value->turns.size() == 1);
    CHECK_FALSE(world.exists("logs/c1/turn-2.json"));
    REQUIRE(undoLastTurn(world, conversation).ok());
    CHECK(storyFiles(world) == startWorld().files());
    CHECK(undoLastTurn(world, conversation).kind == WorldErrorKind::Missing);
}

TEST_CASE("story conversation: a branch starts with the world as it was at that message") {
    MemoryWorldFiles world = startWorld();
    Conversation main{"c1", "", "", 0, {}};
    REQUIRE(recordTurn(world, main,
                       playTurn(world, "one", {{"write_file", R"({"path": "a.md", "content": "A"})"}}), {})
                .ok());
    const WorldFileMap afterOne = storyFiles(world);
    REQUIRE(recordTurn(world, main,
                       playTurn(world, "two", {{"write_file", R"({"path": "a.md", "content": "AA"})"}}), {})
                .ok());
    REQUIRE(recordTurn(world, main,
                       playTurn(world, "three", {{"write_file", R"({"path": "c.md", "content": "C"})"}}), {})
                .ok());

    llm::Result<Conversation> branch = branchConversation(world, main, {1, true}, newConversationId(world));
    REQUIRE_MESSAGE(branch.isOk(), branch.error);
    CHECK(branch.value->id == "c2");
    CHECK(branch.value->turns.size() == 1);
    CHECK(branch.value->branchedFrom == "c1");
    CHECK(storyFiles(world) == afterOne);
    CHECK(listConversations(world) == std::vector<std::string>{"c1", "c2"});
    CHECK(loadConversation(world, "c1").value->turns.size() == 3); // the source is kept

    CHECK_FALSE(branchConversation(world, main, {9, true}, "c3").isOk());
    CHECK_FALSE(branchConversation(world, main, {1, true}, "c2").isOk());
}

TEST_CASE("story conversation: a branch from a player message leaves out that turn") {
    MemoryWorldFiles world = startWorld();
    Conversation main{"c1", "", "", 0, {}};
    REQUIRE(recordTurn(world, main,
                       playTurn(world, "one", {{"write_file", R"({"path": "a.md", "content": "A"})"}}), {})
                .ok());
    llm::Result<Conversation> branch = branchConversation(world, main, {1, false}, "alt");
    REQUIRE(branch.isOk());
    CHECK(branch.value->turns.empty());
    CHECK(storyFiles(world) == startWorld().files());
}

TEST_CASE("story conversation: export and import carry a world with conversations and images") {
    MemoryWorldFiles world = startWorld();
    REQUIRE(world.write("images/x.png", std::string("\x89PNG\0\xff", 6)).ok());
    Conversation conversation{"c1", "", "", 0, {}};
    REQUIRE(recordTurn(world, conversation,
                       playTurn(world, "one", {{"write_file", R"({"path": "a.md", "content": "A"})"}}), {})
                .ok());
    llm::Result<std::string> archive = exportWorld(world);
    REQUIRE_MESSAGE(archive.isOk(), archive.error);
    MemoryWorldFiles copy;
    REQUIRE(importWorld(*archive.value, copy).ok());
    CHECK(copy.files() == world.files());
    // A second import into a world that is not empty is refused.
    CHECK(importWorld(*archive.value, copy).message.find("not empty") != std::string::npos);
}

TEST_CASE("story conversation: bad archives and conversations are refused with a reason, nothing written") {
    struct Case {
        const char* name;
        std::string archive;
        const char* says;
    };
    const Case cases[] = {
        {"not json", "{", "not JSON"},
        {"other format", R"({"format": "zip", "version": 1, "files": {}})", "not a CHAIBA"},
        {"bad version", R"({"format": "chaiba-story-world", "version": 9, "files": {}})", "version"},
        {"escaping path", R"({"format": "chaiba-story-world", "version": 1, "files": {"../x.md": "x"}})",
         "'..'"},
        {"image not base64",
         R"({"format": "chaiba-story-world", "version": 1, "files": {"a.md": "ok", "images/a.png": "raw"}})",
         "base64"},
        {"broken conversation",
         R"({"format": "chaiba-story-world", "version": 1, "files": {"conversations/c1.json": "{}"}})",
         "conversations/c1.json"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.name);
        MemoryWorldFiles into;
        const WorldError error = importWorld(c.archive, into);
        CHECK_FALSE(error.ok());
        CHECK(error.message.find(c.says) != std::string::npos);
        CHECK(into.files().empty());
    }
    CHECK_FALSE(
        conversationFromJson(
            R"({"format": "chaiba-story-conversation", "version": 1, "id": "c1", "turns": [{"number": 1, "entries": [{"kind": "shout", "agent": "narrator", "text": ""}], "changes": []}]})")
            .isOk());
    CHECK_FALSE(loadConversation(MemoryWorldFiles(), "../x").isOk());
}
