// The native HTTP transport: libcurl's multi interface, advanced by poll() from the caller's loop.
// Never blocks; callbacks are delivered from poll() after libcurl has done its work.
#pragma once

#include "src/net/http.h"

#include <map>
#include <memory>

namespace chaiba::net {

class CurlTransport final : public HttpTransport {
public:
    CurlTransport();
    ~CurlTransport() override;
    CurlTransport(const CurlTransport&) = delete;
    CurlTransport& operator=(const CurlTransport&) = delete;

    RequestId start(HttpRequest request, HttpHandlers handlers) override;
    void cancel(RequestId id) override;
    void poll() override;
    int activeCount() const override { return static_cast<int>(transfers_.size()); }

    // Blocks up to maxWaitMs for socket activity (for command-line loops that have nothing else
    // to do); returns at once when nothing is in flight.
    void wait(int maxWaitMs);

    struct Transfer; // one request in flight (defined in the .cpp)

private:
    void* multi_ = nullptr; // CURLM*
    RequestId nextId_ = 1;
    std::map<RequestId, std::unique_ptr<Transfer>> transfers_;
};

} // namespace chaiba::net
