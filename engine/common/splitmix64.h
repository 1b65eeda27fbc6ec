// SplitMix64 (Steele, Lea, Flood 2014): the project's one small deterministic generator — seeded
// deals, dice, bootstrap resamples, test scenarios and the engine's noise — with fixed 64-bit
// arithmetic, so a seed gives the same numbers natively and in WebAssembly (no <random>
// distributions, whose results differ between standard libraries). Game-free: any layer may use it.
#pragma once

#include <cassert>
#include <cstdint>

namespace chaiba {

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1).
    double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
    // Uniform in [0, bound), bound > 0, without bias: draws below 2^64 mod bound are drawn again.
    std::uint64_t below(std::uint64_t bound) {
        assert(bound > 0 && "below() needs a positive bound");
        const std::uint64_t threshold = (0 - bound) % bound;
        for (;;) {
            const std::uint64_t r = next();
            if (r >= threshold) return r % bound;
        }
    }
    // Uniform in [low, high], low <= high.
    int between(int low, int high) { return low + static_cast<int>(below(std::uint64_t(high - low) + 1)); }
    // next() % bound: slightly biased, kept where calibrated results were measured with it (the
    // engine's levels); use below() elsewhere.
    std::uint64_t belowByModulo(std::uint64_t bound) { return next() % bound; }
    // Same state: the same numbers from here on (a game that holds one compares equal by value).
    bool operator==(const SplitMix64&) const = default;

private:
    std::uint64_t state_;
};

} // namespace chaiba
