// Failure rules, as data: what a tournament does when a seat's request fails. The kind comes from
// typed errors only (a chat error's kind and HTTP status), never from text found in a message.
#pragma once

#include "src/llm/chat.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace chaiba::play {

enum class FailureKind : uint8_t {
    IllegalMove,     // the answer names an action the rules refuse
    MalformedAnswer, // no action could be read from the answer
    Timeout,         // no answer in time
    RateLimited,     // HTTP 429
    ServerError,     // HTTP 5xx, a transport failure, anything not classified
    Unauthorized,    // HTTP 401: bad key
    PaymentRequired  // HTTP 402: no credits
};
enum class FailureAction : uint8_t {
    Retry,          // ask again now (with the error for the model where it helps)
    Backoff,        // ask again after a delay
    Forfeit,        // tries used up: the seat loses the game
    PauseTournament // stop everything and tell the user
};
// One rule; what a forfeit means for the game is the mode's (e.g. the game's termination).
struct FailureRule {
    FailureKind kind;
    FailureAction action;  // while tries remain
    int maxRetries;        // retries before the forfeit (0 with PauseTournament)
    std::string_view text; // for settings and help
};
std::span<const FailureRule> failureRules();
const FailureRule& failureRule(FailureKind kind);
// What to do after the `failures`-th consecutive failure of this kind in one turn (1-based).
FailureAction actionAfterFailure(FailureKind kind, int failures);

// The failure an HTTP status stands for (408 = timeout); nothing for success or other codes.
std::optional<FailureKind> failureFromHttpStatus(int status);
// Stable snake_case names: "illegal_move", "rate_limited", ...
std::string_view failureKindName(FailureKind kind);

// Why a seat's turn stopped without an answer: the typed kind, the text for people, the HTTP
// status when there was one.
struct SeatFailure {
    FailureKind kind = FailureKind::ServerError;
    std::string message;
    int httpStatus = 0;
    int retryAfterMs = 0; // the server's Retry-After hint; 0: none
    // The requests that failed this way in a row (the chat client's own retries included): each
    // counts as a try against the failure rules, so "retry up to 3 times" is 4 requests in all.
    int requests = 1;
    bool operator==(const SeatFailure&) const = default;
};
// The failure kind of a chat error: its kind, else its HTTP status, else a server error.
FailureKind failureKindOf(const llm::ChatError& error);
SeatFailure seatFailureOf(const llm::ChatError& error);
// The rules as a chat call's caps per error kind (ChatRequest::maxRequestsByKind): each kind may
// fail its rule's maxRetries + 1 times in a row, so a turn's first call stays within the rules.
llm::RequestCaps requestCapsOfRules();

} // namespace chaiba::play
