// The transposition table: a fixed-size array of 16-byte entries indexed by the Zobrist key,
// replaced by depth (deeper or newer search wins). Single-threaded, no locking.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace chaiba::search {

enum class Bound : uint8_t { None, Upper, Lower, Exact };

// One slot. Layout: key (64) | move (32, the rules engine's raw move) | score (16) | depth (8) |
// bound (2 bits) + generation (6 bits).
struct TtEntry {
    uint64_t key = 0;
    uint32_t move = 0;
    int16_t score = 0;
    int8_t depth = 0;
    uint8_t boundAndGeneration = 0;

    Bound bound() const { return static_cast<Bound>(boundAndGeneration & 3); }
    uint8_t generation() const { return static_cast<uint8_t>(boundAndGeneration >> 2); }
};
static_assert(sizeof(TtEntry) == 16, "a TT entry is 16 bytes");

class TranspositionTable {
public:
    explicit TranspositionTable(std::size_t megabytes = 16) { resize(megabytes); }

    // Rounds down to a power of two number of entries (at least 1024). Clears the table; keeps
    // its memory when the entry count stays the same.
    void resize(std::size_t megabytes);
    void clear();
    // Called once per search so that old entries lose replacement priority.
    void newSearch() { generation_ = static_cast<uint8_t>((generation_ + 1) & 63); }

    // The entry for this key, or nullptr.
    const TtEntry* probe(uint64_t key) const {
        const TtEntry& e = entries_[key & mask_];
        return e.key == key && e.bound() != Bound::None ? &e : nullptr;
    }
    // Starts loading the key's slot into the cache: called as soon as a child position's key is
    // known, so the memory fetch overlaps the work done before the child probes the table.
    void prefetch(uint64_t key) const { __builtin_prefetch(&entries_[key & mask_]); }
    void store(uint64_t key, uint32_t move, int score, int depth, Bound bound);

    std::size_t sizeMb() const { return count_ * sizeof(TtEntry) / (1024 * 1024); }

private:
    struct FreeDeleter {
        void operator()(TtEntry* p) const { std::free(p); }
    };
    // Aligned to 2 MB and, on Linux, backed by huge pages where the kernel allows (fewer TLB
    // misses on the random probes).
    std::unique_ptr<TtEntry[], FreeDeleter> entries_;
    std::size_t count_ = 0;
    std::size_t mask_ = 0;
    uint8_t generation_ = 0;
};

} // namespace chaiba::search
