// How far a run of games has got: games done of the total, the rate of this session and the time
// left, as a line printed now and then (the arena's log) and as one line redrawn in place on a
// terminal's stderr (never in a pipe or a log, so scripts and tests read clean output).
#pragma once

#include <optional>
#include <string>

namespace chaiba::cli {

// The counts and the clock behind a progress line; the clock starts at the first line() or due().
class RunProgress {
public:
    RunProgress(std::string label, int finishedAtStart, int total)
        : label_(std::move(label)), startFinished_(finishedAtStart), total_(total) {}

    // "label: 12/100 games, 3.21 games/s, ETA 28s" (no ETA until a game of this session is done).
    std::string line(int finished, double nowMs);
    // line() at most every everyMs, the first after everyMs.
    std::optional<std::string> due(int finished, double nowMs, double everyMs);
    // "played 88 games in 27.4 s (3.21 games/s); 100/100 finished"
    std::string summary(int finished, double nowMs) const;
    int total() const { return total_; }

private:
    double rateOf(int finished, double nowMs) const;
    void startClock(double nowMs);
    std::string label_;
    int startFinished_;
    int total_;
    double startMs_ = -1;
    double lastMs_ = -1;
};

// A progress line on stderr, redrawn in place with \r when stderr is a terminal and the run has
// more than one game; otherwise it prints nothing. clear() it before printing a line of one's
// own (the next update() draws it again at once); the destructor clears it.
class TerminalProgress {
public:
    TerminalProgress(std::string label, int finishedAtStart, int total);
    ~TerminalProgress();
    TerminalProgress(const TerminalProgress&) = delete;
    TerminalProgress& operator=(const TerminalProgress&) = delete;

    void update(int finished); // at most every kEveryMs, or at once after a clear()
    void clear();

private:
    static constexpr double kEveryMs = 200;
    RunProgress progress_;
    bool enabled_;
    bool shown_ = false;
    double lastDrawMs_ = -1;
};

} // namespace chaiba::cli
