// The browser HTTP transport: JS fetch() with an AbortController and a ReadableStream reader, so
// streamed (SSE) bodies arrive chunk by chunk. JS calls back into exported C++ functions, which
// queue events; poll() delivers them from the main loop like every other transport.
#pragma once

#include "src/net/http.h"

#include <deque>
#include <functional>
#include <map>

namespace chaiba::web {

class WebHttpTransport final : public net::HttpTransport {
public:
    WebHttpTransport();
    ~WebHttpTransport() override;
    WebHttpTransport(const WebHttpTransport&) = delete;
    WebHttpTransport& operator=(const WebHttpTransport&) = delete;

    net::RequestId start(net::HttpRequest request, net::HttpHandlers handlers) override;
    void cancel(net::RequestId id) override;
    void poll() override;
    int activeCount() const override { return static_cast<int>(handlers_.size()); }

    // A poll stops delivering once it has finished this many requests (their Done or Error
    // event); the rest waits for the next poll, in order. 0: no limit.
    void setFinishedPerPoll(int n) { finishedPerPoll_ = n; }
    // Events wait that a poll has not delivered yet.
    bool backlog() const { return !events_.empty(); }
    // Called when a request's last event (Done or Error) arrives from JS, so the page can poll
    // before its next frame.
    void setOnFinishedArrival(std::function<void()> fn) { onFinishedArrival_ = std::move(fn); }

    // Called from the exported C functions (JS side); not for other callers.
    struct Event {
        enum class Type { Response, Body, Done, Error } type = Type::Done;
        net::RequestId id = 0;
        int status = 0;
        std::vector<net::HttpHeader> headers;
        std::string data;
        net::TransportError error;
    };
    void enqueue(Event event);

private:
    std::map<net::RequestId, net::HttpHandlers> handlers_;
    std::deque<Event> events_;
    net::RequestId nextId_ = 1;
    int finishedPerPoll_ = 0;
    std::function<void()> onFinishedArrival_;
};

} // namespace chaiba::web
