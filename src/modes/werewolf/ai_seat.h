// An AI player's seat: one structured decision per ask (night action, chat turn, vote) or a text
// answer (the notes rewrite), asked through llm::Ask and validated against the game. The failure
// rules of the original design: a timeout or API error is retried twice with exponential backoff
// on the session's clock, a malformed answer (no JSON, an unknown, dead or forbidden target) once
// with the reason; then a seeded random valid choice (silence for a chat turn, the old notes for a
// rewrite), logged and counted. Non-blocking: the ask is polled, advance() handles an answer at
// the session's next poll; time comes only from the caller.
#pragma once

#include "src/llm/ask.h"
#include "src/llm/call_log.h"
#include "src/llm/chat.h"
#include "src/llm/structured.h"
#include "src/modes/werewolf/answers.h"
#include "src/modes/werewolf/player_context.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::werewolfmode {

struct AiSeatConfig {
    std::string model;
    llm::AnswerChannel channel = llm::AnswerChannel::ToolCall; // see llm::channelFor
    int timeoutMs = 10000;    // per request; reasoning models need more (per-model override)
    int apiRetries = 2;       // after a timeout or an API error
    int malformedRetries = 1; // after an answer that cannot be used
    int backoffBaseMs = 1000; // the first retry's wait; doubled for each further one
    std::optional<double> temperature;
    int maxTokens = 0;                        // decisions; 0: the model's default
    int notesMaxTokens = 2000;                // the notes rewrite's answer
    std::size_t notesMaxChars = 8000;         // notes longer than this are cut (~2000 tokens)
    std::optional<llm::ModelPricing> pricing; // to estimate a cost the provider did not report
    ContextOptions context;
};

// Why an ask ended with the fallback instead of the model's answer.
enum class FallbackReason : std::uint8_t { None, ApiError, Malformed };
std::string_view fallbackReasonName(FallbackReason r); // "none", "api_error", "malformed"

// One finished ask, as the session applies it and the export records it.
struct AskOutcome {
    AskKind kind = AskKind::Vote;
    int round = 0;
    werewolf::Phase phase = werewolf::Phase::Night;
    std::optional<int> target; // night actions and votes
    ChatAnswer chat;           // Chat (send false on fallback)
    std::string notes;         // Notes: the new notes (the old ones on fallback)
    std::string reasoning;
    FallbackReason fallback = FallbackReason::None;
    std::string fallbackDetail; // the last error, e.g. "timeout: network: timeout" or "P9 is dead"
    int requests = 0;           // requests sent for this ask
    std::string answer;         // the accepted JSON object or text (the last answer on fallback)
    double costUsd = 0;
    long long tokens = 0;
};

struct NotesEntry {
    int round = 0;
    werewolf::Phase endedPhase = werewolf::Phase::Night;
    std::string text;
};

// asks and fallbacks count every ask; the notes rewrites among them are counted apart, because a
// rewrite accepts any text: mixed in, they would dilute the rate of the decisions (night actions,
// chat turns, votes), which is the one that says whether a model can play.
struct SeatStats {
    int asks = 0;
    int fallbacks = 0;
    int notesAsks = 0;      // of asks: notes rewrites
    int notesFallbacks = 0; // of fallbacks: notes rewrites that kept the old notes
    int decisionAsks() const { return asks - notesAsks; }
    int decisionFallbacks() const { return fallbacks - notesFallbacks; }
    int apiErrors = 0; // failed requests (timeouts included)
    int malformed = 0; // answers refused
};

class AiSeat {
public:
    AiSeat(int seat, AiSeatConfig config, const WerewolfPrompts& prompts, std::uint64_t seed);
    ~AiSeat();
    AiSeat(const AiSeat&) = delete;
    AiSeat& operator=(const AiSeat&) = delete;

    // Starts an ask; its messages are built now, from the seat's view of the game at this moment.
    void ask(const werewolf::Game& game, TaskInfo task, std::int64_t nowMs);
    bool busy() const { return active_.has_value(); }
    // When the next request of the ask may go (now for a new ask, later after a backoff); nothing
    // when no request waits (idle, in flight, or an answer waiting for advance()).
    std::optional<std::int64_t> dueAtMs() const;
    bool inFlight() const { return active_ && active_->ask->inFlight(); }
    // Sends the due request (the session's queue decides when).
    void send(llm::ChatService& chat);
    // Handles an arrived answer: accepts it, schedules a retry, or falls back.
    void advance(const werewolf::Game& game, std::int64_t nowMs);
    // The finished ask, once.
    std::optional<AskOutcome> takeOutcome();

    int seat() const { return seat_; }
    const AiSeatConfig& config() const { return config_; }
    const std::string& notes() const { return notes_; }
    const std::vector<NotesEntry>& notesHistory() const { return notesHistory_; }
    const std::vector<AskOutcome>& history() const { return history_; }
    const llm::CallLog& log() const { return log_; }
    const SeatStats& stats() const { return stats_; }

private:
    struct Active {
        TaskInfo task;
        int round = 0;
        werewolf::Phase phase = werewolf::Phase::Night;
        std::unique_ptr<llm::Ask> ask; // retries, feedback, cost and the call log
    };
    llm::AskRequest askRequest(const werewolf::Game& game, const TaskInfo& task) const;
    // The model's answer, read into the outcome; "" accepts it, else the reason for the retry.
    std::string readAnswer(const werewolf::Game& game, const std::string& answer, AskOutcome& out) const;
    void finish(AskOutcome outcome, const llm::AskResult& result);
    void fallBack(const llm::AskResult& result);

    int seat_;
    AiSeatConfig config_;
    const WerewolfPrompts& prompts_;
    werewolf::SplitMix64 rng_;
    std::optional<Active> active_;
    std::optional<AskOutcome> done_;
    std::string notes_;
    std::vector<NotesEntry> notesHistory_;
    std::vector<AskOutcome> history_;
    llm::CallLog log_;
    SeatStats stats_;
    int askCount_ = 0;
};

} // namespace chaiba::werewolfmode
