// Tempo: how fast a tournament's games advance. Max speed (as fast as the seats answer) or a
// global ticker (every period each running game advances one turn), the live-stream mode.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace chaiba::play {

enum class Tempo : uint8_t {
    MaxSpeed, // as fast as the seats answer, up to `concurrency` games at once
    Ticker    // every tickerSeconds each running game advances one turn
};
std::string_view tempoName(Tempo tempo); // "max-speed", "ticker"
std::optional<Tempo> parseTempo(std::string_view text);

// The global clock of Tempo::Ticker: every periodSeconds each running game advances one turn.
// The first tick fires at start; a late call fires every tick it missed (the runner may cap them).
class Ticker {
public:
    explicit Ticker(int periodSeconds) : periodMs_(1000.0 * (periodSeconds > 0 ? periodSeconds : 1)) {}
    // Ticks fired since the previous call, given the current time in milliseconds.
    int advance(double nowMs);
    long long ticks() const { return ticks_; } // the sidebar's tick count
    double msUntilNextTick(double nowMs) const;
    void reset() {
        started_ = false;
        ticks_ = 0;
    }

private:
    double periodMs_;
    double startMs_ = 0;
    bool started_ = false;
    long long ticks_ = 0;
};

} // namespace chaiba::play
