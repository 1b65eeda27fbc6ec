// WorkerEngine: emscripten's worker API (emscripten_create_worker / emscripten_call_worker).
#include "web/engine_client_web.h"

#include <emscripten.h>

#include <charconv>
#include <sstream>

namespace chaiba::web {

namespace {

void onWorkerReply(char* data, int size, void* arg) {
    auto* engine = static_cast<WorkerEngine*>(arg);
    engine->onReply(std::string(data ? data : "", data ? static_cast<size_t>(size) : 0));
}

} // namespace

void WorkerEngine::request(const EngineRequest& request, Callback callback) {
    cancel();
    if (worker_ == 0) worker_ = emscripten_create_worker("engine_worker.js");
    pendingId_ = nextId_++;
    callback_ = std::move(callback);
    std::string text = std::to_string(pendingId_) + "\n" + request.startFen + "\n" + (request.chess960 ? "960" : "std") +
                       "\n" + std::to_string(request.level) + "\n" + std::to_string(request.seed) + "\n";
    for (size_t i = 0; i < request.uciMoves.size(); ++i) text += (i ? " " : "") + request.uciMoves[i];
    emscripten_call_worker(worker_, "engine_choose_move", text.data(), static_cast<int>(text.size()), onWorkerReply,
                           this);
}

void WorkerEngine::cancel() {
    if (pendingId_ != 0 && worker_ != 0) {
        // The worker cannot be interrupted mid-search: replace it so the next request starts now.
        emscripten_destroy_worker(worker_);
        worker_ = 0;
    }
    pendingId_ = 0;
    callback_ = nullptr;
}

void WorkerEngine::onReply(const std::string& text) {
    std::istringstream in(text);
    uint64_t id = 0;
    std::string status;
    in >> id >> status;
    if (id == 0 || id != pendingId_) return;  // stale
    EngineReply reply;
    if (status == "ok") {
        reply.ok = true;
        in >> reply.uciMove >> reply.score >> reply.depth >> reply.nodes;
        if (!in) {
            reply.ok = false;
            reply.error = "the engine worker sent a malformed reply: " + text;
        }
    } else {
        std::getline(in, reply.error);
        if (!reply.error.empty() && reply.error[0] == ' ') reply.error.erase(0, 1);
        if (reply.error.empty()) reply.error = "the engine worker failed";
    }
    pendingId_ = 0;
    Callback cb = std::move(callback_);
    callback_ = nullptr;
    if (cb) cb(reply);
}

} // namespace chaiba::web
