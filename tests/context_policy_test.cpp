// Context policy (conversation.h): a stateless agent is sent the game start, this turn's context and
// only its last rejected answer; the full policy keeps the whole shared conversation; a windowed
// one the last N turns' exchanges and this turn. The policy is a chess setting the match reads.
#include "src/llm/assets.h"
#include "src/modes/chess/chess_agent.h"
#include "src/modes/chess/chess_settings.h"
#include "src/modes/chess/cost_estimate.h"
#include "tests/fakes/fake_chat.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

using namespace chaiba;
using namespace chaiba::chessmode;
using chaiba::fakes::FakeChat;

namespace {

AgentPrompts prompts() {
    llm::DirectoryAssetSource assets(std::string(CHAIBA_SOURCE_DIR) + "/assets");
    llm::Result<AgentPrompts> p = loadAgentPrompts(assets);
    REQUIRE_MESSAGE(p.isOk(), p.error);
    return *p.value;
}

MoveJudge only(std::set<std::string> legal) {
    return [legal](const std::string& move) {
        MoveVerdict v;
        v.legal = legal.count(move) > 0;
        if (v.legal) {
            v.san = move;
            v.uci = "uci-" + move;
        } else {
            v.reason = move + " is not legal";
        }
        return v;
    };
}

TurnInfo turn(int fullmove) {
    TurnInfo t;
    t.fen = "fen-at-" + std::to_string(fullmove);
    t.fullmoveNumber = fullmove;
    t.history = fullmove == 1 ? "" : "moves-before-" + std::to_string(fullmove);
    return t;
}

// Plays `moves` turns for White (each first answered with an illegal move, then a legal one),
// with Black's moves between them, and returns the requests' message counts and the last request.
struct Run {
    std::vector<std::size_t> messageCounts;
    ChatRequest last;
};
Run playTurns(ContextPolicy policy, int moves, int windowMoves = kDefaultContextWindowMoves) {
    const AgentPrompts p = prompts();
    FakeChat chat;
    GameConversation conversation;
    conversation.gameStart(false);
    AgentConfig c;
    c.id = "w";
    c.name = "Alpha";
    c.model = "test/model";
    c.contextPolicy = policy;
    c.contextWindowMoves = windowMoves;
    c.sendContextMessage = false; // stateless and windowed send it anyway: it is the state
    ChessAgent agent(c, p, chat, conversation, "Beta");
    for (int m = 1; m <= moves; ++m) {
        chat.pushToolMove(R"({"move":"Ke2","reasoning":"bad idea )" + std::to_string(m) + R"("})");
        chat.pushToolMove(R"({"move":"e4","reasoning":"good idea )" + std::to_string(m) + R"("})");
        agent.startTurn(turn(m), only({"e4"}));
        for (int i = 0; i < 50 && !agent.takeResult(); ++i) chat.poll();
        conversation.movePlayed("b", "Beta", "e5");
    }
    Run run;
    for (const ChatRequest& r : chat.requests()) run.messageCounts.push_back(r.messages.size());
    run.last = chat.requests().back();
    return run;
}

std::string allText(const ChatRequest& r) {
    std::string s;
    for (const ChatMessage& m : r.messages) {
        s += m.content + "\n";
        for (const ToolCall& call : m.toolCalls) s += call.arguments + "\n";
    }
    return s;
}

} // namespace

TEST_CASE("context policy: stateless requests stay the same size, full ones grow") {
    const Run full = playTurns(ContextPolicy::Full, 6);
    const Run stateless = playTurns(ContextPolicy::Stateless, 6);
    REQUIRE(full.messageCounts.size() == 12);
    REQUIRE(stateless.messageCounts.size() == 12);
    CHECK(full.messageCounts.back() > full.messageCounts[1] + 10);
    // Every first attempt has the same number of messages, every retry too (the last rejection).
    for (std::size_t i = 2; i < 12; ++i) CHECK(stateless.messageCounts[i] == stateless.messageCounts[i % 2]);
    CHECK(stateless.messageCounts[1] > stateless.messageCounts[0]);
    const std::string text = allText(stateless.last);
    CHECK(text.find("fen-at-6") != std::string::npos);          // the current position
    CHECK(text.find("moves-before-6") != std::string::npos);    // the moves so far
    CHECK(text.find("Ke2 is not legal") != std::string::npos);  // the last rejection
    CHECK(text.find("fen-at-5") == std::string::npos);          // nothing from earlier turns
    CHECK(text.find("good idea 5") == std::string::npos);
    CHECK(allText(full.last).find("fen-at-5") != std::string::npos);
}

TEST_CASE("context policy: names, parsing and the prompt estimate") {
    CHECK(std::string(contextPolicyName(ContextPolicy::Stateless)) == "stateless");
    CHECK(parseContextPolicy("full") == ContextPolicy::Full);
    CHECK_FALSE(parseContextPolicy("Stateless").has_value());
    CHECK(estimatePromptTokens(ContextPolicy::Stateless, 80) > estimatePromptTokens(ContextPolicy::Stateless, 0));
    CHECK(estimatePromptTokens(ContextPolicy::Stateless, 40) < estimatePromptTokens(ContextPolicy::Full, 40));
}

TEST_CASE("context policy: windowed requests grow for N turns, then stay the same size") {
    const int window = 3;
    const Run windowed = playTurns(ContextPolicy::Windowed, 8, window);
    REQUIRE(windowed.messageCounts.size() == 16);
    // First attempts (even requests): more messages each turn until N earlier turns are kept ...
    for (int turn = 1; turn <= window; ++turn)
        CHECK(windowed.messageCounts[size_t(2 * turn)] > windowed.messageCounts[size_t(2 * turn - 2)]);
    // ... then the same number every turn: the prompt stops growing.
    for (int turn = window + 1; turn < 8; ++turn) {
        CHECK(windowed.messageCounts[size_t(2 * turn)] == windowed.messageCounts[size_t(2 * window)]);
        CHECK(windowed.messageCounts[size_t(2 * turn + 1)] == windowed.messageCounts[size_t(2 * window + 1)]);
    }
    const Run full = playTurns(ContextPolicy::Full, 8);
    CHECK(windowed.messageCounts.back() < full.messageCounts.back());
    const std::string text = allText(windowed.last);
    CHECK(text.find("fen-at-8") != std::string::npos);       // this turn's position
    CHECK(text.find("moves-before-8") != std::string::npos); // and the moves so far
    CHECK(text.find("moves-before-7") == std::string::npos); // earlier turns' context messages: superseded
    for (int m = 8 - window; m <= 7; ++m) {                  // the last N turns' answers and rejections
        CHECK(text.find("good idea " + std::to_string(m)) != std::string::npos);
        CHECK(text.find("bad idea " + std::to_string(m)) != std::string::npos);
    }
    CHECK(text.find("good idea " + std::to_string(7 - window)) == std::string::npos); // older ones: gone
    CHECK(text.find("Opponent played e5.") != std::string::npos);
    // Every tool result still follows the assistant message that called it.
    for (size_t i = 0; i < windowed.last.messages.size(); ++i)
        if (windowed.last.messages[i].role == Role::Tool) {
            REQUIRE(i > 0);
            CHECK(windowed.last.messages[i - 1].role == Role::Assistant);
        }
}

TEST_CASE("context policy: a window wider than the game sends what the full policy sends but old positions") {
    const Run windowed = playTurns(ContextPolicy::Windowed, 4, 10);
    const std::string text = allText(windowed.last);
    CHECK(text.find("good idea 1") != std::string::npos);
    CHECK(text.find("moves-before-3") == std::string::npos);
    CHECK(text.find("moves-before-4") != std::string::npos);
}

TEST_CASE("context policy: windowed in names, labels and the prompt estimate") {
    CHECK(parseContextPolicy("windowed") == ContextPolicy::Windowed);
    CHECK(std::string(contextPolicyName(ContextPolicy::Windowed)) == "windowed");
    CHECK(contextPolicyLabel(ContextPolicy::Windowed, 12) == "windowed 12");
    CHECK(contextPolicyLabel(ContextPolicy::Full, 12) == "full");
    // Not measured: the full line up to the window (never below what is sent), then only the moves.
    TokenExpectation e;
    e.promptBaseTokens = 1000;
    e.promptGrowthPerPly = 50;
    const double atWindow = estimatePromptTokens(ContextPolicy::Windowed, 16, e, 8);
    CHECK(atWindow == doctest::Approx(estimatePromptTokens(ContextPolicy::Full, 16, e)));
    const double late = estimatePromptTokens(ContextPolicy::Windowed, 216, e, 8);
    CHECK(late - atWindow < 0.05 * (estimatePromptTokens(ContextPolicy::Full, 216, e) - atWindow));
    // Measured with this window: its own line while it fills.
    e.windowPlies = 16;
    e.windowedBaseTokens = 900;
    e.windowedGrowthPerPly = 20;
    CHECK(estimatePromptTokens(ContextPolicy::Windowed, 10, e, 8) == doctest::Approx(900 + 20 * 10));
    CHECK(estimatePromptTokens(ContextPolicy::Windowed, 16, e, 8) == doctest::Approx(900 + 20 * 16));
    // Another window than measured: the full line again.
    CHECK(estimatePromptTokens(ContextPolicy::Windowed, 10, e, 4) ==
          doctest::Approx(estimatePromptTokens(ContextPolicy::Full, 8, e) + (10 - 8) * 1.65));
}

TEST_CASE("context policy: the match's choice is a chess setting, kept with the window, older blobs read full") {
    ChessSettings s;
    s.contextPolicy = ContextPolicy::Windowed;
    s.contextWindowMoves = 5;
    nlohmann::json blob = nlohmann::json::object();
    writeChessSettings(blob, s, BoardLook{});
    ChessSettings back;
    BoardLook look;
    std::vector<std::string> warnings;
    readChessSettings(blob, back, look, warnings);
    CHECK(warnings.empty());
    CHECK(back.contextPolicy == ContextPolicy::Windowed);
    CHECK(back.contextWindowMoves == 5);
    // The agent a match makes from the settings plays windowed.
    ChessPlaySettings play;
    static_cast<ChessSettings&>(play) = back;
    const AgentConfig agent = agentConfigFromSettings(play, "white", "m", "m", Side::White);
    CHECK(agent.contextPolicy == ContextPolicy::Windowed);
    CHECK(agent.contextWindowMoves == 5);
    // A blob of an older build has neither key: the full conversation, a window of 8.
    blob.erase("contextPolicy");
    blob.erase("contextWindowMoves");
    ChessSettings old;
    readChessSettings(blob, old, look, warnings);
    CHECK(warnings.empty());
    CHECK(old.contextPolicy == ContextPolicy::Full);
    CHECK(old.contextWindowMoves == kDefaultContextWindowMoves);
    // A bad value keeps the default, with a warning naming it.
    blob["contextPolicy"] = "sometimes";
    readChessSettings(blob, old, look, warnings);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("contextPolicy") != std::string::npos);
}
