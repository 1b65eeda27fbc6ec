// Story conversations: JSON round trips, undo of a turn (transcript and files together), a branch
// with the world as it was, export and import of a whole world, and refusals of bad input.
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/disk_world_files.h"
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
    Conversation conversation{"c1", "", "", 0, {}, {}, 0};
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
    Conversation conversation{"c1", "", "", 0, {}, {}, 0};
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
    CHECK(loadConversation(world, "c1").value->redoable == 1); // turn 2's records kept for Redo
    REQUIRE(undoLastTurn(world, conversation).ok());
    CHECK(storyFiles(world) == startWorld().files());
    CHECK(undoLastTurn(world, conversation).kind == WorldErrorKind::Missing);
}

TEST_CASE("story conversation: a branch starts with the world as it was at that message") {
    MemoryWorldFiles world = startWorld();
    Conversation main{"c1", "", "", 0, {}, {}, 0};
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
    Conversation main{"c1", "", "", 0, {}, {}, 0};
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
    Conversation conversation{"c1", "", "", 0, {}, {}, 0};
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
        // A format that is not text ended the program (json's value() with JSON_NOEXCEPTION).
        {"format not text", R"({"format": 1, "version": 1, "files": {}})", "not a CHAIBA"},
        {"turn count not a number",
         R"({"format": "chaiba-story-world", "version": 1, "files": {"conversations/c1.json": "{\"format\": \"chaiba-story-conversation\", \"version\": 5, \"id\": \"c1\", \"turnCount\": \"x\"}"}})",
         "conversation.turnCount must be an integer"},
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
    // Every malformed part says where it is, the first one found (the reading never throws: the page
    // cannot catch a C++ exception there).
    const std::string head = R"({"format": "chaiba-story-conversation", "version": 2, "id": "c1", "turns": )";
    const std::pair<std::string, std::string> malformed[] = {
        {R"([7])", "turns[0] must be an object"},
        {R"([{"number": 1, "kind": "play", "entries": 3, "changes": []}])", "turns[0].entries must be an array"},
        {R"([{"number": 1, "kind": "play", "entries": [{"kind": "dice", "agent": "narrator", "text": "", "twist": {"bands": [], "roll": 5, "hit": 0}}], "changes": []}])",
         "turns[0].entries[0].twist.bands must not be empty"},
        {R"([{"number": 1, "kind": "play", "entries": [{"kind": "tool_call", "agent": "narrator", "text": "", "tool": "x", "arguments": "{}", "error": "yes"}], "changes": [{"path": 4}]}])",
         "turns[0].changes[0].path must be a string"},
        {R"([{"number": 1, "kind": "play", "entries": [], "changes": [], "summary": 3}])", "turns[0].summary lacks 'text'"},
        {R"([{"number": 1, "kind": "play", "entries": [], "changes": [], "answers": [1], "shown": 0}])",
         "turns[0].answers[0] must be an object"},
    };
    for (const auto& [turns, says] : malformed) {
        CAPTURE(turns);
        const chaiba::llm::Result<Conversation> read = conversationFromJson(head + turns + "}");
        CHECK_FALSE(read.isOk());
        CHECK(read.error == says);
    }
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
    Conversation conversation{"long", "", "", 0, {}, {}, 0};
    for (int t = 1; t <= 300; ++t) {
        TurnRecord turn;
        turn.entries.push_back({EntryKind::Player, AgentKind::Narrator, "turn " + std::to_string(t), {}, {}, false, std::nullopt});
        turn.entries.push_back({EntryKind::Narrator, AgentKind::Narrator, std::string(1500, 'n'), {}, {}, false, std::nullopt});
        const std::string before = world.read("lore.md").content;
        const std::string after = lore(t);
        REQUIRE(world.write("lore.md", after).ok());
        turn.changes.record("lore.md", before, after);
        const WorldError saved = recordTurn(world, conversation, turn, TurnLog{});
        REQUIRE_MESSAGE(saved.ok(), "turn " << t << ": " << saved.message);
    }
    CHECK(world.read("conversations/long.json").content.size() < 8192);
    llm::Result<Conversation> loaded = loadConversation(world, "long");
    REQUIRE_MESSAGE(loaded.isOk(), loaded.error);
    REQUIRE(loaded.value->turns.size() == 300);
    CHECK(conversationToJson(*loaded.value) == conversationToJson(conversation));
    CHECK(*loaded.value->turns[149].changes.changes()[0].after == stampOf(lore(150)));
    REQUIRE(undoLastTurn(world, conversation).ok());
    CHECK(world.read("lore.md").content == lore(299));
    CHECK(loadConversation(world, "long").value->turns.size() == 299);
}

TEST_CASE("story conversation: an older build's conversation (every turn in one file) loads and moves over at its next save") {
    MemoryWorldFiles world = startWorld();
    REQUIRE(world.write("a.md", "A").ok());
    // Version 2, as builds before the turn files stored it: whole contents inside.
    REQUIRE(world.write("conversations/c1.json", R"({"format": "chaiba-story-conversation", "version": 2, "id": "c1",
      "title": "one", "branchedFrom": "", "branchedAtTurn": 0,
      "turns": [{"number": 1, "kind": "play", "costUsd": 0.01, "changes": [{"path": "a.md", "before": null, "after": "A"}],
                 "entries": [{"kind": "player", "agent": "narrator", "text": "one"}]}]})").ok());
    llm::Result<Conversation> loaded = loadConversation(world, "c1");
    REQUIRE_MESSAGE(loaded.isOk(), loaded.error);
    REQUIRE(loaded.value->turns.size() == 1);
    CHECK(loaded.value->migrationNote.find("format 2") != std::string::npos);
    Conversation conversation = *loaded.value;
    REQUIRE(recordTurn(world, conversation, playTurn(world, "two", {{"write_file", R"({"path": "b.md", "content": "B"})"}}), {})
                .ok());
    CHECK(world.read("conversations/c1.json").content.find("\"turnCount\"") != std::string::npos);
    CHECK(world.exists("conversations/c1/turn-1.json"));
    CHECK(world.exists("conversations/c1/turn-2.json"));
    llm::Result<Conversation> again = loadConversation(world, "c1");
    REQUIRE_MESSAGE(again.isOk(), again.error);
    CHECK(again.value->turns.size() == 2);
    CHECK(again.value->turns[0].playerText() == "one");
    // Its first turn's change, made a patch, still undoes.
    Conversation back = *again.value;
    REQUIRE(undoLastTurn(world, back).ok());
    REQUIRE(undoLastTurn(world, back).ok());
    CHECK(world.read("a.md").missing());
}

// A turn that cannot be saved is not kept: it leaves the conversation and its file edits are
// undone (they used to stay as orphans while the page showed the turn as played).
TEST_CASE("story conversation: a turn that cannot be saved leaves no edit behind") {
    MemoryWorldFiles inner = startWorld();
    FailingWorld world(inner);
    Conversation conversation{"c1", "", "", 0, {}, {}, 0};
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
    Conversation conversation{"c1", "", "", 0, {}, {}, 0};
    TurnLog log;
    for (int i = 0; i < 8; ++i) {
        AgentStep step;
        step.output = std::string(300000, 'x');
        log.steps.push_back(step);
    }
    REQUIRE(recordTurn(world, conversation, playTurn(world, "one", {}), log).ok());
    const ReadResult stored = world.read("logs/c1/turn-1.json");
    REQUIRE(stored.ok());
    CHECK(stored.content.size() <= kMaxWorldFileBytes);
    llm::Result<TurnLog> back = turnLogFromJson(stored.content);
    REQUIRE_MESSAGE(back.isOk(), back.error);
    CHECK(back.value->steps.size() == 8);
    CHECK(back.value->notes.back().find("cut") != std::string::npos);
}

namespace {

// A 22 KB lore file as a game master edits it: one line rewritten and one appended per turn.
std::string growingLore(int turn) {
    std::string text = "# The salt marsh\n\n";
    for (int line = 0; text.size() < 22000; ++line)
        text += "Line " + std::to_string(line) + " of the lore" +
                (line == turn % 300 ? ", rewritten at turn " + std::to_string(turn) : std::string()) + ".\n";
    for (int t = 1; t <= turn; ++t) text += "Turn " + std::to_string(t) + ": the tide came in.\n";
    return text;
}

TurnRecord loreTurn(WorldFiles& world, int t) {
    TurnRecord turn;
    turn.entries.push_back({EntryKind::Player, AgentKind::Narrator, "turn " + std::to_string(t), {}, {}, false, std::nullopt});
    turn.entries.push_back({EntryKind::Narrator, AgentKind::Narrator, "The tide, again.", {}, {}, false, std::nullopt});
    const std::string before = world.read("lore.md").content;
    REQUIRE(world.write("lore.md", growingLore(t)).ok());
    turn.changes.record("lore.md", before, growingLore(t));
    return turn;
}

std::size_t storedBytes(const MemoryWorldFiles& world, const std::string& prefix) {
    std::size_t total = 0;
    for (const auto& [path, content] : world.files())
        if (path.rfind(prefix, 0) == 0) total += content.size();
    return total;
}

} // namespace

// Durable turns: a turn is one record holding its changes as patches, never the file's texts (a
// 22 KB file edited each turn cost 44 KB a turn before, in stored versions); the head stays the
// same size; undo walks the patches back to the first text exactly, and a branch from the middle
// has the world of that turn.
TEST_CASE("durable turns: 150 turns editing a 22 KB lore file each commit as patch-sized records") {
    MemoryWorldFiles world({{"lore.md", growingLore(0)}});
    Conversation conversation{"long", "", "", 0, {}, {}, 0};
    std::size_t headBytes = 0;
    for (int t = 1; t <= 150; ++t) {
        const WorldError saved = recordTurn(world, conversation, loreTurn(world, t), TurnLog{});
        REQUIRE_MESSAGE(saved.ok(), "turn " << t << ": " << saved.message);
        const std::size_t record = world.read("conversations/long/turn-" + std::to_string(t) + ".json").content.size();
        CHECK_MESSAGE(record < 3000, "turn " << t << " stored " << record << " bytes");
        const std::size_t head = world.read("conversations/long.json").content.size();
        if (t == 10) headBytes = head;
        if (t > 10) CHECK(head <= headBytes + 2); // the count's digits only
    }
    CHECK(storedBytes(world, "conversations/versions/") == 0);
    CHECK(storedBytes(world, "conversations/") < 150 * 3000);
    // Loaded back: every turn, and no whole text in memory (the stamps and the patch only).
    llm::Result<Conversation> loaded = loadConversation(world, "long");
    REQUIRE_MESSAGE(loaded.isOk(), loaded.error);
    REQUIRE(loaded.value->turns.size() == 150);
    CHECK(loaded.value->migrationNote.empty());
    const FileChange& change = loaded.value->turns[99].changes.changes().at(0);
    CHECK(*change.after == stampOf(growingLore(100)));
    CHECK_FALSE(change.afterBytes.has_value());
    CHECK(conversationToJson(*loaded.value) == conversationToJson(conversation));
    // A branch from turn 75: the world as it was then; the source keeps its 150 turns.
    llm::Result<Conversation> branch = branchConversation(world, *loaded.value, {75, true}, "mid");
    REQUIRE_MESSAGE(branch.isOk(), branch.error);
    CHECK(world.read("lore.md").content == growingLore(75));
    REQUIRE(switchWorld(world, *branch.value, *loaded.value).ok());
    CHECK(world.read("lore.md").content == growingLore(150));
    // Undo all the way: the first text, exactly.
    Conversation undoing = *loaded.value;
    while (!undoing.turns.empty()) REQUIRE(undoLastTurn(world, undoing).ok());
    CHECK(world.read("lore.md").content == growingLore(0));
    CHECK(loadConversation(world, "long").value->turns.empty());
}

// A turn whose commit (the head) fails is not kept: no orphan record, no orphan edit.
TEST_CASE("durable turns: a turn whose head cannot be written leaves the world and the conversation as before") {
    MemoryWorldFiles inner({{"lore.md", growingLore(0)}});
    FailingWorld world(inner);
    Conversation conversation{"c1", "", "", 0, {}, {}, 0};
    REQUIRE(recordTurn(world, conversation, loreTurn(inner, 1), TurnLog{}).ok());
    world.failPrefix = "conversations/c1.json";
    const WorldError error = recordTurn(world, conversation, loreTurn(inner, 2), TurnLog{});
    CHECK_FALSE(error.ok());
    CHECK(error.message.find("not kept") != std::string::npos);
    CHECK(inner.read("lore.md").content == growingLore(1));
    CHECK(conversation.turns.size() == 1);
    CHECK(inner.read("conversations/c1/turn-2.json").missing());
    CHECK(inner.read("logs/c1/turn-2.json").missing());
    CHECK(loadConversation(inner, "c1").value->turns.size() == 1);
}

// Format 3 as the previous build wrote it (tests/data/story_format3: a head listing three turns,
// a 3 KB lore file's contents as stored versions, a file created at turn 2): it loads with a note,
// moves to format 4, and undo still takes the world back to before turn 1 exactly.
TEST_CASE("durable turns: a format 3 conversation of the previous build loads, migrates with a note, and undoes exactly") {
    DiskWorldFiles fixture(std::string(CHAIBA_SOURCE_DIR) + "/tests/data/story_format3");
    MemoryWorldFiles world;
    for (const std::string& path : fixture.list()) REQUIRE(world.write(path, fixture.read(path).content).ok());
    REQUIRE(world.files().size() == 14);
    llm::Result<Conversation> old = loadConversation(world, "old");
    REQUIRE_MESSAGE(old.isOk(), old.error);
    CHECK(old.value->migrationNote.find("older build (format 3)") != std::string::npos);
    REQUIRE(old.value->turns.size() == 3);
    CHECK(old.value->turns[1].changes.touchedPaths() == std::vector<std::string>{"lore.md", "NPCs/osric.md"});
    CHECK(old.value->turns[2].costUsd == doctest::Approx(0.003));
    Conversation conversation = *old.value;
    REQUIRE(migrateConversation(world, conversation).ok());
    CHECK(conversation.migrationNote.empty());
    CHECK(world.read("conversations/old.json").content.find("\"turnCount\": 3") != std::string::npos);
    llm::Result<Conversation> moved = loadConversation(world, "old");
    REQUIRE_MESSAGE(moved.isOk(), moved.error);
    CHECK(moved.value->migrationNote.empty());
    CHECK(conversationToJson(*moved.value) == conversationToJson(*old.value));
    // Turn 1's before, as format 3 stored it whole.
    const std::string firstLore = world.read("conversations/versions/e1e875575017fcdc-3043.md").content;
    REQUIRE(stampOf(firstLore) == *old.value->turns[0].changes.changes()[0].before);
    while (!conversation.turns.empty()) REQUIRE(undoLastTurn(world, conversation).ok());
    CHECK(world.read("lore.md").content == firstLore);
    CHECK(world.read("NPCs/osric.md").missing());
}

TEST_CASE("text patch: forward and back exactly, newlines kept, edits elsewhere kept, edits in its lines refused") {
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"", "a\n"}, {"a", "a\n"}, {"\n", ""}, {"a\nb\nc\n", "a\nB\nc\n"}, {"x\n\n\ny", "x\n\ny\nz"},
        {"one\ntwo\nthree\nfour\nfive\nsix\nseven\n", "zero\none\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n"}};
    for (const auto& [before, after] : pairs) {
        const TextPatch patch = makePatch(before, after);
        CHECK(applyPatch(before, patch, true).value_or("<none>") == after);
        CHECK(applyPatch(after, patch, false).value_or("<none>") == before);
    }
    std::string text;
    for (int i = 0; i < 40; ++i) text += "line " + std::to_string(i) + "\n";
    std::string changed = text;
    changed.replace(changed.find("line 30\n"), 8, "line thirty\n");
    const TextPatch patch = makePatch(text, changed);
    CHECK(unifiedPatch(patch).find("- line 30\n+ line thirty\n") != std::string::npos);
    // A line added by hand at the top since: undo still finds the turn's lines, and keeps it.
    CHECK(applyPatch("by hand\n" + changed, patch, false).value_or("<none>") == "by hand\n" + text);
    // The turn's own line edited by hand since: refused.
    std::string clash = changed;
    clash.replace(clash.find("line thirty"), 11, "line 3O");
    CHECK_FALSE(applyPatch(clash, patch, false).has_value());
}

TEST_CASE("story conversation: an import that cannot be saved takes its files away again") {
    MemoryWorldFiles inner({{"config.yaml", "setting: s\ntone: t\n"}});
    FailingWorld world(inner);
    Conversation story;
    story.id = "main";
    const std::vector<std::pair<std::string, std::string>> added{{"lore/a.md", "# A\n"}, {"lore/b.md", "# B\n"}};
    for (const auto& [path, content] : added) REQUIRE(world.write(path, content).ok());
    world.failPrefix = "conversations/"; // the turn's record cannot be written
    const WorldError error = recordPersonImport(world, story, added, "You imported the lorebook \"AB\": 2 keyed file(s)");
    CHECK_FALSE(error.ok());
    CHECK(error.message.find("the import: ") == 0);
    CHECK(story.turns.empty());
    CHECK_FALSE(inner.exists("lore/a.md"));
    CHECK_FALSE(inner.exists("lore/b.md"));
    CHECK(inner.exists("config.yaml"));
}
