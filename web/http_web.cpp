// Browser fetch transport (see http_web.h). Strings cross the boundary as (pointer, length) of
// UTF-8 bytes; JS copies incoming data into a buffer C++ owns (chaiba_http_buffer), so the page
// needs no exported malloc. Only one transport instance is live at a time.
#include "web/http_web.h"
#include "src/net/section_timer.h"

#include <emscripten.h>

#include <cassert>
#include <vector>

namespace chaiba::web {
namespace {
WebHttpTransport* gActive = nullptr;
std::vector<char> gBuffer;
} // namespace
} // namespace chaiba::web

using chaiba::web::WebHttpTransport;

// Exported for the JS side (kept alive by EMSCRIPTEN_KEEPALIVE; no EXPORTED_FUNCTIONS needed).
extern "C" {

EMSCRIPTEN_KEEPALIVE char* chaiba_http_buffer(int size) {
    chaiba::web::gBuffer.resize(static_cast<std::size_t>(size > 0 ? size : 1));
    return chaiba::web::gBuffer.data();
}

// headers: "name: value\n" lines, as far as the browser lets us read them (CORS-exposed only).
EMSCRIPTEN_KEEPALIVE void chaiba_http_on_response(double id, int status, const char* headers, int length) {
    if (!chaiba::web::gActive) return;
    WebHttpTransport::Event e;
    e.type = WebHttpTransport::Event::Type::Response;
    e.id = static_cast<chaiba::net::RequestId>(id);
    e.status = status;
    const std::string text(headers, static_cast<std::size_t>(length));
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        const std::size_t colon = line.find(':');
        if (colon != std::string::npos) {
            std::size_t v = colon + 1;
            while (v < line.size() && line[v] == ' ') ++v;
            e.headers.push_back({line.substr(0, colon), line.substr(v)});
        }
        start = end + 1;
    }
    chaiba::web::gActive->enqueue(std::move(e));
}

EMSCRIPTEN_KEEPALIVE void chaiba_http_on_body(double id, const char* data, int length) {
    if (!chaiba::web::gActive) return;
    WebHttpTransport::Event e;
    e.type = WebHttpTransport::Event::Type::Body;
    e.id = static_cast<chaiba::net::RequestId>(id);
    e.data.assign(data, static_cast<std::size_t>(length));
    chaiba::web::gActive->enqueue(std::move(e));
}

EMSCRIPTEN_KEEPALIVE void chaiba_http_on_done(double id) {
    if (!chaiba::web::gActive) return;
    WebHttpTransport::Event e;
    e.type = WebHttpTransport::Event::Type::Done;
    e.id = static_cast<chaiba::net::RequestId>(id);
    chaiba::web::gActive->enqueue(std::move(e));
}

// kind: 0 offline, 1 blocked, 2 timeout, 3 aborted, 4 other (TransportErrorKind order).
EMSCRIPTEN_KEEPALIVE void chaiba_http_on_error(double id, int kind, const char* message, int length) {
    if (!chaiba::web::gActive) return;
    WebHttpTransport::Event e;
    e.type = WebHttpTransport::Event::Type::Error;
    e.id = static_cast<chaiba::net::RequestId>(id);
    e.error.kind = static_cast<chaiba::net::TransportErrorKind>(kind >= 0 && kind <= 4 ? kind : 4);
    e.error.message.assign(message, static_cast<std::size_t>(length));
    chaiba::web::gActive->enqueue(std::move(e));
}

} // extern "C"

// clang-format off
// The request goes to Module.chaibaIo (web/io_client.js): the I/O worker's fetch(), or the page's.
EM_JS(void, chaiba_fetch_start, (double id, const char* method, int methodLen, const char* url, int urlLen,
                                 const char* headers, int headersLen, const char* body, int bodyLen,
                                 int timeoutMs), {
    const text = Module.chaibaText || (Module.chaibaText = { dec: new TextDecoder(), enc: new TextEncoder() });
    const dec = text.dec, enc = text.enc;
    const str = (p, n) => dec.decode(HEAPU8.subarray(p, p + n));
    // Incoming bytes are copied into a buffer C++ owns. After a cancel Module.chaibaIo calls
    // nothing more (and C++ drops events of a request it no longer has).
    const send = (fn, bytes) => {
        const ptr = _chaiba_http_buffer(bytes.length);
        HEAPU8.set(bytes, ptr);
        fn(ptr, bytes.length);
    };
    const sink = {
        response: (status, lines) => send((p, n) => _chaiba_http_on_response(id, status, p, n), enc.encode(lines)),
        body: (bytes) => send((p, n) => _chaiba_http_on_body(id, p, n), bytes),
        done: () => _chaiba_http_on_done(id),
        error: (kind, message) => send((p, n) => _chaiba_http_on_error(id, kind, p, n), enc.encode(message)),
    };
    const req = { method: str(method, methodLen), url: str(url, urlLen), headers: {}, body: null, timeoutMs: timeoutMs };
    for (const line of str(headers, headersLen).split("\n")) {
        const colon = line.indexOf(":");
        if (colon > 0) req.headers[line.slice(0, colon)] = line.slice(colon + 1).trim();
    }
    if (req.method !== "GET" && req.method !== "HEAD") req.body = HEAPU8.slice(body, body + bodyLen);
    Module.chaibaIo.fetch(id, req, sink);
});

EM_JS(void, chaiba_fetch_cancel, (double id), {
    Module.chaibaIo.cancel(id);
});
// clang-format on

namespace chaiba::web {

WebHttpTransport::WebHttpTransport() {
    assert(gActive == nullptr && "only one WebHttpTransport may exist at a time");
    gActive = this;
}

WebHttpTransport::~WebHttpTransport() {
    for (const auto& entry : handlers_) chaiba_fetch_cancel(static_cast<double>(entry.first));
    gActive = nullptr;
}

net::RequestId WebHttpTransport::start(net::HttpRequest request, net::HttpHandlers handlers) {
    net::SectionTimer timer("net.start");
    const net::RequestId id = nextId_++;
    handlers_.emplace(id, std::move(handlers));
    std::string headerText;
    for (const net::HttpHeader& h : request.headers) headerText += h.name + ": " + h.value + "\n";
    chaiba_fetch_start(static_cast<double>(id), request.method.data(),
                       static_cast<int>(request.method.size()), request.url.data(),
                       static_cast<int>(request.url.size()), headerText.data(),
                       static_cast<int>(headerText.size()), request.body.data(),
                       static_cast<int>(request.body.size()), request.timeoutMs);
    return id;
}

void WebHttpTransport::cancel(net::RequestId id) {
    if (handlers_.erase(id) == 0) return;
    chaiba_fetch_cancel(static_cast<double>(id));
    std::erase_if(events_, [id](const Event& e) { return e.id == id; });
}

void WebHttpTransport::enqueue(Event event) {
    if (!handlers_.count(event.id)) return;
    const bool last = event.type == Event::Type::Done || event.type == Event::Type::Error;
    events_.push_back(std::move(event));
    if (last && onFinishedArrival_) onFinishedArrival_();
}

void WebHttpTransport::poll() {
    // Events queued by handlers running now wait for the next poll().
    std::size_t count = events_.size();
    int finished = 0;
    while (count-- > 0 && !events_.empty()) {
        if (finishedPerPoll_ > 0 && finished >= finishedPerPoll_) break;
        Event e = std::move(events_.front());
        events_.pop_front();
        auto it = handlers_.find(e.id);
        if (it == handlers_.end()) continue;
        switch (e.type) {
        case Event::Type::Response: {
            net::SectionTimer timer("net.onResponse");
            auto fn = it->second.onResponse;
            if (fn) fn(e.status, e.headers);
            break;
        }
        case Event::Type::Body: {
            net::SectionTimer timer("net.onBody");
            auto fn = it->second.onBody;
            if (fn) fn(e.data);
            break;
        }
        case Event::Type::Done:
        case Event::Type::Error: {
            net::SectionTimer timer("net.onComplete");
            net::HttpHandlers h = std::move(it->second);
            handlers_.erase(it);
            ++finished;
            if (h.onComplete) {
                if (e.type == Event::Type::Done)
                    h.onComplete(std::nullopt);
                else
                    h.onComplete(e.error);
            }
            break;
        }
        }
    }
}

} // namespace chaiba::web
