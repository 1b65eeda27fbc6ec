// A scripted HTTP transport and a hand-moved clock for unit tests: each request gets the next
// scripted reply (or one computed by a responder); poll() delivers it synchronously.
#pragma once

#include "src/net/http.h"

#include <deque>
#include <map>

namespace chaiba::fakes {

struct FakeReply {
    std::optional<net::TransportError> transportError; // set: no HTTP response at all
    int status = 200;
    std::vector<net::HttpHeader> headers;
    std::vector<std::string> chunks;                   // body, delivered one onBody per chunk
    std::optional<net::TransportError> errorAfterBody; // a stream cut short

    static FakeReply json(int status, std::string body) {
        FakeReply r;
        r.status = status;
        r.headers = {{"Content-Type", "application/json"}};
        r.chunks = {std::move(body)};
        return r;
    }
    static FakeReply failure(net::TransportErrorKind kind, std::string message = "scripted failure") {
        FakeReply r;
        r.transportError = net::TransportError{kind, std::move(message)};
        return r;
    }
};

class FakeTransport final : public net::HttpTransport {
public:
    using Responder = std::function<FakeReply(const net::HttpRequest&)>;

    void push(FakeReply reply) { script_.push_back(std::move(reply)); }
    // Used when the script is empty.
    void setResponder(Responder responder) { responder_ = std::move(responder); }

    const std::vector<net::HttpRequest>& requests() const { return requests_; }
    int cancelledCount() const { return cancelled_; }
    std::size_t scriptLeft() const { return script_.size(); }

    net::RequestId start(net::HttpRequest request, net::HttpHandlers handlers) override {
        const net::RequestId id = nextId_++;
        FakeReply reply;
        if (!script_.empty()) {
            reply = std::move(script_.front());
            script_.pop_front();
        } else if (responder_) {
            reply = responder_(request);
        } else {
            reply = FakeReply::failure(net::TransportErrorKind::Other, "fake transport: nothing scripted");
        }
        requests_.push_back(std::move(request));
        pending_.emplace(id, Pending{std::move(handlers), std::move(reply)});
        return id;
    }
    void cancel(net::RequestId id) override {
        if (pending_.erase(id)) ++cancelled_;
    }
    void poll() override {
        // Only what was pending when poll() began: requests started by handlers wait for the next.
        std::vector<net::RequestId> ids;
        for (const auto& entry : pending_) ids.push_back(entry.first);
        for (const net::RequestId id : ids) {
            auto it = pending_.find(id);
            if (it == pending_.end()) continue;
            Pending p = std::move(it->second);
            pending_.erase(it);
            if (p.reply.transportError) {
                if (p.handlers.onComplete) p.handlers.onComplete(p.reply.transportError);
                continue;
            }
            if (p.handlers.onResponse) p.handlers.onResponse(p.reply.status, p.reply.headers);
            for (const std::string& c : p.reply.chunks)
                if (p.handlers.onBody) p.handlers.onBody(c);
            if (p.handlers.onComplete) p.handlers.onComplete(p.reply.errorAfterBody);
        }
    }
    int activeCount() const override { return static_cast<int>(pending_.size()); }

private:
    struct Pending {
        net::HttpHandlers handlers;
        FakeReply reply;
    };
    std::deque<FakeReply> script_;
    Responder responder_;
    std::vector<net::HttpRequest> requests_;
    std::map<net::RequestId, Pending> pending_;
    net::RequestId nextId_ = 1;
    int cancelled_ = 0;
};

class FakeClock final : public net::Clock {
public:
    std::int64_t nowMs() const override { return nowMs_; }
    void advance(std::int64_t ms) { nowMs_ += ms; }

private:
    std::int64_t nowMs_ = 1000;
};

} // namespace chaiba::fakes
