// RunProgress and TerminalProgress: see progress.h.
#include "src/cli/progress.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace chaiba::cli {

namespace {

std::string fixed(double value, int decimals) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string duration(double seconds) {
    const long long s = static_cast<long long>(seconds + 0.5);
    if (s >= 3600) return std::to_string(s / 3600) + "h" + std::to_string(s % 3600 / 60) + "m";
    if (s >= 60) return std::to_string(s / 60) + "m" + std::to_string(s % 60) + "s";
    return std::to_string(s) + "s";
}

double steadyMs() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A terminal that draws: stderr is a tty and TERM does not say it cannot move the cursor.
bool stderrIsTerminal() {
    if (!::isatty(STDERR_FILENO)) return false;
    const char* term = std::getenv("TERM");
    return !term || std::strcmp(term, "dumb") != 0;
}

} // namespace

void RunProgress::startClock(double nowMs) {
    if (startMs_ < 0) startMs_ = lastMs_ = nowMs;
}

double RunProgress::rateOf(int finished, double nowMs) const {
    const double seconds = startMs_ < 0 ? 0 : (nowMs - startMs_) / 1000.0;
    return seconds > 0 ? double(finished - startFinished_) / seconds : 0;
}

std::string RunProgress::line(int finished, double nowMs) {
    startClock(nowMs);
    lastMs_ = nowMs;
    const double rate = rateOf(finished, nowMs);
    std::string text = label_ + ": " + std::to_string(finished) + "/" + std::to_string(total_) + " games, " +
                       fixed(rate, 2) + " games/s";
    if (rate > 0 && finished < total_) text += ", ETA " + duration(double(total_ - finished) / rate);
    return text;
}

std::optional<std::string> RunProgress::due(int finished, double nowMs, double everyMs) {
    startClock(nowMs);
    if (nowMs - lastMs_ < everyMs) return std::nullopt;
    return line(finished, nowMs);
}

std::string RunProgress::summary(int finished, double nowMs) const {
    const double seconds = startMs_ < 0 ? 0 : (nowMs - startMs_) / 1000.0;
    return "played " + std::to_string(finished - startFinished_) + " games in " + fixed(seconds, 1) + " s (" +
           fixed(rateOf(finished, nowMs), 2) + " games/s); " + std::to_string(finished) + "/" +
           std::to_string(total_) + " finished";
}

TerminalProgress::TerminalProgress(std::string label, int finishedAtStart, int total)
    : progress_(std::move(label), finishedAtStart, total), enabled_(total > 1 && stderrIsTerminal()) {}

TerminalProgress::~TerminalProgress() {
    clear();
}

void TerminalProgress::update(int finished) {
    if (!enabled_) return;
    const double now = steadyMs();
    if (shown_ && now - lastDrawMs_ < kEveryMs) return;
    lastDrawMs_ = now;
    std::fflush(stdout); // what the command printed lands before the line, not across it
    std::fprintf(stderr, "\r\033[K%s", progress_.line(finished, now).c_str());
    std::fflush(stderr);
    shown_ = true;
}

void TerminalProgress::clear() {
    if (!shown_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
}

} // namespace chaiba::cli
