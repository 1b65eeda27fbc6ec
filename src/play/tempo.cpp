// Tempo names and the ticker clock.
#include "src/play/tempo.h"

#include <algorithm>
#include <cmath>

namespace chaiba::play {

std::string_view tempoName(Tempo tempo) {
    return tempo == Tempo::Ticker ? "ticker" : "max-speed";
}

std::optional<Tempo> parseTempo(std::string_view text) {
    if (text == "max-speed") return Tempo::MaxSpeed;
    if (text == "ticker") return Tempo::Ticker;
    return std::nullopt;
}

int Ticker::advance(double nowMs) {
    if (!started_) {
        started_ = true;
        startMs_ = nowMs;
        ticks_ = 1;
        return 1;
    }
    const long long due = 1 + static_cast<long long>(std::floor(std::max(0.0, nowMs - startMs_) / periodMs_));
    const long long fired = std::max(0LL, due - ticks_);
    ticks_ += fired;
    return int(std::min<long long>(fired, 1000000));
}

double Ticker::msUntilNextTick(double nowMs) const {
    if (!started_) return 0;
    return std::max(0.0, startMs_ + double(ticks_) * periodMs_ - nowMs);
}

} // namespace chaiba::play
