#include "src/net/section_timer.h"

#include <algorithm>
#include <chrono>

namespace chaiba::net {
namespace {

struct Slot {
    const char* name;
    long long count;
    double totalMs;
    double worstMs;
};

// A handful of names: a linear scan by address beats a map and allocates nothing per call.
std::vector<Slot>& slots() {
    static std::vector<Slot> all;
    return all;
}

double nowMs() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

SectionTimer::SectionTimer(const char* name) : name_(name), startMs_(nowMs()) {}

SectionTimer::~SectionTimer() {
    const double ms = nowMs() - startMs_;
    std::vector<Slot>& all = slots();
    auto it = std::find_if(all.begin(), all.end(), [this](const Slot& s) { return s.name == name_; });
    if (it == all.end()) it = all.insert(all.end(), Slot{name_, 0, 0.0, 0.0});
    ++it->count;
    it->totalMs += ms;
    it->worstMs = std::max(it->worstMs, ms);
}

std::vector<SectionFigures> sectionFigures() {
    std::vector<SectionFigures> out;
    for (const Slot& s : slots())
        if (s.count > 0) out.push_back({s.name, s.count, s.totalMs, s.worstMs});
    std::sort(out.begin(), out.end(), [](const SectionFigures& a, const SectionFigures& b) { return a.totalMs > b.totalMs; });
    return out;
}

void resetSectionFigures() {
    for (Slot& s : slots()) {
        s.count = 0;
        s.totalMs = 0.0;
        s.worstMs = 0.0;
    }
}

} // namespace chaiba::net
