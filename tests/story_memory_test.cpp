// Story memory within a context budget: the memory: settings of config.yaml, keyed world files
// (included when named, always-on ones kept), files never sent with their reason per file, the
// rolling summary (folded by a model call, carried, edited by a person and undone), the turn's
// cost cap, and a request that stays the same size as the campaign grows.
#include "src/llm/openrouter_json.h"
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/story_memory.h"
#include "tests/story_harness.h"

#include <doctest/doctest.h>

using namespace chaiba;
using namespace chaiba::story;

namespace {

using namespace chaiba::story::testing;

// The file's state; a state with no path when the context does not list it.
ContextFileState stateOf(const GameContext& context, const std::string& path) {
    for (const ContextFileState& state : context.files)
        if (state.path == path) return state;
    return {};
}

TurnRecord playTurn(int number, const std::string& said, const std::string& narration) {
    TurnRecord turn;
    turn.number = number;
    turn.entries.push_back({EntryKind::Player, AgentKind::Narrator, said, {}, {}, false, std::nullopt});
    turn.entries.push_back({EntryKind::Narrator, AgentKind::Narrator, narration, {}, {}, false, std::nullopt});
    return turn;
}

Conversation campaign(int turns) {
    Conversation conversation{"c1", "", "", 0, {}, {}, 0};
    for (int t = 1; t <= turns; ++t)
        conversation.turns.push_back(playTurn(t, "I walk on at turn " + std::to_string(t),
                                              "Turn " + std::to_string(t) + ": " + std::string(400, 'n')));
    return conversation;
}

// A game master that answers at once: the summary call with a fixed summary, the orchestrator with
// an empty decision, the narrator with a line of prose.
llm::ChatOutcome gameMaster(const llm::ChatRequest& request) {
    llm::ChatReply reply;
    reply.finishReason = "stop";
    reply.usage.costUsd = 0.001;
    const std::string system = request.messages.empty() ? "" : request.messages[0].content;
    if (system.rfind("You keep the story's memory", 0) == 0)
        reply.content = "The traveller crossed the marsh and owes Mira a favour.";
    else if (request.model == "m/orch")
        reply.content = R"({"preSteps": [], "suggestedTwists": [], "reasoning": "quiet"})";
    else
        reply.content = "The fog lifts.";
    llm::ChatOutcome outcome;
    outcome.reply = std::move(reply);
    return outcome;
}

// The harness with a one-file world and no fallback orchestrator.
void oneFileWorld(Harness& h) {
    h.world = MemoryWorldFiles({{"lore.md", "# Lore\n\nThe marsh.\n"}});
    h.settings.models.orchestratorFallback.clear();
}

const llm::ChatRequest& narratorRequest(const Harness& h) {
    for (const llm::ChatRequest& r : h.chat.requests())
        if (r.model == "m/narrator") return r;
    FAIL("no narrator request");
    return h.chat.requests().front();
}

} // namespace

TEST_CASE("story memory settings come from config.yaml with defaults and errors naming the key") {
    const char* base = "setting: s\ntone: t\nplayer:\n  name: P\n";
    ConfigParse none = parseWorldConfig(base);
    REQUIRE(none.ok());
    CHECK(none.config->memory.contextTokens == 16000);
    CHECK(none.config->memory.recentTurns == 6);
    CHECK(none.config->memory.turnCostCapUsd == doctest::Approx(0.5));

    ConfigParse set = parseWorldConfig(std::string(base) +
                                       "memory:\n  context_tokens: 8000\n  recent_turns: 3\n  turn_cost_cap_usd: 0.2\n");
    REQUIRE(set.ok());
    CHECK(set.config->memory.contextTokens == 8000);
    CHECK(set.config->memory.recentTurns == 3);
    CHECK(set.config->memory.turnCostCapUsd == doctest::Approx(0.2));

    ConfigParse bad = parseWorldConfig(std::string(base) + "memory:\n  context_tokens: lots\n  recent_turns: 4\n");
    REQUIRE_FALSE(bad.ok());
    CHECK(contains(bad.errors.at(0), "memory.context_tokens (line 6): expected a number from 1000"));
    REQUIRE(bad.partial.has_value());
    CHECK(bad.partial->memory.recentTurns == 4); // the rest is kept
    CHECK(bad.partial->memory.contextTokens == 16000);
}

TEST_CASE("story file keys come from a front matter, and a file without one is always on") {
    const FileKeys keyed = parseFileKeys("---\nkeys: Mira, \"the ferry\", ferrywoman\n---\n# Mira\n");
    CHECK(keyed.keys == std::vector<std::string>{"Mira", "the ferry", "ferrywoman"});
    CHECK_FALSE(keyed.always);
    CHECK(keyed.bodyAt == std::string("---\nkeys: Mira, \"the ferry\", ferrywoman\n---\n").size());

    const FileKeys both = parseFileKeys("---\nkeys: [Guild]\nalways: true\n---\nx");
    CHECK(both.keys == std::vector<std::string>{"Guild"});
    CHECK(both.always);

    CHECK(parseFileKeys("# Plain file\n").always);
    CHECK(parseFileKeys("---\nno colon here\n").always);          // a rule, not a front matter
    CHECK(parseFileKeys("---\ntitle: x\n---\nbody").always);       // a front matter without keys
    CHECK(parseFileKeys("---\ntitle: x\n---\nbody").bodyAt == 17); // still cut from what is sent
}

TEST_CASE("story keyed files are sent only when the player or the recent turns name them") {
    const MemoryWorldFiles world({
        {"NPCs/mira.md", "---\nkeys: Mira, ferrywoman\n---\n# Mira Teal\n\nBlunt.\n"},
        {"NPCs/osric.md", "---\nkeys: Osric\n---\n# Osric\n\nA clerk.\n"},
        {"factions.md", "---\nkeys: Guild\nalways: true\n---\n# Factions\n"},
        {"lore.md", "# Lore\n\nThe marsh.\n"},
    });
    ContextSelection selection;
    selection.mentions = "I wave to the FERRYWOMAN's boat.";
    const GameContext context = loadGameContext(world, selection);
    CHECK(context.paths == std::vector<std::string>{"NPCs/mira.md", "factions.md", "lore.md"});
    CHECK(stateOf(context, "NPCs/mira.md").inclusion == FileInclusion::Named);
    CHECK(stateOf(context, "NPCs/mira.md").namedKey == "ferrywoman");
    CHECK(stateOf(context, "NPCs/osric.md").inclusion == FileInclusion::NotNamed);
    CHECK(stateOf(context, "factions.md").inclusion == FileInclusion::Always);
    CHECK(stateOf(context, "lore.md").inclusion == FileInclusion::Always);
    // The front matter is the game's, not the model's.
    CHECK(contains(context.text, "## NPCs/mira.md\n\n# Mira Teal"));
    CHECK_FALSE(contains(context.text, "keys:"));
    // A key inside another word names nothing.
    selection.mentions = "Osrico's cousin";
    CHECK(stateOf(loadGameContext(world, selection), "NPCs/osric.md").inclusion == FileInclusion::NotNamed);
}

TEST_CASE("story keyed files over the budget stay out, the most recently named first in") {
    const std::string body(4000, 'x'); // about 1 000 tokens each
    const MemoryWorldFiles world({
        {"a.md", "---\nkeys: alder\n---\n" + body},
        {"b.md", "---\nkeys: birch\n---\n" + body},
        {"always.md", body},
    });
    ContextSelection selection;
    selection.mentions = "the birch, then the alder";
    selection.filesBudgetTokens = 2200; // the always-on file, and one more
    const GameContext context = loadGameContext(world, selection);
    CHECK(stateOf(context, "always.md").inclusion == FileInclusion::Always);
    CHECK(stateOf(context, "a.md").inclusion == FileInclusion::Named); // named last: first in
    CHECK(stateOf(context, "b.md").inclusion == FileInclusion::OverBudget);
    CHECK(context.paths == std::vector<std::string>{"a.md", "always.md"});
}

TEST_CASE("story context files never sent say why, file by file") {
    std::string binary = "\x89PNG\r\n\x1a\n";
    binary += std::string(1, '\0') + "IHDR";
    const MemoryWorldFiles world({{"picture.md", binary}, {"latin1.md", "caf\xE9"}, {"ok.md", "fine"}});
    const GameContext context = loadGameContext(world);
    REQUIRE(context.files.size() == 3);
    CHECK(stateOf(context, "picture.md").inclusion == FileInclusion::NotSent);
    CHECK(stateOf(context, "picture.md").why.rfind("binary", 0) == 0);
    CHECK(stateOf(context, "latin1.md").why.rfind("not UTF-8", 0) == 0);
    CHECK(stateOf(context, "ok.md").sent());
}

TEST_CASE("story memory folds older turns into a summary by a model call and sends the last turns whole") {
    Harness t;
    oneFileWorld(t);
    t.chat.setResponder(gameMaster);
    const Conversation conversation = campaign(12); // 2 x recent_turns (6) wait: a fold is due
    REQUIRE(planFold(conversation, 6).throughTurn == 6);
    const TurnResult r = t.run("I look for Mira", conversation);
    REQUIRE(r.status == TurnStatus::Completed);
    REQUIRE(r.record.summary.has_value());
    CHECK(r.record.summary->throughTurn == 6);
    CHECK(r.record.summary->text == "The traveller crossed the marsh and owes Mira a favour.");
    CHECK(r.log.steps.at(0).agent == AgentKind::Memory);
    CHECK(r.log.steps.at(0).label == "turns 1-6");
    CHECK(contains(t.chat.requests().at(0).messages.at(1).content, "I walk on at turn 1\n"));
    // The narrator reads the summary and turns 7 to 12, not turns 1 to 6.
    std::string sent;
    for (const llm::ChatMessage& m : narratorRequest(t).messages) sent += m.content + "\n";
    CHECK(contains(sent, "# The Story So Far (turns 1-6, summarised)\n\nThe traveller crossed"));
    CHECK(contains(sent, "I walk on at turn 7\n"));
    CHECK_FALSE(contains(sent, "I walk on at turn 6\n"));

    // The next turn carries the summary without another fold.
    Conversation after = conversation;
    TurnRecord record = r.record;
    record.number = 13;
    after.turns.push_back(record);
    CHECK(currentSummary(after)->throughTurn == 6);
    CHECK(planFold(after, 6).turns.empty());
}

TEST_CASE("story memory: a failed fold is noted and the turn plays with the turns whole") {
    Harness t;
    oneFileWorld(t);
    t.chat.setResponder([](const llm::ChatRequest& request) {
        if (!request.messages.empty() && request.messages[0].content.rfind("You keep the story's memory", 0) == 0) {
            llm::ChatOutcome o;
            o.error = llm::ChatError{llm::ChatErrorKind::ServerError, 500, "summary model down", std::nullopt};
            return o;
        }
        return gameMaster(request);
    });
    const TurnResult r = t.run("I wait", campaign(12));
    CHECK(r.status == TurnStatus::Completed);
    CHECK_FALSE(r.record.summary.has_value());
    CHECK(r.log.steps.at(0).status == StepStatus::Failed);
    CHECK(contains(r.log.notes.at(0), "sent whole until the next try"));
}

TEST_CASE("story summary edited by a person is a recorded change, kept, and undone") {
    MemoryWorldFiles world;
    Conversation conversation = campaign(3);
    conversation.turns.back().summary = StorySummary{"The first summary.", 2};
    REQUIRE(saveConversation(world, conversation).ok());
    bool recorded = false;
    REQUIRE(recordSummaryEdit(world, conversation, "Mira is the traveller's sister.", &recorded).ok());
    CHECK(recorded);
    CHECK(conversation.turns.back().kind == TurnKind::Edit);
    CHECK(conversation.turns.back().entries.at(0).text == "You edited the summary of turns 1-2");
    CHECK(currentSummary(conversation)->text == "Mira is the traveller's sister.");
    llm::Result<Conversation> loaded = loadConversation(world, "c1");
    REQUIRE(loaded.isOk());
    CHECK(currentSummary(*loaded.value)->text == "Mira is the traveller's sister.");
    CHECK(currentSummary(*loaded.value)->throughTurn == 2);

    REQUIRE(undoLastTurn(world, conversation).ok());
    CHECK(currentSummary(conversation)->text == "The first summary.");
    CHECK(currentSummary(*loadConversation(world, "c1").value)->text == "The first summary.");

    Conversation fresh = campaign(2);
    CHECK_FALSE(recordSummaryEdit(world, fresh, "x").ok()); // no summary yet: nothing to edit
}

TEST_CASE("story turn stops at its cost cap and the log says failed") {
    Harness t;
    oneFileWorld(t);
    t.settings.mode = TurnMode::Simple;
    t.config.memory.turnCostCapUsd = 0.005;
    int n = 0;
    t.chat.setResponder([&n](const llm::ChatRequest&) { // a narrator searching forever, $0.002 a call
        llm::ChatReply reply;
        reply.toolCalls.push_back({"c" + std::to_string(++n), "search_image",
                                   R"({"query": "q)" + std::to_string(n) + R"("})"});
        reply.finishReason = "tool_calls";
        reply.usage.costUsd = 0.002;
        llm::ChatOutcome o;
        o.reply = std::move(reply);
        return o;
    });
    const TurnResult r = t.run("I search", campaign(1));
    CHECK(t.chat.requests().size() == 3); // $0.006 spent, no fourth round
    CHECK(r.status == TurnStatus::Failed);
    REQUIRE(r.log.steps.size() == 1);
    CHECK(r.log.steps[0].status == StepStatus::Failed);
    CHECK(contains(r.log.steps[0].error, "cost cap of $0.005 ($0.0060 spent"));
    CHECK(std::string(stepStatusName(r.log.steps[0].status)) == "failed");
}

TEST_CASE("story request of turn 100 is within twice that of turn 10 with the default budget") {
    auto largest = [](int turns) {
        Harness t;
    oneFileWorld(t);
        std::string lore = "# Lore\n\n";
        while (lore.size() < 20000) lore += "The marsh keeps its secrets under the reeds.\n";
        t.world.write("lore.md", lore);
        t.chat.setResponder(gameMaster);
        Conversation conversation = campaign(turns - 1);
        // A summary written at turn N-7 (through N-14): this turn folds again, then sends 6 turns.
        if (turns > 14) conversation.turns[turns - 8].summary = StorySummary{std::string(1500, 's'), turns - 14};
        t.run("I walk on", conversation);
        std::size_t most = 0;
        for (const llm::ChatRequest& r : t.chat.requests()) most = std::max(most, llm::buildChatRequestJson(r).size());
        return most;
    };
    const std::size_t at10 = largest(10), at100 = largest(100);
    CHECK(at100 <= 2 * at10);
    CHECK(at100 > at10 / 2);
}

TEST_CASE("story meter estimate counts the narrator's request against the budget") {
    const MemoryWorldFiles world({{"lore.md", std::string(8000, 'l')}});
    WorldConfig config = defaultWorldConfig();
    const ContextEstimate e = estimateNextTurn(world, prompts(), config, campaign(2), "I look around");
    CHECK(e.budgetTokens == 16000);
    CHECK(e.promptTokens > 2000); // the lore file alone is ~2 000 tokens
    CHECK(e.promptTokens == narratorFixedTokens(prompts(), config, world) + e.context.tokens);
    CHECK(e.context.recentTurns == 2);
    CHECK_FALSE(e.foldDue);
    CHECK(estimateNextTurn(world, prompts(), config, campaign(12), "x").foldDue);
}
