// Story over a store that really lets go of released values, as the page's IndexedDB store does:
// agent logs leave memory once written, and every reader still gets them (the log panel's read,
// export, a world's copy, undo and redo, branch, continue, a deleted answer) through readLater.
#include "src/modes/story/agent_log.h"
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/kv_world_files.h"
#include "src/modes/story/turn_steering.h"
#include "src/modes/story/world_library.h"
#include "tests/fakes/cold_store.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

using namespace chaiba;
using namespace chaiba::story;

namespace {

using fakes::ColdStore;

// The agent logs whose values the store still holds in memory.
int heldLogs(const ColdStore& store) {
    int held = 0;
    for (const auto& [key, value] : store.data.values())
        if (key.find(".f.logs/") != std::string::npos && key.find("/turn-") != std::string::npos &&
            !store.released.count(key))
            ++held;
    return held;
}

bool stored(const ColdStore& store, const std::string& key) { return store.data.get(key).has_value(); }

std::string logKey(const std::string& conversation, int turn, int variant = 0) {
    return "story.v1.w.w.f." + turnLogPath(conversation, turn, variant);
}

TurnRecord playTurn(const std::string& say, const std::string& reply, const std::string& file = "",
                    const std::string& content = "", const std::optional<std::string>& before = std::nullopt) {
    TurnRecord turn;
    turn.entries.push_back({EntryKind::Player, AgentKind::Narrator, say, {}, {}, false, std::nullopt});
    turn.entries.push_back({EntryKind::Narrator, AgentKind::Narrator, reply, {}, {}, false, std::nullopt});
    if (!file.empty()) turn.changes.record(file, before, content);
    turn.costUsd = 0.01;
    return turn;
}

TurnLog logOf(const std::string& output) {
    TurnLog log;
    AgentStep step;
    step.model = "mock/narrator";
    step.output = output;
    log.steps.push_back(step);
    log.costUsd = 0.01;
    return log;
}

// Plays `count` turns, each writing notes/n.md (from "draft") and a log whose narrator said "reply <n>".
void play(KvWorldFiles& world, Conversation& conversation, int count) {
    for (int n = 1; n <= count; ++n) {
        const std::string path = "notes/" + std::to_string(n) + ".md";
        REQUIRE(world.write(path, "turn " + std::to_string(n)).ok()); // as the turn's tools left it
        REQUIRE(recordTurn(world, conversation,
                           playTurn("I act " + std::to_string(n), "reply " + std::to_string(n), path, "turn " + std::to_string(n),
                                    "draft"),
                           logOf("reply " + std::to_string(n)))
                    .ok());
    }
}

// A world in a cold store with `turns` turns played in conversation "main".
struct Campaign {
    ColdStore store;
    KvWorldFiles world{store, "w"};
    Conversation conversation{"main", "", "", 0, {}, {}, 0};
    explicit Campaign(int turns) { play(world, conversation, turns); }
};

// What readLater gives for one file, once the store answered.
ReadResult readBack(ColdStore& store, const WorldFiles& world, const std::string& path) {
    std::optional<ReadResult> out;
    world.readLater({path}, [&](std::vector<ReadResult> files) { out = files.at(0); });
    CHECK_FALSE(out.has_value()); // a released file is read from the store: later
    store.deliver();
    REQUIRE(out.has_value());
    return *out;
}

} // namespace

TEST_CASE("story release: agent logs leave memory once written, the log panel's read gets them back") {
    Campaign c(3);
    auto& [store, world, conversation] = c;
    // Every log is released; turn records, the head, the world's files and world-at stay.
    CHECK(heldLogs(store) == 0);
    CHECK(store.released.count(logKey("main", 2)) == 1);
    CHECK(store.released.count("story.v1.w.w.f." + turnRecordPath("main", 2)) == 0);
    CHECK(store.released.count("story.v1.w.w.f.notes/2.md") == 0);
    REQUIRE(setWorldAt(world, "main").ok());
    CHECK(worldAt(world) == std::optional<std::string>("main"));
    // read() says where the log is, and it still exists.
    const ReadResult now = world.read(turnLogPath("main", 2));
    CHECK(now.error.kind == WorldErrorKind::NotLoaded);
    CHECK(now.error.message.find("read back when shown") != std::string::npos);
    CHECK(world.exists(turnLogPath("main", 2)));
    CHECK(world.read(turnLogPath("main", 9)).missing()); // a log never written is missing
    // The panel's read: readLater, then the log parses as turn 2's.
    const ReadResult back = readBack(store, world, turnLogPath("main", 2));
    REQUIRE(back.ok());
    llm::Result<TurnLog> parsed = turnLogFromJson(back.content);
    REQUIRE(parsed.isOk());
    CHECK(parsed.value->turn == 2);
    REQUIRE(parsed.value->steps.size() == 1);
    CHECK(parsed.value->steps[0].output == "reply 2");
    // A missing log and a store that cannot be read answer with their reasons.
    CHECK(readBack(store, world, turnLogPath("main", 7)).missing());
    store.failReads = true;
    const ReadResult failed = readBack(store, world, turnLogPath("main", 1));
    CHECK(failed.error.kind == WorldErrorKind::Io);
    CHECK(failed.error.message.find("the disk is gone") != std::string::npos);
    // The conversation reloads whole (its turn records are in memory).
    llm::Result<Conversation> loaded = loadConversation(world, "main");
    REQUIRE(loaded.isOk());
    CHECK(loaded.value->turns.size() == 3);
}

TEST_CASE("story release: a reloaded page releases the stored logs again") {
    ColdStore store;
    {
        KvWorldFiles world(store, "w");
        Conversation conversation{"main", "", "", 0, {}, {}, 0};
        play(world, conversation, 4);
    }
    store.released.clear(); // the page's loader read every record into memory
    CHECK(heldLogs(store) == 4);
    KvWorldFiles world(store, "w");
    CHECK(world.releaseLogs() == 4);
    CHECK(heldLogs(store) == 0);
    CHECK(readBack(store, world, turnLogPath("main", 4)).ok());
}

TEST_CASE("story release: export reads the released logs back and holds them all") {
    ColdStore store;
    KvWorldFiles world(store, "w");
    REQUIRE(world.write("config.yaml", "setting: s\ntone: t\nplayer:\n  name: P\n").ok());
    Conversation conversation{"main", "", "", 0, {}, {}, 0};
    play(world, conversation, 3);
    // The export that cannot wait says so rather than leave the logs out.
    llm::Result<std::string> now = exportWorld(world);
    CHECK_FALSE(now.isOk());
    CHECK(now.error.find("still being read") != std::string::npos);
    store.deliver();
    std::optional<llm::Result<std::string>> archive;
    exportWorldLater(world, [&](llm::Result<std::string> a) { archive = std::move(a); });
    CHECK_FALSE(archive.has_value());
    store.deliver();
    REQUIRE(archive.has_value());
    REQUIRE(archive->isOk());
    const nlohmann::json doc = nlohmann::json::parse(*archive->value);
    for (int n = 1; n <= 3; ++n) {
        const std::string path = turnLogPath("main", n);
        REQUIRE(doc["files"].contains(path));
        CHECK(turnLogFromJson(doc["files"][path].get<std::string>()).value->steps.at(0).output ==
              "reply " + std::to_string(n));
    }
    // Imported elsewhere, the copy's logs are released too, and read back the same.
    MemoryWorldFiles scratch;
    REQUIRE(importWorld(*archive->value, scratch).ok());
    KvWorldFiles copy(store, "copy");
    for (const auto& [path, content] : scratch.files()) REQUIRE(copy.write(path, content).ok());
    CHECK(heldLogs(store) == 0);
    CHECK(readBack(store, copy, turnLogPath("main", 3)).content == scratch.files().at(turnLogPath("main", 3)));
    // A store that cannot be read fails the export, saying why.
    store.failReads = true;
    archive.reset();
    exportWorldLater(world, [&](llm::Result<std::string> a) { archive = std::move(a); });
    store.deliver();
    REQUIRE(archive.has_value());
    CHECK_FALSE(archive->isOk());
    CHECK(archive->error.find("the disk is gone") != std::string::npos);
}

TEST_CASE("story release: undo, redo, a new turn over undone ones and branch with released logs") {
    Campaign c(3);
    auto& [store, world, conversation] = c;
    REQUIRE(undoLastTurn(world, conversation).ok());
    CHECK(world.read("notes/3.md").content == "draft");
    REQUIRE(redoTurn(world, conversation).ok());
    CHECK(world.read("notes/3.md").content == "turn 3");
    REQUIRE(undoLastTurn(world, conversation).ok());
    REQUIRE(undoLastTurn(world, conversation).ok());
    CHECK(conversation.redoable == 2);
    // A new turn drops the undone ones: their records and their released logs leave the store.
    REQUIRE(recordTurn(world, conversation, playTurn("Something else", "another reply"), logOf("another")).ok());
    CHECK(stored(store, logKey("main", 2))); // the new turn 2's log
    CHECK_FALSE(stored(store, logKey("main", 3)));
    CHECK_FALSE(stored(store, "story.v1.w.w.f." + turnRecordPath("main", 3)));
    CHECK(turnLogFromJson(readBack(store, world, turnLogPath("main", 2)).content).value->steps.at(0).output ==
          "another");
    // A branch from turn 1 starts with the world as it was then; the source's logs stay readable.
    llm::Result<Conversation> branch = branchConversation(world, conversation, {1, true}, "b1");
    REQUIRE(branch.isOk());
    CHECK(branch.value->turns.size() == 1);
    CHECK(loadConversation(world, "b1").value->turns.size() == 1);
    CHECK(readBack(store, world, turnLogPath("main", 1)).ok());
    CHECK(heldLogs(store) == 0);
}

TEST_CASE("story release: continue joins the released log read back, and a deleted answer's log goes") {
    Campaign c(2);
    auto& [store, world, conversation] = c;
    TurnRecord more;
    more.entries.push_back({EntryKind::Narrator, AgentKind::Narrator, "and more", {}, {}, false, std::nullopt});
    // Without the read, the released log is not dropped silently: the continue is refused.
    const WorldError refused = appendContinuation(world, conversation, more, logOf("continued"));
    CHECK(refused.kind == WorldErrorKind::NotLoaded);
    CHECK(conversation.turns.back().narration() == "reply 2");
    const ReadResult base = readBack(store, world, turnLogPath("main", 2));
    REQUIRE(appendContinuation(world, conversation, more, logOf("continued"), &base).ok());
    const llm::Result<TurnLog> merged = turnLogFromJson(readBack(store, world, turnLogPath("main", 2)).content);
    REQUIRE(merged.isOk());
    REQUIRE(merged.value->steps.size() == 2);
    CHECK(merged.value->steps[0].output == "reply 2");
    CHECK(merged.value->steps[1].output == "continued");
    // A regenerated answer (variant 1) and then deleting the first answer: its released log goes.
    REQUIRE(beginRegenerate(world, conversation).isOk());
    REQUIRE(finishRegenerate(world, conversation, playTurn("I act 2", "a new reply"), logOf("regenerated"), "").ok());
    CHECK(conversation.turns.back().answerCount() == 2);
    CHECK(heldLogs(store) == 0);
    REQUIRE(deleteAnswer(world, conversation, 0).ok());
    CHECK_FALSE(stored(store, logKey("main", 2)));
    CHECK(stored(store, logKey("main", 2, conversation.turns.back().variant)));
}

TEST_CASE("story release: a world's copy gathers its released logs first") {
    Campaign c(2);
    auto& [store, world, conversation] = c;
    // Copied file by file, a released log cannot be read in the call: that is what gathering avoids.
    MemoryWorldFiles direct;
    CHECK(copyWorldFiles(world, direct).kind == WorldErrorKind::NotLoaded);
    std::optional<llm::Result<MemoryWorldFiles>> gathered;
    gatherWorldFiles(world, [&](llm::Result<MemoryWorldFiles> files) { gathered = std::move(files); });
    CHECK_FALSE(gathered.has_value());
    store.deliver();
    REQUIRE(gathered.has_value());
    REQUIRE(gathered->isOk());
    CHECK(gathered->value->files().size() == world.list().size());
    CHECK(turnLogFromJson(gathered->value->files().at(turnLogPath("main", 1))).value->steps.at(0).output == "reply 1");
    KvWorldFiles copy(store, "copy");
    REQUIRE(copyWorldFiles(*gathered->value, copy).ok());
    CHECK(loadConversation(copy, "main").value->turns.size() == 2);
    CHECK(heldLogs(store) == 0);
    // A store that cannot be read: the error, and nothing gathered.
    store.failReads = true;
    gathered.reset();
    gatherWorldFiles(world, [&](llm::Result<MemoryWorldFiles> files) { gathered = std::move(files); });
    store.deliver();
    REQUIRE(gathered.has_value());
    CHECK_FALSE(gathered->isOk());
    CHECK(gathered->error.find("the disk is gone") != std::string::npos);
}
