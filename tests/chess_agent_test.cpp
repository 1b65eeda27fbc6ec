// The chess agent with a scripted chat service: the conversion table, the turn loop (accept,
// retry with feedback, forfeit), malformed tool arguments, text mode, prose, errors, costs,
// cache-breakpoint placement with a byte-identical prefix, human moves.
#include "src/modes/chess/chess_agent.h"
#include "src/llm/openrouter_json.h"
#include "tests/fakes/fake_chat.h"

#include <doctest/doctest.h>

#include <set>

using namespace chaiba;
using namespace chaiba::chessmode;
using chaiba::fakes::FakeChat;

namespace {

AgentPrompts loadPrompts() {
    DirectoryAssetSource assets(std::string(CHAIBA_SOURCE_DIR) + "/assets");
    Result<AgentPrompts> p = loadAgentPrompts(assets);
    REQUIRE_MESSAGE(p.isOk(), p.error);
    return *p.value;
}

// A judge over a fixed set of legal SAN moves; in text mode it reads "MOVE: X".
MoveJudge judgeOf(std::set<std::string> legal) {
    return [legal](const std::string& text) {
        std::string move = text;
        if (const auto at = text.rfind("MOVE: "); at != std::string::npos) move = text.substr(at + 6);
        MoveVerdict v;
        if (legal.count(move)) {
            v.legal = true;
            v.san = move;
            v.uci = "uci-" + move;
        } else if (text.find(' ') != std::string::npos && text.find("MOVE: ") == std::string::npos) {
            v.reason = "no move found";
        } else {
            v.reason = move + " is not legal";
        }
        return v;
    };
}

TurnInfo turnAt(int fullmove, bool inCheck = false) {
    TurnInfo t;
    t.fen = "fen-at-" + std::to_string(fullmove);
    t.fullmoveNumber = fullmove;
    t.history = fullmove == 1 ? "" : "1. e4 e5";
    t.legalMoves = {"e4", "d4", "Nf3"};
    t.inCheck = inCheck;
    return t;
}

struct Fixture {
    AgentPrompts prompts = loadPrompts();
    FakeChat chat;
    GameConversation conversation;

    AgentConfig config(Side side = Side::White) {
        AgentConfig c;
        c.id = side == Side::White ? "w" : "b";
        c.name = side == Side::White ? "Alpha" : "Beta";
        c.model = "test/model";
        c.side = side;
        return c;
    }
    TurnResult play(ChessAgent& agent, TurnInfo info, MoveJudge judge) {
        agent.startTurn(std::move(info), std::move(judge));
        for (int i = 0; i < 50; ++i) {
            chat.poll();
            if (auto r = agent.takeResult()) return *r;
        }
        FAIL("the agent did not finish its turn");
        return {};
    }
};

} // namespace

TEST_CASE("conversion: an entry reaches exactly the seats of its audience") {
    Fixture f;
    GameConversation& c = f.conversation;
    auto say = [&](std::string text, chaiba::llm::Audience audience) {
        ConversationEntry e;
        e.kind = ConversationEntry::Kind::Moderator;
        e.text = std::move(text);
        e.audience = std::move(audience);
        c.add(std::move(e));
    };
    say("for all", chaiba::llm::Audience::everyone());
    say("for white", chaiba::llm::Audience::seat("w"));
    say("for a team", chaiba::llm::Audience::team("wolves"));
    say("for spectators", chaiba::llm::Audience::spectators());
    const AgentIdentity white{"w", "Alpha", Side::White, "Beta"};
    const AgentIdentity black{"b", "Beta", Side::Black, "Alpha"};
    auto texts = [&](const AgentIdentity& who) {
        std::vector<std::string> out;
        for (const ChatMessage& m : convertConversation(c, who, f.prompts, {})) out.push_back(m.content);
        return out;
    };
    CHECK(texts(white) == std::vector<std::string>{"[MODERATOR] for all", "[MODERATOR] for white"});
    CHECK(texts(black) == std::vector<std::string>{"[MODERATOR] for all"});
    CHECK(chaiba::llm::Audience::team("wolves").includes("p3", "wolves"));
    CHECK_FALSE(chaiba::llm::Audience::team("wolves").includes("p4", "villagers"));
    CHECK_FALSE(chaiba::llm::Audience::spectators().includes("w"));
}

TEST_CASE("conversion: the shared conversation as seen by each agent") {
    Fixture f;
    GameConversation& c = f.conversation;
    c.gameStart(true);
    ConversationEntry ctx{
        ConversationEntry::Kind::Context, "w", "Alpha", "ctx for white", {}, {}, {}, 1, false, {}};
    c.add(ctx);
    ConversationEntry reply{ConversationEntry::Kind::AgentReply,
                            "w",
                            "Alpha",
                            "I open with e4",
                            {{"c1", "make_move", R"({"move":"e4"})"}},
                            {},
                            {},
                            0,
                            false,
                            {}};
    c.add(reply);
    ConversationEntry result{
        ConversationEntry::Kind::ToolResult, "w", "Alpha", "Move accepted: e4.", {}, "c1", {}, 0, false, {}};
    c.add(result);
    c.movePlayed("w", "Alpha", "e4");
    c.moderator("Play nicely.");
    ConversationEntry bctx{
        ConversationEntry::Kind::Context, "b", "Beta", "ctx for black", {}, {}, {}, 1, false, {}};
    c.add(bctx);
    ConversationEntry feedback{
        ConversationEntry::Kind::Feedback, "b", "Beta", "You did not make a move.", {}, {}, {}, 0, false, {}};
    c.add(feedback);

    const AgentIdentity white{"w", "Alpha", Side::White, "Beta"};
    const AgentIdentity black{"b", "Beta", Side::Black, "Alpha"};
    const auto w = convertConversation(c, white, f.prompts, {});
    const auto b = convertConversation(c, black, f.prompts, {});

    // White: game-start pair, own context, own reply with its tool call, own tool result, moderator.
    REQUIRE(w.size() == 6);
    CHECK(w[0].role == Role::User);
    CHECK(w[0].content.find("@Alpha") != std::string::npos);
    CHECK(w[0].content.find("White") != std::string::npos);
    CHECK(w[0].content.find("Chess960") != std::string::npos);
    CHECK(w[1].role == Role::Assistant);
    CHECK(w[2].role == Role::User);
    CHECK(w[2].content == "[SYSTEM] ctx for white");
    CHECK(w[3].role == Role::Assistant);
    CHECK(w[3].content == "I open with e4");
    REQUIRE(w[3].toolCalls.size() == 1);
    CHECK(w[4].role == Role::Tool);
    CHECK(w[4].toolCallId == "c1");
    CHECK(w[5].content == "[MODERATOR] Play nicely.");

    // Black: its own pair, the opponent's text as [@Alpha], the opponent's move, the moderator,
    // its own context and feedback; never White's context, tool call or tool result.
    REQUIRE(b.size() == 7);
    CHECK(b[0].content.find("@Beta") != std::string::npos);
    CHECK(b[0].content.find("Black") != std::string::npos);
    CHECK(b[2].role == Role::User);
    CHECK(b[2].content == "[@Alpha] I open with e4");
    CHECK(b[3].content == "Opponent played e4.");
    CHECK(b[4].content == "[MODERATOR] Play nicely.");
    CHECK(b[5].content == "[SYSTEM] ctx for black");
    CHECK(b[6].content == "[SYSTEM] You did not make a move.");
    for (const ChatMessage& m : b) {
        CHECK(m.role != Role::Tool);
        CHECK(m.toolCalls.empty());
        CHECK(m.content.find("ctx for white") == std::string::npos);
    }
}

TEST_CASE("agent: a legal tool move is accepted, request carries system prompt, context and tool") {
    Fixture f;
    f.conversation.gameStart(false);
    ChessAgent agent(f.config(), f.prompts, f.chat, f.conversation, "Beta");
    f.chat.pushToolMove(R"({"move":"e4","reasoning":"centre"})", 0.02);
    const TurnResult r = f.play(agent, turnAt(1), judgeOf({"e4", "d4"}));
    CHECK(r.kind == TurnResult::Kind::Move);
    CHECK(r.san == "e4");
    CHECK(r.uci == "uci-e4");
    CHECK(r.reasoning == "centre");
    CHECK(r.attempts == 1);
    CHECK(r.costUsd == doctest::Approx(0.02));
    REQUIRE(f.chat.requests().size() == 1);
    const ChatRequest& req = f.chat.requests()[0];
    CHECK(req.model == "test/model");
    CHECK(req.messages[0].role == Role::System);
    CHECK(req.messages[0].content.find("White") != std::string::npos);
    CHECK(req.messages.back().content.find("fen-at-1") != std::string::npos);
    CHECK(req.messages.back().content.find("(none yet)") != std::string::npos);
    REQUIRE(req.tools.size() == 1);
    CHECK(req.tools[0].name == "make_move");
    CHECK(agent.status() == AgentStatus::Idle);
    // The accepted move's tool result is in the conversation for the next request.
    const auto next = agent.buildMessages();
    CHECK(next.back().role == Role::Tool);
    CHECK(next.back().content == "Move accepted: e4.");
}

TEST_CASE("agent: an illegal move is retried with the reason, check and FEN, then accepted") {
    Fixture f;
    ChessAgent agent(f.config(), f.prompts, f.chat, f.conversation, "Beta");
    f.chat.pushToolMove(R"({"move":"Ke2"})");
    f.chat.pushToolMove(R"({"move":"Nf3"})");
    const TurnResult r = f.play(agent, turnAt(5, true), judgeOf({"Nf3"}));
    CHECK(r.kind == TurnResult::Kind::Move);
    CHECK(r.san == "Nf3");
    CHECK(r.attempts == 2);
    CHECK(r.costUsd == doctest::Approx(0.02));
    REQUIRE(f.chat.requests().size() == 2);
    const ChatMessage& feedback = f.chat.requests()[1].messages.back();
    CHECK(feedback.role == Role::Tool);
    CHECK(feedback.content.find("Ke2 is not legal") != std::string::npos);
    CHECK(feedback.content.find("You are in check.") != std::string::npos);
    CHECK(feedback.content.find("fen-at-5") != std::string::npos);
}

TEST_CASE("agent: without sendFenOnError the feedback has no FEN") {
    Fixture f;
    AgentConfig c = f.config();
    c.sendFenOnError = false;
    ChessAgent agent(c, f.prompts, f.chat, f.conversation, "Beta");
    f.chat.pushToolMove(R"({"move":"Ke2"})");
    f.chat.pushToolMove(R"({"move":"Nf3"})");
    f.play(agent, turnAt(5), judgeOf({"Nf3"}));
    const ChatMessage& feedback = f.chat.requests()[1].messages.back();
    CHECK(feedback.content.find("fen-at-5") == std::string::npos);
    CHECK(feedback.content.find("in check") == std::string::npos);
}

TEST_CASE("agent: attempts run out → forfeit, never a skipped turn") {
    for (int retries : {0, 1, 3, 10}) {
        CAPTURE(retries);
        Fixture f;
        AgentConfig c = f.config();
        c.retryAttempts = retries;
        ChessAgent agent(c, f.prompts, f.chat, f.conversation, "Beta");
        for (int i = 0; i < retries + 1; ++i) f.chat.pushToolMove(R"({"move":"Qxz9"})");
        const TurnResult r = f.play(agent, turnAt(3), judgeOf({"e4"}));
        CHECK(r.kind == TurnResult::Kind::Forfeit);
        CHECK(r.attempts == retries + 1);
        CHECK(f.chat.requests().size() == static_cast<std::size_t>(retries + 1));
        CHECK(r.message.find("no legal move") != std::string::npos);
    }
}

TEST_CASE("agent: malformed tool arguments get a tool error and a retry") {
    for (const char* args :
         {"{\"move\": \"e4\"", "not json", "[]", "{}", R"({"move": 5})", R"({"move": ""})"}) {
        CAPTURE(args);
        Fixture f;
        ChessAgent agent(f.config(), f.prompts, f.chat, f.conversation, "Beta");
        f.chat.pushToolMove(args);
        f.chat.pushToolMove(R"({"move":"e4"})");
        const TurnResult r = f.play(agent, turnAt(1), judgeOf({"e4"}));
        CHECK(r.kind == TurnResult::Kind::Move);
        CHECK(r.attempts == 2);
        const ChatMessage& feedback = f.chat.requests()[1].messages.back();
        CHECK(feedback.role == Role::Tool);
        CHECK(feedback.content.rfind("Error:", 0) == 0);
    }
}

TEST_CASE("agent: every tool call gets a result, unknown tools and extra moves are refused") {
    Fixture f;
    ChessAgent agent(f.config(), f.prompts, f.chat, f.conversation, "Beta");
    ChatReply reply;
    reply.toolCalls = {{"a", "resign", "{}"},
                       {"b", "make_move", R"({"move":"d4"})"},
                       {"c", "make_move", R"({"move":"e4"})"}};
    f.chat.pushReply(reply);
    const TurnResult r = f.play(agent, turnAt(1), judgeOf({"e4", "d4"}));
    CHECK(r.san == "d4");
    const auto messages = agent.buildMessages();
    REQUIRE(messages.size() >= 4);
    const std::size_t n = messages.size();
    CHECK(messages[n - 4].toolCalls.size() == 3);
    CHECK(messages[n - 3].content.find("unknown tool") != std::string::npos);
    CHECK(messages[n - 2].content == "Move accepted: d4.");
    CHECK(messages[n - 1].content == "Ignored: one move per turn.");
}

TEST_CASE("agent: prose without a move in tool mode gets [SYSTEM] feedback and a retry") {
    Fixture f;
    ChessAgent agent(f.config(), f.prompts, f.chat, f.conversation, "Beta");
    f.chat.pushText("What a beautiful position. Let me think about the centre.");
    f.chat.pushToolMove(R"({"move":"e4"})");
    const TurnResult r = f.play(agent, turnAt(1), judgeOf({"e4"}));
    CHECK(r.kind == TurnResult::Kind::Move);
    const ChatMessage& feedback = f.chat.requests()[1].messages.back();
    CHECK(feedback.role == Role::User);
    CHECK(feedback.content.rfind("[SYSTEM] You did not make a move.", 0) == 0);
    CHECK(feedback.content.find("make_move") != std::string::npos);
}

TEST_CASE("agent: text mode sends no tools, reads the move from the answer, corrects in text") {
    Fixture f;
    AgentConfig c = f.config(Side::Black);
    c.useTools = false;
    ChessAgent agent(c, f.prompts, f.chat, f.conversation, "Alpha");
    f.chat.pushText("I will think about it and play something nice.");
    f.chat.pushText("Solid.\nMOVE: e5");
    const TurnResult r = f.play(agent, turnAt(1), judgeOf({"e5"}));
    CHECK(r.kind == TurnResult::Kind::Move);
    CHECK(r.san == "e5");
    CHECK(r.reasoning == "Solid.\nMOVE: e5");
    REQUIRE(f.chat.requests().size() == 2);
    CHECK(f.chat.requests()[0].tools.empty());
    CHECK(f.chat.requests()[0].messages[0].content.find("MOVE:") != std::string::npos);
    const ChatMessage& feedback = f.chat.requests()[1].messages.back();
    CHECK(feedback.role == Role::User);
    CHECK(feedback.content.find("[SYSTEM] ") == 0);
    CHECK(feedback.content.find("no move found") != std::string::npos);
}

TEST_CASE("agent: a chat error ends the turn with an error and the agent shows it") {
    Fixture f;
    ChessAgent agent(f.config(), f.prompts, f.chat, f.conversation, "Beta");
    f.chat.pushError(ChatErrorKind::Unauthorized, 401,
                     "HTTP 401: the API key was refused; enter a valid OpenRouter key");
    const TurnResult r = f.play(agent, turnAt(1), judgeOf({"e4"}));
    CHECK(r.kind == TurnResult::Kind::Error);
    CHECK(r.message.find("valid") != std::string::npos);
    CHECK(agent.status() == AgentStatus::Error);
    REQUIRE(agent.calls().size() == 1);
    CHECK(agent.calls()[0].error.has_value());
}

TEST_CASE("agent: costs add up per turn and per agent, estimated from prices when not reported") {
    Fixture f;
    AgentConfig c = f.config();
    ModelPricing p;
    p.promptUsdPerToken = 0.001;
    p.completionUsdPerToken = 0.002;
    c.pricing = p;
    ChessAgent agent(c, f.prompts, f.chat, f.conversation, "Beta");
    f.chat.pushToolMove(R"({"move":"e4"})", 0.5, 100);
    f.play(agent, turnAt(1), judgeOf({"e4"}));
    ChatReply noCost;
    noCost.toolCalls = {{"x", "make_move", R"({"move":"Nf3"})"}};
    noCost.usage.promptTokens = 100;
    noCost.usage.completionTokens = 10;
    f.chat.pushToolMove(R"({"move":"bad"})", 0.25, 100);
    f.chat.pushReply(noCost);
    const TurnResult second = f.play(agent, turnAt(2), judgeOf({"Nf3"}));
    CHECK(second.costUsd == doctest::Approx(0.25 + 0.1 + 0.02));
    CHECK(second.usage.promptTokens == 200);
    CHECK(agent.totalCostUsd() == doctest::Approx(0.5 + 0.25 + 0.12));
    CHECK(agent.totalUsage().promptTokens == 300);
    CHECK(agent.calls().size() == 3);
}

TEST_CASE("agent: the log records requests and responses, never the key") {
    Fixture f;
    ChessAgent agent(f.config(), f.prompts, f.chat, f.conversation, "Beta");
    ChatOutcome o;
    ChatReply r;
    r.toolCalls = {{"x", "make_move", R"({"move":"e4"})"}};
    o.reply = r;
    o.attempts.push_back(ChatAttempt{1, "{\"model\":\"test/model\"}", 200, "{\"id\":\"gen\"}", std::nullopt});
    f.chat.push(o);
    f.play(agent, turnAt(1), judgeOf({"e4"}));
    REQUIRE(agent.calls().size() == 1);
    CHECK(agent.calls()[0].httpAttempts[0].requestJson == "{\"model\":\"test/model\"}");
    CHECK(agent.calls()[0].turn == 1);
}

TEST_CASE("agent: Anthropic cache breakpoint on the context of moves 1, 11, 21 with a stable prefix") {
    Fixture f;
    AgentConfig c = f.config();
    c.model = "anthropic/claude-sonnet-4";
    c.cacheControl = defaultCacheControl(c.model);
    REQUIRE(c.cacheControl);
    CHECK_FALSE(defaultCacheControl("openai/gpt-4o"));
    f.conversation.gameStart(false);
    ChessAgent agent(c, f.prompts, f.chat, f.conversation, "Beta");
    std::string previousBody;
    for (int move = 1; move <= 23; ++move) {
        CAPTURE(move);
        f.chat.pushToolMove(R"({"move":"e4"})");
        f.play(agent, turnAt(move), judgeOf({"e4"}));
        f.conversation.movePlayed("w", "Alpha", "e4");
        f.conversation.movePlayed("b", "Beta", "e5");
        const ChatRequest& req = f.chat.requests().back();
        int marks = 0;
        std::string markedText;
        for (const ChatMessage& m : req.messages)
            if (m.cacheBreakpoint) {
                ++marks;
                markedText = m.content;
            }
        CHECK(marks == 1);
        const int expected = move <= 10 ? 1 : (move <= 20 ? 11 : 21);
        CHECK(markedText.find("Move " + std::to_string(expected) + ",") != std::string::npos);
        // Within a block the previous request's messages are a byte-identical prefix of this
        // body ("messages" is the body's first key).
        const std::string body = buildChatRequestJson(req);
        REQUIRE(body.rfind("{\"messages\":[", 0) == 0);
        if (move != 1 && move != 11 && move != 21) {
            const std::size_t messagesEnd = previousBody.find("],\"model\"");
            REQUIRE(messagesEnd != std::string::npos);
            CHECK(body.compare(0, messagesEnd, previousBody, 0, messagesEnd) == 0);
        } else if (move != 1) { // the breakpoint moved: the old marked message changed
            const std::size_t messagesEnd = previousBody.find("],\"model\"");
            CHECK(body.compare(0, messagesEnd, previousBody, 0, messagesEnd) != 0);
        }
        previousBody = body;
    }
}

TEST_CASE("agent: no breakpoint for models that cache automatically") {
    Fixture f;
    ChessAgent agent(f.config(), f.prompts, f.chat, f.conversation, "Beta");
    f.chat.pushToolMove(R"({"move":"e4"})");
    f.play(agent, turnAt(1), judgeOf({"e4"}));
    for (const ChatMessage& m : f.chat.requests()[0].messages) CHECK_FALSE(m.cacheBreakpoint);
}

TEST_CASE("agent: a human move is the agent's own tool call and result, the opponent sees the move") {
    Fixture f;
    ChessAgent white(f.config(), f.prompts, f.chat, f.conversation, "Beta");
    ChessAgent black(f.config(Side::Black), f.prompts, f.chat, f.conversation, "Alpha");
    white.recordHumanMove("e4");
    f.conversation.movePlayed("w", "Alpha", "e4");
    const auto w = white.buildMessages();
    REQUIRE(w.size() == 3);
    CHECK(w[1].role == Role::Assistant);
    REQUIRE(w[1].toolCalls.size() == 1);
    CHECK(w[1].toolCalls[0].arguments == R"({"move":"e4"})");
    CHECK(w[2].role == Role::Tool);
    CHECK(w[2].toolCallId == w[1].toolCalls[0].id);
    const auto b = black.buildMessages();
    REQUIRE(b.size() == 2);
    CHECK(b[1].content == "Opponent played e4.");
}

TEST_CASE("agent: legal moves list and switching the context message off") {
    Fixture f;
    AgentConfig c = f.config();
    c.sendLegalMoves = true;
    ChessAgent agent(c, f.prompts, f.chat, f.conversation, "Beta");
    f.chat.pushToolMove(R"({"move":"e4"})");
    f.play(agent, turnAt(1), judgeOf({"e4"}));
    CHECK(f.chat.requests()[0].messages.back().content.find("Legal moves: e4 d4 Nf3") != std::string::npos);

    Fixture g;
    AgentConfig quiet = g.config();
    quiet.sendContextMessage = false;
    ChessAgent silent(quiet, g.prompts, g.chat, g.conversation, "Beta");
    g.chat.pushToolMove(R"({"move":"e4"})");
    g.play(silent, turnAt(1), judgeOf({"e4"}));
    for (const ChatMessage& m : g.chat.requests()[0].messages)
        CHECK(m.content.find("FEN") == std::string::npos);
}

TEST_CASE("agent config from settings and asset loading errors") {
    ChessPlaySettings s;
    s.retryAttempts = 7;
    s.temperature = 0.3;
    s.maxTokens = 500;
    s.sendFenOnError = false;
    s.promptBlack = "Custom black.";
    const AgentConfig c = agentConfigFromSettings(s, "b", "Beta", "anthropic/claude-3.5-haiku", Side::Black);
    CHECK(c.retryAttempts == 7);
    CHECK(c.temperature == 0.3);
    CHECK(c.maxTokens == 500);
    CHECK_FALSE(c.sendFenOnError);
    CHECK(c.cacheControl);
    CHECK(c.promptColour == "Custom black.");
    CHECK_FALSE(agentConfigFromSettings(ChessPlaySettings{}, "w", "A", "m", Side::White).temperature.has_value());

    MemoryAssetSource empty;
    Result<AgentPrompts> missing = loadAgentPrompts(empty);
    CHECK_FALSE(missing.isOk());
    CHECK(missing.error.find("prompts/") != std::string::npos);
    DirectoryAssetSource assets(std::string(CHAIBA_SOURCE_DIR) + "/assets");
    Result<DefaultModels> models = loadDefaultModels(assets);
    REQUIRE(models.isOk());
    CHECK(models.value->lastResort == "openai/gpt-4o");
    CHECK_FALSE(models.value->models.empty());
    CHECK(fillTemplate("a {x} {y} {", {{"x", "1"}}) == "a 1 {y} {");
}

// ---- draw offers ----------------------------------------------------------------------------

namespace {
void pushToolCalls(FakeChat& chat, std::vector<ToolCall> calls) {
    ChatReply r;
    r.toolCalls = std::move(calls);
    r.finishReason = "tool_calls";
    r.usage.costUsd = 0.01;
    chat.pushReply(std::move(r));
}
} // namespace

TEST_CASE("agent draw: the respond tool is offered only on a turn with an open offer, accepting ends the turn") {
    Fixture f;
    f.conversation.gameStart(false);
    ChessAgent agent(f.config(), f.prompts, f.chat, f.conversation, "Beta");
    f.chat.pushToolMove(R"({"move":"e4"})");
    REQUIRE(f.play(agent, turnAt(1), judgeOf({"e4"})).kind == TurnResult::Kind::Move);
    TurnInfo offered = turnAt(2);
    offered.drawOffered = true;
    pushToolCalls(f.chat, {{"d1", "respond_to_draw_offer", R"({"accept": true, "reasoning": "dead equal"})"}});
    const TurnResult r = f.play(agent, offered, judgeOf({"d4"}));
    CHECK(r.kind == TurnResult::Kind::AcceptDraw);
    CHECK(r.reasoning == "dead equal");
    f.chat.pushToolMove(R"({"move":"d4"})");
    REQUIRE(f.play(agent, turnAt(3), judgeOf({"d4"})).kind == TurnResult::Kind::Move);
    const auto& reqs = f.chat.requests();
    REQUIRE(reqs.size() == 3);
    REQUIRE(reqs[1].tools.size() == 2);
    CHECK(reqs[1].tools[1].name == "respond_to_draw_offer");
    CHECK(reqs[1].messages.back().content.find("[SYSTEM] Your opponent offers a draw") == 0);
    // Before and after the offer the tool list is the same, byte for byte (prompt caching).
    REQUIRE(reqs[2].tools.size() == 1);
    CHECK(reqs[2].tools[0].parametersJson == reqs[0].tools[0].parametersJson);
    CHECK(reqs[2].tools[0].description == reqs[0].tools[0].description);
}

TEST_CASE("agent draw: a move declines, a decline alone is not a failed attempt, offer_draw is read") {
    Fixture f;
    AgentConfig c = f.config(Side::Black);
    c.retryAttempts = 0;
    ChessAgent agent(c, f.prompts, f.chat, f.conversation, "Alpha");
    TurnInfo offered = turnAt(1);
    offered.drawOffered = true;
    pushToolCalls(f.chat, {{"d1", "respond_to_draw_offer", R"({"accept": false})"}});
    f.chat.pushToolMove(R"({"move":"e5","offer_draw":true})");
    const TurnResult r = f.play(agent, offered, judgeOf({"e5"}));
    CHECK(r.kind == TurnResult::Kind::Move); // no forfeit although retryAttempts is 0
    CHECK(r.san == "e5");
    CHECK(r.offerDraw);
    CHECK(r.attempts == 2);
    const ChatMessage& declined = f.chat.requests()[1].messages.back();
    CHECK(declined.role == Role::Tool);
    CHECK(declined.content.find("Draw offer declined") == 0);
}

TEST_CASE("agent draw: malformed answers get feedback and a retry, never a crash") {
    Fixture f;
    AgentConfig c = f.config(Side::Black);
    c.retryAttempts = 3;
    ChessAgent agent(c, f.prompts, f.chat, f.conversation, "Alpha");
    TurnInfo offered = turnAt(1);
    offered.drawOffered = true;
    pushToolCalls(f.chat, {{"d1", "respond_to_draw_offer", R"({"accept": "yes"})"}});
    pushToolCalls(f.chat, {{"d2", "respond_to_draw_offer", "{not json"}});
    f.chat.pushToolMove(R"({"move":"e5","offer_draw":"maybe"})");
    f.chat.pushToolMove(R"({"move":"e5"})");
    const TurnResult r = f.play(agent, offered, judgeOf({"e5"}));
    CHECK(r.kind == TurnResult::Kind::Move);
    CHECK_FALSE(r.offerDraw);
    CHECK(r.attempts == 4);
    const auto& reqs = f.chat.requests();
    REQUIRE(reqs.size() == 4);
    CHECK(reqs[1].messages.back().content.find("not understood") != std::string::npos);
    CHECK(reqs[2].messages.back().content.find("not understood") != std::string::npos);
    CHECK(reqs[3].messages.back().content.find("offer_draw") != std::string::npos);
    // Without an open offer the respond tool is an error (and no move is a retry).
    Fixture g;
    ChessAgent other(g.config(), g.prompts, g.chat, g.conversation, "Beta");
    pushToolCalls(g.chat, {{"x", "respond_to_draw_offer", R"({"accept": true})"}});
    g.chat.pushToolMove(R"({"move":"e4"})");
    const TurnResult s = g.play(other, turnAt(1), judgeOf({"e4"}));
    CHECK(s.kind == TurnResult::Kind::Move);
    bool refused = false;
    for (const ChatMessage& m : g.chat.requests()[1].messages)
        refused = refused || (m.role == Role::Tool && m.content.find("no open draw offer") != std::string::npos);
    CHECK(refused);
    CHECK(g.chat.requests()[1].messages.back().content.find("did not make a move") != std::string::npos);
}

TEST_CASE("agent draw: text mode reads ACCEPT DRAW, DECLINE DRAW and OFFER DRAW lines") {
    DrawLines lines = readDrawLines("Fine.\n**Offer draw.**\nMOVE: e4");
    CHECK(lines.offer);
    CHECK_FALSE(lines.accept);
    CHECK(lines.rest == "Fine.\nMOVE: e4");
    CHECK(readDrawLines("I accept draw offers rarely").rest == "I accept draw offers rarely");
    Fixture f;
    AgentConfig c = f.config(Side::Black);
    c.useTools = false;
    ChessAgent agent(c, f.prompts, f.chat, f.conversation, "Alpha");
    TurnInfo offered = turnAt(1);
    offered.drawOffered = true;
    f.chat.pushText("ACCEPT DRAW\nDECLINE DRAW");
    f.chat.pushText("Equal enough.\nACCEPT DRAW");
    const TurnResult r = f.play(agent, offered, judgeOf({"e5"}));
    CHECK(r.kind == TurnResult::Kind::AcceptDraw);
    CHECK(r.attempts == 2);
    CHECK(f.chat.requests()[0].tools.empty());
    CHECK(f.chat.requests()[0].messages.back().content.find("ACCEPT DRAW") != std::string::npos);
    CHECK(f.chat.requests()[1].messages.back().content.find("both ACCEPT DRAW and DECLINE DRAW") !=
          std::string::npos);
    f.chat.pushText("OFFER DRAW\nMOVE: e5");
    const TurnResult m = f.play(agent, turnAt(2), judgeOf({"e5"}));
    CHECK(m.kind == TurnResult::Kind::Move);
    CHECK(m.offerDraw);
}
