// The spending tracker with its hard cap.
#include "src/play/budget.h"

#include <algorithm>
#include <cmath>

namespace chaiba::play {

BudgetTracker::BudgetTracker(std::optional<double> capUsd, int participants)
    : capUsd_(capUsd), perParticipant_(static_cast<size_t>(std::max(participants, 0)), 0.0) {}

void BudgetTracker::add(int participant, double usd) {
    if (!std::isfinite(usd) || usd < 0) return;
    spentUsd_ += usd;
    if (participant >= 0 && size_t(participant) < perParticipant_.size())
        perParticipant_[size_t(participant)] += usd;
}

double BudgetTracker::spentUsd(int participant) const {
    return participant >= 0 && size_t(participant) < perParticipant_.size()
               ? perParticipant_[size_t(participant)]
               : 0.0;
}

std::optional<double> BudgetTracker::remainingUsd() const {
    if (!capUsd_) return std::nullopt;
    return capReached() ? 0.0 : *capUsd_ - spentUsd_;
}

} // namespace chaiba::play
