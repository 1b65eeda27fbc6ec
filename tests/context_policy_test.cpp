// Context policy (conversation.h): a stateless agent is sent the game start, this turn's context and
// only its last rejected answer; the full policy keeps the whole shared conversation.
#include "src/llm/assets.h"
#include "src/modes/chess/chess_agent.h"
#include "src/modes/chess/cost_estimate.h"
#include "tests/fakes/fake_chat.h"

#include <doctest/doctest.h>

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
Run playTurns(ContextPolicy policy, int moves) {
    const AgentPrompts p = prompts();
    FakeChat chat;
    GameConversation conversation;
    conversation.gameStart(false);
    AgentConfig c;
    c.id = "w";
    c.name = "Alpha";
    c.model = "test/model";
    c.contextPolicy = policy;
    c.sendContextMessage = false; // stateless sends it anyway: it is the state
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
    for (const ChatMessage& m : r.messages) s += m.content + "\n";
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
