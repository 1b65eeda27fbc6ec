// Drives web/http_web.cpp under node (which has fetch and ReadableStream) against the mock
// server: a JSON GET, a 401, a streamed POST, a refused connection, a timeout and a cancel; and
// the page's slicing: limited to one, each poll finishes at most one request (three
// answers that arrived together take three polls), and every finished request is announced.
// Built and run by http_web_node_test.sh (needs emscripten); prints "ok" lines, exits 1 on failure.
#include "web/http_web.h"

#include <emscripten.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace chaiba;

namespace {

struct Outcome {
    int status = 0;
    std::string body;
    int chunks = 0;
    bool done = false;
    std::optional<net::TransportError> error;
};

web::WebHttpTransport* gTransport = nullptr;
std::string gBase;
constexpr int kRequests = 8; // the five cases above, then three GETs that arrive together
Outcome gOutcomes[kRequests];
bool gCancelledCalled = false;
int gFailures = 0;
int gArrivals = 0;       // setOnFinishedArrival calls
int gMostInOnePoll = 0;  // requests finished by one poll
bool gBacklogSeen = false;

net::HttpHandlers handlersFor(Outcome& o) {
    net::HttpHandlers h;
    h.onResponse = [&o](int status, const std::vector<net::HttpHeader>&) { o.status = status; };
    h.onBody = [&o](std::string_view chunk) {
        o.body.append(chunk);
        ++o.chunks;
    };
    h.onComplete = [&o](const std::optional<net::TransportError>& e) {
        o.error = e;
        o.done = true;
    };
    return h;
}

void check(bool condition, const char* what) {
    std::printf("%s %s\n", condition ? "ok  " : "FAIL", what);
    if (!condition) ++gFailures;
}

int finishedCount() {
    int n = 0;
    for (const Outcome& o : gOutcomes) n += o.done ? 1 : 0;
    return n;
}

void tick() {
    // The first poll waits until the three GETs have all arrived: they are queued together.
    static bool polling = false;
    if (!polling && gArrivals < 3) return;
    polling = true;
    const int before = finishedCount();
    gTransport->poll();
    gMostInOnePoll = std::max(gMostInOnePoll, finishedCount() - before);
    if (gTransport->backlog()) gBacklogSeen = true;
    for (int i = 0; i < kRequests; ++i)
        if (!gOutcomes[i].done) return;
    const Outcome& models = gOutcomes[0];
    check(models.status == 200 && models.body.find("mock/legal") != std::string::npos, "GET /models");
    check(gOutcomes[1].status == 401 && !gOutcomes[1].error,
          "GET /key without a key is HTTP 401, not a transport error");
    check(gOutcomes[2].status == 200 && gOutcomes[2].body.find("data: [DONE]") != std::string::npos,
          "streamed POST delivers the whole SSE body");
    check(gOutcomes[3].error && gOutcomes[3].error->kind == net::TransportErrorKind::Blocked,
          "refused connection is a transport error");
    check(gOutcomes[4].error && gOutcomes[4].error->kind == net::TransportErrorKind::Timeout, "timeout");
    check(!gCancelledCalled, "a cancelled request calls nothing");
    for (int i = 5; i < kRequests; ++i)
        check(gOutcomes[i].status == 200 && gOutcomes[i].body.find("mock/legal") != std::string::npos,
              "a GET queued with others is delivered whole");
    check(gMostInOnePoll == 1, "limited to one, a poll finishes one request, the rest wait");
    check(gBacklogSeen, "answers left for the next poll are reported as a backlog");
    check(gArrivals == kRequests, "every finished request is announced once (a cancelled one is not)");
    emscripten_cancel_main_loop();
    std::printf("%s\n", gFailures ? "FAILED" : "all passed");
    std::exit(gFailures ? 1 : 0);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::printf("usage: http_web_node_test BASE_URL KEY\n");
        return 2;
    }
    gBase = argv[1];
    static web::WebHttpTransport transport;
    gTransport = &transport;
    transport.setFinishedPerPoll(1);
    transport.setOnFinishedArrival([] { ++gArrivals; });
    for (int i = 5; i < kRequests; ++i) {
        net::HttpRequest get;
        get.url = gBase + "/models";
        transport.start(get, handlersFor(gOutcomes[i]));
    }
    net::HttpRequest models;
    models.url = gBase + "/models";
    transport.start(models, handlersFor(gOutcomes[0]));
    net::HttpRequest key;
    key.url = gBase + "/key";
    transport.start(key, handlersFor(gOutcomes[1]));
    net::HttpRequest chat;
    chat.method = "POST";
    chat.url = gBase + "/chat/completions";
    chat.headers = {{"Authorization", std::string("Bearer ") + argv[2]},
                    {"Content-Type", "application/json"}};
    chat.body =
        R"({"model":"mock/legal","stream":true,"tools":[{"type":"function","function":{"name":"make_move"}}],
        "messages":[{"role":"system","content":"You play chess."},{"role":"user","content":"[SYSTEM] Move 1.\nPosition (FEN): rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"}]})";
    chat.stream = true;
    transport.start(chat, handlersFor(gOutcomes[2]));
    net::HttpRequest refused;
    refused.url = "http://127.0.0.1:9/nothing";
    transport.start(refused, handlersFor(gOutcomes[3]));
    net::HttpRequest slow = chat;
    slow.body = R"({"model":"mock/slow","messages":[]})";
    slow.stream = false;
    slow.timeoutMs = 200;
    transport.start(slow, handlersFor(gOutcomes[4]));
    net::HttpRequest cancelled = models;
    net::HttpHandlers h;
    h.onComplete = [](const std::optional<net::TransportError>&) { gCancelledCalled = true; };
    h.onResponse = [](int, const std::vector<net::HttpHeader>&) { gCancelledCalled = true; };
    transport.cancel(transport.start(cancelled, h));
    emscripten_set_main_loop(tick, 0, false);
    return 0;
}
