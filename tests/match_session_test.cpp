// MatchSession (the match screen's model): players from specs, pause and steps, a person's
// moves, resignation, an API error and its retry, save/restore (the reload path) and corrupt saves.
#include "src/modes/chess/match_session.h"

#include "engine/chess/pgn.h"
#include "engine/search/levels.h"
#include "src/llm/assets.h"
#include "src/modes/chess/chess_prompts.h"
#include "src/modes/chess/engine_player.h"
#include "tests/fakes/fake_chat.h"

#include <doctest/doctest.h>

using namespace chaiba;

namespace {

struct Fixture {
    llm::DirectoryAssetSource assets{std::string(CHAIBA_SOURCE_DIR) + "/assets"};
    chessmode::AgentPrompts prompts = *chessmode::loadAgentPrompts(assets).value;
    fakes::FakeChat chat;
    chessmode::ChessPlaySettings settings;

    SessionEnvironment env(bool withChat = true) {
        SessionEnvironment e;
        e.chat = withChat ? &chat : nullptr;
        e.prompts = &prompts;
        e.maxEngineLevel = search::maxLevel();
        e.makeEngine = [](const std::string& id, int level, uint64_t seed, int) -> std::unique_ptr<chessmode::Player> {
            return std::make_unique<chessmode::EnginePlayer>(id, *search::levelSpec(level), seed);
        };
        return e;
    }
    // One loop iteration as the app runs it: the chat service is pumped, then the session.
    void tick(MatchSession& s) {
        chat.poll();
        s.poll();
    }
};

GameSetup setupOf(const char* white, const char* black) {
    GameSetup s;
    s.white = *parsePlayerSpec(white, search::maxLevel()).value;
    s.black = *parsePlayerSpec(black, search::maxLevel()).value;
    return s;
}

void pollUntil(Fixture& f, MatchSession& s, size_t plies, int maxPolls = 5000) {
    for (int i = 0; i < maxPolls && s.runner()->moves().size() < plies && !s.runner()->finished(); ++i) f.tick(s);
}

} // namespace

TEST_CASE("session: engine vs random plays on its own and finishes with a result") {
    Fixture f;
    MatchSession s(f.env());
    REQUIRE_FALSE(s.newGame(setupOf("engine:3", "random"), f.settings, 7));
    CHECK(s.phase() == SessionPhase::Running);
    for (int i = 0; i < 20000 && !s.runner()->finished(); ++i) f.tick(s);
    REQUIRE(s.runner()->finished());
    CHECK(s.phase() == SessionPhase::Finished);
    CHECK(s.runner()->result() != "*");
    chess::PgnReadResult back = chess::readPgn(s.pgn());
    REQUIRE(back.ok());
    CHECK(back.games[0].moves.size() == s.runner()->game().moves().size());
}

TEST_CASE("session: paused games move only on step") {
    Fixture f;
    MatchSession s(f.env());
    s.setAutoPlay(false);
    REQUIRE_FALSE(s.newGame(setupOf("random", "random"), f.settings, 3));
    CHECK(s.phase() == SessionPhase::Paused);
    for (int i = 0; i < 50; ++i) f.tick(s);
    CHECK(s.runner()->moves().empty());
    s.step();
    for (int i = 0; i < 50; ++i) f.tick(s);
    CHECK(s.runner()->moves().size() == 1);
    s.setAutoPlay(true);
    pollUntil(f, s, 10);
    CHECK(s.runner()->moves().size() >= 10);
}

TEST_CASE("session: a person's moves, only on their turn, and resignation") {
    Fixture f;
    MatchSession s(f.env());
    REQUIRE_FALSE(s.newGame(setupOf("human", "random"), f.settings, 5));
    CHECK(s.humanToMove());
    const chess::Move e4 = chess::Move(chess::E2, chess::E4);
    REQUIRE_FALSE(s.humanMove(e4));
    pollUntil(f, s, 2);
    CHECK(s.runner()->moves().size() == 2);
    CHECK(s.runner()->moves()[0].san == "e4");
    CHECK(s.humanToMove());
    s.resign();
    CHECK(s.runner()->finished());
    CHECK(s.runner()->result() == "0-1");
    CHECK(s.runner()->termination() == "White resigns");
    CHECK(s.humanMove(e4).has_value());  // over: refused with a sentence
}

TEST_CASE("session: LLM players need a key, an API error pauses the game and Retry continues it") {
    Fixture f;
    {
        MatchSession noKey(f.env(false));
        auto error = noKey.newGame(setupOf("llm:openai/gpt-4o", "random"), f.settings, 1);
        REQUIRE(error);
        CHECK(error->find("API key") != std::string::npos);
    }
    MatchSession s(f.env());
    f.chat.pushError(llm::ChatErrorKind::ServerError, 502, "provider down");
    REQUIRE_FALSE(s.newGame(setupOf("llm:openai/gpt-4o", "random"), f.settings, 1));
    for (int i = 0; i < 50 && !s.runner()->finished(); ++i) f.tick(s);
    REQUIRE(s.canRetry());
    CHECK(s.runner()->result() == "*");
    CHECK(s.runner()->termination().find("provider down") != std::string::npos);
    f.chat.pushToolMove(R"({"move": "e4", "reasoning": "centre"})");
    REQUIRE(s.retry());
    pollUntil(f, s, 2, 200);
    CHECK(s.runner()->moves().size() >= 1);
    CHECK(s.runner()->moves()[0].san == "e4");
    CHECK(s.runner()->moves()[0].reasoning == "centre");
}

TEST_CASE("session: save and restore bring back every move, paused, and a decided result") {
    Fixture f;
    MatchSession s(f.env());
    REQUIRE_FALSE(s.newGame(setupOf("engine:2", "random"), f.settings, 11));
    pollUntil(f, s, 12);
    s.setAutoPlay(false);
    for (int i = 0; i < 20; ++i) f.tick(s);
    const std::string saved = s.saveJson();
    MatchSession t(f.env());
    REQUIRE_FALSE(t.restore(saved, f.settings));
    CHECK(t.phase() == SessionPhase::Paused);
    CHECK(t.runner()->game().position().fen() == s.runner()->game().position().fen());
    REQUIRE(t.runner()->moves().size() == s.runner()->moves().size());
    CHECK(t.runner()->moves().back().reasoning == s.runner()->moves().back().reasoning);
    CHECK(t.setup().white.text() == "engine:2");
    // A resigned game comes back resigned.
    t.resign();
    MatchSession u(f.env());
    REQUIRE_FALSE(u.restore(t.saveJson(), f.settings));
    CHECK(u.runner()->finished());
    CHECK(u.runner()->result() == t.runner()->result());
}

TEST_CASE("session: a corrupt or foreign save is refused with a reason, the current game stays") {
    Fixture f;
    MatchSession s(f.env());
    REQUIRE_FALSE(s.newGame(setupOf("random", "random"), f.settings, 2));
    pollUntil(f, s, 4);
    const std::string before = s.runner()->game().position().fen();
    CHECK(s.restore("not json", f.settings)->find("not readable") != std::string::npos);
    CHECK(s.restore(R"({"version": 99})", f.settings)->find("unknown version") != std::string::npos);
    std::string saved = s.saveJson();
    std::string broken = saved;
    const auto at = broken.find("\"uci\":\"");
    REQUIRE(at != std::string::npos);
    broken.replace(at + 7, 4, "a1a1");
    CHECK(s.restore(broken, f.settings)->find("illegal move") != std::string::npos);
    CHECK(s.runner()->game().position().fen() == before);
    CHECK(s.restore(R"({"version":1,"white":"engine:1","black":"stockfish"})", f.settings)->find("damaged (black)") !=
          std::string::npos);
}

TEST_CASE("session: the person offers a draw to an LLM, engines only adjudicate, an open offer survives a reload") {
    Fixture f;
    {
        MatchSession engines(f.env());
        REQUIRE_FALSE(engines.newGame(setupOf("engine:1", "random"), f.settings, 3));
        CHECK_FALSE(engines.drawIsOffer());
        CHECK(engines.offerDraw().has_value());
        engines.agreeDraw(); // the user adjudicates at once
        CHECK(engines.runner()->result() == "1/2-1/2");
    }
    MatchSession s(f.env());
    REQUIRE_FALSE(s.newGame(setupOf("human", "llm:test/model"), f.settings, 4));
    CHECK(s.drawIsOffer());
    REQUIRE_FALSE(s.offerDraw());
    CHECK(s.pendingDrawOffer() == chess::Color::White);
    CHECK_FALSE(s.drawOfferToHuman());
    CHECK(s.answerDraw(true).has_value()); // the person cannot answer their own offer
    const std::string saved = s.saveJson();
    MatchSession t(f.env());
    REQUIRE_FALSE(t.restore(saved, f.settings));
    CHECK(t.pendingDrawOffer() == chess::Color::White);
    f.chat.pushToolMove(R"({"move":"e5"})"); // declines by moving
    REQUIRE_FALSE(s.humanMove(chess::Move(chess::E2, chess::E4)));
    pollUntil(f, s, 2, 50);
    CHECK(s.runner()->moves().size() == 2);
    CHECK_FALSE(s.pendingDrawOffer().has_value());
}

TEST_CASE("session: an LLM's draw offer is answered by the person") {
    Fixture f;
    MatchSession s(f.env());
    f.chat.pushToolMove(R"({"move":"e4","offer_draw":true})");
    REQUIRE_FALSE(s.newGame(setupOf("llm:test/model", "human"), f.settings, 5));
    pollUntil(f, s, 1, 50);
    REQUIRE(s.runner()->moves().size() == 1);
    CHECK(s.drawOfferToHuman());
    const uint64_t before = s.revision();
    REQUIRE_FALSE(s.answerDraw(false));
    CHECK(s.revision() > before);
    CHECK_FALSE(s.pendingDrawOffer().has_value());
    CHECK(s.humanToMove());
    f.chat.pushToolMove(R"({"move":"d4","offer_draw":true})");
    REQUIRE_FALSE(s.humanMove(chess::Move(chess::E7, chess::E5)));
    pollUntil(f, s, 3, 50);
    REQUIRE(s.drawOfferToHuman());
    REQUIRE_FALSE(s.answerDraw(true));
    CHECK(s.phase() == SessionPhase::Finished);
    CHECK(s.runner()->result() == "1/2-1/2");
    CHECK(s.runner()->termination() == "draw agreed");
    CHECK(s.saveJson().find("\"drawOffer\":true") != std::string::npos);
}

TEST_CASE("session takeback: against an engine the moves, PGN and saved game go back, the search never lands") {
    Fixture f;
    MatchSession s(f.env());
    REQUIRE_FALSE(s.newGame(setupOf("human", "engine:1"), f.settings, 9));
    const std::string start = s.runner()->game().position().fen();
    CHECK(s.takeBackRefusal().has_value()); // nothing yet
    CHECK(s.takeBack().has_value());
    // While the engine thinks.
    REQUIRE_FALSE(s.humanMove(chess::Move(chess::E2, chess::E4)));
    REQUIRE(s.runner()->moves().size() == 1);
    REQUIRE(s.runner()->thinking());
    CHECK_FALSE(s.takeBackRefusal().has_value());
    uint64_t revision = s.revision();
    REQUIRE_FALSE(s.takeBack());
    CHECK(s.revision() > revision);
    for (int i = 0; i < 50; ++i) f.tick(s);
    CHECK(s.runner()->moves().empty());
    CHECK(s.humanToMove());
    // After its reply: the person is to move again in the start position.
    REQUIRE_FALSE(s.humanMove(chess::Move(chess::D2, chess::D4)));
    pollUntil(f, s, 2);
    REQUIRE(s.runner()->moves().size() == 2);
    REQUIRE_FALSE(s.takeBack());
    CHECK(s.runner()->game().position().fen() == start);
    CHECK(s.humanToMove());
    // On with another move: the PGN and the saved game hold what stands.
    REQUIRE_FALSE(s.humanMove(chess::Move(chess::C2, chess::C4)));
    pollUntil(f, s, 2);
    REQUIRE(s.runner()->moves().size() == 2);
    const chess::PgnReadResult back = chess::readPgn(s.pgn());
    REQUIRE(back.ok());
    CHECK(back.games[0].moves == s.runner()->game().moves());
    MatchSession t(f.env());
    REQUIRE_FALSE(t.restore(s.saveJson(), f.settings));
    CHECK(t.runner()->game().position().fen() == s.runner()->game().position().fen());
    REQUIRE(t.runner()->moves().size() == 2);
    CHECK(t.runner()->moves()[0].san == "c4");
}

TEST_CASE("session takeback: refused without a person or after a resignation, two people take back one move") {
    Fixture f;
    MatchSession engines(f.env());
    REQUIRE_FALSE(engines.newGame(setupOf("engine:1", "random"), f.settings, 3));
    pollUntil(f, engines, 2);
    CHECK(engines.takeBackRefusal() == std::optional<std::string>("a takeback is for a game a person plays"));
    MatchSession s(f.env());
    REQUIRE_FALSE(s.newGame(setupOf("human", "human"), f.settings, 4));
    REQUIRE_FALSE(s.humanMove(chess::Move(chess::E2, chess::E4)));
    REQUIRE_FALSE(s.humanMove(chess::Move(chess::E7, chess::E5)));
    REQUIRE_FALSE(s.takeBack());
    REQUIRE(s.runner()->moves().size() == 1);
    CHECK(s.runner()->game().position().sideToMove() == chess::Color::Black);
    s.resign();
    CHECK(s.takeBack().has_value());
    CHECK(s.runner()->moves().size() == 1);
}

TEST_CASE("session: a rematch keeps the players with colours swapped and the start position, also after a reload") {
    Fixture f;
    GameSetup setup = setupOf("engine:2", "human");
    setup.mode = StartMode::Fen;
    setup.fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    setup.whiteInstructions = "play fast";
    MatchSession s(f.env());
    REQUIRE_FALSE(s.newGame(setup, f.settings, 6));
    s.resign();
    const GameSetup rematch = s.rematchSetup();
    CHECK(rematch.white.text() == "human");
    CHECK(rematch.black.text() == "engine:2");
    CHECK(rematch.blackInstructions == "play fast");
    CHECK(rematch.mode == StartMode::Fen);
    CHECK(rematch.fen == setup.fen);
    MatchSession t(f.env());
    REQUIRE_FALSE(t.restore(s.saveJson(), f.settings));
    CHECK(t.rematchSetup().fen == setup.fen);
    CHECK(t.rematchSetup().white.text() == "human");
    MatchSession u(f.env());
    REQUIRE_FALSE(u.newGame(t.rematchSetup(), f.settings, 7));
    CHECK(u.runner()->game().startPosition().fen() == setup.fen);
    CHECK(u.soleHuman() == chess::Color::White);
}
