#pragma once
// Where the main loop's time goes: named sections timed with a steady clock, summed per name
// (count, total, worst) until reset. The page shows them in `chaiba.stats().sections` and the arena
// soak prints the costliest; natively nothing reads them. One thread only (the page's main loop).
#include <string>
#include <vector>

namespace chaiba::net {

struct SectionFigures {
    std::string name;
    long long count = 0;
    double totalMs = 0.0;
    double worstMs = 0.0;
};

// Every section timed since the last reset, costliest total first.
std::vector<SectionFigures> sectionFigures();
void resetSectionFigures();

// Times the enclosing scope under a name (a string literal: it is kept by address).
class SectionTimer {
public:
    explicit SectionTimer(const char* name);
    ~SectionTimer();
    SectionTimer(const SectionTimer&) = delete;
    SectionTimer& operator=(const SectionTimer&) = delete;

private:
    const char* name_;
    double startMs_;
};

} // namespace chaiba::net
