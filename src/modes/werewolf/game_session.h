// A headless Werewolf game session: drives engine/werewolf's Game with a bot, an AI seat or a
// person in each seat. Non-blocking: poll(nowMs) does what is due at that time, and nextWakeMs()
// says when time alone makes progress again, so a headless run jumps a simulated clock there and
// replays exactly (the answers decide, never the latency).
//
// The night: first the wolves' private chat when two or more wolves live and one is an AI seat:
// each living AI wolf is asked whether to speak (all from the same moment's context; the lines are
// posted in seat order, audience the wolves), for at most wolfChatRounds rounds or until a round
// passes in silence. Then every night action is asked at once, the wolves one after the other (a
// wolf sees its pack's earlier votes and the night's chat). The day is a live conversation: every chatPollIntervalMs each living AI
// is asked whether to speak (all from the same moment's context; the answers are posted in the
// speaking order once all are in); bots speak once a day, and again after a person's line. It ends
// at maxDayMessages, after maxDayMs, or when a whole round passes in silence (with a person alive,
// only once they passed: personPass). The vote is cast in the speaking order, so
// each voter sees the tally so far. After each phase every living AI seat rewrites its notes.
// One request queue serves all AI seats: at most maxConcurrentRequests in flight, at least
// requestSpacingMs between two requests (rate limits).
#pragma once

#include "engine/werewolf/bots.h"
#include "engine/werewolf/game.h"
#include "src/modes/werewolf/ai_seat.h"
#include "src/play/seat.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::werewolfmode {

// A table's seat kinds are play's (a model, the rule-based bot, a person; play/seat.h).
using play::SeatKind;
std::string_view seatKindName(SeatKind k); // "bot", "ai" (a model), "person": the export's words

// One seat of a table as a game runs it: who sits there and, for a model, its call settings.
struct TableSeat {
    SeatKind kind = SeatKind::Bot; // Bot, Model or Person
    std::string player; // who plays it, as results name it: "bot", "llm:openai/gpt-4o", "person"
    AiSeatConfig ai;    // SeatKind::Model
};

struct SessionConfig {
    werewolf::GameSetup setup; // setup.seats is taken from seats.size()
    std::vector<TableSeat> seats;
    int chatPollIntervalMs = 5000; // the day: each AI is asked whether to speak this often
    int maxDayMessages = 24;       // the discussion ends after this many messages ...
    int maxDayMs = 60000;          // ... or after this long
    int wolfChatRounds = 2;        // the wolves' night chat before their vote (0: none)
    int requestSpacingMs = 0;      // at least this long between two requests (rate limits)
    int maxConcurrentRequests = 4; // and at most this many in flight
    bool rewriteNotes = true;      // each living AI seat rewrites its notes after each phase
    int maxRounds = 30;            // a game still running after this many rounds stops unfinished
    // A person at the table gets real turns in the day: a round that passes in silence ends the
    // day only once the person said they are done (personPass) or the day's time ran out, and the
    // bots answer in the round after a person's line (their next decision reads it). False: the
    // rules of games saved before (a silent round ends the day; bots speak once a day).
    bool personDayTurns = true;
};

// What the session recorded about one decision event: the model's reasoning, a fallback.
struct EventNote {
    std::string reasoning;
    FallbackReason fallback = FallbackReason::None;
    std::string fallbackDetail;
    std::vector<Suspicion> suspicions; // a chat message's
};

class GameSession {
public:
    // chat may be null when no seat is an AI seat.
    GameSession(SessionConfig config, const WerewolfPrompts& prompts, llm::ChatService* chat);
    ~GameSession();
    GameSession(const GameSession&) = delete;
    GameSession& operator=(const GameSession&) = delete;

    werewolf::SetupError setupError() const { return setupError_; }
    // Does what is due at nowMs (never goes back in time): handles answers, asks, applies.
    void poll(std::int64_t nowMs);
    bool finished() const { return finished_; }
    // Finished without a winner: the round limit, or a decision with no allowed target.
    bool stopped() const { return finished_ && (!game_ || !game_->isOver()); }
    // When to poll next: now when answers wait, the next backoff, spacing or day round, nothing
    // when only the network (see requestsInFlight) or a person can make progress.
    std::optional<std::int64_t> nextWakeMs() const;
    int requestsInFlight() const;
    std::int64_t nowMs() const { return nowMs_; }

    // A person's seat: what the session waits for from it now (a Speak while the discussion
    // runs), the same game state an AI in that seat reads, and the decision, checked by the game.
    std::vector<werewolf::PendingDecision> awaitedFrom(int seat) const;
    std::string contextFor(int seat) const;
    werewolf::ApplyResult submit(const werewolf::Decision& decision);
    // A person says they are done talking today ("I'm done"): a silent round may end the day.
    // False when there is no discussion to pass on.
    bool personPass();
    bool personPassed() const { return personDone_; }
    // The discussion's time left (simulated), while it runs; nothing otherwise.
    std::optional<std::int64_t> dayTimeLeftMs() const;

    const werewolf::Game& game() const { return *game_; }
    const SessionConfig& config() const { return config_; }
    const AiSeat* aiSeat(int seat) const;
    const std::map<std::size_t, EventNote>& eventNotes() const { return eventNotes_; }
    int fallbacks() const;
    double costUsd() const;
    long long tokens() const;

private:
    bool step(); // one stage of the game; true when it changed something
    bool stepNight();
    bool wolfChatRunning(bool& changed);
    bool stepDay();
    bool stepVote();
    void feedBots();
    void apply(const werewolf::Decision& d, const EventNote& note);
    void handle(int seat, AskOutcome outcome);
    void startNotes(werewolf::Phase ended, int round);
    void sendDue();
    bool personAlive() const;
    bool isKind(int seat, SeatKind k) const {
        return config_.seats[static_cast<std::size_t>(seat)].kind == k;
    }
    AiSeat* ai(int seat) { return aiSeats_[static_cast<std::size_t>(seat)].get(); }

    SessionConfig config_;
    const WerewolfPrompts& prompts_;
    llm::ChatService* chat_;
    werewolf::SetupError setupError_ = werewolf::SetupError::None;
    std::optional<werewolf::Game> game_;
    std::vector<std::optional<werewolf::Bot>> bots_;
    std::vector<std::unique_ptr<AiSeat>> aiSeats_;
    std::size_t fed_ = 0;
    std::map<std::size_t, EventNote> eventNotes_;
    std::int64_t nowMs_ = 0;
    std::optional<std::int64_t> lastSendMs_;
    bool finished_ = false;
    // Phase tracking (notes are rewritten when it changes).
    int seenRound_ = 0;
    werewolf::Phase seenPhase_ = werewolf::Phase::Night;
    bool notesRunning_ = false;
    // The day.
    bool dayStarted_ = false;
    bool roundOpen_ = false;
    std::int64_t dayStartMs_ = 0, roundStartMs_ = 0, nextRoundMs_ = 0;
    int dayRound_ = 0;
    int dayMessages_ = 0;
    bool personSpoke_ = false;
    bool personDone_ = false;          // the person passed this day
    bool personSpokeLastRound_ = false; // the bots answer in the round after a person's line
    std::map<int, std::string> botLines_; // each bot's last line today
    std::vector<int> dayOrder_;
    std::map<int, AskOutcome> roundAnswers_; // AI and bot lines of the open round, by seat
    // The wolves' night chat.
    int wolfChatNight_ = 0; // the night it belongs to
    int wolfChatRound_ = 0;
    bool wolfChatOpen_ = false, wolfChatDone_ = false;
    std::map<int, AskOutcome> wolfAnswers_; // AI wolves' lines of the open round, by seat
};

} // namespace chaiba::werewolfmode
