// The call log every mode keeps: one record per model call (its HTTP attempts, the decoded reply or
// the typed error, the cost, and what the caller told the model when it rejected the answer), the
// running Usage sum and the cost of a reply (reported by the provider, else estimated from prices).
#pragma once

#include "src/llm/chat.h"
#include "src/llm/openrouter_json.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::llm {

// One model call, for logs and the debug window (the key is never in it).
struct CallRecord {
    int turn = 0;    // the caller's unit of work (a turn, a day phase, a chat message)
    int attempt = 0; // model answers within that unit, 1-based
    std::string model;
    std::vector<ChatAttempt> httpAttempts;
    std::optional<ChatReply> reply;
    std::optional<ChatError> error;
    double costUsd = 0;
    std::string feedback; // when the answer was rejected: what the model was told
};

// What a reply cost: the provider's figure when it reported one, else the price list's estimate,
// else 0.
double replyCostUsd(const ChatReply& reply, const std::optional<ModelPricing>& pricing);

// Records in call order with their totals.
class CallLog {
public:
    // Appends a finished call; its reply's usage and cost join the totals. Returns the record.
    CallRecord& add(CallRecord record);
    const std::vector<CallRecord>& records() const { return records_; }
    CallRecord* last() { return records_.empty() ? nullptr : &records_.back(); }
    CallRecord* record(std::size_t index) { return index < records_.size() ? &records_[index] : nullptr; }
    double totalCostUsd() const { return totalCostUsd_; }
    const Usage& totalUsage() const { return totalUsage_; }
    void clear();

private:
    std::vector<CallRecord> records_;
    double totalCostUsd_ = 0;
    Usage totalUsage_;
};

} // namespace chaiba::llm
