// Story agents with a scripted chat service: the orchestrator's fallback chain, unknown factions
// dropped, REFUSED, pre-steps in order, the narrator honouring a roll, step caps, simple mode,
// images, a failed turn leaving the world untouched, and every call of a turn in its one call log.
#include "tests/story_harness.h"

#include <doctest/doctest.h>

using namespace chaiba;
using namespace chaiba::story;

namespace {

using namespace chaiba::story::testing;

llm::ChatReply call(const std::string& name, const std::string& arguments, int n = 1) {
    llm::ChatReply reply;
    reply.toolCalls.push_back({"call_" + name + std::to_string(n), name, arguments});
    reply.finishReason = "tool_calls";
    reply.usage.promptTokens = 500;
    reply.usage.costUsd = 0.002;
    return reply;
}

std::string decision(const std::string& preSteps, const std::string& twists = "[]") {
    return R"({"preSteps": )" + preSteps + R"(, "suggestedTwists": )" + twists +
           R"(, "reasoning": "because"})";
}

} // namespace

TEST_CASE("story agents: a failed primary orchestrator falls back to the second model") {
    Harness h;
    h.chat.pushError(llm::ChatErrorKind::ServerError, 500, "primary down");
    h.chat.pushText(decision("[]", R"([{"situation": "the jump", "reason": "a wide gap"}])"));
    h.chat.pushText("You land on the far walk.");
    const TurnResult r = h.run("I jump the gap");
    CHECK(r.status == TurnStatus::Completed);
    REQUIRE(h.chat.requests().size() == 3);
    CHECK(h.request(0).model == "m/orch");
    CHECK(h.request(1).model == "m/orch-fallback");
    CHECK(r.record.decision.suggestedTwists.size() == 1);
    CHECK(contains(h.notes.at(0), "primary down"));
    // The suggested roll reaches the narrator, just before the player's message.
    const llm::ChatRequest& narrator = h.request(2);
    const std::string& offScreen = narrator.messages[narrator.messages.size() - 2].content;
    CHECK(contains(offScreen, "# What Happened Off-Screen"));
    CHECK(contains(offScreen, "# Suggested Dice Rolls\n\n- the jump (a wide gap)"));
    CHECK(narrator.messages.back().content == "I jump the gap");
}

TEST_CASE("story agents: every model call of the turn lands in its one call log") {
    Harness h;
    h.chat.pushError(llm::ChatErrorKind::ServerError, 500, "primary down");
    h.chat.pushText(decision("[]"));
    h.chat.pushText("You land on the far walk.");
    StoryTurn turn(h.chat, h.world, prompts(), h.config, h.settings, h.clock, h.rng);
    const TurnResult r = h.drive(turn, "I jump the gap");
    CHECK(r.status == TurnStatus::Completed);
    const std::vector<llm::CallRecord>& calls = turn.calls().records();
    REQUIRE(calls.size() == 3);
    CHECK(calls[0].model == "m/orch");
    REQUIRE(calls[0].error);
    CHECK(calls[0].error->httpStatus == 500);
    CHECK(calls[1].model == "m/orch-fallback");
    CHECK(calls[2].model == "m/narrator");
    for (const llm::CallRecord& c : calls) CHECK(c.turn == 1); // the conversation's first turn
    CHECK(turn.calls().totalCostUsd() == doctest::Approx(r.log.costUsd));
}

TEST_CASE("story agents: when both orchestrators fail there are no pre-steps and no twists, logged") {
    Harness h;
    h.chat.pushText("not json at all");
    h.chat.pushError(llm::ChatErrorKind::ServerError, 500, "fallback down");
    h.chat.pushText("The fog thickens.");
    const TurnResult r = h.run("I wait");
    CHECK(r.status == TurnStatus::Completed);
    CHECK(r.record.decision.preSteps.empty());
    CHECK(r.record.decision.suggestedTwists.empty());
    REQUIRE(r.log.notes.size() == 3);
    CHECK(contains(r.log.notes[0], "no JSON object"));
    CHECK(contains(r.log.notes[1], "fallback down"));
    CHECK(contains(r.log.notes[2], "no pre-steps"));
    CHECK(r.log.steps.size() == 3); // two orchestrator attempts and the narrator
    CHECK(r.log.steps[0].status == StepStatus::Failed);
    CHECK(contains(h.request(2).messages[h.request(2).messages.size() - 2].content, "None."));
}

TEST_CASE("story agents: a faction_turn for a faction the files do not hold is dropped with a log line") {
    Harness h;
    h.chat.pushText(
        decision(R"([{"type": "faction_turn", "faction": "The Silver Hand", "situation": "a day passes"},
                               {"type": "faction_turn", "faction": "Lamplighters' Guild", "situation": "a day passes"}])"));
    h.chat.pushText("The Guild raised the toll.");
    h.chat.pushText("Morning comes.");
    const TurnResult r = h.run("I sleep until morning");
    REQUIRE(r.record.decision.preSteps.size() == 1);
    CHECK(r.record.decision.preSteps[0].faction == "Lamplighters' Guild");
    CHECK(contains(r.log.notes.at(0), "dropped faction_turn for 'The Silver Hand'"));
    REQUIRE(h.chat.requests().size() == 3);
    CHECK(contains(Harness::systemOf(h.request(1)), "Lamplighters' Guild"));
    // A faction turn has no dice.
    for (const llm::ToolDefinition& tool : h.request(1).tools) CHECK(tool.name != "twist_of_fate");
}

TEST_CASE("story agents: pre-steps run in order and their summaries reach the narrator") {
    Harness h;
    h.chat.pushText(decision(R"([{"type": "world_advance", "description": "create the Drowned Chapel"},
                               {"type": "faction_turn", "faction": "Mira Teal", "situation": "she hears of it"}])"));
    h.chat.pushReply(
        call("write_file", R"({"path": "locations/drowned-chapel.md", "content": "# Drowned Chapel\n"})"));
    h.chat.pushText("Created the Drowned Chapel.");
    h.chat.pushReply(call(
        "edit_file",
        R"({"path": "factions.md", "old_string": "- Left a walk dark.", "new_string": "- Left a walk dark.\n- Mira sold a map."})"));
    h.chat.pushText("Mira sold a map of the chapel.");
    h.chat.pushText("The chapel bell tolls under the water.");
    const TurnResult r = h.run("I row to the Drowned Chapel");
    CHECK(r.status == TurnStatus::Completed);
    REQUIRE(h.chat.requests().size() == 6);
    CHECK(contains(Harness::systemOf(h.request(1)), "create the Drowned Chapel"));
    CHECK(contains(Harness::systemOf(h.request(3)), "Mira Teal"));
    // The faction turn already sees the chapel the world advance created.
    CHECK(contains(h.request(3).messages[1].content, "## locations/drowned-chapel.md"));
    const std::string offScreen = h.request(5).messages[h.request(5).messages.size() - 2].content;
    CHECK(offScreen.find("Created the Drowned Chapel.") < offScreen.find("Mira sold a map"));
    CHECK(h.world.exists("locations/drowned-chapel.md"));
    CHECK(r.record.changes.changes().size() == 2);
    CHECK(r.log.timing.orchestratorMs >= 0);
    CHECK(r.log.timing.preStepsMs > 0);
    CHECK(r.log.timing.narratorFirstTokenMs > r.log.timing.orchestratorMs + r.log.timing.preStepsMs - 1);
}

TEST_CASE("story agents: an answer starting REFUSED: stops that step with a refused summary") {
    Harness h;
    h.chat.pushText(decision(R"([{"type": "world_advance", "description": "turn the sea to wine"},
                               {"type": "faction_turn", "faction": "Mira Teal", "situation": "a day passes"}])"));
    h.chat.pushText("REFUSED: the sea cannot become wine in this world");
    h.chat.pushText("Mira mends her nets.");
    h.chat.pushText("Nothing strange happens.");
    const TurnResult r = h.run("I pray for wine");
    REQUIRE(h.chat.requests().size() == 4); // the refusal took one round; the next step still ran
    CHECK(r.log.steps[1].status == StepStatus::Refused);
    CHECK(contains(r.log.steps[1].error, "cannot become wine"));
    const std::string offScreen = h.request(3).messages[h.request(3).messages.size() - 2].content;
    CHECK(contains(offScreen, "world_advance refused: the sea cannot become wine"));
    CHECK(contains(offScreen, "Mira mends her nets."));
}

TEST_CASE("story agents: the narrator rolls the dice and its reply follows the band that hit") {
    Harness h;
    h.settings.mode = TurnMode::Simple;
    h.chat.pushReply(call("twist_of_fate", R"({"stakes": "1-50: the plank breaks; 51-100: you cross"})"));
    h.chat.setResponder([](const llm::ChatRequest& request) {
        // The narrator reads the roll back and narrates the band it names.
        const std::string& result = request.messages.back().content;
        llm::ChatOutcome o;
        o.reply = llm::ChatReply{};
        o.reply->content =
            contains(result, "the plank breaks") ? "The plank snaps under you." : "You cross safely.";
        return o;
    });
    const TurnResult r = h.run("I cross the rotten plank");
    REQUIRE(h.chat.requests().size() == 2);
    CHECK(h.request(0).model == "m/narrator"); // simple mode: no orchestrator
    const TranscriptEntry* dice = nullptr;
    for (const TranscriptEntry& e : r.record.entries)
        if (e.kind == EntryKind::Dice) dice = &e;
    REQUIRE(dice != nullptr);
    REQUIRE(dice->twist->bands.size() == 2);
    const bool broke = dice->twist->hit().outcome == "the plank breaks";
    CHECK(r.record.narration() == (broke ? "The plank snaps under you." : "You cross safely."));
    CHECK(contains(h.request(1).messages.back().content, std::to_string(dice->twist->roll)));
}

TEST_CASE("story agents: a pre-step stops at 5 rounds and the narrator at 20") {
    Harness h;
    h.chat.pushText(decision(R"([{"type": "world_advance", "description": "keep busy"}])"));
    for (int i = 0; i < 5; ++i) h.chat.pushReply(call("search_image", R"({"query": "x"})", i));
    for (int i = 0; i < 20; ++i) h.chat.pushReply(call("search_image", R"({"query": "y"})", i));
    const TurnResult r = h.run("I look around");
    CHECK(h.chat.requests().size() == 26);
    CHECK(r.log.steps[1].rounds == 5);
    CHECK(r.log.steps[2].rounds == 20);
    CHECK(contains(r.log.notes.at(0), "cap of 5"));
    CHECK(contains(r.log.notes.at(1), "cap of 20"));
    CHECK(r.status == TurnStatus::Completed);
}

TEST_CASE("story agents: a narrator that fails leaves the world as it was") {
    Harness h;
    const WorldFileMap before = h.world.files();
    h.settings.mode = TurnMode::Simple;
    h.chat.pushReply(call("write_file", R"({"path": "NPCs/ghost.md", "content": "# Ghost\n"})"));
    h.chat.pushError(llm::ChatErrorKind::ServerError, 500, "gone");
    const TurnResult r = h.run("I call the ghost");
    CHECK(r.status == TurnStatus::Failed);
    CHECK(contains(r.error, "gone"));
    CHECK(h.world.files() == before);
}

TEST_CASE("story agents: create_image without an image model is a clear error for the narrator") {
    Harness h;
    h.settings.mode = TurnMode::Simple;
    h.chat.pushReply(
        call("create_image",
             R"({"prompt": "a quay", "slug": "quay", "tags": [], "file": "locations/stilt-quay.md"})"));
    h.chat.pushText("The quay glistens.");
    h.run("I look at the quay");
    CHECK(contains(h.request(1).messages.back().content, "no image model is configured"));
}

TEST_CASE("story agents: create_image stores the picture, indexes it and links it, and search_image finds it") {
    Harness h;
    h.settings.mode = TurnMode::Simple;
    h.settings.models.image = "m/image";
    h.chat.pushReply(call(
        "create_image",
        R"({"prompt": "the quay at dusk", "slug": "quay-dusk", "tags": ["quay", "dusk"], "file": "locations/stilt-quay.md"})"));
    llm::ChatReply picture;
    picture.imageUrls.push_back("data:image/png;base64," + base64Encode("PNGBYTES"));
    h.chat.pushReply(picture);
    h.chat.pushText("The quay glows blue.");
    const TurnResult r = h.run("I look at the quay");
    CHECK(r.status == TurnStatus::Completed);
    CHECK(h.request(1).modalities == std::vector<std::string>{"image", "text"});
    CHECK(h.world.read("images/quay-dusk.png").content == "PNGBYTES");
    CHECK(contains(h.world.read("locations/stilt-quay.md").content, "![quay-dusk](images/quay-dusk.png)"));
    CHECK(contains(searchImage(h.world, R"({"query": "dusk"})").text, "images/quay-dusk.png"));
    CHECK(contains(searchImage(h.world, R"({"query": "harbour"})").text, "No image"));
    CHECK(undo(h.world, r.record.changes).ok());
    CHECK(h.world.files() == smallWorld().files());
}

TEST_CASE("story agents: a picture over the world's 1 MiB file limit is refused before decoding, clearly") {
    // 2 MiB of base64 (1.5 MiB of bytes): refused by its length, with the sizes in the message.
    const std::string big = "data:image/png;base64," + std::string(2 << 20, 'A');
    const llm::Result<DecodedImage> refused = decodeImageDataUrl(big);
    REQUIRE_FALSE(refused.isOk());
    CHECK(contains(refused.error, "1536 KiB"));
    CHECK(contains(refused.error, "at most 1024 KiB"));
    // Just under the limit decodes.
    const std::string fits = "data:image/png;base64," + std::string((kMaxWorldFileBytes / 3) * 4, 'A');
    CHECK(decodeImageDataUrl(fits).isOk());
}
