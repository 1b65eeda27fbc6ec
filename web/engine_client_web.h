// Main-thread side of the engine worker (engine_worker.cpp): one request at a time, replies
// matched by id so a stale answer (after cancel or a new game) is dropped, never played. Workers
// come from one pool for the page: lent to a search, returned with its reply, so a hundred games in
// a row use the same few workers; a search cancelled mid-way costs its worker (a running search
// cannot be interrupted), and a destroyed engine takes its busy worker with it.
#pragma once

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace chaiba::web {

struct EngineRequest {
    std::string startFen;
    bool chess960 = false;
    int level = 0;
    uint64_t seed = 0;
    std::vector<std::string> uciMoves;
};

struct EngineReply {
    bool ok = false;
    std::string uciMove;
    int score = 0;
    int depth = 0;
    uint64_t nodes = 0;
    std::vector<std::string> pvUci; // the engine's principal variation (may be empty)
    std::string error;
};

// The page's engine workers: idle ones are kept for the next search (at most kMaxIdle).
class WorkerPool {
public:
    static constexpr int kMaxIdle = 4;
    static WorkerPool& instance();
    int acquire();              // an idle worker, or a new one
    void release(int worker);   // back to the idle list (terminated past kMaxIdle)
    void terminate(int worker); // a worker busy with a search nobody wants any more
    int live() const { return live_; } // workers alive now (busy and idle)
    int busy() const { return live_ - static_cast<int>(idle_.size()); } // lent to a search now

private:
    std::vector<int> idle_;
    int live_ = 0;
};

// One request at a time to a worker lent by the pool: "<id>\n<body>" to an exported function;
// the reply "<id> ok <rest>" or "<id> error <message>" reaches the callback as (rest, "") or
// (null, message). A stale reply (after cancel or a newer request) is dropped.
class WorkerCall {
public:
    using Callback = std::function<void(std::istringstream* ok, const std::string& error)>;
    WorkerCall() = default;
    ~WorkerCall();
    WorkerCall(const WorkerCall&) = delete;
    WorkerCall& operator=(const WorkerCall&) = delete;
    // Sends a request; a pending one is cancelled.
    void send(const char* function, const std::string& body, Callback callback);
    // Forgets the pending request; a worker still busy with it is terminated and replaced.
    void cancel();
    bool busy() const { return pendingId_ != 0; }

    // Called by the worker callback (internal).
    void onReply(const std::string& text);

private:
    int worker_ = -1; // the lent worker while a request runs (emscripten's ids start at 0)
    uint64_t nextId_ = 1;
    uint64_t pendingId_ = 0;
    Callback callback_;
};

class WorkerEngine {
public:
    using Callback = std::function<void(const EngineReply&)>;
    // Starts a search; a pending one is cancelled (its reply will be ignored).
    void request(const EngineRequest& request, Callback callback);
    // Forgets the pending request; a worker still busy with it is terminated and replaced.
    void cancel() { call_.cancel(); }
    bool busy() const { return call_.busy(); }

private:
    WorkerCall call_;
};

} // namespace chaiba::web
