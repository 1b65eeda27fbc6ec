// TournamentSession and its CommitGate: see tournament_session.h.
#include "src/play/tournament_session.h"

#include <string>

namespace chaiba::play {

void CommitGate::wrote(int gameId) {
    if (store_) waiting_[gameId] = Waiting{store_->lastWriteTicket(), -1};
}

bool CommitGate::anyConfirmed() const {
    return std::any_of(waiting_.begin(), waiting_.end(),
                       [done = committed()](const auto& w) { return w.second.ticket <= done; });
}

std::vector<CommitGate::Through> CommitGate::take(double nowMs) {
    std::vector<Through> out;
    const uint64_t done = committed();
    for (auto it = waiting_.begin(); it != waiting_.end();) {
        Waiting& w = it->second;
        if (w.sinceMs < 0) w.sinceMs = nowMs;
        const bool late = w.ticket > done;
        if (late && (!patienceMs_ || nowMs - w.sinceMs < *patienceMs_)) {
            ++it;
            continue;
        }
        out.push_back({it->first, late});
        it = waiting_.erase(it);
    }
    return out;
}

void TournamentSession::setPhase(HostedPhase phase) {
    if (phase == phase_) return;
    phase_ = phase;
    changed();
}

void TournamentSession::followRunner(RunnerState state, bool allPlayed) {
    switch (state) {
    case RunnerState::Idle:
    case RunnerState::Running: setPhase(HostedPhase::Running); break;
    case RunnerState::Stopping: setPhase(HostedPhase::Stopping); break;
    case RunnerState::Paused: setPhase(HostedPhase::Paused); break;
    case RunnerState::Finished: setPhase(allPlayed ? HostedPhase::Finished : HostedPhase::Stopped); break;
    }
}

std::vector<int> TournamentSession::takeCommitted(double nowMs) {
    std::vector<int> ids;
    for (const CommitGate::Through& t : commits_.take(nowMs)) {
        ids.push_back(t.gameId);
        if (t.late) // the store never confirmed it: shown, with the risk said
            setError("This browser's storage has not confirmed game " + std::to_string(t.gameId) + " after " +
                     std::to_string(int(commits_.patienceMs().value_or(0) / 1000)) +
                     " s: it may be lost if the page is closed.");
    }
    return ids;
}

void TournamentSession::setFailure(std::string text, std::optional<FailureKind> failure) {
    error_ = std::move(text);
    failure_ = failure;
    failureText_ = error_;
}

void TournamentSession::addRatings(FitShown shown) {
    auto r = std::make_unique<Ratings>();
    Ratings* self = r.get();
    r->refiner = std::make_unique<RatingRefiner>(
        makeBootstrapRunner_, [self, shown = std::move(shown)](const BradleyTerryFit& fit, bool settled) {
            if (settled) self->settled = fit;
            shown(settled ? fit : withSettledWidths(fit, self->settled), settled);
        });
    ratings_.push_back(std::move(r));
}

void TournamentSession::startRatings(size_t fit, std::unique_ptr<BradleyTerryRun> run) {
    ratings_.at(fit)->refiner->start(std::move(run), playing());
}

void TournamentSession::finishRatings() {
    for (const auto& r : ratings_) r->refiner->finish();
}

void TournamentSession::pollRatings(double nowMs, double budgetMs) {
    for (const auto& r : ratings_) r->refiner->poll(nowMs, budgetMs);
}

bool TournamentSession::ratingsRefining() const {
    return std::any_of(ratings_.begin(), ratings_.end(),
                       [](const auto& r) { return r->refiner->refining(); });
}

std::pair<int, int> TournamentSession::refineProgress() const {
    std::pair<int, int> sum{0, 0};
    for (const auto& r : ratings_) {
        const auto [drawn, wanted] = r->refiner->progress();
        sum.first += drawn;
        sum.second += wanted;
    }
    return sum;
}

RatingRefiner::Stats TournamentSession::ratingStats() const {
    RatingRefiner::Stats sum;
    for (const auto& r : ratings_) {
        sum.sent += r->refiner->stats().sent;
        sum.adopted += r->refiner->stats().adopted;
        if (sum.error.empty()) sum.error = r->refiner->stats().error;
    }
    return sum;
}

void TournamentSession::reset() {
    phase_ = HostedPhase::Setup;
    commits_.clear();
    spentFloorUsd_ = 0;
    clearError();
    for (const auto& r : ratings_) {
        r->refiner->reset();
        r->settled = {};
    }
    changed();
}

} // namespace chaiba::play
