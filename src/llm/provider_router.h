// One ChatService in front of several providers (OpenRouter through the page's client, Anthropic
// directly, ...): each call goes to the provider chosen at the moment it is sent, and is cancelled
// there; with none chosen, the call fails at the next poll with a sentence that says why. A mode
// holds one and never asks which provider answers.
#pragma once

#include "src/llm/chat.h"

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace chaiba::llm {

class ProviderRouter final : public ChatService {
public:
    // Who answers a call sent now; null: nobody (the call fails with `noProvider`).
    using Choose = std::function<ChatService*()>;
    ProviderRouter(Choose choose, std::string noProvider);

    ChatCallId send(ChatRequest request, ChatHandlers handlers) override;
    void cancel(ChatCallId id) override;
    // Delivers the refusals of calls sent with no provider. The providers themselves are polled by
    // their owners (the page's client once per tick), not here.
    void poll() override;

    // Calls in flight at a provider (a finished call leaves at once): for tests and leaks.
    std::size_t routedCount() const { return routes_.size(); }

private:
    struct Route {
        ChatService* service = nullptr;
        ChatCallId id = 0;
    };
    Choose choose_;
    std::string noProvider_;
    ChatCallId next_ = 1;
    // Shared with the wrapped onDone handlers, which drop their route when the call ends; the
    // handlers may outlive the router (a provider that outlives it), hence the shared owner.
    std::shared_ptr<std::map<ChatCallId, Route>> routesShared_ = std::make_shared<std::map<ChatCallId, Route>>();
    std::map<ChatCallId, Route>& routes_ = *routesShared_;
    std::map<ChatCallId, ChatHandlers> refused_; // no provider: failed at the next poll
};

} // namespace chaiba::llm
