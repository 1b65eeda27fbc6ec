// The recorded tour of the sample world (story_demo.h): the shipped asset reads, holds an undo and a
// branch sharing its first turns with the main line, and steps through them in order; malformed
// tours are refused with a message saying what is wrong.
#include "src/llm/assets.h"
#include "src/modes/story/story_demo.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <set>

using namespace chaiba;
using namespace chaiba::story;
using json = nlohmann::json;

namespace {

StoryDemo shipped() {
    llm::DirectoryAssetSource assets(std::string(CHAIBA_SOURCE_DIR) + "/assets");
    llm::Result<std::string> text = assets.read("story/sample/recording.json");
    REQUIRE(text.isOk());
    llm::Result<StoryDemo> demo = storyDemoFromJson(*text.value);
    REQUIRE_MESSAGE(demo.isOk(), demo.error);
    return std::move(*demo.value);
}

// A conversation of `turns` turns (player line "go N", narration "went N" + suffix).
json conversation(const std::string& id, int turns, const std::string& suffix = "", const std::string& from = "",
                  int at = 0) {
    Conversation c;
    c.id = id;
    c.branchedFrom = from;
    c.branchedAtTurn = at;
    for (int n = 1; n <= turns; ++n) {
        TurnRecord t;
        t.number = n;
        t.entries.push_back({EntryKind::Player, AgentKind::Narrator, "go " + std::to_string(n), "", "", false, {}});
        t.entries.push_back({EntryKind::Narrator, AgentKind::Narrator,
                             "went " + std::to_string(n) + (n > at ? suffix : ""), "", "", false, {}});
        c.turns.push_back(t);
    }
    return json::parse(conversationToJson(c));
}

// main (3 turns), a turn 3 taken back, and b: a branch from turn 2 with a turn 3 of its own.
json tour() {
    json before = conversation("main", 3); // main as it stood when the player took turn 3 back
    before["turns"][2]["entries"][1]["text"] = "regretted";
    return {{"format", "chaiba-story-demo"},
            {"version", 1},
            {"title", "t"},
            {"conversations", {conversation("main", 3), conversation("b", 3, " elsewhere", "main", 2)}},
            {"scenes",
             {{{"kind", "play"}, {"conversation", "main"}, {"turns", {1, 2}}},
              {{"kind", "undo"}, {"conversation", "main"}, {"before", before}},
              {{"kind", "play"}, {"conversation", "main"}, {"turns", {3, 3}}},
              {{"kind", "branch"}, {"conversation", "b"}}}}};
}

std::string refused(const json& doc) {
    llm::Result<StoryDemo> demo = storyDemoFromJson(doc.dump());
    CHECK_FALSE(demo.isOk());
    return demo.error;
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("the shipped tour has an undo and a branch that shares its first turns with the main line") {
    const StoryDemo demo = shipped();
    const DemoScene* undo = nullptr;
    const DemoScene* branch = nullptr;
    for (const DemoScene& s : demo.scenes) {
        if (s.kind == DemoSceneKind::Undo) undo = &s;
        if (s.kind == DemoSceneKind::Branch) branch = &s;
    }
    REQUIRE(undo);
    REQUIRE(branch);
    // The turn taken back: its roll went badly (the lowest band hit) and it edited a world file.
    bool badRoll = false;
    for (const TranscriptEntry& e : undo->undone.entries)
        if (e.twist) badRoll = e.twist->hitIndex == 0;
    CHECK(badRoll);
    CHECK(!undo->undone.changes.touchedPaths().empty());
    CHECK(has(undoBanner(undo->undone), "took back turn " + std::to_string(undo->undone.number)));
    CHECK(has(undoBanner(undo->undone), undo->undone.changes.touchedPaths().front()));
    const Conversation& main = demo.conversations[0];
    const Conversation& b = demo.conversations[branch->conversation];
    CHECK(main.branchedFrom.empty());
    // The main line's turn in its place is another one.
    CHECK(main.turns[static_cast<std::size_t>(undo->undone.number - 1)].playerText() != undo->undone.playerText());
    REQUIRE(b.branchedFrom == main.id);
    const int k = b.branchedAtTurn;
    REQUIRE(k >= 1);
    REQUIRE(static_cast<int>(b.turns.size()) >= k + 1);
    for (int t = 0; t < k; ++t) {
        CHECK(b.turns[t].playerText() == main.turns[t].playerText());
        CHECK(b.turns[t].narration() == main.turns[t].narration());
    }
    if (static_cast<int>(main.turns.size()) > k) CHECK(b.turns[k].playerText() != main.turns[k].playerText());
    // A sample worth watching: every narration its own, rolls that differ, off-screen steps, a picture.
    std::set<std::string> narrations, rolls;
    std::size_t narrated = 0;
    int offScreen = 0;
    bool picture = false;
    for (const Conversation* c : {&main, &b})
        for (const TurnRecord& turn : c->turns) {
            if (c == &b && turn.number <= k) continue;
            for (const TranscriptEntry& e : turn.entries) {
                if (e.kind == EntryKind::Dice) rolls.insert(e.text.substr(0, e.text.find('.')));
                offScreen += e.kind == EntryKind::OffScreen;
                if (e.kind == EntryKind::Narrator) {
                    narrations.insert(e.text);
                    ++narrated;
                }
            }
            for (const FileChange& ch : turn.changes.changes()) picture = picture || ch.path.rfind("images/", 0) == 0;
        }
    CHECK(main.turns.size() >= 6);
    CHECK(narrations.size() == narrated);
    CHECK(rolls.size() >= 3);
    CHECK(offScreen >= 2);
    CHECK(picture);
}

TEST_CASE("stepping the shipped tour shows the undo banner, then switches to the branch") {
    const StoryDemo demo = shipped();
    const std::size_t steps = demoSteps(demo);
    REQUIRE(steps > 20);
    bool undoSeen = false, branchSeen = false;
    std::size_t lastScene = 0;
    for (std::size_t step = 1; step <= steps; ++step) {
        const DemoView view = demoView(demo, step);
        REQUIRE(view.conversation);
        CHECK(view.scene >= lastScene); // scenes only go forward
        lastScene = view.scene;
        for (const DemoItem& item : view.items) {
            if (item.kind == DemoItem::Kind::Banner) {
                undoSeen = undoSeen || item.text.rfind("Undo: ", 0) == 0;
                if (item.text.rfind("Branch from turn ", 0) == 0) {
                    branchSeen = true;
                    CHECK(!view.conversation->branchedFrom.empty());
                }
            } else {
                REQUIRE(item.turn);
                CHECK(item.entries <= item.turn->entries.size());
            }
        }
        // Before the undo's step, no banner; the undone turn is greyed only once taken back.
        if (!undoSeen)
            for (const DemoItem& item : view.items) CHECK(item.kind == DemoItem::Kind::Turn);
    }
    CHECK(undoSeen);
    CHECK(branchSeen);
    const DemoView end = demoView(demo, steps);
    CHECK(end.kind == DemoSceneKind::Branch);
    CHECK(has(end.showing, "branch from turn"));
    CHECK(end.items.back().turn == &end.conversation->turns.back());
    CHECK(end.items.back().entries == end.conversation->turns.back().entries.size());
}

TEST_CASE("a small tour steps entry by entry through a play, an undo and a branch") {
    llm::Result<StoryDemo> read = storyDemoFromJson(tour().dump());
    REQUIRE_MESSAGE(read.isOk(), read.error);
    const StoryDemo& demo = *read.value;
    // play 1-2 (4 entries), undo (2 entries + the undo), play 3 (2), branch (the switch + 2).
    REQUIRE(demoSteps(demo) == 4 + 3 + 2 + 3);
    DemoView v = demoView(demo, 3);
    REQUIRE(v.items.size() == 2);
    CHECK(v.items[1].entries == 1);
    v = demoView(demo, 6); // the regretted turn played whole
    REQUIRE(v.items.size() == 3);
    CHECK(v.items[2].kind == DemoItem::Kind::Turn);
    CHECK(v.items[2].turn->narration() == "regretted");
    v = demoView(demo, 7); // taken back
    REQUIRE(v.items.size() == 4);
    CHECK(v.items[2].kind == DemoItem::Kind::Undone);
    CHECK(v.items[3].text == "Undo: the player took back turn 3; its narration was reverted, and the line went "
                            "back to the input. A new turn 3 takes its place.");
    v = demoView(demo, 8); // the new turn 3, after the greyed one
    REQUIRE(v.items.size() == 5);
    CHECK(v.items[4].turn->narration() == "went 3");
    CHECK(v.items[4].entries == 1);
    v = demoView(demo, 10); // the switch: the branch's shared turns, then its banner
    CHECK(v.conversation->id == "b");
    CHECK(v.showing == "a branch from turn 2 of main (conversation b)");
    REQUIRE(v.items.size() == 3);
    CHECK(v.items[2].text.rfind("Branch from turn 2: a branch is a new conversation (b)", 0) == 0);
    v = demoView(demo, 12);
    REQUIRE(v.items.size() == 4);
    CHECK(v.items[3].turn->narration() == "went 3 elsewhere");
    // Past the end is the end.
    CHECK(demoView(demo, 99).items.size() == 4);
}

TEST_CASE("malformed tours are refused with a message saying what is wrong") {
    CHECK(has(refused(json("not an object")), "not a JSON object"));
    CHECK(storyDemoFromJson("{\"format\": ").error == "the recording is not a JSON object");
    json doc = tour();
    doc["format"] = "chaiba-story-conversation";
    CHECK(has(refused(doc), "not a recorded Story tour"));
    doc = tour();
    doc["version"] = 2;
    CHECK(has(refused(doc), "version 2"));
    doc = tour();
    doc.erase("scenes");
    CHECK(has(refused(doc), "lacks 'scenes'"));
    doc = tour();
    doc["scenes"] = json::array();
    CHECK(has(refused(doc), "at least one scene"));
    doc = tour();
    doc["conversations"][1]["turns"] = 7;
    CHECK(has(refused(doc), "conversations[1]: "));
    doc = tour();
    doc["conversations"][1]["id"] = "main";
    CHECK(has(refused(doc), "a second conversation \"main\""));
    doc = tour();
    doc["scenes"][0]["kind"] = "rewind";
    CHECK(has(refused(doc), "scenes[0].kind: unknown value 'rewind'"));
    doc = tour();
    doc["scenes"][0]["conversation"] = "nowhere";
    CHECK(has(refused(doc), "no conversation \"nowhere\""));
    doc = tour();
    doc["scenes"][0]["turns"] = {2, 3}; // skips turn 1
    CHECK(has(refused(doc), "scenes[0]: plays turns [2,3]"));
    doc = tour();
    doc["scenes"][2]["turns"] = {3, 9};
    CHECK(has(refused(doc), "which has 3"));
    doc = tour();
    doc["scenes"][1]["before"]["turns"].erase(2);
    CHECK(has(refused(doc), "scenes[1].before must hold the 2 turns of \"main\" shown so far and the turn taken back"));
    doc = tour();
    doc["scenes"][1]["before"]["turns"][0]["entries"][0]["text"] = "went elsewhere";
    CHECK(has(refused(doc), "scenes[1].before: turn 1 of \"main\" differs"));
    doc = tour();
    doc["scenes"][1]["before"] = "a conversation";
    CHECK(has(refused(doc), "scenes[1].before: "));
    doc = tour();
    doc["scenes"][1].erase("before");
    CHECK(has(refused(doc), "scenes[1] lacks 'before'"));
    doc = tour();
    doc["conversations"][1]["turns"][1]["entries"][1]["text"] = "went 2 differently";
    CHECK(has(refused(doc), "scenes[3]: turn 2 of \"b\" differs from \"main\"'s"));
    doc = tour();
    doc["conversations"][1]["branchedAtTurn"] = 3; // no turn of its own
    CHECK(has(refused(doc), "have turns of its own"));
    doc = tour();
    doc["conversations"][1]["branchedFrom"] = "";
    CHECK(has(refused(doc), "is not a branch"));
    doc = tour();
    doc["scenes"][3] = {{"kind", "play"}, {"conversation", "b"}, {"turns", {1, 3}}};
    CHECK(has(refused(doc), "a branch scene shows it first"));
    doc = tour();
    doc["conversations"][0]["turns"][1]["number"] = 7;
    CHECK(has(refused(doc), "not numbered 1, 2, 3"));
}
