// Usage sums and the call log's totals.
#include "src/llm/call_log.h"

namespace chaiba::llm {

Usage& Usage::operator+=(const Usage& other) {
    promptTokens += other.promptTokens;
    completionTokens += other.completionTokens;
    totalTokens += other.totalTokens;
    cachedTokens += other.cachedTokens;
    cacheWriteTokens += other.cacheWriteTokens;
    reasoningTokens += other.reasoningTokens;
    if (other.costUsd) costUsd = costUsd.value_or(0) + *other.costUsd;
    return *this;
}

double replyCostUsd(const ChatReply& reply, const std::optional<ModelPricing>& pricing) {
    if (reply.usage.costUsd) return *reply.usage.costUsd;
    if (pricing) return estimateCostUsd(reply.usage, *pricing);
    return 0;
}

CallRecord& CallLog::add(CallRecord record) {
    if (record.reply) totalUsage_ += record.reply->usage;
    totalCostUsd_ += record.costUsd;
    records_.push_back(std::move(record));
    return records_.back();
}

void CallLog::clear() {
    records_.clear();
    totalCostUsd_ = 0;
    totalUsage_ = Usage{};
}

} // namespace chaiba::llm
