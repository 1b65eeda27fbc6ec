// How long a search on a node budget thinks (kFeatureNodeTime): the budget becomes a hard cap, and
// after each completed iteration the search stops early when the answer looks settled, or goes on
// towards the cap when it does not, as engines share a clock between moves. The signals are those
// of Stockfish's time manager, counted in nodes so that a move is the same on every machine: how
// often the best move changed lately, what share of the iteration's nodes went into the best move,
// and whether the score is falling.
#pragma once

#include "engine/chess/types.h"

#include <cstdint>

namespace chaiba::search {

class NodeTimeManager {
public:
    // The soft budget's share of the cap: a settled move stops near it, an unsettled one goes on
    // to the cap.
    static constexpr double kSoftShare = 0.4;

    explicit NodeTimeManager(uint64_t capNodes) : cap_(capNodes) {}

    // After iteration `depth` completed with `best` scoring `score`: `totalNodes` so far, of which
    // `iterationNodes` in this iteration and `bestMoveNodes` under the best move in it. True when
    // the next iteration should not start.
    bool stopAfter(int depth, chess::Move best, int score, uint64_t totalNodes, uint64_t iterationNodes,
                   uint64_t bestMoveNodes);

    double lastFactor() const { return factor_; } // the soft budget's last scale, for tests

private:
    uint64_t cap_;
    chess::Move previousBest_{};
    int previousScore_ = 0;
    bool havePrevious_ = false;
    double changes_ = 0; // best-move changes, halved each iteration
    double factor_ = 1;
};

} // namespace chaiba::search
