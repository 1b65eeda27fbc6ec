// The bootstrap job's text in both directions (see rating_job.h).
#include "src/play/rating_job.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace chaiba::play {

namespace {

constexpr std::string_view kJobHeader = "chaiba-bootstrap 1";

void appendDouble(std::string& out, double v) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    out += buffer;
}

// A reader of space- and newline-separated numbers; each read fails (false) on anything else.
class Numbers {
public:
    explicit Numbers(std::string_view text) : text_(text) {}
    bool integer(long long& out) { return whole(out, [](const char* p, char** e) { return std::strtoll(p, e, 10); }); }
    bool unsignedInteger(uint64_t& out) {
        return whole(out, [](const char* p, char** e) { return *p == '-' ? (*e = const_cast<char*>(p), 0ULL) : std::strtoull(p, e, 10); });
    }
    bool real(double& out) {
        const std::string token = next();
        if (token.empty()) return false;
        char* end = nullptr;
        out = std::strtod(token.c_str(), &end);
        return end == token.c_str() + token.size();
    }
    bool atEnd() {
        skipSpace();
        return pos_ >= text_.size();
    }

private:
    // The next token read whole by `convert` (strtoll's shape), without overflow.
    template <class T, class Convert>
    bool whole(T& out, Convert convert) {
        const std::string token = next();
        if (token.empty()) return false;
        char* end = nullptr;
        errno = 0;
        out = static_cast<T>(convert(token.c_str(), &end));
        return errno == 0 && end == token.c_str() + token.size();
    }
    void skipSpace() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n')) ++pos_;
    }
    std::string next() {
        skipSpace();
        const size_t start = pos_;
        while (pos_ < text_.size() && text_[pos_] != ' ' && text_[pos_] != '\n') ++pos_;
        return std::string(text_.substr(start, pos_ - start));
    }
    std::string_view text_;
    size_t pos_ = 0;
};

} // namespace

std::string encodeBootstrapJob(const BradleyTerryRun& run) {
    const BradleyTerryOptions& o = run.options();
    std::string out(kJobHeader);
    out += "\n" + std::to_string(run.players()) + " " + std::to_string(o.bootstrapSamples) + " " + std::to_string(o.seed) + " ";
    appendDouble(out, o.virtualDraws);
    out += " ";
    appendDouble(out, o.confidence);
    out += "\n";
    for (int i = 0; i < run.players(); ++i) {
        if (i) out += " ";
        appendDouble(out, size_t(i) < o.anchors.size() ? o.anchors[size_t(i)] : -1.0);
    }
    out += "\n";
    for (const PairTally& t : run.pairs())
        out += std::to_string(t.i) + " " + std::to_string(t.j) + " " + std::to_string(t.winsI) + " " +
               std::to_string(t.draws) + " " + std::to_string(t.lossesI) + "\n";
    return out;
}

BootstrapJobResult runBootstrapJob(std::string_view job) {
    if (job.substr(0, kJobHeader.size()) != kJobHeader) return {"", "not a bootstrap job (no \"chaiba-bootstrap 1\" header)"};
    Numbers in(job.substr(kJobHeader.size()));
    long long players = 0, samples = 0;
    BradleyTerryOptions options;
    if (!in.integer(players) || !in.integer(samples) || !in.unsignedInteger(options.seed) ||
        !in.real(options.virtualDraws) || !in.real(options.confidence))
        return {"", "the bootstrap job's second line is not \"players samples seed virtualDraws confidence\""};
    if (players < 0 || players > kMaxJobPlayers) return {"", "the bootstrap job has " + std::to_string(players) + " players (0 to " + std::to_string(kMaxJobPlayers) + ")"};
    if (samples < 0 || samples > kMaxJobSamples) return {"", "the bootstrap job asks " + std::to_string(samples) + " samples (0 to " + std::to_string(kMaxJobSamples) + ")"};
    options.bootstrapSamples = int(samples);
    options.anchors.resize(size_t(players));
    for (double& a : options.anchors)
        if (!in.real(a)) return {"", "the bootstrap job has fewer anchors than players"};
    std::vector<PairTally> pairs;
    std::vector<char> seen(size_t(players) * size_t(players), 0);
    while (!in.atEnd()) {
        long long v[5];
        for (long long& x : v)
            if (!in.integer(x)) return {"", "pair " + std::to_string(pairs.size() + 1) + " of the bootstrap job is not five integers"};
        if (!(0 <= v[0] && v[0] < v[1] && v[1] < players) || v[2] < 0 || v[3] < 0 || v[4] < 0 ||
            v[2] + v[3] + v[4] > 1000000000)
            return {"", "pair " + std::to_string(pairs.size() + 1) + " of the bootstrap job is out of range"};
        char& s = seen[size_t(v[0]) * size_t(players) + size_t(v[1])];
        if (s) return {"", "the pair " + std::to_string(v[0]) + "-" + std::to_string(v[1]) + " appears twice in the bootstrap job"};
        s = 1;
        pairs.push_back(PairTally{int(v[0]), int(v[1]), int(v[2]), int(v[3]), int(v[4])});
    }
    BradleyTerryRun run(int(players), std::move(pairs), options);
    while (!run.step(1 << 30)) {}
    const BradleyTerryFit& fit = run.fit();
    std::string reply = std::to_string(fit.bootstrapIterations) + "\n";
    for (size_t i = 0; i < fit.low.size(); ++i) {
        appendDouble(reply, fit.low[i]);
        reply += " ";
        appendDouble(reply, fit.high[i]);
        reply += "\n";
    }
    return {reply, ""};
}

std::optional<std::string> adoptBootstrapReply(std::string_view reply, BradleyTerryRun& run) {
    Numbers in(reply);
    long long iterations = 0;
    if (!in.integer(iterations) || iterations < 0) return "the bootstrap reply does not start with its iteration count";
    std::vector<double> low(size_t(run.players())), high(size_t(run.players()));
    for (size_t i = 0; i < low.size(); ++i)
        if (!in.real(low[i]) || !in.real(high[i]) || !std::isfinite(low[i]) || !std::isfinite(high[i]))
            return "the bootstrap reply has no finite interval for player " + std::to_string(i + 1);
    if (!in.atEnd()) return "the bootstrap reply has more intervals than players";
    if (!run.adoptIntervals(std::move(low), std::move(high), long(iterations))) return "the bootstrap reply does not fit the players";
    return std::nullopt;
}

} // namespace chaiba::play
