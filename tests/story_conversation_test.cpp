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

namespace {

// A world whose writes fail for paths starting with `failPrefix` (a full disk, a refused store).
class FailingWorld final : public WorldFiles {
public:
    explicit FailingWorld(MemoryWorldFiles& inner) : inner_(inner) {}
    std::string failPrefix = "never/";
    std::vector<std::string> list() const override { return inner_.list(); }
    ReadResult read(std::string_view path) const override { return inner_.read(path); }
    WorldError write(std::string_view path, std::string_view content) override {
        if (path.rfind(failPrefix, 0) == 0) return WorldError::make(WorldErrorKind::Io, std::string(path) + ": disk full");
        return inner_.write(path, content);
    }
    WorldError remove(std::string_view path) override { return inner_.remove(path); }

private:
    MemoryWorldFiles& inner_;
};

std::string lore(int turn) {
    std::string text = "# The salt marsh\n";
    for (int line = 0; text.size() < 22000; ++line)
        text += "Line " + std::to_string(line) + " of the lore, as it stood at turn " +
                std::to_string(line % 7 == 0 ? turn : 0) + ".\n";
    return text;
}

} // namespace

// The campaign that died at ~100 turns: every turn's before/after text sat in one conversation
// file capped at 1 MiB (with a 22 KB lore file edited each turn, from turn 21). Each turn is now a
// file of its own and a large content a stored version: 300 such turns are kept, load back exactly,
// and the head stays small; undo still restores the lore exactly.
TEST_CASE("story conversation: a 300-turn campaign editing a 22 KB lore file each turn is kept whole") {
    MemoryWorldFiles world({{"lore.md", lore(0)}});
    Conversation conversation{"long", "", "", 0, {}};
    for (int t = 1; t <= 300; ++t) {
        TurnRecord turn;
        turn.entries.push_back({EntryKind::Player, AgentKind::Narrator, "turn " + std::to_string(t), {}, {}, false, std::nullopt});
        turn.entries.push_back({EntryKind::Narrator, AgentKind::Narrator, std::string(1500, 'n'), {}, {}, false, std::nullopt});
        const std::string before = world.read("lore.md").content;
        const std::string after = lore(t);
        REQUIRE(world.write("lore.md", after).ok());
        turn.changes.record({"lore.md", before, after});
        const WorldError saved = recordTurn(world, conversation, turn, TurnLog{});
        REQUIRE_MESSAGE(saved.ok(), "turn " << t << ": " << saved.message);
    }
    CHECK(world.read("conversations/long.json").content.size() < 8192);
    llm::Result<Conversation> loaded = loadConversation(world, "long");
    REQUIRE_MESSAGE(loaded.isOk(), loaded.error);
    REQUIRE(loaded.value->turns.size() == 300);
    CHECK(conversationToJson(*loaded.value) == conversationToJson(conversation));
    CHECK(*loaded.value->turns[149].changes.changes()[0].after == lore(150));
    REQUIRE(undoLastTurn(world, conversation).ok());
    CHECK(world.read("lore.md").content == lore(299));
    CHECK(loadConversation(world, "long").value->turns.size() == 299);
}

TEST_CASE("story conversation: an older build's conversation (every turn in one file) loads and moves over at its next save") {
    MemoryWorldFiles world = startWorld();
    Conversation old{"c1", "", "", 0, {}};
    TurnRecord first = playTurn(world, "one", {{"write_file", R"({"path": "a.md", "content": "A"})"}});
    first.number = 1;
    old.turns.push_back(first);
    REQUIRE(world.write("conversations/c1.json", conversationToJson(old)).ok()); // version 2, as stored before
    llm::Result<Conversation> loaded = loadConversation(world, "c1");
    REQUIRE_MESSAGE(loaded.isOk(), loaded.error);
    REQUIRE(loaded.value->turns.size() == 1);
    Conversation conversation = *loaded.value;
    REQUIRE(recordTurn(world, conversation, playTurn(world, "two", {{"write_file", R"({"path": "b.md", "content": "B"})"}}), {})
                .ok());
    CHECK(world.read("conversations/c1.json").content.find("\"turnFiles\"") != std::string::npos);
    CHECK(world.exists("conversations/c1/turn-1.json"));
    CHECK(world.exists("conversations/c1/turn-2.json"));
    llm::Result<Conversation> again = loadConversation(world, "c1");
    REQUIRE_MESSAGE(again.isOk(), again.error);
    CHECK(again.value->turns.size() == 2);
    CHECK(again.value->turns[0].playerText() == "one");
}

// A turn that cannot be saved is not kept: it leaves the conversation and its file edits are
// undone (they used to stay as orphans while the page showed the turn as played).
TEST_CASE("story conversation: a turn that cannot be saved leaves no edit behind") {
    MemoryWorldFiles inner = startWorld();
    FailingWorld world(inner);
    Conversation conversation{"c1", "", "", 0, {}};
    REQUIRE(recordTurn(world, conversation, playTurn(inner, "one", {{"write_file", R"({"path": "a.md", "content": "A"})"}}), {})
                .ok());
    const WorldFileMap afterOne = storyFiles(inner);
    world.failPrefix = "conversations/c1/turn-2";
    TurnRecord second = playTurn(inner, "two", {{"edit_file", R"({"path": "a.md", "old_string": "A", "new_string": "B"})"},
                                               {"write_file", R"({"path": "c.md", "content": "C"})"}});
    const WorldError error = recordTurn(world, conversation, second, {});
    CHECK_FALSE(error.ok());
    CHECK(error.message.find("not kept") != std::string::npos);
    CHECK(error.message.find("as it was") != std::string::npos);
    CHECK(conversation.turns.size() == 1);
    CHECK(storyFiles(inner) == afterOne);
    CHECK(loadConversation(world, "c1").value->turns.size() == 1);
}

// An agent log over the file limit (a long narration, huge tool results) no longer turns a saved
// turn into an error: the log is kept with its longest texts cut, and says so.
TEST_CASE("story conversation: an agent log over 1 MiB is cut to fit and the turn is saved") {
    MemoryWorldFiles world = startWorld();
    Conversation conversation{"c1", "", "", 0, {}};
    TurnLog log;
    for (int i = 0; i < 8; ++i) {
        AgentStep step;
        step.output = std::string(300000, 'x');
        log.steps.push_back(step);
    }
    std::string problem;
    REQUIRE(recordTurn(world, conversation, playTurn(world, "one", {}), log, &problem).ok());
    CHECK(problem.empty());
    const ReadResult stored = world.read("logs/c1/turn-1.json");
    REQUIRE(stored.ok());
    CHECK(stored.content.size() <= kMaxWorldFileBytes);
    llm::Result<TurnLog> back = turnLogFromJson(stored.content);
    REQUIRE_MESSAGE(back.isOk(), back.error);
    CHECK(back.value->steps.size() == 8);
    CHECK(back.value->notes.back().find("cut") != std::string::npos);
}
