// Who scores a chess position for move-quality analysis: the page hands the search to an engine
// worker, natively it runs in the caller's thread (arena_analysis.h, SearchScorer). The arena and
// the match screen's analyser both send their positions through one.
#pragma once

#include "src/modes/chess/layers.h"
#include "engine/search/analysis.h"

#include <functional>
#include <string>
#include <vector>

namespace chaiba::chessmode {

// One position to score: position `uciMoves.size()` of a game from `startFen`.
struct ScoreRequest {
    std::string startFen;
    bool chess960 = false;
    std::vector<std::string> uciMoves;
    search::AnalysisBudget budget;
};

// The score, or why there is none (a worker that failed, a request that does not replay).
struct ScoreReply {
    bool ok = false;
    search::PositionEval eval; // whiteCp, mateIn, terminal, depth, nodes (no PV)
    std::string error;
};

// Who scores positions. One request at a time; the reply comes through the callback, from poll()
// or from outside (a worker's message), never from inside request().
class PositionScorer {
public:
    using Callback = std::function<void(const ScoreReply&)>;
    virtual ~PositionScorer() = default;
    // True when a request may be sent now: nothing pending, and the CPU free enough (the page:
    // no more engine searches running than leave a core for this one).
    virtual bool ready() const = 0;
    virtual void request(const ScoreRequest& request, Callback callback) = 0;
    // Makes progress (the native scorer searches here).
    virtual void poll() {}
};

} // namespace chaiba::chessmode
