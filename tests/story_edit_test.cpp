// A person's edit of a world file joins a Story conversation's history at once: an edit turn with
// its diff, undone on its own, kept across a reload (save and load), respected by branching; the
// line diff itself; and conversations of version 1 (before edit turns) still load.
#include "src/modes/story/agent_log.h"
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/text_diff.h"

#include <doctest/doctest.h>

using namespace chaiba;
using namespace chaiba::story;

namespace {

// A play turn as the turn engine records it: the player's line, a reply, and one file change.
TurnRecord playTurn(WorldFiles& files, const std::string& say, const std::string& path, const std::string& text) {
    TurnRecord turn;
    turn.entries.push_back({EntryKind::Player, AgentKind::Narrator, say, {}, {}, false, std::nullopt});
    turn.entries.push_back({EntryKind::Narrator, AgentKind::Narrator, "Reply to " + say, {}, {}, false, std::nullopt});
    const ReadResult before = files.read(path);
    turn.changes.record(path, before.ok() ? std::optional<std::string>(before.content) : std::nullopt, text);
    REQUIRE(files.write(path, text).ok());
    return turn;
}

Conversation emptyConversation(const char* id) {
    Conversation conversation;
    conversation.id = id;
    return conversation;
}

// "main": a play turn (a.md), a person's edit of a.md (turn 2), a play turn creating c.md.
Conversation playEditPlay(MemoryWorldFiles& files) {
    REQUIRE(files.write("a.md", "start\n").ok());
    Conversation main = emptyConversation("main");
    REQUIRE(recordTurn(files, main, playTurn(files, "first", "a.md", "after turn 1\n"), TurnLog{}).ok());
    REQUIRE(recordPersonEdit(files, main, "a.md", "after turn 1\nedited by hand\n").ok());
    REQUIRE(recordTurn(files, main, playTurn(files, "third", "c.md", "turn 3\n"), TurnLog{}).ok());
    return main;
}

std::string contentOf(const WorldFiles& files, const std::string& path) {
    const ReadResult read = files.read(path);
    return read.ok() ? read.content : "<missing>";
}

} // namespace

TEST_CASE("text diff: kept, removed and added lines, counts and the folded unified form") {
    const std::vector<DiffLine> lines = diffLines("a\nb\nc\nd\n", "a\nB\nc\nd\ne\n");
    REQUIRE(lines.size() == 6);
    CHECK(lines[0].op == DiffOp::Keep);
    CHECK(lines[1].op == DiffOp::Remove);
    CHECK(lines[1].text == "b");
    CHECK(lines[2].op == DiffOp::Add);
    CHECK(lines[2].text == "B");
    CHECK(lines[5].op == DiffOp::Add);
    CHECK(lines[5].text == "e");
    CHECK(countDiff(lines).added == 2);
    CHECK(countDiff(lines).removed == 1);
    CHECK(unifiedDiff(diffLines("same\n", "same\n")).empty());
    // Far from any change, kept lines fold to one "…" line per run.
    std::string before;
    for (int i = 0; i < 20; ++i) before += "line " + std::to_string(i) + "\n";
    std::string after = before;
    after.replace(after.find("line 10"), 7, "LINE 10");
    const std::string unified = unifiedDiff(diffLines(before, after), 1);
    CHECK(unified == "  \xE2\x80\xA6\n  line 9\n- line 10\n+ LINE 10\n  line 11\n  \xE2\x80\xA6\n");
    // A new file: every line added.
    CHECK(countDiff(diffLines("", "x\ny\n")).added == 2);
}

TEST_CASE("person edit: joins the history at once, with its diff, entry and agent log") {
    MemoryWorldFiles files;
    REQUIRE(files.write("NPCs/mira.md", "# Mira\n\nA lamplighter.\n").ok());
    Conversation conversation = emptyConversation("main");
    REQUIRE(recordTurn(files, conversation, playTurn(files, "I look around", "factions.md", "# Factions\n"), TurnLog{}).ok());
    bool recorded = false;
    REQUIRE(recordPersonEdit(files, conversation, "NPCs/mira.md", "# Mira\n\nA lamplighter.\nShe owes the Guild.\n", &recorded).ok());
    CHECK(recorded);
    CHECK(contentOf(files, "NPCs/mira.md") == "# Mira\n\nA lamplighter.\nShe owes the Guild.\n");
    REQUIRE(conversation.turns.size() == 2);
    const TurnRecord& edit = conversation.turns.back();
    CHECK(edit.kind == TurnKind::Edit);
    CHECK(edit.number == 2);
    REQUIRE(edit.entries.size() == 1);
    CHECK(edit.entries[0].kind == EntryKind::Edit);
    CHECK(edit.entries[0].agent == AgentKind::Person);
    CHECK(edit.entries[0].text == "You edited NPCs/mira.md (+1 \xE2\x88\x92" "0 lines)");
    CHECK(edit.playerText().empty());
    CHECK(editTurnDiff(edit).find("+ She owes the Guild.") != std::string::npos);
    // Saved at once: a reload (load from the files) has the edit turn.
    llm::Result<Conversation> loaded = loadConversation(files, "main");
    REQUIRE(loaded.isOk());
    REQUIRE(loaded.value->turns.size() == 2);
    CHECK(loaded.value->turns[1].kind == TurnKind::Edit);
    CHECK(loaded.value->turns[1].changes.changes().size() == 1);
    CHECK(loaded.value->turns[0].kind == TurnKind::Play);
    // Its agent log holds the diff, as a step by the person.
    const ReadResult logText = files.read(turnLogPath("main", 2));
    REQUIRE(logText.ok());
    llm::Result<TurnLog> log = turnLogFromJson(logText.content);
    REQUIRE(log.isOk());
    REQUIRE(log.value->steps.size() == 1);
    CHECK(log.value->steps[0].agent == AgentKind::Person);
    CHECK(log.value->steps[0].label == "NPCs/mira.md");
    CHECK(log.value->steps[0].output.find("+ She owes the Guild.") != std::string::npos);
    // An unchanged save records nothing; a new file is "created".
    REQUIRE(recordPersonEdit(files, conversation, "NPCs/mira.md", contentOf(files, "NPCs/mira.md"), &recorded).ok());
    CHECK_FALSE(recorded);
    CHECK(conversation.turns.size() == 2);
    REQUIRE(recordPersonEdit(files, conversation, "NPCs/new.md", "# New\n", &recorded).ok());
    CHECK(conversation.turns.back().entries[0].text.rfind("You created NPCs/new.md", 0) == 0);
    // Conversations and logs are not edited by hand.
    CHECK_FALSE(recordPersonEdit(files, conversation, "conversations/main.json", "{}", &recorded).ok());
    CHECK_FALSE(recordPersonEdit(files, conversation, "logs/main/turn-1.json", "{}", &recorded).ok());
    CHECK_FALSE(recorded);
    CHECK(conversation.turns.size() == 3);
}

TEST_CASE("person edit: undone on its own like a turn, the turn before it untouched") {
    MemoryWorldFiles files;
    REQUIRE(files.write("a.md", "one\n").ok());
    Conversation conversation = emptyConversation("main");
    REQUIRE(recordTurn(files, conversation, playTurn(files, "go", "a.md", "two\n"), TurnLog{}).ok());
    REQUIRE(recordPersonEdit(files, conversation, "a.md", "two, by hand\n").ok());
    REQUIRE(recordPersonEdit(files, conversation, "b.md", "new by hand\n").ok());
    REQUIRE(undoLastTurn(files, conversation).ok());
    CHECK(files.read("b.md").missing());
    CHECK(contentOf(files, "a.md") == "two, by hand\n");
    REQUIRE(undoLastTurn(files, conversation).ok());
    CHECK(contentOf(files, "a.md") == "two\n"); // the play turn's change stays
    REQUIRE(conversation.turns.size() == 1);
    CHECK(conversation.turns[0].kind == TurnKind::Play);
    CHECK(files.read(turnLogPath("main", 2)).ok()); // kept for Redo until a new turn
    llm::Result<Conversation> loaded = loadConversation(files, "main");
    REQUIRE(loaded.isOk());
    CHECK(loaded.value->turns.size() == 1);
    CHECK(loaded.value->redoable == 2);
}

TEST_CASE("person edit: a branch from before the edit has the world without it, from after with it") {
    MemoryWorldFiles files;
    Conversation main = playEditPlay(files);
    // Before the edit (turn 2, its "message" left out): the world as after turn 1.
    llm::Result<Conversation> before = branchConversation(files, main, {2, false}, "c1");
    REQUIRE(before.isOk());
    CHECK(before.value->turns.size() == 1);
    CHECK(contentOf(files, "a.md") == "after turn 1\n");
    CHECK(files.read("c.md").missing());
    // Back to the end of main, then a branch just after the edit.
    REQUIRE(switchWorld(files, *before.value, main).ok());
    llm::Result<Conversation> after = branchConversation(files, main, {2, true}, "c2");
    REQUIRE(after.isOk());
    REQUIRE(after.value->turns.size() == 2);
    CHECK(after.value->turns[1].kind == TurnKind::Edit);
    CHECK(contentOf(files, "a.md") == "after turn 1\nedited by hand\n");
    CHECK(files.read("c.md").missing());
}

TEST_CASE("conversation format: version 1 still loads (migrated to play turns), newer versions are refused") {
    // A conversation as builds before edit turns saved it: no turn kind, and the person's edit
    // folded into the next turn as a "person_edit" tool line.
    const std::string v1 = R"({"format": "chaiba-story-conversation", "version": 1, "id": "main", "title": "Old",
      "branchedFrom": "", "branchedAtTurn": 0,
      "turns": [{"number": 1, "costUsd": 0.01, "changes": [{"path": "a.md", "before": "x", "after": "y"}],
                 "entries": [{"kind": "player", "agent": "narrator", "text": "hello"},
                             {"kind": "tool_call", "agent": "narrator", "text": "You edited a.md", "tool": "person_edit", "arguments": "", "error": false},
                             {"kind": "narrator", "agent": "narrator", "text": "Hello back."}]}]})";
    llm::Result<Conversation> old = conversationFromJson(v1);
    REQUIRE_MESSAGE(old.isOk(), old.error);
    REQUIRE(old.value->turns.size() == 1);
    CHECK(old.value->turns[0].kind == TurnKind::Play);
    CHECK(old.value->turns[0].playerText() == "hello");
    CHECK(old.value->turns[0].entries[1].toolName == "person_edit");
    // Saved again it is the current version, and reads back the same.
    const std::string resaved = conversationToJson(*old.value);
    CHECK(resaved.find("\"version\": 5") != std::string::npos);
    llm::Result<Conversation> again = conversationFromJson(resaved);
    REQUIRE(again.isOk());
    CHECK(again.value->turns[0].kind == TurnKind::Play);
    CHECK(conversationToJson(*again.value) == resaved);
    // From version 2 on a turn needs its kind; a newer version says to update.
    std::string noKind = resaved;
    noKind.erase(noKind.find("\"kind\": \"play\""), std::string("\"kind\": \"play\",").size());
    CHECK_FALSE(conversationFromJson(noKind).isOk());
    std::string newer = resaved;
    newer.replace(newer.find("\"version\": 5"), 12, "\"version\": 6");
    llm::Result<Conversation> refused = conversationFromJson(newer);
    REQUIRE_FALSE(refused.isOk());
    CHECK(refused.error.find("newer") != std::string::npos);
}

TEST_CASE("switching conversations takes the world to the end of the one opened (branches and edits)") {
    MemoryWorldFiles files;
    Conversation main = playEditPlay(files);
    // A branch from before the edit, then a turn of its own there.
    llm::Result<Conversation> branched = branchConversation(files, main, {2, false}, "c1");
    REQUIRE(branched.isOk());
    Conversation c1 = *branched.value;
    REQUIRE(recordTurn(files, c1, playTurn(files, "elsewhere", "b.md", "only in c1\n"), TurnLog{}).ok());
    // Back to main: c1's own turn reverted, main's edit and turn 3 made again.
    REQUIRE(switchWorld(files, c1, main).ok());
    CHECK(contentOf(files, "a.md") == "after turn 1\nedited by hand\n");
    CHECK(contentOf(files, "c.md") == "turn 3\n");
    CHECK(files.read("b.md").missing());
    // And to c1 again.
    REQUIRE(switchWorld(files, main, c1).ok());
    CHECK(contentOf(files, "a.md") == "after turn 1\n");
    CHECK(contentOf(files, "b.md") == "only in c1\n");
    CHECK(files.read("c.md").missing());
    // The same conversation: nothing moves.
    REQUIRE(switchWorld(files, c1, c1).ok());
    CHECK(contentOf(files, "b.md") == "only in c1\n");
}
