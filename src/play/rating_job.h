// The rating intervals' bootstrap as a job for another thread (the page's engine worker): the
// tallied pairs and the options go out as text, the intervals come back as text. Doubles travel
// with 17 significant digits, so the intervals drawn elsewhere equal the ones step() would draw
// here to the last bit (the same pairs, in the same order, from the same seed).
//
// Job:   "chaiba-bootstrap 1", "<players> <samples> <seed> <virtualDraws> <confidence>",
//        "<anchor per player>" (negative: fitted), then "<i> <j> <winsI> <draws> <lossesI>" per pair.
// Reply: "<bootstrapIterations>", then "<low> <high>" per player.
#pragma once

#include "src/play/rating.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace chaiba::play {

// Limits a job must keep (a corrupt one is refused before anything is allocated).
inline constexpr int kMaxJobPlayers = 4096;
inline constexpr int kMaxJobSamples = 100000;

// The bootstrap still to run for `run` (its point estimate is already made, on this thread).
std::string encodeBootstrapJob(const BradleyTerryRun& run);

// Runs a job to the end (in the worker): the reply, or why the job cannot be read.
struct BootstrapJobResult {
    std::string reply;
    std::string error; // empty on success
};
BootstrapJobResult runBootstrapJob(std::string_view job);

// Reads a reply into `run` (adoptIntervals); an error names what is wrong, and `run` is unchanged.
std::optional<std::string> adoptBootstrapReply(std::string_view reply, BradleyTerryRun& run);

// Runs jobs somewhere else, one at a time (web: a worker lent by the engine pool). The callback
// gets the reply, or an error (then the caller draws the samples itself). Destroying the runner
// drops a pending job's reply.
class BootstrapRunner {
public:
    using Callback = std::function<void(const std::string& reply, const std::string& error)>;
    virtual ~BootstrapRunner() = default;
    virtual void run(const std::string& job, Callback callback) = 0;
    virtual bool busy() const = 0;
};

} // namespace chaiba::play
