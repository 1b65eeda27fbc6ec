// Werewolf game: a state machine driven by decisions. pendingDecisions() says which seats must
// decide what now; apply() either refuses a decision with a typed error (and changes nothing) or
// records it, advancing night -> dawn -> discussion -> vote -> night until a team has won.
#pragma once

#include "engine/werewolf/events.h"
#include "engine/werewolf/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chaiba::werewolf {

constexpr size_t kMaxChatChars = 2000;
// The rules' random draws come from SplitMix64(seed ^ kDrawSalt), apart from the deal's stream.
constexpr uint64_t kDrawSalt = 0x4B4147474C452121ULL;

enum class DecisionKind : uint8_t {
    WolfVote, // night: a living wolf names the victim (once per night)
    Inspect,  // night: a living seer learns one player's team (once per night)
    Protect,  // night: a living doctor shields one player from the wolves (once per night)
    Speak,    // optional, any number of times: wolf chat at night, day chat in the discussion
    Vote      // day: every living player names one player to eliminate (once per vote)
};
std::string_view decisionKindName(DecisionKind k); // "wolf_vote", "inspect", ...

// One seat's open decision. Speak is never required: the layer above ends a discussion with
// Game::endDiscussion(), and a night ends when the last required decision is in.
struct PendingDecision {
    int seat = kNoSeat;
    DecisionKind kind = DecisionKind::Vote;
    std::vector<int> targets; // the allowed targets, ascending (empty for Speak)
    bool required = true;
    bool abstain = false; // kAbstain is also allowed (a vote under Rules::abstainAllowed)
    bool operator==(const PendingDecision&) const = default;
};

struct Decision {
    int seat = kNoSeat;
    DecisionKind kind = DecisionKind::Vote;
    int target = kNoSeat; // all kinds but Speak; kAbstain: a vote for nobody
    std::string text;     // Speak
    static Decision wolfVote(int s, int t) { return {s, DecisionKind::WolfVote, t, {}}; }
    static Decision inspect(int s, int t) { return {s, DecisionKind::Inspect, t, {}}; }
    static Decision protect(int s, int t) { return {s, DecisionKind::Protect, t, {}}; }
    static Decision vote(int s, int t) { return {s, DecisionKind::Vote, t, {}}; }
    static Decision speak(int s, std::string t) { return {s, DecisionKind::Speak, kNoSeat, std::move(t)}; }
};

enum class DecisionError : uint8_t {
    None,
    GameOver,               // the game is decided: nothing more is accepted
    UnknownSeat,            // the deciding seat is not at the table
    DeadSeat,               // the dead cannot act, talk or vote
    NotYourTurn,            // this seat has no such decision in this phase (or not its role)
    AlreadyDecided,         // the seat already made this decision this night / vote
    UnknownTarget,          // the target is not a seat at the table
    DeadTarget,             // the target is dead
    SelfTarget,             // voting for, inspecting or attacking oneself
    PartnerTarget,          // a wolf voting to kill a wolf
    SelfProtectForbidden,   // Rules::doctorSelfSave is off
    RepeatProtectForbidden, // Rules::doctorRepeatSave is off and this player was saved last night
    NotACandidate,          // in a revote only the tied players can be voted for
    EmptyText,              // a chat message with nothing but spaces
    TextTooLong,            // over kMaxChatChars
    NotInDiscussion,        // endDiscussion() outside a day's discussion
    AbstainForbidden,       // kAbstain where Rules::abstainAllowed is off (or not a vote)
};
std::string_view decisionErrorName(DecisionError e); // "dead_seat", "not_your_turn", ...

struct ApplyResult {
    DecisionError error = DecisionError::None;
    std::string message; // e.g. "P3 is dead and cannot vote"; empty on success
    bool ok() const { return error == DecisionError::None; }
};

// A table to deal: roles empty means defaultRoles(seats); they are shuffled by the seed.
struct GameSetup {
    int seats = 8;
    std::vector<Role> roles;
    Rules rules;
    uint64_t seed = 0;
};

class Game;
struct NewGame; // { std::optional<Game> game; SetupError error; } below

class Game {
public:
    // Deals setup.roles (or the default deal) to the seats with dealRoles(roles, seed).
    static NewGame create(const GameSetup& setup);
    // Starts with the roles already dealt: rolesBySeat[i] is seat i's role (tests, replay).
    static NewGame createDealt(std::vector<Role> rolesBySeat, const Rules& rules, uint64_t seed);

    int seats() const { return static_cast<int>(roles_.size()); }
    Role roleOf(int seat) const;
    Team teamOfSeat(int seat) const { return teamOf(roleOf(seat)); }
    bool isAlive(int seat) const;
    const Rules& rules() const { return rules_; }
    uint64_t seed() const { return seed_; }
    Phase phase() const { return phase_; }
    int round() const { return round_; }
    bool isOver() const { return phase_ == Phase::Over; }
    std::optional<Team> winner() const { return winner_; }
    std::vector<int> livingSeats() const;
    int livingCount(Team t) const;
    // The day's suggested speaking order (living seats from the first speaker on); the engine
    // does not enforce it. Empty outside a discussion.
    const std::vector<int>& speakingOrder() const { return speakingOrder_; }
    // In a revote, the tied players (the only allowed vote targets); empty otherwise.
    const std::vector<int>& revoteCandidates() const { return candidates_; }

    // Every open decision, by seat: empty once the game is over.
    std::vector<PendingDecision> pendingDecisions() const;
    // The allowed targets for seat's decision of this kind right now (ascending; may be empty).
    std::vector<int> allowedTargets(int seat, DecisionKind kind) const;

    // Records a decision or refuses it with a typed error; a refused decision changes nothing.
    // The last required decision of a night or vote resolves it at once (dawn / elimination,
    // win check, next phase); the game ends the moment a team has won.
    // Night: the victim is the player with the most wolf votes; among tied players, the one named
    // by the earliest wolf vote (the pack's first proposal stands unless a majority overrules it),
    // or under Rules::randomWolfTie one drawn among them. A doctor's protection of the victim means
    // nobody dies. Day: the most voted player leaves; a tie follows Rules::tieRule. Abstentions
    // count for nobody.
    ApplyResult apply(const Decision& d);
    ApplyResult speak(int seat, std::string text) { return apply(Decision::speak(seat, std::move(text))); }
    // Ends the day's discussion and opens the vote (logged as the vote's PhaseStart).
    ApplyResult endDiscussion();

    // The whole log: what a spectator sees.
    const std::vector<Event>& events() const { return events_; }
    std::vector<Event> eventsVisibleTo(int seat) const;
    std::vector<Event> publicEvents() const; // audience Everyone only

    bool operator==(const Game&) const = default;

private:
    Game(std::vector<Role> rolesBySeat, const Rules& rules, uint64_t seed);

    bool validSeat(int s) const { return s >= 0 && s < seats(); }
    DecisionError checkActor(int seat, DecisionKind kind) const;
    DecisionError checkTarget(int seat, DecisionKind kind, int target) const;
    std::string errorMessage(DecisionError e, const Decision& d) const;
    void log(Event e);
    void startNight();
    void startDiscussion();
    bool nightComplete() const;
    void resolveNight();
    void resolveVote();
    void kill(int seat, EventKind how, std::vector<int> drawnAmong = {});
    int draw(const std::vector<int>& among); // one of among (non-empty) by the game's generator
    bool checkWin();

    std::vector<Role> roles_;
    std::vector<uint8_t> alive_;
    Rules rules_;
    uint64_t seed_ = 0;
    SplitMix64 draws_{0}; // the rules' random draws (ties, first speaker), seeded from seed_
    Phase phase_ = Phase::Night;
    int round_ = 0;
    std::optional<Team> winner_;
    // Night: per seat, this night's choice (kNoSeat = not yet) and the doctor's last save.
    std::vector<int> wolfVotes_;
    std::vector<int> wolfVoteOrder_; // wolves in the order they voted (settles a tie)
    std::vector<int> inspected_;
    std::vector<int> protected_;
    std::vector<int> lastProtected_;
    // Day.
    std::vector<int> speakingOrder_;
    std::vector<int> votes_;
    std::vector<int> candidates_; // non-empty during a revote
    std::vector<Event> events_;
};

struct NewGame {
    std::optional<Game> game; // set on success
    SetupError error = SetupError::None;
    bool ok() const { return game.has_value(); }
};

} // namespace chaiba::werewolf
