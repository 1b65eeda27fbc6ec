// WorkerCall and WorkerEngine: emscripten's worker API (emscripten_create_worker / emscripten_call_worker).
#include "web/engine_client_web.h"

#include <emscripten.h>

#include <charconv>
#include <sstream>

namespace chaiba::web {

namespace {

void onWorkerReply(char* data, int size, void* arg) {
    auto* call = static_cast<WorkerCall*>(arg);
    call->onReply(std::string(data ? data : "", data ? static_cast<size_t>(size) : 0));
}

} // namespace

WorkerPool& WorkerPool::instance() {
    static WorkerPool pool;
    return pool;
}

int WorkerPool::acquire() {
    if (!idle_.empty()) {
        const int worker = idle_.back();
        idle_.pop_back();
        return worker;
    }
    ++live_;
    return emscripten_create_worker("engine_worker.js");
}

void WorkerPool::release(int worker) {
    if (int(idle_.size()) < kMaxIdle) {
        idle_.push_back(worker);
        return;
    }
    terminate(worker);
}

void WorkerPool::terminate(int worker) {
    // Its pending callbacks are dropped with it (emscripten ignores replies of destroyed workers).
    emscripten_destroy_worker(worker);
    --live_;
}

WorkerCall::~WorkerCall() {
    cancel();
}

void WorkerCall::send(const char* function, const std::string& body, Callback callback) {
    cancel();
    worker_ = WorkerPool::instance().acquire();
    pendingId_ = nextId_++;
    callback_ = std::move(callback);
    std::string text = std::to_string(pendingId_) + "\n" + body;
    emscripten_call_worker(worker_, function, text.data(), static_cast<int>(text.size()), onWorkerReply, this);
}

void WorkerCall::cancel() {
    if (worker_ >= 0) {
        // The worker cannot be interrupted mid-search: it goes, and the next request takes another.
        WorkerPool::instance().terminate(worker_);
        worker_ = -1;
    }
    pendingId_ = 0;
    callback_ = nullptr;
}

void WorkerCall::onReply(const std::string& text) {
    std::istringstream in(text);
    uint64_t id = 0;
    std::string status;
    in >> id >> status;
    if (id == 0 || id != pendingId_) return;  // stale
    std::string error;
    if (status != "ok") {
        std::getline(in, error);
        if (!error.empty() && error[0] == ' ') error.erase(0, 1);
        if (error.empty()) error = "the engine worker failed";
    }
    pendingId_ = 0;
    WorkerPool::instance().release(worker_);
    worker_ = -1;
    Callback cb = std::move(callback_);
    callback_ = nullptr;
    if (cb) cb(status == "ok" ? &in : nullptr, error);
}

void WorkerEngine::request(const EngineRequest& request, Callback callback) {
    std::string body = request.startFen + "\n" + (request.chess960 ? "960" : "std") + "\n" +
                       std::to_string(request.level) + "\n" + std::to_string(request.seed) + "\n";
    for (size_t i = 0; i < request.uciMoves.size(); ++i) body += (i ? " " : "") + request.uciMoves[i];
    call_.send("engine_choose_move", body, [callback = std::move(callback)](std::istringstream* in, const std::string& error) {
        EngineReply reply;
        if (!in) {
            reply.error = error;
        } else {
            reply.ok = true;
            *in >> reply.uciMove >> reply.score >> reply.depth >> reply.nodes;
            if (!*in) {
                reply.ok = false;
                reply.error = "the engine worker sent a malformed reply";
            }
            for (std::string uci; *in >> uci;) reply.pvUci.push_back(uci);
        }
        if (callback) callback(reply);
    });
}

} // namespace chaiba::web
