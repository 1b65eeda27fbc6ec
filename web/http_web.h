// The browser HTTP transport: JS fetch() with an AbortController and a ReadableStream reader, so
// streamed (SSE) bodies arrive chunk by chunk. JS calls back into exported C++ functions, which
// queue events; poll() delivers them from the main loop like every other transport.
#pragma once

#include "src/net/http.h"

#include <deque>
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
};

} // namespace chaiba::web
