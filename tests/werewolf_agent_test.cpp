// The Werewolf AI seat with a scripted chat service: an invalid target is retried once with the
// reason, then falls back to a random valid choice; a timeout is retried twice with exponential
// backoff on the caller's clock, then falls back; silence is an answer; notes are rewritten and
// read back by the next prompt; each answer channel; costs and tokens in the call log.
#include "src/modes/werewolf/ai_seat.h"
#include "tests/werewolf_mode_test_util.h"
#include "tests/werewolf_test_util.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace chaiba;
using namespace chaiba::werewolfmode;
using namespace chaiba::werewolfmode::test;
using chaiba::fakes::FakeChat;
using werewolf::DecisionKind;
using werewolf::Phase;
namespace wt = chaiba::werewolf::test;

namespace {
AiSeatConfig config(llm::AnswerChannel channel = llm::AnswerChannel::JsonSchema) {
    AiSeatConfig c;
    c.model = "test/model";
    c.channel = channel;
    return c;
}

// Sends the seat's due request at nowMs, delivers it and lets the seat handle the answer.
void exchange(AiSeat& seat, FakeChat& chat, const werewolf::Game& game, std::int64_t nowMs) {
    REQUIRE(seat.dueAtMs().has_value());
    REQUIRE(*seat.dueAtMs() <= nowMs);
    seat.send(chat);
    CHECK(seat.inFlight());
    chat.poll();
    seat.advance(game, nowMs);
}

TaskInfo inspect(const werewolf::Game& g) {
    return {AskKind::Inspect, g.allowedTargets(wt::SEER, DecisionKind::Inspect), Phase::Night, 0};
}

bool contains(const std::vector<int>& v, int x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}
} // namespace

TEST_CASE("werewolf agent: an invalid target is retried once with the reason, then accepted") {
    werewolf::Game g = wt::makeGame();
    FakeChat chat;
    AiSeat seat(wt::SEER, config(), prompts(), 7);
    chat.pushReply(textReply(R"({"target":"P12","reasoning":"a guess"})"));
    chat.pushReply(textReply(R"({"target":"P1","reasoning":"the quiet one"})"));
    seat.ask(g, inspect(g), 0);
    CHECK(seat.busy());
    exchange(seat, chat, g, 0);
    CHECK_FALSE(seat.takeOutcome());
    CHECK(seat.dueAtMs() == 0); // a malformed answer is retried at once
    exchange(seat, chat, g, 0);
    const std::optional<AskOutcome> o = seat.takeOutcome();
    REQUIRE(o);
    CHECK(o->target == 0);
    CHECK(o->reasoning == "the quiet one");
    CHECK(o->fallback == FallbackReason::None);
    CHECK(o->requests == 2);
    CHECK_FALSE(seat.busy());
    REQUIRE(chat.requests().size() == 2);
    CHECK(lastUser(chat.requests()[0]).find("not accepted") == std::string::npos);
    CHECK(lastUser(chat.requests()[1])
              .find("Your previous answer was not accepted: there is no player P12 at this "
                    "table. Choose one of: P1, P2, P4") != std::string::npos);
    CHECK(chat.requests()[0].responseFormat.has_value());
    CHECK(seat.stats().malformed == 1);
    CHECK(seat.stats().fallbacks == 0);
    REQUIRE(seat.log().records().size() == 2);
    CHECK(seat.log().records()[0].feedback.rfind("there is no player P12", 0) == 0);
    CHECK(seat.log().records()[1].feedback.empty());
}

TEST_CASE("werewolf agent: two invalid answers fall back to a random valid choice, counted") {
    werewolf::Game g = wt::makeGame();
    wt::night(g, wt::V5, wt::W1, wt::V8); // P5 dies
    REQUIRE(g.endDiscussion().ok());
    FakeChat chat;
    AiSeat seat(wt::V6, config(), prompts(), 7);
    chat.pushReply(textReply(R"({"target":"P5","reasoning":"dead already"})"));
    chat.pushReply(textReply(R"({"target":"P6","reasoning":"myself"})"));
    const std::vector<int> allowed = g.allowedTargets(wt::V6, DecisionKind::Vote);
    seat.ask(g, {AskKind::Vote, allowed, Phase::Night, 0}, 0);
    exchange(seat, chat, g, 0);
    exchange(seat, chat, g, 0);
    const std::optional<AskOutcome> o = seat.takeOutcome();
    REQUIRE(o);
    REQUIRE(o->target);
    CHECK(contains(allowed, *o->target));
    CHECK(o->fallback == FallbackReason::Malformed);
    CHECK(o->fallbackDetail.rfind("P6 is not an allowed target", 0) == 0);
    CHECK(o->requests == 2);
    CHECK(lastUser(chat.requests()[1]).find("not accepted: P5 is dead.") != std::string::npos);
    CHECK(chat.requests().size() == 2); // one retry only
    CHECK(seat.stats().fallbacks == 1);
    CHECK(seat.stats().malformed == 2);
    CHECK(seat.history().back().fallback == FallbackReason::Malformed);
}

TEST_CASE("werewolf agent: timeouts are retried twice with exponential backoff, then the fallback") {
    werewolf::Game g = wt::makeGame();
    FakeChat chat;
    AiSeat seat(wt::SEER, config(), prompts(), 7);
    for (int i = 0; i < 3; ++i) chat.push(failure(llm::ChatErrorKind::Timeout, 0, "network: timeout"));
    seat.ask(g, inspect(g), 0);
    exchange(seat, chat, g, 0);
    CHECK(chat.requests()[0].timeoutMs == 10000);
    CHECK_FALSE(seat.takeOutcome());
    CHECK(seat.dueAtMs() == 1000); // the first retry waits 1 s on the session's clock
    exchange(seat, chat, g, 1000);
    CHECK(seat.dueAtMs() == 3000); // the second 2 s
    exchange(seat, chat, g, 3000);
    const std::optional<AskOutcome> o = seat.takeOutcome();
    REQUIRE(o);
    CHECK(o->fallback == FallbackReason::ApiError);
    CHECK(o->fallbackDetail == "timeout: network: timeout");
    REQUIRE(o->target);
    CHECK(contains(inspect(g).targets, *o->target));
    CHECK(o->requests == 3);
    CHECK(seat.stats().apiErrors == 3);
    CHECK(seat.stats().fallbacks == 1);
    CHECK(chat.requests().size() == 3);
}

TEST_CASE("werewolf agent: a timeout then an answer, and an unretryable error falls back at once") {
    werewolf::Game g = wt::makeGame();
    FakeChat chat;
    AiSeat seat(wt::SEER, config(), prompts(), 7);
    chat.push(failure(llm::ChatErrorKind::ServerError, 502, "provider down"));
    chat.pushReply(textReply(R"({"target":"P4","reasoning":"fine"})"));
    seat.ask(g, inspect(g), 0);
    exchange(seat, chat, g, 0);
    exchange(seat, chat, g, 1000);
    std::optional<AskOutcome> o = seat.takeOutcome();
    REQUIRE(o);
    CHECK(o->target == 3);
    CHECK(o->fallback == FallbackReason::None);

    chat.push(failure(llm::ChatErrorKind::Unauthorized, 401, "bad key"));
    seat.ask(g, inspect(g), 5000);
    exchange(seat, chat, g, 5000);
    o = seat.takeOutcome();
    REQUIRE(o);
    CHECK(o->fallback == FallbackReason::ApiError);
    CHECK(o->requests == 1);
}

TEST_CASE("werewolf agent: silence is an answer, not a fallback") {
    werewolf::Game g = wt::makeGame();
    wt::night(g, wt::V5, wt::W1, wt::V8);
    FakeChat chat;
    AiSeat seat(wt::V6, config(), prompts(), 7);
    chat.pushReply(textReply(R"({"send":false,"message":"","reasoning":"nothing to add","suspicions":[]})"));
    seat.ask(g, {AskKind::Chat, {}, Phase::Night, 0}, 0);
    exchange(seat, chat, g, 0);
    const std::optional<AskOutcome> o = seat.takeOutcome();
    REQUIRE(o);
    CHECK_FALSE(o->chat.send);
    CHECK(o->fallback == FallbackReason::None);
    CHECK(o->reasoning == "nothing to add");
    CHECK(seat.stats().fallbacks == 0);
    // The chat task has no targets and asks for the chat schema.
    CHECK(chat.requests()[0].responseFormat->name == "chat");
}

TEST_CASE("werewolf agent: notes are rewritten after a phase and read by the next prompt") {
    werewolf::Game g = wt::makeGame();
    FakeChat chat;
    AiSeat seat(wt::SEER, config(), prompts(), 7);
    chat.pushReply(textReply("Suspects: P2 (0.7).\nPlan: inspect P2."));
    seat.ask(g, {AskKind::Notes, {}, Phase::Night, 1}, 0);
    exchange(seat, chat, g, 0);
    REQUIRE(seat.takeOutcome());
    CHECK(seat.notes() == "Suspects: P2 (0.7).\nPlan: inspect P2.");
    REQUIRE(seat.notesHistory().size() == 1);
    CHECK(seat.notesHistory()[0].round == 1);
    const llm::ChatRequest& notesRequest = chat.requests()[0];
    CHECK(notesRequest.maxTokens == 2000);
    CHECK_FALSE(notesRequest.responseFormat);
    CHECK(notesRequest.tools.empty());
    CHECK(lastUser(notesRequest).find("The night of round 1 has just ended. Rewrite your notes") !=
          std::string::npos);

    chat.pushReply(textReply(R"({"target":"P2","reasoning":"as planned"})"));
    seat.ask(g, inspect(g), 0);
    exchange(seat, chat, g, 0);
    CHECK(lastUser(chat.requests()[1]).find("[Your Notes]\nSuspects: P2 (0.7).\nPlan: inspect P2.") == 0);

    // Empty notes twice: the old notes stay, and the fallback is counted.
    chat.pushReply(textReply("  "));
    chat.pushReply(textReply(""));
    seat.takeOutcome();
    seat.ask(g, {AskKind::Notes, {}, Phase::Discussion, 1}, 0);
    exchange(seat, chat, g, 0);
    exchange(seat, chat, g, 0);
    const std::optional<AskOutcome> o = seat.takeOutcome();
    REQUIRE(o);
    CHECK(o->fallback == FallbackReason::Malformed);
    CHECK(seat.notes() == "Suspects: P2 (0.7).\nPlan: inspect P2.");
    CHECK(seat.notesHistory().size() == 1);
}

TEST_CASE("werewolf agent: the tool and text channels, with costs and tokens in the log") {
    werewolf::Game g = wt::makeGame();
    FakeChat chat;
    AiSeat tools(wt::SEER, config(llm::AnswerChannel::ToolCall), prompts(), 7);
    chat.pushReply(toolReply("night_action", R"({"target":"P2","reasoning":"tool"})"));
    tools.ask(g, inspect(g), 0);
    exchange(tools, chat, g, 0);
    CHECK(chat.requests()[0].forcedTool == "night_action");
    CHECK(tools.takeOutcome()->target == 1);

    AiSeat text(wt::SEER, config(llm::AnswerChannel::Text), prompts(), 7);
    chat.pushReply(
        textReply("Let me think.\n```json\n{\"target\": \"P4\", \"reasoning\": \"text\"}\n```", 250, 0.25));
    text.ask(g, inspect(g), 0);
    exchange(text, chat, g, 0);
    CHECK(lastUser(chat.requests()[1]).find("Answer with exactly one JSON object") != std::string::npos);
    CHECK_FALSE(chat.requests()[1].responseFormat);
    CHECK(chat.requests()[1].tools.empty());
    const std::optional<AskOutcome> o = text.takeOutcome();
    REQUIRE(o);
    CHECK(o->target == 3);
    CHECK(o->tokens == 250);
    CHECK(o->costUsd == doctest::Approx(0.25));
    CHECK(text.log().totalUsage().totalTokens == 250);
    CHECK(text.log().totalCostUsd() == doctest::Approx(0.25));
}
