// PlanChat over the scripted chat service: text only, one round, several rounds, an error then its
// fix, the round cap with its closing call, Stop, a failed request, undo steps and the saved JSON;
// and once over the Anthropic client with recorded streams (streamed text, tool results back).
#include "src/llm/anthropic_client.h"
#include "src/modes/planner/plan_chat.h"
#include "src/modes/planner/plan_text.h"
#include "tests/fakes/fake_chat.h"
#include "tests/fakes/fake_transport.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace chaiba;
using namespace chaiba::planner;
using chaiba::fakes::FakeChat;

namespace {

PlanChatAssets assets() {
    llm::DirectoryAssetSource source(std::string(CHAIBA_SOURCE_DIR) + "/assets");
    llm::Result<PlanChatAssets> loaded = loadPlanChatAssets(source);
    REQUIRE_MESSAGE(loaded.isOk(), loaded.error);
    return *loaded.value;
}

// A model answer made of planner tool calls: {name, JSON arguments}.
llm::ChatReply calls(std::vector<std::pair<std::string, std::string>> list) {
    static int made = 0;
    llm::ChatReply r;
    for (auto& [name, args] : list) r.toolCalls.push_back({"call_" + std::to_string(++made), name, args});
    r.finishReason = "tool_calls";
    r.usage.costUsd = 0.001;
    return r;
}

const char* kRoot = R"({"id":"plan","name":"Find the best engine level"})";
const char* kGroups = R"({"id":"groups","name":"Groups","stage":{"game":"chess","format":"roundrobin",
    "participants":["engine:1","engine:2","random"],"games":1}})";

struct Harness {
    FakeChat chat;
    PlanChat planChat;
    explicit Harness(int maxRounds = 10) : planChat(chat, assets(), config(maxRounds)) {}
    static PlanChatConfig config(int maxRounds) {
        PlanChatConfig c;
        c.model = "mock/planner";
        c.maxRounds = maxRounds;
        return c;
    }
    void run() {
        for (int i = 0; i < 50 && planChat.busy(); ++i) chat.poll();
    }
    const PlanTurn& last() const { return planChat.turns().back(); }
};

} // namespace

TEST_CASE("plan chat: a text-only answer ends the message with no change") {
    Harness h;
    h.chat.pushText("What should the plan find out?");
    REQUIRE(h.planChat.send("help me plan"));
    CHECK(h.planChat.busy());
    CHECK_FALSE(h.planChat.send("again")); // one message at a time
    h.run();
    CHECK_FALSE(h.planChat.busy());
    REQUIRE(h.planChat.turns().size() == 1);
    CHECK(h.last().end == TurnEnd::Answered);
    CHECK(h.last().reply == "What should the plan find out?");
    CHECK(h.last().rounds == 1);
    CHECK(h.last().calls.empty());
    CHECK(h.last().diff.empty());
    REQUIRE(h.chat.requests().size() == 1);
    const llm::ChatRequest& req = h.chat.requests()[0];
    CHECK(req.tools.size() == 9);
    CHECK(req.toolChoice == llm::ToolChoice::Auto);
    REQUIRE(req.messages.size() == 2);
    CHECK(req.messages[0].role == llm::Role::System);
    CHECK(req.messages[0].content.find("task ID: NAME") != std::string::npos); // the format spec
    CHECK(req.messages[0].content.find("(empty") != std::string::npos);        // the current plan
    CHECK(req.messages[1].content == "help me plan");
    CHECK_FALSE(h.planChat.send("   ")); // blank text is not sent
}

TEST_CASE("plan chat: one round of tool calls changes the plan and records its cards") {
    Harness h;
    int changes = 0;
    h.planChat.onPlanChanged = [&] { ++changes; };
    h.chat.pushReply(calls({{"add_task", kRoot},
                            {"add_task", kGroups},
                            {"add_dependency", R"({"task":"plan","depends_on":"groups"})"}}));
    h.chat.pushText("Added the root and a group stage.");
    h.planChat.send("a plan to rank engine levels");
    h.run();
    CHECK(h.last().end == TurnEnd::Answered);
    CHECK(h.last().rounds == 2);
    REQUIRE(h.last().calls.size() == 3);
    CHECK(h.last().calls[0].card.tool == "add_task");
    CHECK(h.last().calls[0].card.target == "plan");
    CHECK_FALSE(h.last().calls[2].isError);
    CHECK(changes == 1); // the round's calls are one step
    CHECK(h.planChat.plan().tasks.size() == 2);
    CHECK(h.last().diff.addedTasks == std::vector<std::string>{"plan", "groups"});
    CHECK(h.last().diff.addedEdges.size() == 1);
    // The second request carries the answer and one tool result per call, in order.
    REQUIRE(h.chat.requests().size() == 2);
    const auto& msgs = h.chat.requests()[1].messages;
    REQUIRE(msgs.size() == 6);
    CHECK(msgs[2].toolCalls.size() == 3);
    CHECK(msgs[3].role == llm::Role::Tool);
    CHECK(msgs[3].toolCallId == msgs[2].toolCalls[0].id);
    CHECK(h.planChat.log().records().size() == 2);
    CHECK(h.planChat.log().totalCostUsd() == doctest::Approx(0.011));
}

TEST_CASE("plan chat: several rounds, then the next message sees the conversation and the new plan") {
    Harness h;
    h.chat.pushReply(calls({{"add_task", kRoot}}));
    h.chat.pushReply(calls({{"add_task", kGroups}}));
    h.chat.pushReply(calls({{"set_status", R"({"id":"groups","status":"ready"})"}}));
    h.chat.pushText("Done.");
    h.planChat.send("build it step by step");
    h.run();
    CHECK(h.last().rounds == 4);
    CHECK(h.last().calls.size() == 3);
    CHECK(h.planChat.plan().find("groups")->status == TaskStatus::Ready);
    h.chat.pushText("It has two tasks.");
    h.planChat.send("what is in it?");
    h.run();
    const llm::ChatRequest& req = h.chat.requests().back();
    CHECK(req.messages[0].content.find("task groups: Groups") != std::string::npos);
    CHECK(req.messages[1].content == "build it step by step");
    CHECK(req.messages.back().content == "what is in it?");
    CHECK(req.messages.size() == 1 + 1 + 6 + 1 + 1); // system, message, 3×(answer+result), "Done.", message
}

TEST_CASE("plan chat: a refused call goes back as an error result and the model fixes it") {
    Harness h;
    h.chat.pushReply(calls({{"add_task", kRoot}}));
    h.chat.pushReply(calls({{"add_task", R"({"id":"finals","name":"Finals","depends_on":["group"]})"}}));
    h.chat.pushReply(calls({{"add_task", R"({"id":"finals","name":"Finals"})"}}));
    h.chat.pushText("Fixed: finals has no missing dependency now.");
    h.planChat.send("add finals");
    h.run();
    REQUIRE(h.last().calls.size() == 3);
    CHECK(h.last().calls[1].isError);
    CHECK(h.last().calls[1].result.find("group") != std::string::npos);
    CHECK(h.last().toolErrors() == 1);
    CHECK(h.last().end == TurnEnd::Answered);
    CHECK(h.planChat.plan().find("finals") != nullptr);
    const auto& msgs = h.chat.requests()[2].messages;
    CHECK(msgs.back().role == llm::Role::Tool);
    CHECK(msgs.back().content == h.last().calls[1].result);
}

TEST_CASE("plan chat: the round cap ends with one closing call without tools") {
    Harness h(3);
    for (int i = 0; i < 3; ++i) h.chat.pushReply(calls({{"get_graph", "{}"}}));
    h.chat.pushText("I looked at the plan three times; the stages remain to be added.");
    h.planChat.send("keep looking");
    h.run();
    REQUIRE(h.chat.requests().size() == 4);
    const llm::ChatRequest& closing = h.chat.requests()[3];
    CHECK(closing.toolChoice == llm::ToolChoice::None);
    CHECK(closing.tools.size() == 9); // still listed: earlier answers call them
    CHECK(closing.messages.back().role == llm::Role::User);
    CHECK(closing.messages.back().content.find("limit of 3 tool rounds") != std::string::npos);
    CHECK(h.last().end == TurnEnd::Capped);
    CHECK(h.last().rounds == 4);
    CHECK(h.last().reply == "I looked at the plan three times; the stages remain to be added.");
}

TEST_CASE("plan chat: a closing answer that still calls a tool gets an error and ends the message") {
    Harness h(1);
    h.chat.pushReply(calls({{"add_task", kRoot}}));
    h.chat.pushReply(calls({{"add_task", kGroups}}));
    h.planChat.send("go");
    h.run();
    CHECK(h.last().end == TurnEnd::Capped);
    REQUIRE(h.last().calls.size() == 2);
    CHECK(h.last().calls[1].isError);
    CHECK(h.planChat.plan().tasks.size() == 1);
}

TEST_CASE("plan chat: Stop cancels the call in flight and keeps the changes made so far") {
    Harness h;
    h.chat.pushReply(calls({{"add_task", kRoot}}));
    h.chat.pushText("never delivered");
    h.planChat.send("start");
    h.chat.poll(); // round 1 runs; round 2 is in flight
    REQUIRE(h.planChat.busy());
    h.planChat.stop();
    CHECK_FALSE(h.planChat.busy());
    CHECK(h.chat.idle());
    CHECK(h.last().end == TurnEnd::Stopped);
    CHECK(h.planChat.plan().tasks.size() == 1);
    CHECK(h.last().diff.addedTasks.size() == 1);
    // The conversation stays well formed: the next message goes out with every call answered.
    h.chat.pushText("ok");
    REQUIRE(h.planChat.send("continue"));
    h.run();
    const auto& msgs = h.chat.requests().back().messages;
    CHECK(msgs[2].toolCalls.size() == 1);
    CHECK(msgs[3].role == llm::Role::Tool);
}

TEST_CASE("plan chat: a failed request ends the message with its error") {
    Harness h;
    h.chat.pushError(llm::ChatErrorKind::Unauthorized, 401, "HTTP 401: the API key was refused");
    h.planChat.send("hi");
    h.run();
    CHECK(h.last().end == TurnEnd::Failed);
    CHECK(h.last().error.find("401") != std::string::npos);
    CHECK_FALSE(h.planChat.busy());
}

TEST_CASE("plan chat: undo restores the plan before a message and tells the model next time") {
    Harness h;
    h.chat.pushReply(calls({{"add_task", kRoot}}));
    h.chat.pushText("root added");
    h.planChat.send("first");
    h.run();
    h.chat.pushReply(calls({{"add_task", kGroups}}));
    h.chat.pushText("groups added");
    h.planChat.send("second");
    h.run();
    CHECK(h.planChat.plan().tasks.size() == 2);
    std::string why;
    CHECK_FALSE(h.planChat.undo(5, &why));
    CHECK(why == "no such message");
    REQUIRE(h.planChat.undo(1));
    CHECK(h.planChat.plan().tasks.size() == 1);
    CHECK(h.planChat.turns()[1].undone);
    CHECK_FALSE(h.planChat.turns()[0].undone);
    CHECK_FALSE(h.planChat.undo(1, &why));
    h.chat.pushText("noted");
    h.planChat.send("third");
    h.run();
    const std::string& said = h.chat.requests().back().messages.back().content;
    CHECK(said.find("undid their message \"second\"") != std::string::npos);
    CHECK(said.find("third") != std::string::npos);
    // Undoing the first message also undoes the ones after it.
    REQUIRE(h.planChat.undo(0));
    CHECK(h.planChat.plan().tasks.empty());
    CHECK(h.planChat.turns()[2].undone);
}

TEST_CASE("plan chat: plan and chat survive a round trip through JSON") {
    Harness h;
    h.chat.pushReply(
        calls({{"add_task", kRoot}, {"add_task", R"({"id":"x","name":"X","depends_on":["nope"]})"}}));
    h.chat.pushText("root added");
    h.planChat.send("first");
    h.run();
    const std::string saved = h.planChat.toJson();
    CHECK(saved.find("\"version\": 1") != std::string::npos);

    FakeChat other;
    PlanChat restored(other, assets(), Harness::config(10));
    REQUIRE(restored.loadJson(saved));
    CHECK(restored.plan() == h.planChat.plan());
    REQUIRE(restored.turns().size() == 1);
    CHECK(restored.turns()[0].text == "first");
    CHECK(restored.turns()[0].calls.size() == 2);
    CHECK(restored.turns()[0].calls[1].isError);
    CHECK(restored.turns()[0].diff == h.planChat.turns()[0].diff);
    CHECK(restored.toJson() == saved);
    // The model sees the same conversation after a reload.
    other.pushText("hello again");
    restored.send("next");
    for (int i = 0; i < 5; ++i) other.poll();
    CHECK(other.requests().back().messages.size() == 1 + 5 + 1);

    std::string why;
    CHECK_FALSE(restored.loadJson("{not json", &why));
    CHECK_FALSE(restored.loadJson(R"({"version":99})", &why));
    CHECK(why.find("newer") != std::string::npos);
    CHECK_FALSE(restored.loadJson(R"({"version":1,"plan":"task a: A\n  status nonsense"})", &why));
    CHECK(why.find("line 2") != std::string::npos);
    CHECK_FALSE(
        restored.loadJson(R"({"version":1,"turns":[{"rounds":"x"}],"history":[{"role":"system"}]})", &why));
    CHECK(restored.plan() == h.planChat.plan()); // nothing changed by the refused loads
}

TEST_CASE("plan chat: an imported plan replaces the current one and is announced") {
    Harness h;
    Result<PlanGraph> plan = parsePlan("task p: P\n");
    REQUIRE(plan.ok());
    h.planChat.importPlan(*plan.value);
    CHECK(h.planChat.plan().tasks.size() == 1);
    h.chat.pushText("seen");
    h.planChat.send("look");
    h.run();
    CHECK(h.chat.requests()[0].messages.back().content.find("imported a plan") != std::string::npos);
    CHECK(h.chat.requests()[0].messages[0].content.find("task p: P") != std::string::npos);
}

TEST_CASE("plan chat: a hand edit is an undo step with its net change, saved, reverted and announced") {
    Harness h;
    h.chat.pushReply(calls({{"add_task", kRoot}, {"add_task", kGroups}}));
    h.chat.pushText("two tasks");
    h.planChat.send("first");
    h.run();
    const PlanGraph afterMessage = h.planChat.plan();
    // The editor's mutation, applied by hand.
    PlanResult renamed = updateTask(afterMessage, "groups", TaskUpdate{.name = std::string("Group stage")}, {});
    REQUIRE(renamed.ok());
    REQUIRE(h.planChat.handEdit(*renamed.value, "edited task 'groups'"));
    PlanResult linked = addDependency(*renamed.value, "plan", "groups", {});
    REQUIRE(linked.ok());
    REQUIRE(h.planChat.handEdit(*linked.value, "added the dependency plan → groups"));
    REQUIRE(h.planChat.turns().size() == 3);
    const PlanTurn& edit = h.planChat.turns()[1];
    CHECK(edit.byHand);
    CHECK(edit.text == "edited task 'groups'");
    CHECK(edit.calls.empty());
    CHECK(edit.diff.text() == "1 changed");
    CHECK(h.planChat.turns()[2].diff.text() == "+1 edge");
    std::string why;
    CHECK_FALSE(h.planChat.handEdit(h.planChat.plan(), "nothing", &why));
    CHECK(why == "nothing changed");
    // Saved and read back as hand edits.
    FakeChat other;
    PlanChat restored(other, assets(), Harness::config(10));
    REQUIRE(restored.loadJson(h.planChat.toJson()));
    REQUIRE(restored.turns().size() == 3);
    CHECK(restored.turns()[1].byHand);
    CHECK_FALSE(restored.turns()[0].byHand);
    // Revert the rename: the later edge goes with it; the message's tasks stay.
    REQUIRE(h.planChat.undo(1));
    CHECK(h.planChat.plan() == afterMessage);
    CHECK(h.planChat.turns()[2].undone);
    CHECK_FALSE(h.planChat.turns()[0].undone);
    h.chat.pushText("seen");
    h.planChat.send("what now?");
    h.run();
    const std::string& said = h.chat.requests().back().messages.back().content;
    CHECK(said.find("edited task 'groups' by hand") != std::string::npos);
    CHECK(said.find("undid their hand edit \"edited task 'groups'\" and the 1 after it") != std::string::npos);
    // While a message runs, a hand edit is refused and nothing changes.
    h.chat.pushText("slow");
    h.planChat.send("again");
    REQUIRE(h.planChat.busy());
    CHECK_FALSE(h.planChat.handEdit(*linked.value, "added the dependency", &why));
    CHECK(why == "a message is still running: wait for it or stop it first");
    CHECK(h.planChat.plan() == afterMessage);
    h.run();
}

TEST_CASE("plan chat: through the Anthropic client, streamed text arrives and tool results go back") {
    fakes::FakeTransport transport;
    fakes::FakeClock clock;
    llm::AnthropicConfig config;
    config.baseUrl = "http://127.0.0.1:9";
    config.apiKey = "sk-ant-test";
    llm::AnthropicClient client(transport, clock, config);
    auto recorded = [](const char* name) {
        std::ifstream in(std::string(CHAIBA_SOURCE_DIR) + "/tests/data/anthropic/" + name, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        fakes::FakeReply r;
        const std::string all = text.str();
        for (size_t i = 0; i < all.size(); i += 50) r.chunks.push_back(all.substr(i, 50));
        return r;
    };
    transport.push(recorded("tool_use.sse")); // thinking, text, add_task groups, get_graph
    transport.push(recorded("text.sse"));
    PlanChatConfig chatConfig;
    chatConfig.model = "claude-sonnet-4-5";
    PlanChat planChat(client, assets(), chatConfig);
    std::string streamed;
    std::string seenMidway;
    planChat.onText = [&](const std::string& delta) {
        streamed += delta;
        seenMidway = planChat.streamingText();
    };
    REQUIRE(planChat.send("a group stage please"));
    for (int i = 0; i < 20 && planChat.busy(); ++i) client.poll();
    REQUIRE_FALSE(planChat.busy());
    CHECK(streamed == "Adding the group stage.The plan has two stages.");
    CHECK(seenMidway == "The plan has two stages.");
    const PlanTurn& turn = planChat.turns().back();
    CHECK(turn.end == TurnEnd::Answered);
    CHECK(turn.reply == "The plan has two stages.");
    REQUIRE(turn.calls.size() == 2);
    CHECK(turn.calls[0].card.text().find("add_task groups") == 0);
    CHECK(planChat.plan().tasks.size() == 1);
    CHECK(planChat.log().totalUsage().promptTokens == 3700 + 2272);
    // The second request answers both tool_use blocks and sends the signed thinking back.
    REQUIRE(transport.requests().size() == 2);
    const std::string& body = transport.requests()[1].body;
    CHECK(body.find(R"("tool_use_id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6")") != std::string::npos);
    CHECK(body.find(R"("tool_use_id":"toolu_01Vjk2PnRLmbmeRgEgaScNUE")") != std::string::npos);
    CHECK(body.find("EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds") != std::string::npos);
}

TEST_CASE("plan chat: calls with the model's words beside them end the message in one model call") {
    Harness h;
    llm::ChatReply reply = calls({{"add_task", kRoot}, {"add_task", kGroups},
                                  {"add_dependency", R"({"task":"plan","depends_on":"groups"})"}});
    reply.content = "Added the plan and a group stage; next, a final.";
    h.chat.pushReply(reply);
    h.planChat.send("a plan to rank engine levels");
    h.run();
    CHECK(h.last().end == TurnEnd::Answered);
    CHECK(h.last().rounds == 1);
    CHECK(h.last().reply == "Added the plan and a group stage; next, a final.");
    CHECK(h.planChat.plan().tasks.size() == 2);
    REQUIRE(h.chat.requests().size() == 1);
    CHECK(h.chat.requests()[0].parallelToolCalls); // the model may batch its calls
    // Compact results: what each call did; the round's last one has the plan once.
    CHECK(h.last().calls[0].result.find('\n') == std::string::npos);
    CHECK(h.last().calls[2].result.find("Plan: 2 tasks") != std::string::npos);
    // A round that reads the plan (get_graph) goes on even with words beside it.
    llm::ChatReply asks = calls({{"get_graph", "{}"}});
    asks.content = "Let me look at the plan.";
    h.chat.pushReply(asks);
    h.chat.pushText("It has two tasks.");
    h.planChat.send("what is in it?");
    h.run();
    CHECK(h.last().rounds == 2);
    CHECK(h.last().reply == "It has two tasks.");
}

TEST_CASE("plan chat: a round with a refused call applies none of its calls and every result says so") {
    Harness h;
    int changes = 0;
    h.planChat.onPlanChanged = [&] { ++changes; };
    llm::ChatReply wrong = calls({{"add_task", kRoot}, {"add_task", kGroups},
                                  {"add_task", R"({"id":"finals","name":"Finals","depends_on":["group"]})"}});
    wrong.content = "Added all three.";
    h.chat.pushReply(wrong);
    llm::ChatReply fixed = calls({{"add_task", kRoot}, {"add_task", kGroups},
                                  {"add_task", R"({"id":"finals","name":"Finals","depends_on":["groups"]})"}});
    fixed.content = "Added all three (fixed the dependency).";
    h.chat.pushReply(fixed);
    h.planChat.send("a plan with groups and finals");
    h.run();
    REQUIRE(h.last().calls.size() == 6);
    for (int i = 0; i < 3; ++i) CHECK_MESSAGE(h.last().calls[i].isError, h.last().calls[i].result);
    CHECK(h.last().calls[2].result.find("no task 'group'") != std::string::npos);
    CHECK(h.last().calls[2].result.find("nothing of this answer's 3 calls was applied: call 3 refused") != std::string::npos);
    CHECK(h.last().calls[0].result.find("Not applied") == 0);
    // The model read every result of the refused round, then sent it again fixed: one step.
    const auto& msgs = h.chat.requests()[1].messages;
    CHECK(msgs.back().role == llm::Role::Tool);
    CHECK(msgs.back().content == h.last().calls[2].result);
    CHECK(changes == 1);
    CHECK(h.last().rounds == 2);
    CHECK(h.last().end == TurnEnd::Answered);
    CHECK(h.planChat.plan().tasks.size() == 3);
    CHECK(h.last().toolErrors() == 3);
}

TEST_CASE("plan chat: earlier tool results are kept as their first line, and the oldest messages leave past the budget") {
    Harness h;
    h.chat.pushReply(calls({{"add_task", kRoot}, {"add_task", kGroups}}));
    h.chat.pushText("Done.");
    h.planChat.send("start a plan");
    h.run();
    const nlohmann::json saved = nlohmann::json::parse(h.planChat.toJson());
    for (const nlohmann::json& m : saved["history"])
        if (m["role"] == "tool") CHECK(m["content"].get<std::string>().find('\n') == std::string::npos);
    // Many long messages: the conversation sent stays within its budget, the latest message whole.
    const std::string longText(3000, 'x');
    for (int i = 0; i < 20; ++i) {
        h.chat.pushText("Noted " + std::to_string(i) + ".");
        h.planChat.send(longText + " " + std::to_string(i));
        h.run();
    }
    h.chat.pushText("ok");
    h.planChat.send("last");
    h.run();
    const auto& sent = h.chat.requests().back().messages;
    size_t chars = 0;
    for (size_t i = 1; i < sent.size(); ++i) chars += sent[i].content.size();
    CHECK(chars < 30000);
    CHECK(sent[1].role == llm::Role::User); // whole messages leave, never half of one
    CHECK(sent.back().content == "last");
    CHECK(sent[sent.size() - 2].content == "Noted 19.");
}

namespace {
// A harness whose model's changes wait for review.
struct ReviewHarness : Harness {
    ReviewHarness() {
        PlanChatConfig c = config(10);
        c.review = true;
        reviewed.emplace(chat, assets(), c);
    }
    std::optional<PlanChat> reviewed;
    void run() {
        for (int i = 0; i < 50 && reviewed->busy(); ++i) chat.poll();
    }
    void say(const std::string& text, llm::ChatReply reply) {
        chat.pushReply(std::move(reply));
        REQUIRE(reviewed->send(text));
        run();
    }
};
const char* kFinal = R"({"id":"final","name":"Final","depends_on":["groups"],"stage":{"game":"chess",
    "format":"roundrobin","participants":["top 2 of groups","engine:4"],"games":1}})";
llm::ChatReply withWords(llm::ChatReply reply, std::string words) {
    reply.content = std::move(words);
    return reply;
}
} // namespace

TEST_CASE("plan chat review: a proposal waits and the graph shows it, the plan does not change until Accept") {
    ReviewHarness h;
    h.say("build it", withWords(calls({{"add_task", kRoot}, {"add_task", kGroups}}), "root and groups"));
    PlanChat& c = *h.reviewed;
    REQUIRE(c.pendingReview() == size_t(0));
    CHECK(c.plan().tasks.empty());
    CHECK(c.shownPlan().tasks.size() == 2);
    CHECK(c.turns()[0].diff.text() == "+2 tasks");
    // Nothing else happens while it waits: a message, a hand edit, an undo are refused with why.
    CHECK_FALSE(c.send("more"));
    std::string why;
    CHECK_FALSE(c.handEdit(c.shownPlan(), "x", &why));
    CHECK(why.find("waits for review") != std::string::npos);
    CHECK_FALSE(c.undo(0, &why));
    REQUIRE(c.accept(nullptr, &why));
    CHECK_FALSE(c.pendingReview());
    CHECK(c.plan().tasks.size() == 2);
    CHECK(c.turns()[0].review == Review::Accepted);
    CHECK_FALSE(c.accept(nullptr, &why));
    CHECK(why == "no proposed change waits for review");
}

TEST_CASE("plan chat review: Reject drops the proposal and the model reads why next time") {
    ReviewHarness h;
    PlanChat& c = *h.reviewed;
    h.say("build it", withWords(calls({{"add_task", kRoot}}), "root"));
    REQUIRE(c.reject());
    CHECK(c.plan().tasks.empty());
    CHECK(c.turns()[0].review == Review::Rejected);
    CHECK(c.turns()[0].diff.empty());
    h.say("try again", withWords(calls({{"add_task", kRoot}}), "root again"));
    const std::string& said = h.chat.requests().back().messages.back().content;
    CHECK(said.find("rejected the changes of your last answer (+1 task)") != std::string::npos);
    CHECK(said.find("try again") != std::string::npos);
}

TEST_CASE("plan chat review: per task accept applies that part, refuses a part that is not a plan") {
    ReviewHarness h;
    PlanChat& c = *h.reviewed;
    h.say("base", withWords(calls({{"add_task", kRoot}, {"add_task", kGroups},
                                   {"add_dependency", R"({"task":"plan","depends_on":"groups"})"}}), "base"));
    REQUIRE(c.accept());
    h.say("a final, and rename the plan",
          withWords(calls({{"add_task", kFinal}, {"update_task", R"({"id":"plan","name":"Rank the levels"})"},
                           {"update_task", R"({"id":"groups","name":"Group stage"})"}}), "final"));
    const std::vector<TaskChange> changes = taskChanges(c.turns()[1].before, c.turns()[1].after);
    REQUIRE(changes.size() == 3);
    CHECK(changes[0].id == "plan");
    CHECK(changes[0].removedLines == std::vector<std::string>{"task plan: Find the best engine level"});
    CHECK(changes[0].addedLines == std::vector<std::string>{"task plan: Rank the levels"});
    // Only the rename of groups, not the plan's: the plan keeps its name.
    std::vector<std::string> only{"groups"};
    std::string why;
    REQUIRE(c.accept(&only, &why));
    CHECK(c.plan().find("groups")->name == "Group stage");
    CHECK(c.plan().find("plan")->name == "Find the best engine level");
    CHECK_FALSE(c.plan().find("final"));
    CHECK(c.turns()[1].review == Review::Partial);
    CHECK(c.turns()[1].reviewNote == "accepted the change to groups; rejected the ones to plan and final");
    CHECK(c.turns()[1].diff.text() == "1 changed");
}

TEST_CASE("plan chat review: a part that depends on a rejected part is refused and names it") {
    ReviewHarness h;
    PlanChat& c = *h.reviewed;
    h.say("base", withWords(calls({{"add_task", kRoot}}), "base"));
    REQUIRE(c.accept());
    h.say("groups and final", withWords(calls({{"add_task", kGroups}, {"add_task", kFinal}}), "two stages"));
    std::vector<std::string> only{"final"};
    std::string why;
    CHECK_FALSE(c.accept(&only, &why));
    CHECK(why.find("'groups'") != std::string::npos);
    CHECK(why.find("accept the change to 'groups' with it") != std::string::npos);
    CHECK(c.pendingReview() == size_t(1)); // still waiting, nothing applied
    CHECK(c.plan().tasks.size() == 1);
    std::vector<std::string> none;
    CHECK_FALSE(c.accept(&none, &why));
    // A removal kept back keeps the task where it stood.
    only = {"groups", "final"};
    REQUIRE(c.accept(&only));
    h.say("drop final and groups", withWords(calls({{"remove_task", R"({"id":"final"})"},
                                                    {"remove_task", R"({"id":"groups"})"}}), "dropped"));
    only = {"final"};
    REQUIRE(c.accept(&only, &why));
    REQUIRE(c.plan().tasks.size() == 2);
    CHECK(c.plan().tasks[1].id == "groups");
}

TEST_CASE("plan chat review: a pending proposal survives the JSON round trip") {
    ReviewHarness h;
    PlanChat& c = *h.reviewed;
    h.say("build it", withWords(calls({{"add_task", kRoot}}), "root"));
    const std::string saved = c.toJson();
    ReviewHarness other;
    std::string why;
    REQUIRE_MESSAGE(other.reviewed->loadJson(saved, &why), why);
    REQUIRE(other.reviewed->pendingReview() == size_t(0));
    CHECK(other.reviewed->plan().tasks.empty());
    CHECK(other.reviewed->shownPlan().tasks.size() == 1);
    REQUIRE(other.reviewed->accept());
    CHECK(other.reviewed->plan().tasks.size() == 1);
}

TEST_CASE("plan chat: redo takes back the last undo, and only while the plan is as it left it") {
    Harness h;
    PlanChat& c = h.planChat;
    h.chat.pushReply(withWords(calls({{"add_task", kRoot}}), "root"));
    c.send("first");
    h.run();
    h.chat.pushReply(withWords(calls({{"add_task", kGroups}}), "groups"));
    c.send("second");
    h.run();
    std::string why;
    CHECK_FALSE(c.redo(&why));
    CHECK(why == "nothing to redo");
    CHECK(c.laterSteps(0) == 1);
    CHECK(c.laterSteps(1) == 0);
    REQUIRE(c.undo(0));
    CHECK(c.plan().tasks.empty());
    CHECK(c.redoText() == "the message \"first\" and 1 after it");
    REQUIRE(c.redo(&why));
    CHECK(c.plan().tasks.size() == 2);
    CHECK_FALSE(c.turns()[0].undone);
    CHECK_FALSE(c.turns()[1].undone);
    // After an undo and another change, redo is refused.
    REQUIRE(c.undo(1));
    PlanGraph edited = c.plan();
    edited.tasks[0].name = "Renamed";
    REQUIRE(c.handEdit(edited, "renamed the plan"));
    CHECK(c.redoText().empty());
    CHECK_FALSE(c.redo(&why));
    h.chat.pushText("ok");
    c.send("third");
    h.run();
    const std::string& said = h.chat.requests().back().messages.back().content;
    CHECK(said.find("redid the message \"first\" and 1 after it (+2 tasks)") != std::string::npos);
}

TEST_CASE("plan chat: tool calls stream in before the reply runs them and clear when it arrives") {
    Harness h;
    llm::ChatReply first = calls({{"add_task", kRoot}}); // no words: a second round follows
    const llm::ToolCall whole = first.toolCalls[0];
    auto cut = [&](size_t n) { return llm::ToolCall{whole.id, whole.name, whole.arguments.substr(0, n)}; };
    h.chat.pushStreamed(first, {{cut(0)}, {cut(12)}, {whole}});
    h.chat.pushText("The plan has its root.");
    std::vector<size_t> arrived; // the streamed arguments' length at each redraw
    h.planChat.onText = [&](const std::string& delta) {
        if (delta.empty() && !h.planChat.streamingCalls().empty())
            arrived.push_back(h.planChat.streamingCalls()[0].arguments.size());
    };
    size_t streamingAtCard = 99;
    h.planChat.onToolCall = [&](const PlanToolCall&) { streamingAtCard = h.planChat.streamingCalls().size(); };
    REQUIRE(h.planChat.send("start a plan"));
    CHECK(h.planChat.streamingCalls().empty());
    h.chat.poll(); // the calls stream; the reply is not there yet
    REQUIRE(h.planChat.busy());
    REQUIRE(h.planChat.streamingCalls().size() == 1);
    CHECK(h.planChat.streamingCalls()[0].name == "add_task");
    CHECK(h.planChat.streamingCalls()[0].arguments == whole.arguments);
    CHECK(arrived == std::vector<size_t>{0, 12, whole.arguments.size()});
    CHECK(h.last().calls.empty()); // nothing ran: no card yet, the plan unchanged
    CHECK(h.planChat.plan().tasks.empty());
    h.chat.poll(); // the reply: its call runs, the second round is sent
    CHECK(streamingAtCard == 0);
    REQUIRE(h.planChat.busy());
    CHECK(h.planChat.streamingCalls().empty()); // between rounds
    REQUIRE(h.last().calls.size() == 1);
    CHECK(h.planChat.plan().tasks.size() == 1);
    h.run();
    CHECK_FALSE(h.planChat.busy());
    CHECK(h.planChat.streamingCalls().empty());
    CHECK(h.last().end == TurnEnd::Answered);
    CHECK(h.last().reply == "The plan has its root.");
}

TEST_CASE("plan chat: the same read call over and over stops the message instead of running to the cap") {
    Harness h;
    for (int i = 0; i < 8; ++i) h.chat.pushReply(calls({{"get_graph", "{}"}}));
    h.planChat.send("look at it");
    h.run();
    CHECK(h.last().end == TurnEnd::Failed);
    CHECK(h.last().error.find("repeated") != std::string::npos);
    REQUIRE(h.last().calls.size() == 4);
    CHECK_FALSE(h.last().calls[0].isError);
    CHECK(h.last().calls[1].result.find("you already made this exact get_graph call") != std::string::npos);
    CHECK(h.last().rounds == 4); // not the 10 of the cap
    // A new message may ask again.
    h.chat.pushReply(withWords(calls({{"get_graph", "{}"}}), "reading"));
    h.chat.pushText("done");
    h.planChat.send("and now?");
    h.run();
    CHECK_FALSE(h.last().calls[0].isError);
}
