// Transposition table storage and replacement; see transposition_table.h.
#include "engine/search/transposition_table.h"

#include <algorithm>

namespace chaiba::search {

void TranspositionTable::resize(std::size_t megabytes) {
    std::size_t count = 1024;
    const std::size_t wanted = std::max<std::size_t>(megabytes, 1) * 1024 * 1024 / sizeof(TtEntry);
    while (count * 2 <= wanted) count *= 2;
    entries_.assign(count, TtEntry{});
    entries_.shrink_to_fit();
    mask_ = count - 1;
}

void TranspositionTable::clear() {
    std::fill(entries_.begin(), entries_.end(), TtEntry{});
}

void TranspositionTable::store(uint64_t key, uint32_t move, int score, int depth, Bound bound) {
    TtEntry& e = entries_[key & mask_];
    const bool sameKey = e.key == key;
    // Keep a deeper entry of the current search unless this one is exact or for the same position.
    if (!sameKey && e.generation() == generation_ && e.depth > depth + 2 && bound != Bound::Exact) return;
    if (sameKey && move == 0) move = e.move; // keep the old best move when we have none
    e.key = key;
    e.move = move;
    e.score = static_cast<int16_t>(std::clamp(score, -32000, 32000));
    e.depth = static_cast<int8_t>(std::clamp(depth, -1, 127));
    e.boundAndGeneration = static_cast<uint8_t>(static_cast<uint8_t>(bound) | (generation_ << 2));
}

} // namespace chaiba::search
