// libcurl multi transport. libcurl's callbacks only buffer (status, headers, body); poll() hands
// the buffered events to the request's handlers afterwards, so a handler may start or cancel
// requests freely without re-entering libcurl.
#include "src/net/curl_transport.h"

#include <curl/curl.h>

#include <cassert>
#include <vector>

namespace chaiba::net {

struct CurlTransport::Transfer {
    RequestId id = 0;
    CURL* easy = nullptr;
    curl_slist* headerList = nullptr;
    HttpHandlers handlers;
    int status = 0;
    std::vector<HttpHeader> responseHeaders;
    bool responseDelivered = false;
    std::string pendingBody;
    bool finished = false;
    std::optional<TransportError> error;
};

namespace {

std::string trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return std::string(s);
}

size_t onHeaderLine(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<CurlTransport::Transfer*>(user);
    const std::string_view line(data, size * count);
    if (line.rfind("HTTP/", 0) == 0) { // a new header block (redirects, 100 Continue)
        t->responseHeaders.clear();
        const size_t space = line.find(' ');
        if (space != std::string_view::npos) {
            int status = 0;
            for (size_t i = space + 1; i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i)
                status = status * 10 + (line[i] - '0');
            t->status = status;
        }
    } else if (const size_t colon = line.find(':'); colon != std::string_view::npos) {
        t->responseHeaders.push_back({trim(line.substr(0, colon)), trim(line.substr(colon + 1))});
    }
    return size * count;
}

size_t onBodyData(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<CurlTransport::Transfer*>(user);
    t->pendingBody.append(data, size * count);
    return size * count;
}

TransportError errorFor(CURLcode code) {
    TransportError e;
    e.message = curl_easy_strerror(code);
    switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT: e.kind = TransportErrorKind::Offline; break;
    case CURLE_OPERATION_TIMEDOUT: e.kind = TransportErrorKind::Timeout; break;
    case CURLE_ABORTED_BY_CALLBACK: e.kind = TransportErrorKind::Aborted; break;
    default: e.kind = TransportErrorKind::Other; break;
    }
    return e;
}

void release(CURLM* multi, CurlTransport::Transfer& t) {
    if (t.easy) {
        curl_multi_remove_handle(multi, t.easy);
        curl_easy_cleanup(t.easy);
        t.easy = nullptr;
    }
    curl_slist_free_all(t.headerList);
    t.headerList = nullptr;
}

} // namespace

CurlTransport::CurlTransport() {
    static const bool initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    assert(initialised && "libcurl failed to initialise");
    (void)initialised;
    multi_ = curl_multi_init();
}

CurlTransport::~CurlTransport() {
    for (auto& [id, t] : transfers_) release(static_cast<CURLM*>(multi_), *t);
    transfers_.clear();
    curl_multi_cleanup(static_cast<CURLM*>(multi_));
}

RequestId CurlTransport::start(HttpRequest request, HttpHandlers handlers) {
    auto t = std::make_unique<Transfer>();
    t->id = nextId_++;
    t->handlers = std::move(handlers);
    t->easy = curl_easy_init();
    CURL* e = t->easy;
    curl_easy_setopt(e, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    if (request.method == "GET") {
        curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    } else {
        curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, request.method.c_str());
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, static_cast<long>(request.body.size()));
        curl_easy_setopt(e, CURLOPT_COPYPOSTFIELDS, request.body.c_str());
    }
    for (const HttpHeader& h : request.headers)
        t->headerList = curl_slist_append(t->headerList, (h.name + ": " + h.value).c_str());
    t->headerList = curl_slist_append(t->headerList, "Expect:"); // no 100-continue round trip
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headerList);
    if (request.timeoutMs > 0) curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeoutMs));
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, 15000L);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, onHeaderLine);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, t.get());
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, onBodyData);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t.get());
    curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
    curl_multi_add_handle(static_cast<CURLM*>(multi_), e);
    const RequestId id = t->id;
    transfers_.emplace(id, std::move(t));
    return id;
}

void CurlTransport::cancel(RequestId id) {
    auto it = transfers_.find(id);
    if (it == transfers_.end()) return;
    release(static_cast<CURLM*>(multi_), *it->second);
    transfers_.erase(it);
}

void CurlTransport::poll() {
    auto* multi = static_cast<CURLM*>(multi_);
    int running = 0;
    curl_multi_perform(multi, &running);
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi, &left)) {
        if (msg->msg != CURLMSG_DONE) continue;
        void* priv = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &priv);
        auto* t = static_cast<Transfer*>(priv);
        t->finished = true;
        if (msg->data.result != CURLE_OK) t->error = errorFor(msg->data.result);
    }
    // Deliver outside libcurl. Handlers may start or cancel requests: re-find by id each time.
    std::vector<RequestId> ids;
    for (const auto& [id, t] : transfers_) ids.push_back(id);
    for (RequestId id : ids) {
        auto it = transfers_.find(id);
        if (it == transfers_.end()) continue;
        Transfer* t = it->second.get();
        const bool haveResponse = t->status != 0 && (!t->pendingBody.empty() || t->finished);
        if (haveResponse && !t->responseDelivered) {
            t->responseDelivered = true;
            if (t->handlers.onResponse) t->handlers.onResponse(t->status, t->responseHeaders);
            if (transfers_.find(id) == transfers_.end()) continue; // cancelled by the handler
        }
        if (!t->pendingBody.empty() && t->responseDelivered) {
            std::string chunk;
            chunk.swap(t->pendingBody);
            if (t->handlers.onBody) t->handlers.onBody(chunk);
            if (transfers_.find(id) == transfers_.end()) continue;
        }
        if (t->finished) {
            if (!t->error && !t->responseDelivered)
                t->error = TransportError{TransportErrorKind::Other, "no HTTP response"};
            std::unique_ptr<Transfer> done = std::move(transfers_.find(id)->second);
            transfers_.erase(id);
            release(multi, *done);
            if (done->handlers.onComplete) done->handlers.onComplete(done->error);
        }
    }
}

void CurlTransport::wait(int maxWaitMs) {
    if (transfers_.empty()) return;
    int fds = 0;
    curl_multi_poll(static_cast<CURLM*>(multi_), nullptr, 0, maxWaitMs, &fds);
}

} // namespace chaiba::net
