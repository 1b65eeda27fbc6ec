// ProviderRouter: the route of each call, dropped when the call ends or is cancelled.
#include "src/llm/provider_router.h"

#include <utility>

namespace chaiba::llm {

ProviderRouter::ProviderRouter(Choose choose, std::string noProvider)
    : choose_(std::move(choose)), noProvider_(std::move(noProvider)) {}

ChatCallId ProviderRouter::send(ChatRequest request, ChatHandlers handlers) {
    const ChatCallId id = next_++;
    ChatService* service = choose_ ? choose_() : nullptr;
    if (!service) {
        refused_.emplace(id, std::move(handlers));
        return id;
    }
    // The route leaves with the call's end: a long-lived router holds only the calls in flight.
    std::weak_ptr<std::map<ChatCallId, Route>> routes = routesShared_;
    auto done = std::move(handlers.onDone);
    handlers.onDone = [routes, id, done = std::move(done)](ChatOutcome outcome) {
        if (auto live = routes.lock()) live->erase(id);
        if (done) done(std::move(outcome));
    };
    const ChatCallId inner = service->send(std::move(request), std::move(handlers));
    // A provider answers from poll(), never from inside send(): the route is in place before.
    routes_[id] = Route{service, inner};
    return id;
}

void ProviderRouter::cancel(ChatCallId id) {
    refused_.erase(id);
    auto it = routes_.find(id);
    if (it == routes_.end()) return;
    const Route route = it->second;
    routes_.erase(it);
    route.service->cancel(route.id);
}

void ProviderRouter::poll() {
    std::map<ChatCallId, ChatHandlers> refused;
    refused.swap(refused_);
    for (auto& [id, handlers] : refused) {
        ChatOutcome outcome;
        outcome.error = ChatError{ChatErrorKind::Unauthorized, 0, noProvider_, std::nullopt};
        if (handlers.onDone) handlers.onDone(std::move(outcome));
    }
}

} // namespace chaiba::llm
