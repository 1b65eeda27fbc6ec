// Main-thread side of the engine worker (engine_worker.cpp): one request at a time, replies
// matched by id so a stale answer (after cancel or a new game) is dropped, never played.
#pragma once

#include <cstdint>
#include <functional>
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
    std::string error;
};

class WorkerEngine {
public:
    using Callback = std::function<void(const EngineReply&)>;
    // Starts a search; a pending one is cancelled (its reply will be ignored).
    void request(const EngineRequest& request, Callback callback);
    // Forgets the pending request; a worker still busy with it is terminated and replaced.
    void cancel();
    bool busy() const { return pendingId_ != 0; }

    // Called by the worker callback (internal).
    void onReply(const std::string& text);

private:
    int worker_ = 0;
    uint64_t nextId_ = 1;
    uint64_t pendingId_ = 0;
    Callback callback_;
};

} // namespace chaiba::web
