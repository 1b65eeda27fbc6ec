// Transposition table storage and replacement; see transposition_table.h.
#include "engine/search/transposition_table.h"

#include <algorithm>
#include <cstring>
#include <new>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif

namespace chaiba::search {

void TranspositionTable::resize(std::size_t megabytes) {
    std::size_t count = 1024;
    const std::size_t wanted = std::max<std::size_t>(megabytes, 1) * 1024 * 1024 / sizeof(TtEntry);
    while (count * 2 <= wanted) count *= 2;
    if (count != count_) {
#if defined(__EMSCRIPTEN__)
        constexpr std::size_t kAlign = 64; // no huge pages; do not waste heap on alignment
#else
        constexpr std::size_t kAlign = 2 * 1024 * 1024;
#endif
        const std::size_t bytes = count * sizeof(TtEntry);
        // aligned_alloc wants a size that is a multiple of the alignment.
        const std::size_t alignment = bytes >= kAlign ? kAlign : alignof(std::max_align_t);
        entries_.reset(static_cast<TtEntry*>(std::aligned_alloc(alignment, bytes)));
        if (!entries_) throw std::bad_alloc();
#if defined(__linux__) && !defined(__EMSCRIPTEN__) && defined(MADV_HUGEPAGE)
        if (bytes >= kAlign) madvise(entries_.get(), bytes, MADV_HUGEPAGE); // a hint; failure is harmless
#endif
        count_ = count;
        mask_ = count - 1;
    }
    clear();
}

void TranspositionTable::clear() {
    // TtEntry is trivially copyable and all-zero is its empty state.
    std::memset(static_cast<void*>(entries_.get()), 0, count_ * sizeof(TtEntry));
    generation_ = 0;
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
