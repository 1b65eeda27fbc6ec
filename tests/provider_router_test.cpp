// The provider router (src/llm/provider_router.h): each call at the provider chosen when it was
// sent, refusals at the next poll, cancels that reach the right provider, no route kept after a
// call ends.
#include "src/llm/provider_router.h"
#include "tests/fakes/fake_chat.h"

#include <doctest/doctest.h>

#include <optional>
#include <string>

using namespace chaiba;

namespace {

llm::ChatRequest request(const std::string& model) {
    llm::ChatRequest r;
    r.model = model;
    return r;
}

} // namespace

TEST_CASE("provider router: a call stays with the provider chosen when it was sent") {
    fakes::FakeChat openRouter, anthropic;
    llm::ChatService* chosen = &openRouter;
    llm::ProviderRouter router([&] { return chosen; }, "no provider");
    openRouter.pushText("from openrouter");
    anthropic.pushText("from anthropic");
    std::optional<std::string> first, second;
    router.send(request("a"), {nullptr, nullptr, nullptr, [&](llm::ChatOutcome o) { first = o.reply->content; }});
    chosen = &anthropic; // the person switches provider while the first call runs
    router.send(request("b"), {nullptr, nullptr, nullptr, [&](llm::ChatOutcome o) { second = o.reply->content; }});
    CHECK(router.routedCount() == 2);
    openRouter.poll();
    anthropic.poll();
    CHECK(first == "from openrouter");
    CHECK(second == "from anthropic");
    REQUIRE(openRouter.requests().size() == 1);
    CHECK(openRouter.requests()[0].model == "a");
    REQUIRE(anthropic.requests().size() == 1);
    CHECK(anthropic.requests()[0].model == "b");
    CHECK(router.routedCount() == 0); // finished calls leave no route behind
}

TEST_CASE("provider router: with no provider the call fails at the next poll, saying why") {
    llm::ProviderRouter router([]() -> llm::ChatService* { return nullptr; }, "no API key for the planner");
    std::optional<llm::ChatError> error;
    router.send(request("a"), {nullptr, nullptr, nullptr, [&](llm::ChatOutcome o) { error = o.error; }});
    CHECK_FALSE(error); // never from inside send()
    router.poll();
    REQUIRE(error);
    CHECK(error->kind == llm::ChatErrorKind::Unauthorized);
    CHECK(error->message == "no API key for the planner");
    error.reset();
    router.poll();
    CHECK_FALSE(error); // exactly once
}

TEST_CASE("provider router: a cancel reaches the provider that has the call, and nothing runs after") {
    fakes::FakeChat provider;
    llm::ProviderRouter router([&] { return &provider; }, "none");
    provider.pushText("late");
    int done = 0;
    const llm::ChatCallId id = router.send(request("a"), {nullptr, nullptr, nullptr, [&](llm::ChatOutcome) { ++done; }});
    CHECK_FALSE(provider.idle());
    router.cancel(id);
    CHECK(provider.idle()); // the provider dropped it
    provider.poll();
    CHECK(done == 0);
    CHECK(router.routedCount() == 0);
    router.cancel(id); // twice, or an unknown id: harmless
    router.cancel(12345);
}

TEST_CASE("provider router: a refused call that is cancelled before the poll does not call back") {
    llm::ProviderRouter router([]() -> llm::ChatService* { return nullptr; }, "none");
    int done = 0;
    const llm::ChatCallId id = router.send(request("a"), {nullptr, nullptr, nullptr, [&](llm::ChatOutcome) { ++done; }});
    router.cancel(id);
    router.poll();
    CHECK(done == 0);
}

TEST_CASE("provider router: a thousand calls in a row keep no routes, and a later cancel of an old id is harmless") {
    fakes::FakeChat provider;
    llm::ProviderRouter router([&] { return &provider; }, "none");
    provider.setResponder([](const llm::ChatRequest&) {
        llm::ChatOutcome o;
        o.reply = llm::ChatReply{};
        return o;
    });
    int done = 0;
    llm::ChatCallId first = 0;
    for (int i = 0; i < 1000; ++i) {
        const llm::ChatCallId id = router.send(request("m"), {nullptr, nullptr, nullptr, [&](llm::ChatOutcome) { ++done; }});
        if (i == 0) first = id;
        provider.poll();
    }
    CHECK(done == 1000);
    CHECK(router.routedCount() == 0);
    router.cancel(first);
}
