// The node-budget time manager; see node_time.h.
#include "engine/search/node_time.h"

#include <algorithm>

namespace chaiba::search {

bool NodeTimeManager::stopAfter(int depth, chess::Move best, int score, uint64_t totalNodes,
                                uint64_t iterationNodes, uint64_t bestMoveNodes) {
    changes_ /= 2;
    if (havePrevious_ && !(best == previousBest_)) changes_ += 1;
    const int fall = havePrevious_ ? previousScore_ - score : 0;
    previousBest_ = best;
    previousScore_ = score;
    havePrevious_ = true;
    if (cap_ == 0 || depth < 4) return false;
    const double instability = 1 + 1.8 * changes_;
    const double effort = iterationNodes ? double(bestMoveNodes) / double(iterationNodes) : 0.5;
    const double effortScale = std::clamp(1.6 - effort, 0.6, 1.4);
    const double fallScale = std::clamp(1 + fall / 150.0, 0.8, 1.6);
    factor_ = std::clamp(instability * effortScale * fallScale, 0.35, 2.5);
    return double(totalNodes) >= kSoftShare * double(cap_) * factor_;
}

} // namespace chaiba::search
