// View-model helpers: see view_model.h.
#include "src/ui/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace chaiba {

void MoveNavigator::setPlyCount(int plies) {
    plies_ = std::max(0, plies);
    viewPly_ = std::clamp(viewPly_, 0, plies_);
}

void MoveNavigator::select(int ply) {
    if (ply >= plies_) {
        goLive();
        return;
    }
    live_ = false;
    viewPly_ = std::clamp(ply, 0, plies_);
}

void MoveNavigator::stepBack() { select(viewPly() - 1); }

void MoveNavigator::stepForward() {
    if (!live_) select(viewPly_ + 1);
}

void MoveNavigator::toStart() { select(0); }

void MoveNavigator::goLive() {
    live_ = true;
    viewPly_ = plies_;
}

std::string formatElapsed(double ms) {
    char buf[32];
    if (!(ms >= 0)) ms = 0;
    if (ms < 10000) {
        std::snprintf(buf, sizeof buf, "%.1f s", ms / 1000.0);
        return buf;
    }
    const long long s = static_cast<long long>(ms / 1000.0);
    if (s < 60) {
        std::snprintf(buf, sizeof buf, "%lld s", s);
    } else if (s < 3600) {
        std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
    } else {
        std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60);
    }
    return buf;
}

std::string formatCost(double usd) {
    char buf[32];
    if (!(usd > 0)) return "$0";
    if (usd < 0.0001) return "<$0.0001";
    if (usd < 0.01) std::snprintf(buf, sizeof buf, "$%.4f", usd);
    else std::snprintf(buf, sizeof buf, "$%.2f", usd);
    return buf;
}

std::string formatTokens(uint64_t tokens) {
    char buf[32];
    if (tokens < 1000) {
        std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(tokens));
    } else if (tokens < 10000) {
        std::snprintf(buf, sizeof buf, "%.1fk", static_cast<double>(tokens) / 1000.0);
    } else if (tokens < 1000000) {
        std::snprintf(buf, sizeof buf, "%lluk", static_cast<unsigned long long>((tokens + 500) / 1000));
    } else {
        std::snprintf(buf, sizeof buf, "%.1fM", static_cast<double>(tokens) / 1e6);
    }
    return buf;
}

const char* themeName(Theme theme) {
    switch (theme) {
    case Theme::Light: return "light";
    case Theme::Dark: return "dark";
    }
    return "light";
}



} // namespace chaiba
