// Story steering controls with a scripted game master: regenerate (the old answer kept as a swipe,
// the world's files following the answer shown, the direction sent to the narrator only), redo
// after undo (refused once a new turn is played), continue, the edit of a reply, deleting an
// answer, and the stored records: swipes reload intact, a version 4 conversation still loads.
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/turn_steering.h"
#include "tests/story_harness.h"

#include <doctest/doctest.h>

using namespace chaiba;
using namespace chaiba::story;
using namespace chaiba::story::testing;

namespace {

llm::ChatReply writeCall(const std::string& path, const std::string& content) {
    llm::ChatReply reply;
    reply.toolCalls.push_back({"call_w", "write_file", R"({"path": ")" + path + R"(", "content": ")" + content + "\"}"});
    reply.finishReason = "tool_calls";
    reply.usage.costUsd = 0.002;
    return reply;
}

std::string contentOf(const WorldFiles& files, const std::string& path) {
    return files.read(path).content;
}

// A conversation played with the narrator alone (simple mode), each run scripted beforehand.
struct Steering {
    Harness h;
    Conversation conversation{"c1", "", "", 0, {}, {}, 0};

    Steering() { h.settings.mode = TurnMode::Simple; }
    // The narrator writes `path` (when given) and answers `reply` (costing 0.01).
    void script(const std::string& reply, const std::string& path = "", const std::string& content = "") {
        if (!path.empty()) h.chat.pushReply(writeCall(path, content));
        h.chat.pushText(reply);
    }
    TurnResult run(const Conversation& from, const std::string& say, TurnSteer steer = {}) {
        h.result.reset();
        StoryTurn turn(h.chat, h.world, prompts(), h.config, h.settings, h.clock, h.rng);
        TurnHandlers handlers;
        handlers.onDone = [&](const TurnResult& r) { h.result = r; };
        turn.start(from, say, handlers, std::move(steer));
        for (int i = 0; i < 200 && !h.result; ++i) {
            h.clock.advance(10);
            h.chat.poll();
        }
        REQUIRE(h.result.has_value());
        return *h.result;
    }
    void play(const std::string& say, const std::string& reply, const std::string& path = "",
              const std::string& content = "") {
        script(reply, path, content);
        const TurnResult r = run(conversation, say);
        REQUIRE(r.status == TurnStatus::Completed);
        REQUIRE(recordTurn(h.world, conversation, r.record, r.log).ok());
    }
    void regenerate(const std::string& reply, const std::string& path = "", const std::string& content = "",
                    const std::string& instruction = "") {
        llm::Result<Regeneration> begun = beginRegenerate(h.world, conversation);
        REQUIRE_MESSAGE(begun.isOk(), begun.error);
        script(reply, path, content);
        const TurnResult r = run(begun.value->before, begun.value->playerText, {instruction, false});
        REQUIRE(r.status == TurnStatus::Completed);
        REQUIRE(finishRegenerate(h.world, conversation, r.record, r.log, instruction).ok());
    }
    const llm::ChatRequest& lastRequest() const { return h.chat.requests().back(); }
};

bool anyMessageHas(const llm::ChatRequest& request, const std::string& text) {
    for (const llm::ChatMessage& m : request.messages)
        if (contains(m.content, text)) return true;
    return false;
}

} // namespace

TEST_CASE("story steering: regenerate keeps the old answer as a swipe and the files follow the answer shown") {
    Steering s;
    s.play("I light the lamp", "The lamp flares green.", "lamp.md", "green");
    s.regenerate("The lamp sputters out.", "lamp.md", "dark");
    const TurnRecord& turn = s.conversation.turns.at(0);
    CHECK(s.conversation.turns.size() == 1);
    CHECK(turn.answerCount() == 2);
    CHECK(turn.shown == 1);
    CHECK(turn.narration() == "The lamp sputters out.");
    CHECK(turn.playerText() == "I light the lamp");
    CHECK(contentOf(s.h.world, "lamp.md") == "dark");
    // Both answers' costs count: 0.002 + 0.01 each.
    CHECK(turn.allAnswersCostUsd() == doctest::Approx(0.024));
    CHECK(s.h.world.exists(turnLogPath("c1", 1, 0)));
    CHECK(s.h.world.exists(turnLogPath("c1", 1, turn.variant)));
    CHECK(turn.variant != 0);

    // Flip back: the first answer's text and files.
    REQUIRE(selectAnswer(s.h.world, s.conversation, 0).ok());
    CHECK(s.conversation.turns[0].narration() == "The lamp flares green.");
    CHECK(contentOf(s.h.world, "lamp.md") == "green");
    // The stored records reload with the swipes intact and the same one shown.
    llm::Result<Conversation> loaded = loadConversation(s.h.world, "c1");
    REQUIRE_MESSAGE(loaded.isOk(), loaded.error);
    REQUIRE(loaded.value->turns.size() == 1);
    CHECK(loaded.value->turns[0].answerCount() == 2);
    CHECK(loaded.value->turns[0].shown == 0);
    CHECK(loaded.value->turns[0].narration() == "The lamp flares green.");
    CHECK(loaded.value->turns[0].otherAnswers.at(0).entries.back().text == "The lamp sputters out.");
    // Out of range: refused, nothing moves.
    CHECK_FALSE(selectAnswer(s.h.world, s.conversation, 2).ok());
    CHECK(contentOf(s.h.world, "lamp.md") == "green");

    // The next turn continues from the answer shown.
    s.play("I look around", "Green light everywhere.");
    CHECK(anyMessageHas(s.lastRequest(), "The lamp flares green."));
    CHECK_FALSE(anyMessageHas(s.lastRequest(), "sputters"));
    // Only the last turn is regenerated or flipped.
    s.conversation.turns.push_back(s.conversation.turns.back()); // (not stored: an edit turn after it)
    s.conversation.turns.back().kind = TurnKind::Edit;
    CHECK_FALSE(beginRegenerate(s.h.world, s.conversation).isOk());
}

TEST_CASE("story steering: a regenerate direction reaches the narrator of that run only") {
    Steering s;
    s.h.settings.mode = TurnMode::Agentic;
    s.h.chat.pushText(R"({"preSteps": [], "suggestedTwists": [], "reasoning": "quiet"})");
    s.play("I open the door", "A corridor.");
    s.h.chat.pushText(R"({"preSteps": [], "suggestedTwists": [], "reasoning": "quiet"})");
    s.regenerate("A corridor, and something breathing in it.", "", "", "make it darker");
    const std::vector<llm::ChatRequest>& requests = s.h.chat.requests();
    REQUIRE(requests.size() == 4);
    CHECK_FALSE(anyMessageHas(requests[2], "make it darker")); // the orchestrator
    CHECK(contains(requests[3].messages.back().content, "make it darker"));
    CHECK(requests[3].messages[requests[3].messages.size() - 2].content == "I open the door");
    CHECK(s.conversation.turns[0].instruction == "make it darker");
    CHECK(s.conversation.turns[0].otherAnswers.at(0).instruction.empty());
    // The player's line is the same, and the next turn does not carry the direction.
    s.h.chat.pushText(R"({"preSteps": [], "suggestedTwists": [], "reasoning": "quiet"})");
    s.play("I step in", "Cold air.");
    CHECK_FALSE(anyMessageHas(s.lastRequest(), "make it darker"));
}

TEST_CASE("story steering: a failed regenerate leaves the turn and its files as they were") {
    Steering s;
    s.play("I climb", "You climb.", "rope.md", "holds");
    llm::Result<Regeneration> begun = beginRegenerate(s.h.world, s.conversation);
    REQUIRE(begun.isOk());
    CHECK(s.h.world.read("rope.md").missing()); // the world as before the turn, for the new run
    s.h.chat.pushError(llm::ChatErrorKind::ServerError, 500, "down");
    const TurnResult r = s.run(begun.value->before, begun.value->playerText);
    CHECK(r.status == TurnStatus::Failed);
    REQUIRE(cancelRegenerate(s.h.world, s.conversation).ok());
    CHECK(contentOf(s.h.world, "rope.md") == "holds");
    CHECK(s.conversation.turns[0].answerCount() == 1);
}

TEST_CASE("story steering: a regenerate that never finished has its turn's file edits made again at the next load") {
    Steering s;
    s.play("I climb", "You climb.", "rope.md", "holds");
    REQUIRE(beginRegenerate(s.h.world, s.conversation).isOk());
    CHECK(s.h.world.read("rope.md").missing());
    // The page closes here. The next load says so, and putting it right makes the edits again.
    llm::Result<Conversation> loaded = loadConversation(s.h.world, "c1");
    REQUIRE(loaded.isOk());
    CHECK(contains(loaded.value->migrationNote, "regenerating turn 1"));
    REQUIRE(migrateConversation(s.h.world, *loaded.value).ok());
    CHECK(contentOf(s.h.world, "rope.md") == "holds");
    CHECK(loaded.value->migrationNote.empty());
    CHECK(loadConversation(s.h.world, "c1").value->migrationNote.empty());
    CHECK(loaded.value->turns.at(0).answerCount() == 1);
}

TEST_CASE("story steering: redo after undo brings the turn back with its files, refused after a new turn") {
    Steering s;
    s.play("one", "First.", "a.md", "A");
    s.play("two", "Second.", "b.md", "B");
    REQUIRE(undoLastTurn(s.h.world, s.conversation).ok());
    REQUIRE(undoLastTurn(s.h.world, s.conversation).ok());
    CHECK(s.conversation.turns.empty());
    CHECK(s.conversation.redoable == 2);
    CHECK(s.h.world.read("a.md").missing());
    REQUIRE(redoTurn(s.h.world, s.conversation).ok());
    CHECK(contentOf(s.h.world, "a.md") == "A");
    CHECK(s.h.world.read("b.md").missing());
    // Kept across a reload.
    llm::Result<Conversation> loaded = loadConversation(s.h.world, "c1");
    REQUIRE(loaded.isOk());
    CHECK(loaded.value->turns.size() == 1);
    CHECK(loaded.value->redoable == 1);
    s.conversation = *loaded.value;
    REQUIRE(redoTurn(s.h.world, s.conversation).ok());
    CHECK(s.conversation.turns.size() == 2);
    CHECK(s.conversation.turns[1].narration() == "Second.");
    CHECK(contentOf(s.h.world, "b.md") == "B");
    CHECK_FALSE(redoTurn(s.h.world, s.conversation).ok()); // nothing left to redo

    // Undo, then a new turn: the undone one is gone for good.
    REQUIRE(undoLastTurn(s.h.world, s.conversation).ok());
    s.play("three", "Third.");
    CHECK(s.conversation.redoable == 0);
    const WorldError refused = redoTurn(s.h.world, s.conversation);
    CHECK_FALSE(refused.ok());
    CHECK(contains(refused.message, "no undone turn"));
    CHECK(loadConversation(s.h.world, "c1").value->turns.at(1).narration() == "Third.");
    CHECK(s.h.world.read("b.md").missing());
}

TEST_CASE("story steering: continue appends to the last reply, its cost and its log") {
    Steering s;
    s.play("I listen", "A song drifts over the water");
    s.script(", and then it stops.", "song.md", "heard");
    const std::size_t first = s.h.chat.requests().size();
    const TurnResult more = s.run(s.conversation, "", {"", true});
    REQUIRE(more.status == TurnStatus::Completed);
    // The narrator alone: its own reply last, then the ask to go on (no new player line).
    REQUIRE(s.h.chat.requests().size() == first + 2);
    const llm::ChatRequest& asked = s.h.chat.requests()[first];
    CHECK(asked.model == "m/narrator");
    CHECK(contains(asked.messages.back().content, "continue your last reply"));
    CHECK(asked.messages[asked.messages.size() - 2].content == "A song drifts over the water");
    REQUIRE(appendContinuation(s.h.world, s.conversation, more.record, more.log).ok());
    const TurnRecord& turn = s.conversation.turns.at(0);
    CHECK(s.conversation.turns.size() == 1);
    CHECK(turn.narration() == "A song drifts over the water\n\n, and then it stops.");
    CHECK(turn.playerText() == "I listen");
    CHECK(turn.costUsd == doctest::Approx(0.022));
    CHECK(contentOf(s.h.world, "song.md") == "heard");
    llm::Result<TurnLog> log = turnLogFromJson(s.h.world.read(turnLogPath("c1", 1)).content);
    REQUIRE(log.isOk());
    CHECK(log.value->steps.size() == 2);
    // Undo takes the whole turn back, the continuation's file too.
    REQUIRE(undoLastTurn(s.h.world, s.conversation).ok());
    CHECK(s.h.world.read("song.md").missing());
}

TEST_CASE("story steering: an edited reply is what the model sees from then on, undone and redone") {
    Steering s;
    s.play("I knock", "Nobody answers.");
    s.play("I knock again", "Still nothing.");
    bool recorded = false;
    REQUIRE(recordReplyEdit(s.h.world, s.conversation, 1, "A child opens the door.", &recorded).ok());
    CHECK(recorded);
    REQUIRE(s.conversation.turns.size() == 3);
    CHECK(s.conversation.turns[0].narration() == "A child opens the door.");
    CHECK(s.conversation.turns[2].kind == TurnKind::Edit);
    CHECK(contains(s.conversation.turns[2].entries.at(0).text, "You edited the reply of turn 1"));
    CHECK(contains(editTurnDiff(s.conversation.turns[2]), "+ A child opens the door."));
    // Stored: a reload has the edited text.
    CHECK(loadConversation(s.h.world, "c1").value->turns[0].narration() == "A child opens the door.");
    s.play("I greet the child", "She stares.");
    CHECK(anyMessageHas(s.lastRequest(), "A child opens the door."));
    CHECK_FALSE(anyMessageHas(s.lastRequest(), "Nobody answers."));
    // Undo the turn, then the edit: the reply is back as the game master wrote it; redo edits again.
    REQUIRE(undoLastTurn(s.h.world, s.conversation).ok());
    REQUIRE(undoLastTurn(s.h.world, s.conversation).ok());
    CHECK(s.conversation.turns[0].narration() == "Nobody answers.");
    CHECK(loadConversation(s.h.world, "c1").value->turns[0].narration() == "Nobody answers.");
    REQUIRE(redoTurn(s.h.world, s.conversation).ok());
    CHECK(s.conversation.turns[0].narration() == "A child opens the door.");
    // Refusals: no such turn, an empty reply, an edit turn.
    CHECK_FALSE(recordReplyEdit(s.h.world, s.conversation, 9, "x").ok());
    CHECK_FALSE(recordReplyEdit(s.h.world, s.conversation, 1, "  ").ok());
    CHECK_FALSE(recordReplyEdit(s.h.world, s.conversation, 3, "x").ok());
}

TEST_CASE("story steering: deleting an answer keeps the others, the files following the one shown") {
    Steering s;
    s.play("I pick a door", "The red door.", "door.md", "red");
    s.regenerate("The blue door.", "door.md", "blue");
    s.regenerate("The gold door.", "door.md", "gold");
    REQUIRE(s.conversation.turns[0].answerCount() == 3);
    const int goldVariant = s.conversation.turns[0].variant;
    REQUIRE(deleteAnswer(s.h.world, s.conversation, 2).ok()); // the shown one: its neighbour shows
    CHECK(s.conversation.turns[0].answerCount() == 2);
    CHECK(s.conversation.turns[0].narration() == "The blue door.");
    CHECK(contentOf(s.h.world, "door.md") == "blue");
    CHECK_FALSE(s.h.world.exists(turnLogPath("c1", 1, goldVariant)));
    REQUIRE(deleteAnswer(s.h.world, s.conversation, 0).ok());
    CHECK(s.conversation.turns[0].answerCount() == 1);
    CHECK(s.conversation.turns[0].shown == 0);
    CHECK_FALSE(deleteAnswer(s.h.world, s.conversation, 0).ok()); // the only one
    CHECK(loadConversation(s.h.world, "c1").value->turns[0].narration() == "The blue door.");
}

TEST_CASE("story steering: a version 4 conversation without swipes loads and is not rewritten") {
    MemoryWorldFiles world;
    const std::string head = R"({"format": "chaiba-story-conversation", "version": 4, "id": "old", "title": "Old",
      "branchedFrom": "", "branchedAtTurn": 0, "turnCount": 1})";
    const std::string turn = R"({"format": "chaiba-story-turn", "version": 4, "number": 1, "kind": "play",
      "entries": [{"kind": "player", "agent": "narrator", "text": "hello"},
                  {"kind": "narrator", "agent": "narrator", "text": "Hello back."}],
      "decision": {"preSteps": [], "suggestedTwists": [], "reasoning": ""}, "changes": [], "costUsd": 0.01})";
    REQUIRE(world.write("conversations/old.json", head).ok());
    REQUIRE(world.write("conversations/old/turn-1.json", turn).ok());
    llm::Result<Conversation> loaded = loadConversation(world, "old");
    REQUIRE_MESSAGE(loaded.isOk(), loaded.error);
    CHECK(loaded.value->migrationNote.empty()); // read as it is
    CHECK(loaded.value->redoable == 0);
    REQUIRE(loaded.value->turns.size() == 1);
    CHECK(loaded.value->turns[0].answerCount() == 1);
    CHECK(loaded.value->turns[0].narration() == "Hello back.");
    CHECK(world.read("conversations/old/turn-1.json").content == turn);
    // Steered, it gains its swipes in version 5.
    Conversation conversation = *loaded.value;
    REQUIRE(beginRegenerate(world, conversation).isOk());
    TurnRecord answer;
    answer.entries = {{EntryKind::Player, AgentKind::Narrator, "hello", {}, {}, false, std::nullopt},
                      {EntryKind::Narrator, AgentKind::Narrator, "Hi again.", {}, {}, false, std::nullopt}};
    REQUIRE(finishRegenerate(world, conversation, answer, TurnLog{}, "").ok());
    CHECK(contains(world.read("conversations/old/turn-1.json").content, "\"answers\""));
    CHECK(loadConversation(world, "old").value->turns[0].answerCount() == 2);
}
