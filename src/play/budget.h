// Money: catalog prices and the hard spending cap checked while a tournament runs. Prices come
// from the caller (the model catalog); each mode estimates its own games.
#pragma once


#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::play {

struct ModelPrice {
    double promptUsdPerToken = 0;
    double completionUsdPerToken = 0;
};
// The catalog's price of a model id; nothing if the catalog does not know it.
using PriceLookup = std::function<std::optional<ModelPrice>(const std::string& modelId)>;

// The running total against the hard cap. The runner adds every cost as it is reported; once the
// cap is reached no new request may start and the tournament stops.
class BudgetTracker {
public:
    BudgetTracker(std::optional<double> capUsd, int participants);
    void add(int participant, double usd); // negative or non-finite amounts are ignored
    double spentUsd() const { return spentUsd_; }
    double spentUsd(int participant) const;
    const std::optional<double>& capUsd() const { return capUsd_; }
    // Sums of many small costs are inexact: within a nano-dollar of the cap counts as reached.
    static constexpr double kToleranceUsd = 1e-9;
    bool capReached() const { return capUsd_ && spentUsd_ >= *capUsd_ - kToleranceUsd; }
    // True if a request expected to cost `nextUsd` fits under the cap.
    bool allows(double nextUsd) const { return !capUsd_ || spentUsd_ + nextUsd <= *capUsd_ + kToleranceUsd; }
    std::optional<double> remainingUsd() const;

private:
    std::optional<double> capUsd_;
    double spentUsd_ = 0;
    std::vector<double> perParticipant_;
};

} // namespace chaiba::play
