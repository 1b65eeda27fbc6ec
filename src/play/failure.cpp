// The failure-rule table and the typed error -> failure kind mapping.
#include "src/play/failure.h"

#include <algorithm>
#include <array>

namespace chaiba::play {

namespace {

// The rules of the issue: illegal move: retry with the error up to 3 times; malformed answer:
// one retry; timeout: 3 retries; 429: 5 backoffs; 5xx: 3 backoffs; then forfeit. 401/402 pause
// the whole tournament (nobody forfeits for the user's key or credits).
constexpr std::array<FailureRule, 7> kFailureRules = {{
    {FailureKind::IllegalMove, FailureAction::Retry, 3,
     "illegal move: retry with the error, up to 3 times, then forfeit"},
    {FailureKind::MalformedAnswer, FailureAction::Retry, 1, "malformed answer: retry once, then forfeit"},
    {FailureKind::Timeout, FailureAction::Retry, 3, "timeout: retry up to 3 times, then forfeit"},
    {FailureKind::RateLimited, FailureAction::Backoff, 5,
     "rate limited (429): back off up to 5 times, then forfeit"},
    {FailureKind::ServerError, FailureAction::Backoff, 3,
     "server error (5xx): back off up to 3 times, then forfeit"},
    {FailureKind::Unauthorized, FailureAction::PauseTournament, 0,
     "unauthorized (401): pause the tournament (check the API key)"},
    {FailureKind::PaymentRequired, FailureAction::PauseTournament, 0,
     "payment required (402): pause the tournament (add credits)"},
}};

} // namespace

std::span<const FailureRule> failureRules() {
    return kFailureRules;
}

const FailureRule& failureRule(FailureKind kind) {
    for (const FailureRule& r : kFailureRules)
        if (r.kind == kind) return r;
    return kFailureRules[0];
}

FailureAction actionAfterFailure(FailureKind kind, int failures) {
    const FailureRule& rule = failureRule(kind);
    if (rule.action == FailureAction::PauseTournament) return FailureAction::PauseTournament;
    return failures <= rule.maxRetries ? rule.action : FailureAction::Forfeit;
}

std::optional<FailureKind> failureFromHttpStatus(int status) {
    if (status == 401) return FailureKind::Unauthorized;
    if (status == 402) return FailureKind::PaymentRequired;
    if (status == 408) return FailureKind::Timeout;
    if (status == 429) return FailureKind::RateLimited;
    if (status >= 500 && status <= 599) return FailureKind::ServerError;
    return std::nullopt;
}

std::string_view failureKindName(FailureKind kind) {
    switch (kind) {
    case FailureKind::IllegalMove: return "illegal_move";
    case FailureKind::MalformedAnswer: return "malformed_answer";
    case FailureKind::Timeout: return "timeout";
    case FailureKind::RateLimited: return "rate_limited";
    case FailureKind::ServerError: return "server_error";
    case FailureKind::Unauthorized: return "unauthorized";
    case FailureKind::PaymentRequired: return "payment_required";
    }
    return "illegal_move";
}

FailureKind failureKindOf(const llm::ChatError& e) {
    switch (e.kind) {
    case llm::ChatErrorKind::Unauthorized: return FailureKind::Unauthorized;
    case llm::ChatErrorKind::InsufficientCredits: return FailureKind::PaymentRequired;
    case llm::ChatErrorKind::RateLimited: return FailureKind::RateLimited;
    case llm::ChatErrorKind::Timeout: return FailureKind::Timeout;
    case llm::ChatErrorKind::MalformedResponse: return FailureKind::MalformedAnswer;
    case llm::ChatErrorKind::ServerError: return FailureKind::ServerError;
    case llm::ChatErrorKind::Moderation:
    case llm::ChatErrorKind::BadRequest:
    case llm::ChatErrorKind::Transport:
    case llm::ChatErrorKind::StreamError: break;
    }
    if (auto kind = failureFromHttpStatus(e.httpStatus)) return *kind;
    return FailureKind::ServerError;
}

SeatFailure seatFailureOf(const llm::ChatError& error) {
    return SeatFailure{failureKindOf(error), error.message, error.httpStatus, error.retryAfterMs.value_or(0),
                       std::max(1, error.requests)};
}

llm::RequestCaps requestCapsOfRules() {
    llm::RequestCaps caps{};
    for (std::size_t k = 0; k < caps.size(); ++k) {
        llm::ChatError error;
        error.kind = static_cast<llm::ChatErrorKind>(k);
        caps[k] = failureRule(failureKindOf(error)).maxRetries + 1;
    }
    return caps;
}

} // namespace chaiba::play
