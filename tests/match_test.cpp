// The match runner with real rules and scripted players: games run to a result the rules agree
// with, forfeits, errors, the move limit, human moves, records and the PGN round trip.
#include "src/modes/chess/engine_player.h"
#include "src/modes/chess/match.h"
#include "src/modes/chess/players.h"
#include "tests/fakes/fake_chat.h"

#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "engine/search/levels.h"

#include "tests/fakes/chess_model_helpers.h"

#include <doctest/doctest.h>

using namespace chaiba;
using namespace chaiba::chessmode;
using chaiba::fakes::FakeChat;
using chaiba::fakes::latestFen;

namespace {

// A model that plays the first legal move (by SAN order of generation) of the position it is shown.
llm::ChatOutcome firstLegal(const llm::ChatRequest& r) {
    llm::ChatOutcome o;
    const auto fen = chess::Position::fromFen(latestFen(r));
    REQUIRE_MESSAGE(fen.ok(), fen.error);
    chess::MoveList moves;
    chess::generateLegal(*fen.position, moves);
    REQUIRE(!moves.empty());
    llm::ChatReply reply;
    const std::string san = chess::toSan(*fen.position, moves[moves.size() / 2]);
    reply.toolCalls.push_back(
        {"c", "make_move", "{\"move\":\"" + san + "\",\"reasoning\":\"because " + san + "\"}"});
    reply.usage.promptTokens = 10;
    reply.usage.completionTokens = 2;
    reply.usage.totalTokens = 12;
    reply.usage.costUsd = 0.001;
    o.reply = reply;
    return o;
}

// A model that answers a move that does not exist (it forfeits after its retries), $0.01 a call.
llm::ChatOutcome neverLegal(const llm::ChatRequest&) {
    llm::ChatOutcome o;
    llm::ChatReply r;
    r.toolCalls.push_back({"c", "make_move", R"({"move":"Ke9"})"});
    r.usage.costUsd = 0.01;
    o.reply = r;
    return o;
}

chessmode::AgentConfig llmConfig(chessmode::Side side) {
    chessmode::AgentConfig c;
    c.id = side == chessmode::Side::White ? "white" : "black";
    c.name = c.id == "white" ? "model-w" : "model-b";
    c.model = "test/" + c.name;
    c.side = side;
    c.retryAttempts = 2;
    return c;
}

// One loop iteration as a page or command runs it: the chat service is pumped (players never
// pump it), then the game.
void tick(FakeChat* chat, MatchRunner& runner) {
    if (chat) chat->poll();
    runner.poll();
}

void runToEnd(MatchRunner& runner, FakeChat* chat = nullptr) {
    runner.start();
    for (int i = 0; i < 20000 && !runner.finished(); ++i) tick(chat, runner);
    REQUIRE(runner.finished());
}

} // namespace

TEST_CASE("match: random vs random finishes with the rules' verdict and round-trips as PGN") {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        CAPTURE(seed);
        RandomPlayer white("white", seed), black("black", seed + 100);
        MatchConfig config;
        config.seed = seed;
        MatchRunner runner(white, black, config);
        runToEnd(runner);
        const chess::Game& game = runner.game();
        CHECK(runner.result() != "*");
        CHECK(runner.result() == game.result());
        CHECK(runner.moves().size() == game.moves().size());
        const std::string text = chess::writePgn(runner.toPgn("test", 1));
        const chess::PgnReadResult back = chess::readPgn(text);
        REQUIRE_MESSAGE(back.ok(), back.error);
        REQUIRE(back.games.size() == 1);
        CHECK(back.games[0].moves == game.moves());
        CHECK(back.games[0].result == runner.result());
        CHECK(back.games[0].tag("WhiteType") == "random");
    }
}

TEST_CASE("match: LLM vs random through the agent, records, costs, conversation, PGN tags") {
    const chessmode::AgentPrompts p = fakes::loadTestPrompts();
    FakeChat chat;
    chat.setResponder(firstLegal);
    LlmPlayer white(llmConfig(chessmode::Side::White), p, chat, "random");
    RandomPlayer black("black", 7);
    MatchConfig config;
    config.maxPlies = 40;
    MatchRunner runner(white, black, config);
    runToEnd(runner, &chat);
    CHECK(runner.result() != "*");
    const auto& moves = runner.moves();
    REQUIRE(!moves.empty());
    CHECK(moves[0].playerId == "white");
    CHECK(moves[0].reasoning == "because " + moves[0].san);
    CHECK(moves[0].costUsd == doctest::Approx(0.001));
    const std::size_t whiteMoves = (runner.game().moves().size() + 1) / 2;
    CHECK(runner.costUsd(chess::Color::White) == doctest::Approx(0.001 * static_cast<double>(whiteMoves)));
    CHECK(runner.costUsd(chess::Color::Black) == 0);
    CHECK(chat.requests().size() == whiteMoves);
    // White's second request tells it Black's first move.
    REQUIRE(chat.requests().size() >= 2);
    bool sawOpponent = false;
    for (const auto& m : chat.requests()[1].messages)
        sawOpponent = sawOpponent || m.content == "Opponent played " + moves[1].san + ".";
    CHECK(sawOpponent);
    const chess::PgnGame pgn = runner.toPgn("test", 3);
    CHECK(pgn.tag("WhiteModel") == "test/model-w");
    CHECK(pgn.tag("WhiteType") == "llm");
    CHECK(pgn.tag("WhitePromptTokens") == std::to_string(10 * whiteMoves));
    CHECK(pgn.comments[0] == "because " + moves[0].san);
    CHECK(pgn.tag("Round") == "3");
}

TEST_CASE("match: an LLM that never finds a legal move forfeits, its cost still counts") {
    const chessmode::AgentPrompts p = fakes::loadTestPrompts();
    FakeChat chat;
    chat.setResponder(neverLegal);
    RandomPlayer white("white", 1);
    LlmPlayer black(llmConfig(chessmode::Side::Black), p, chat, "random");
    MatchRunner runner(white, black, MatchConfig{});
    runToEnd(runner, &chat);
    CAPTURE(runner.termination());
    CHECK(runner.result() == "1-0");
    CHECK(runner.termination().find("Black forfeits") == 0);
    CHECK(runner.game().moves().size() == 1);
    CHECK(chat.requests().size() == 3); // 1 + 2 retries
    CHECK(runner.costUsd(chess::Color::Black) == doctest::Approx(0.03));
    // The feedback quoted the move reader's reason.
    const auto& last = chat.requests().back().messages.back();
    CHECK(last.role == llm::Role::Tool);
    CHECK(last.content.find("Ke9") != std::string::npos);
    const chess::PgnReadResult back = chess::readPgn(chess::writePgn(runner.toPgn("t", 1)));
    REQUIRE(back.ok());
    CHECK(back.games[0].result == "1-0");
    CHECK(back.games[0].tag("Termination").find("forfeits") != std::string::npos);
}

TEST_CASE("match: an API error stops the game unfinished, not as a loss") {
    const chessmode::AgentPrompts p = fakes::loadTestPrompts();
    FakeChat chat;
    chat.pushError(llm::ChatErrorKind::InsufficientCredits, 402,
                   "HTTP 402: the key has run out of credits");
    LlmPlayer white(llmConfig(chessmode::Side::White), p, chat, "random");
    RandomPlayer black("black", 1);
    MatchRunner runner(white, black, MatchConfig{});
    runToEnd(runner, &chat);
    CHECK(runner.result() == "*");
    CHECK(runner.termination().find("credits") != std::string::npos);
}

TEST_CASE("match: the move limit adjudicates a draw, Chess960 starts from the numbered position") {
    RandomPlayer white("white", 5), black("black", 6);
    MatchConfig config;
    config.maxPlies = 6;
    config.chess960 = true;
    config.chess960Number = 0;
    MatchRunner runner(white, black, config);
    runToEnd(runner);
    CHECK(runner.result() == "1/2-1/2");
    CHECK(runner.game().moves().size() == 6);
    CHECK(runner.game().startPosition().isChess960());
    CHECK(runner.game().startPosition().fen() == chess::Position::chess960(0).fen());
    CHECK(runner.termination().find("6 plies") != std::string::npos);
    const chess::PgnReadResult back = chess::readPgn(chess::writePgn(runner.toPgn("t", 1)));
    REQUIRE_MESSAGE(back.ok(), back.error);
    CHECK(back.games[0].moves == runner.game().moves());
}

TEST_CASE("match: a human move is read by the move reader, illegal text is refused with a reason") {
    HumanPlayer white("white", "me");
    RandomPlayer black("black", 2);
    MatchConfig config;
    config.maxPlies = 2;
    MatchRunner runner(white, black, config);
    CHECK(white.submit("e4").has_value()); // not asked yet
    runner.start();
    CHECK(white.waiting());
    const auto refused = white.submit("Ke2");
    REQUIRE(refused.has_value());
    CHECK(!refused->empty());
    CHECK_FALSE(white.submit("I'll go with **e4**").has_value());
    runner.poll();
    REQUIRE(runner.moves().size() >= 1);
    CHECK(runner.moves()[0].san == "e4");
    for (int i = 0; i < 10 && !runner.finished(); ++i) runner.poll();
    CHECK(runner.finished());
}

TEST_CASE("match: start FEN validation and history text") {
    MatchConfig bad;
    bad.startFen = "not a fen";
    CHECK(MatchRunner::validate(bad).has_value());
    MatchConfig good;
    good.startFen = "4k3/8/8/8/8/8/8/4K2R b K - 0 7";
    CHECK_FALSE(MatchRunner::validate(good).has_value());
    RandomPlayer white("white", 1), black("black", 2);
    good.maxPlies = 3;
    MatchRunner runner(white, black, good);
    runToEnd(runner);
    const std::string history = moveHistorySan(runner.game());
    CHECK(history.rfind("7... ", 0) == 0);
    CHECK(history.find(" 8. ") != std::string::npos);
}

TEST_CASE("match: the built-in engine as a player is deterministic for a seed") {
    const auto level = search::levelSpec(1);
    REQUIRE(level.has_value());
    std::vector<chess::Move> first;
    for (int run = 0; run < 2; ++run) {
        CAPTURE(run);
        EnginePlayer white("white", *level, 11);
        RandomPlayer black("black", 12);
        MatchConfig config;
        config.maxPlies = 30;
        MatchRunner runner(white, black, config);
        runToEnd(runner);
        CHECK(runner.result() != "*");
        CHECK(white.kind() == play::SeatKind::Engine);
        CHECK(playerTypeName(white.kind()) == "engine");
        CHECK(runner.toPgn("t", 1).tag("WhiteType") == "engine");
        if (run == 0)
            first = runner.game().moves();
        else
            CHECK(runner.game().moves() == first);
    }
}

// ---- draw offers ----------------------------------------------------------------------------

namespace {
void pushCall(FakeChat& chat, const std::string& name, const std::string& arguments) {
    llm::ChatReply r;
    r.toolCalls.push_back({"call_" + name + std::to_string(chat.requests().size()), name, arguments});
    r.usage.costUsd = 0.01;
    chat.pushReply(r);
}
bool saidByModerator(MatchRunner& runner, const std::string& text) {
    for (const auto& e : runner.conversation().entries())
        if (e.kind == chessmode::ConversationEntry::Kind::Moderator && e.text.find(text) != std::string::npos) return true;
    return false;
}
} // namespace

TEST_CASE("match draw: a person's offer, accepted by the LLM through the tool") {
    const chessmode::AgentPrompts p = fakes::loadTestPrompts();
    FakeChat chat;
    HumanPlayer white("white", "me");
    LlmPlayer black(llmConfig(chessmode::Side::Black), p, chat, "me");
    MatchRunner runner(white, black, MatchConfig{});
    CHECK(runner.offerDraw(chess::Color::White).has_value()); // not started
    runner.start();
    REQUIRE_FALSE(runner.offerDraw(chess::Color::White));
    CHECK(runner.offerDraw(chess::Color::White).has_value()); // already open
    CHECK(runner.drawOfferBy() == chess::Color::White);
    CHECK(saidByModerator(runner, "White offers a draw"));
    pushCall(chat, "respond_to_draw_offer", R"({"accept":true})");
    REQUIRE_FALSE(white.submit("e4"));
    for (int i = 0; i < 10 && !runner.finished(); ++i) tick(&chat, runner);
    REQUIRE(runner.finished());
    CHECK(runner.result() == "1/2-1/2");
    CHECK(runner.termination() == "draw agreed");
    CHECK(runner.moves().size() == 1);
    CHECK(runner.moves()[0].offeredDraw);
    CHECK(saidByModerator(runner, "Black accepts the draw offer"));
    REQUIRE(chat.requests().size() == 1);
    CHECK(chat.requests()[0].tools.size() == 2);
    const chess::PgnReadResult back = chess::readPgn(chess::writePgn(runner.toPgn("t", 1)));
    REQUIRE_MESSAGE(back.ok(), back.error);
    CHECK(back.games[0].result == "1/2-1/2");
    CHECK(back.games[0].tag("Termination") == "draw agreed");
    CHECK(back.games[0].comments[0].find("[offers a draw]") == 0);
}

TEST_CASE("match draw: a move declines the offer, the next turn has no offer") {
    const chessmode::AgentPrompts p = fakes::loadTestPrompts();
    FakeChat chat;
    chat.setResponder(firstLegal);
    RandomPlayer white("white", 3);
    LlmPlayer black(llmConfig(chessmode::Side::Black), p, chat, "random");
    MatchConfig config;
    config.maxPlies = 6;
    MatchRunner runner(white, black, config);
    runner.setHold(true);
    runner.start();
    REQUIRE_FALSE(runner.offerDraw(chess::Color::White));
    runner.setHold(false);
    runner.requestMove();
    runToEnd(runner, &chat);
    CHECK(runner.result() == "1/2-1/2");
    CHECK(runner.termination().find("6 plies") != std::string::npos); // not agreed
    CHECK(saidByModerator(runner, "Black declines the draw offer"));
    CHECK_FALSE(runner.drawOfferBy().has_value());
    REQUIRE(chat.requests().size() == 3);
    CHECK(chat.requests()[0].tools.size() == 2);
    CHECK(chat.requests()[1].tools.size() == 1);
}

TEST_CASE("match draw: an LLM offers with its move, the person declines, then accepts the next offer") {
    const chessmode::AgentPrompts p = fakes::loadTestPrompts();
    FakeChat chat;
    LlmPlayer white(llmConfig(chessmode::Side::White), p, chat, "me");
    HumanPlayer black("black", "me");
    MatchRunner runner(white, black, MatchConfig{});
    pushCall(chat, "make_move", R"({"move":"e4","offer_draw":true})");
    pushCall(chat, "make_move", R"({"move":"d4","offer_draw":true})");
    runner.start();
    for (int i = 0; i < 10 && runner.moves().empty(); ++i) tick(&chat, runner);
    REQUIRE(runner.moves().size() == 1);
    CHECK(runner.drawOfferBy() == chess::Color::White);
    CHECK(runner.answerDraw(chess::Color::White, true).has_value()); // not White's to answer
    REQUIRE_FALSE(runner.answerDraw(chess::Color::Black, false));
    CHECK_FALSE(runner.drawOfferBy().has_value());
    CHECK(saidByModerator(runner, "Black declines the draw offer."));
    CHECK(white.poll() == std::nullopt);
    REQUIRE_FALSE(black.submit("e5"));
    for (int i = 0; i < 10 && runner.moves().size() < 3; ++i) tick(&chat, runner);
    REQUIRE(runner.moves().size() == 3);
    // White's second request saw the decline from the moderator.
    bool sawDecline = false;
    for (const auto& m : chat.requests()[1].messages)
        sawDecline = sawDecline || m.content == "[MODERATOR] Black declines the draw offer.";
    CHECK(sawDecline);
    CHECK(chat.requests()[1].tools.size() == 1);
    REQUIRE_FALSE(runner.answerDraw(chess::Color::Black, true));
    CHECK(runner.result() == "1/2-1/2");
    CHECK(runner.termination() == "draw agreed");
}

TEST_CASE("match draw: the engine accepts when it is not better, declines when better, random declines") {
    const auto level = search::levelSpec(2);
    REQUIRE(level.has_value());
    struct Case {
        const char* fen;
        bool accepts;
    } cases[] = {{"3qk3/8/8/8/8/8/8/R3K3 w - - 0 1", true},   // a queen against a rook: worse
                 {"3rk3/8/8/8/8/8/8/Q3K3 w - - 0 1", false}}; // the other way round: better
    for (const Case& c : cases) {
        CAPTURE(c.fen);
        EnginePlayer white("white", *level, 5);
        RandomPlayer black("black", 6);
        MatchConfig config;
        config.startFen = c.fen;
        config.maxPlies = 4;
        MatchRunner runner(white, black, config);
        runner.setHold(true);
        runner.start();
        REQUIRE_FALSE(runner.offerDraw(chess::Color::Black));
        runner.requestMove();
        runner.poll();
        CHECK(runner.finished() == c.accepts);
        if (c.accepts) CHECK(runner.termination() == "draw agreed");
        else CHECK(runner.moves().size() == 1);
    }
    CHECK(engineAcceptsDraw(0, *level));
    CHECK_FALSE(engineAcceptsDraw(1, *level));
    CHECK_FALSE(engineAcceptsDraw(-500, *search::levelSpec(0)));
    // The random mover declines by moving.
    RandomPlayer white("white", 1), black("black", 2);
    MatchRunner runner(white, black, MatchConfig{});
    runner.setHold(true);
    runner.start();
    REQUIRE_FALSE(runner.offerDraw(chess::Color::Black));
    runner.requestMove();
    runner.poll();
    CHECK_FALSE(runner.finished());
    CHECK(runner.moves().size() == 1);
}

TEST_CASE("match draw: an offer made while the opponent thinks re-asks it with the offer") {
    const chessmode::AgentPrompts p = fakes::loadTestPrompts();
    FakeChat chat;
    HumanPlayer white("white", "me");
    LlmPlayer black(llmConfig(chessmode::Side::Black), p, chat, "me");
    MatchRunner runner(white, black, MatchConfig{});
    runner.start();
    REQUIRE_FALSE(white.submit("e4"));
    pushCall(chat, "make_move", R"({"move":"e5"})");           // dropped: cancelled by the offer
    pushCall(chat, "respond_to_draw_offer", R"({"accept":false})");
    pushCall(chat, "make_move", R"({"move":"c5"})");
    tick(&chat, runner); // e4 played, Black asked
    REQUIRE(runner.thinking());
    REQUIRE_FALSE(runner.offerDraw(chess::Color::White));
    for (int i = 0; i < 10 && runner.moves().size() < 2; ++i) tick(&chat, runner);
    REQUIRE(runner.moves().size() == 2);
    CHECK(runner.moves()[1].san == "c5");
    CHECK(chat.requests().size() == 3);
    CHECK(chat.requests()[1].tools.size() == 2);
    CHECK_FALSE(runner.drawOfferBy().has_value());
}

// ---- takebacks ------------------------------------------------------------------------------

TEST_CASE("match takeback: the person's move while the engine thinks, then with the engine's reply") {
    HumanPlayer white("white", "me");
    EnginePlayer black("black", *search::levelSpec(1), 3);
    MatchRunner runner(white, black, MatchConfig{});
    CHECK(runner.takeBack(chess::Color::White).has_value()); // not started
    runner.start();
    const std::string start = runner.game().position().fen();
    const auto nothing = runner.takeBack(chess::Color::White);
    REQUIRE(nothing.has_value());
    CHECK(*nothing == "White has no move to take back");
    // Before the reply: the search is stopped and its move never lands.
    REQUIRE_FALSE(white.submit("e4"));
    runner.poll();
    REQUIRE(runner.moves().size() == 1);
    CHECK(runner.thinking());
    CHECK(runner.takeBackRefusal(chess::Color::Black).has_value()); // the engine has not moved
    REQUIRE_FALSE(runner.takeBack(chess::Color::White));
    CHECK(runner.moves().empty());
    CHECK(runner.game().moves().empty());
    CHECK(runner.game().position().fen() == start);
    CHECK(white.waiting());
    for (int i = 0; i < 20; ++i) runner.poll();
    CHECK(runner.moves().empty());
    CHECK(saidByModerator(runner, "White takes back e4; White is to move again."));
    // After the reply: both moves go, the person is to move again.
    REQUIRE_FALSE(white.submit("d4"));
    for (int i = 0; i < 5 && runner.moves().size() < 2; ++i) runner.poll();
    REQUIRE(runner.moves().size() == 2);
    const std::string reply = runner.moves()[1].san;
    REQUIRE_FALSE(runner.takeBack(chess::Color::White));
    CHECK(runner.game().position().fen() == start);
    CHECK(runner.moves().empty());
    CHECK(white.waiting());
    CHECK(saidByModerator(runner, "White takes back d4 " + reply + ";"));
    // The game goes on from there, and its PGN has only what stands.
    REQUIRE_FALSE(white.submit("c4"));
    for (int i = 0; i < 5 && runner.moves().size() < 2; ++i) runner.poll();
    REQUIRE(runner.moves().size() == 2);
    CHECK(runner.moves()[0].san == "c4");
    CHECK(runner.moves()[1].ply == 1);
    const chess::PgnReadResult back = chess::readPgn(chess::writePgn(runner.toPgn("t", 1)));
    REQUIRE(back.ok());
    CHECK(back.games[0].moves == runner.game().moves());
}

TEST_CASE("match takeback: a checkmate is taken back and the game plays on, a decided game stays over") {
    {
        HumanPlayer white("white", "me"), black("black", "you");
        MatchRunner runner(white, black, MatchConfig{});
        runner.start();
        for (const char* san : {"f3", "e5", "g4", "Qh4#"}) {
            HumanPlayer& mover = runner.game().position().sideToMove() == chess::Color::White ? white : black;
            REQUIRE_FALSE(mover.submit(san));
            runner.poll();
        }
        REQUIRE(runner.finished());
        CHECK(runner.end() == MatchEnd::Rules);
        CHECK(runner.result() == "0-1");
        // White takes back g4 (and the mate after it).
        REQUIRE_FALSE(runner.takeBack(chess::Color::White));
        CHECK(runner.state() == MatchState::Running);
        CHECK(runner.end() == MatchEnd::None);
        CHECK(runner.result() == "*");
        CHECK(runner.termination().empty());
        CHECK(runner.moves().size() == 2);
        CHECK(white.waiting());
        REQUIRE_FALSE(white.submit("d4"));
        runner.poll();
        CHECK(runner.moves().size() == 3);
        // A resignation is final.
        runner.resign(chess::Color::Black);
        const auto refused = runner.takeBack(chess::Color::Black);
        REQUIRE(refused.has_value());
        CHECK(*refused == "the game is over (Black resigns)");
        CHECK(runner.moves().size() == 3);
    }
    // A forfeit too.
    const chessmode::AgentPrompts p = fakes::loadTestPrompts();
    FakeChat chat;
    chat.setResponder(neverLegal);
    HumanPlayer white("white", "me");
    LlmPlayer black(llmConfig(chessmode::Side::Black), p, chat, "me");
    MatchRunner runner(white, black, MatchConfig{});
    runner.start();
    REQUIRE_FALSE(white.submit("e4"));
    for (int i = 0; i < 50 && !runner.finished(); ++i) tick(&chat, runner);
    REQUIRE(runner.forfeitBy() == chess::Color::Black);
    CHECK(runner.takeBack(chess::Color::White).has_value());
    CHECK(runner.result() == "1-0");
}
