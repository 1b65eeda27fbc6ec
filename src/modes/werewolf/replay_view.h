// A finished (or stopped) Werewolf game as a replay: the record read from any game file (the CLI's
// "chaiba-werewolf-game", the page's export, a run log's {"record": ...} line), checked by replaying
// its log, and the state at any event index as a point of view sees it (a seat, or all): who lives,
// the roles it knows, the chat and votes so far, the night actions it may see, and each AI seat's
// latest reasoning, suspicions and notes. Jumps go to the start of the previous or next day or night.
#pragma once

#include "engine/werewolf/game.h"
#include "src/llm/chat.h"
#include "src/modes/werewolf/ai_seat.h"
#include "src/modes/werewolf/game_session.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::werewolfmode {

// A notes rewrite as the replay shows it: readable from event atEvent on (the first event of the
// phase after the one it was written after).
struct ReplayNotes {
    std::size_t atEvent = 0;
    int round = 0;
    werewolf::Phase after = werewolf::Phase::Night;
    std::string text;
};

// Everything a replay reads: the log, who sat where, and what the AI seats thought.
struct GameRecord {
    std::vector<werewolf::Event> events;      // starts with the deal; replay() accepts it
    std::vector<std::string> players;         // per seat: "bot", "llm:MODEL", "person"
    std::map<std::size_t, EventNote> notes;   // per event index: the reasoning and suspicions behind it
    std::vector<std::vector<ReplayNotes>> seatNotes; // per seat, in order
};

// Reads a game file: "chaiba-werewolf-game" (a CLI game file, version 1 to kGameFileVersion), the
// page's export ("chaiba-werewolf-screen" with its "game"), a run log's line {"record": {...}} (with
// or without its checksum), or a whole run log (tournament.log of `chaiba werewolf --out`: its
// first game).
// The log must replay (werewolf::replay); the error says where it does not.
llm::Result<GameRecord> readGameRecord(std::string_view text);

// What one point of view sees at an event index (events 0..index shown).
struct ReplayChatLine {
    std::size_t index = 0;
    int round = 0;
    int seat = werewolf::kNoSeat;
    std::string text;
    bool wolves = false; // the wolves' night chat
};
struct ReplayVote {
    std::size_t index = 0;
    int round = 0;
    int voter = werewolf::kNoSeat;
    int target = werewolf::kNoSeat; // kNoSeat: an abstention
};
struct ReplayMind {          // an AI seat's thinking at that moment (POV all or that seat)
    std::optional<std::size_t> reasoningAt; // the event the reasoning belongs to
    std::string reasoning;
    std::vector<Suspicion> suspicions; // the latest chat turn's
    std::string notes;                 // the latest notes rewrite readable by then
};
struct ReplayState {
    std::size_t index = 0;
    int round = 0;
    werewolf::Phase phase = werewolf::Phase::Night;
    std::optional<werewolf::Team> winner;
    std::vector<bool> alive;
    std::vector<std::optional<werewolf::Role>> knownRole; // as the POV knows it
    std::vector<ReplayChatLine> chat;
    std::vector<ReplayVote> votes;          // every day vote so far (public)
    std::vector<ReplayVote> currentVotes;   // the vote under way (or the last one) at index
    std::vector<std::string> nightActions;  // lines of night actions the POV may see
    std::vector<std::optional<ReplayMind>> minds; // per seat; set for AI seats the POV may read
};

// pov: a seat, or -1 (all: every event, every role, every mind). index is clamped to the log.
ReplayState replayStateAt(const GameRecord& record, std::size_t index, int pov);

// May the point of view see event e? (-1 sees everything.)
bool replayVisible(const GameRecord& record, const werewolf::Event& e, int pov);

enum class ReplayJump : std::uint8_t { PrevDay, NextDay, PrevNight, NextNight };
// The index of the start of that day (its discussion) or night before / after `from`; nothing
// when there is none.
std::optional<std::size_t> replayJumpTarget(const GameRecord& record, std::size_t from, ReplayJump jump);
// "prev_day", "next_day", "prev_night", "next_night".
std::optional<ReplayJump> parseReplayJump(std::string_view name);

} // namespace chaiba::werewolfmode
