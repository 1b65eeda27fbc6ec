// The wolves' private night chat with AI wolves: asked before the wolf vote, posted with the
// wolves-only audience (in wolves' prompts, never in a villager's), replayed exactly, and a
// malformed answer retried once, then silence, counted as a fallback.
#include "engine/werewolf/replay.h"
#include "src/modes/werewolf/game_session.h"
#include "tests/werewolf_mode_test_util.h"

#include <doctest/doctest.h>

using namespace chaiba;
using namespace chaiba::werewolfmode;
using namespace chaiba::werewolfmode::test;
using chaiba::fakes::FakeChat;
using werewolf::AudienceKind;
using werewolf::EventKind;

namespace {
SessionConfig allAi(std::uint64_t seed) {
    SessionConfig c;
    for (int i = 0; i < 8; ++i) c.seats.push_back(aiSpec("test/w" + std::to_string(i)));
    c.setup.seed = seed;
    c.setup.rules = werewolf::Rules::balanced();
    return c;
}

bool isWolf(const werewolf::Game& g, int seat) { return g.roleOf(seat) == werewolf::Role::Werewolf; }

bool nightChatAsk(const llm::ChatRequest& r) {
    return lastUser(r).find("talk privately with your pack") != std::string::npos;
}

int askCount(const AiSeat& seat, AskKind kind) {
    int n = 0;
    for (const AskOutcome& a : seat.history()) n += a.kind == kind ? 1 : 0;
    return n;
}
} // namespace

TEST_CASE("werewolf session: AI wolves chat privately at night, and no villager ever reads it") {
    auto play = [](std::vector<werewolf::Event>& log) {
        FakeChat chat;
        chat.setResponder(sensible);
        GameSession session(allAi(5), prompts(), &chat);
        runToEnd(session, &chat);
        REQUIRE(session.finished());
        const werewolf::Game& g = session.game();
        CHECK(werewolf::replay(g.events()).ok());
        CHECK(session.fallbacks() == 0);
        // The night chat: AI wolves' lines, wolves only, each before its night's first wolf vote.
        int lines = 0;
        for (std::size_t i = 0; i < g.events().size(); ++i) {
            const werewolf::Event& e = g.events()[i];
            if (e.kind != EventKind::WolfChat) continue;
            ++lines;
            CHECK(isWolf(g, e.seat));
            CHECK(e.audience.kind == AudienceKind::Wolves);
            CHECK(e.text.find("Pack plan: ") == 0);
            for (std::size_t j = 0; j < i; ++j)
                CHECK_FALSE((g.events()[j].kind == EventKind::WolfVote && g.events()[j].round == e.round));
        }
        CHECK(lines >= 2); // night 1: both wolves propose
        // Every prompt: a wolf's may hold the pack's chat, a villager's never.
        int wolvesRead = 0, nightAsks = 0;
        for (const llm::ChatRequest& r : chat.requests()) {
            const bool wolf = r.messages[0].content.find("Your role is Werewolf") != std::string::npos;
            const std::string user = lastUser(r);
            if (!wolf) {
                CHECK(user.find("wolves only") == std::string::npos);
                CHECK(user.find("Pack plan") == std::string::npos);
                CHECK_FALSE(nightChatAsk(r));
            }
            wolvesRead += wolf && user.find("] P") != std::string::npos &&
                          user.find("Pack plan") != std::string::npos;
            nightAsks += nightChatAsk(r) ? 1 : 0;
        }
        CHECK(wolvesRead > 0);
        int recorded = 0;
        for (int s = 0; s < 8; ++s) {
            const std::string context = session.contextFor(s);
            if (!isWolf(g, s)) {
                CHECK(context.find("wolves only") == std::string::npos);
                CHECK(askCount(*session.aiSeat(s), AskKind::WolfChat) == 0);
            }
            recorded += askCount(*session.aiSeat(s), AskKind::WolfChat);
        }
        CHECK(recorded == nightAsks);
        log = g.events();
    };
    std::vector<werewolf::Event> first, second;
    play(first);
    play(second);
    CHECK(first == second);
}

TEST_CASE("werewolf session: a malformed night-chat answer is retried, then the wolf stays silent (a fallback)") {
    FakeChat chat;
    chat.setResponder([](const llm::ChatRequest& r) {
        if (nightChatAsk(r)) return answer(textReply("We feast tonight, no JSON for you."));
        return sensible(r);
    });
    GameSession session(allAi(5), prompts(), &chat);
    runToEnd(session, &chat);
    REQUIRE(session.finished());
    const werewolf::Game& g = session.game();
    CHECK(g.winner().has_value());
    for (const werewolf::Event& e : g.events()) CHECK(e.kind != EventKind::WolfChat);
    int asks = 0, retried = 0, requests = 0;
    for (const llm::ChatRequest& r : chat.requests()) {
        if (!nightChatAsk(r)) continue;
        ++requests;
        retried += lastUser(r).find("Your previous answer was not accepted") != std::string::npos;
    }
    for (int s = 0; s < 8; ++s) {
        const AiSeat& seat = *session.aiSeat(s);
        for (const AskOutcome& a : seat.history()) {
            if (a.kind != AskKind::WolfChat) continue;
            ++asks;
            CHECK(a.fallback == FallbackReason::Malformed);
            CHECK(a.requests == 2);
            CHECK_FALSE(a.chat.send);
        }
        CHECK(seat.stats().fallbacks == askCount(seat, AskKind::WolfChat));
        CHECK(seat.stats().malformed == 2 * askCount(seat, AskKind::WolfChat));
    }
    CHECK(asks >= 2); // night 1: both wolves, one silent round
    CHECK(requests == 2 * asks);
    CHECK(retried == asks);
    CHECK(session.fallbacks() == asks);
}
