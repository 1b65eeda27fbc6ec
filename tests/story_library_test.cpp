// Story's library of worlds in the page's store: rename, duplicate and delete a world (its files
// with it), and the labels conversations are listed by (their first player line, not "c1").
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/world_library.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace chaiba;
using namespace chaiba::story;

namespace {

// A store that refuses writes of keys starting with `refuse` (a full browser store).
class RefusingStore final : public KeyValueStore {
public:
    std::string refuse = "\x01";
    std::optional<std::string> get(std::string_view key) const override { return inner.get(key); }
    std::optional<std::string> set(std::string_view key, std::string_view value) override {
        if (key.rfind(refuse, 0) == 0) return std::string("quota exceeded");
        return inner.set(key, value);
    }
    void remove(std::string_view key) override { inner.remove(key); }
    MemoryStore inner;
};

TurnRecord playTurn(const std::string& player) {
    TurnRecord turn;
    TranscriptEntry said, answer;
    said.kind = EntryKind::Player;
    said.agent = AgentKind::Person;
    said.text = player;
    answer.text = "The tide turns.";
    turn.entries = {said, answer};
    return turn;
}

} // namespace

TEST_CASE("story library renames, duplicates and deletes worlds with their files") {
    MemoryStore store;
    std::vector<WorldEntry> worlds{{"marsh", "The Marsh"}, {"hill", "The Hill"}};
    REQUIRE_FALSE(saveWorldList(store, worlds));
    KvWorldFiles marsh(store, "marsh");
    REQUIRE(marsh.write("config.yaml", "setting: s\ntone: t\n").ok());
    REQUIRE(marsh.write("NPCs/mira.md", "Mira").ok());
    REQUIRE(marsh.write("images/map.png", std::string("\x89PNG\0\x01", 6)).ok());
    KvWorldFiles(store, "hill").write("factions.md", "F");

    CHECK(renameWorld(store, worlds, "marsh", "  The Salt Marsh ") == std::nullopt);
    CHECK(worlds[0].title == "The Salt Marsh");
    CHECK(loadWorldList(store).value->at(0).title == "The Salt Marsh");
    CHECK(renameWorld(store, worlds, "marsh", "   ") == std::string("give the world a name"));
    CHECK(renameWorld(store, worlds, "nowhere", "x") == std::string("no world \"nowhere\""));
    CHECK(worlds[0].title == "The Salt Marsh");

    llm::Result<WorldEntry> copy = duplicateWorld(store, worlds, "marsh");
    REQUIRE_MESSAGE(copy.isOk(), copy.error);
    CHECK(copy.value->id == "the-salt-marsh-copy");
    CHECK(copy.value->title == "The Salt Marsh (copy)");
    CHECK(loadWorldList(store).value->size() == 3);
    const KvWorldFiles copied(store, copy.value->id);
    CHECK(copied.list() == marsh.list());
    CHECK(copied.read("images/map.png").content == std::string("\x89PNG\0\x01", 6));
    // The copy is its own: an edit of one leaves the other.
    REQUIRE(marsh.write("NPCs/mira.md", "Mira, changed").ok());
    CHECK(copied.read("NPCs/mira.md").content == "Mira");

    CHECK(deleteWorld(store, worlds, "marsh") == std::nullopt);
    CHECK(worlds.size() == 2);
    CHECK(loadWorldList(store).value->at(0).id == "hill");
    CHECK(KvWorldFiles(store, "marsh").list().empty());
    for (const auto& [key, value] : store.values()) CHECK_MESSAGE(key.find("story.v1.w.marsh.") != 0, key);
    CHECK(KvWorldFiles(store, "hill").read("factions.md").content == "F");
    CHECK(deleteWorld(store, worlds, "marsh") == std::string("no world \"marsh\""));
}

TEST_CASE("story library leaves the store as it was when a copy cannot be saved") {
    RefusingStore store;
    std::vector<WorldEntry> worlds{{"marsh", "Marsh"}};
    KvWorldFiles(store, "marsh").write("a.md", "A");
    KvWorldFiles(store, "marsh").write("b.md", "B");
    store.refuse = "story.v1.w.marsh-copy.f.b.md";
    llm::Result<WorldEntry> copy = duplicateWorld(store, worlds, "marsh");
    CHECK_FALSE(copy.isOk());
    CHECK(copy.error.find("the copy was not made") == 0);
    CHECK(worlds.size() == 1);
    CHECK(KvWorldFiles(store, "marsh-copy").list().empty());
    for (const auto& [key, value] : store.inner.values()) CHECK_MESSAGE(key.find("story.v1.w.marsh-copy") != 0, key);
    store.refuse = "story.v1.worlds";
    CHECK(deleteWorld(store, worlds, "marsh")->find("the world list was not saved") == 0);
    CHECK(worlds.size() == 1);
    CHECK(KvWorldFiles(store, "marsh").read("a.md").content == "A");
}

TEST_CASE("story library labels conversations by their first player line") {
    Conversation c;
    CHECK(conversationLabel(c).empty());
    c.turns.push_back(playTurn("  I leap from the quay toward the salt tower, shouting for Mira to follow me\n"));
    CHECK(conversationLabel(c) == "I leap from the quay toward the salt tow\xE2\x80\xA6");
    c.title = "Short title";
    CHECK(conversationLabel(c) == "Short title");
    Conversation accents;
    accents.title = std::string(39, 'a') + "\xC3\xA9\xC3\xA9"; // 41 characters, the 40th two bytes
    CHECK(conversationLabel(accents) == std::string(39, 'a') + "\xC3\xA9\xE2\x80\xA6");

    // Stored: a conversation recorded now has its title; an older head without one is labelled
    // from its first player line when listed.
    MemoryWorldFiles files;
    Conversation main;
    main.id = "main";
    REQUIRE(recordTurn(files, main, playTurn("Who keeps the lamps?"), TurnLog{}).ok());
    Conversation old;
    old.id = "c1";
    REQUIRE(recordTurn(files, old, playTurn("I row out to the drowned chapel."), TurnLog{}).ok());
    nlohmann::json head = nlohmann::json::parse(files.read(conversationPath("c1")).content);
    REQUIRE(head["title"] == "I row out to the drowned chapel.");
    head["title"] = "";
    REQUIRE(files.write(conversationPath("c1"), head.dump()).ok());
    Conversation branch;
    branch.id = "c2";
    branch.title = "Who keeps the lamps? (branch) (branch)";
    branch.branchedFrom = "main";
    branch.branchedAtTurn = 1;
    REQUIRE(recordTurn(files, branch, playTurn("I ask again."), TurnLog{}).ok());
    const std::map<std::string, std::string> labels = conversationLabels(files, {"main", "c1", "c2", "c9"});
    CHECK(labels.at("main") == "Who keeps the lamps?");
    CHECK(labels.at("c2") == "Who keeps the lamps? \xC2\xB7 from turn 1");
    CHECK(labels.at("c1") == "I row out to the drowned chapel.");
    CHECK(labels.at("c9").empty());
}
