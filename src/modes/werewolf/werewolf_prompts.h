// The Werewolf players' prompts as data (assets/werewolf/): the system line, the user message's
// frame, a task per decision, the response formats, the answer schemas and one strategy document
// per role. Strategies are loaded once and may be replaced (Settings) or reset to the shipped text.
#pragma once

#include "engine/werewolf/types.h"
#include "src/llm/assets.h"
#include "src/llm/structured.h"

#include <array>
#include <optional>
#include <string>

namespace chaiba::werewolfmode {

// What one AI seat may be asked: a night action, a chat turn, a vote, the notes rewrite, or a
// turn of the wolves' private night chat (answered like a day chat turn).
enum class AskKind : std::uint8_t { WolfVote, Inspect, Protect, Chat, Vote, Notes, WolfChat };
// "wolf_vote", "inspect", "protect", "chat", "vote", "notes", "wolf_chat"
std::string_view askKindName(AskKind k);
// A chat turn (the day's or the wolves' night chat): {"send","message",...}, silence on fallback.
inline bool isChatAsk(AskKind k) { return k == AskKind::Chat || k == AskKind::WolfChat; }

struct WerewolfPrompts {
    std::string system; // {player} {role} {team} {strategy}: the same all game (a cacheable prefix)
    std::string user;   // {notes} {state} {task} {format}
    std::string taskWolfVote, taskInspect, taskProtect, taskChat, taskVote, taskNotes,
        taskWolfChat; // {round} {targets} ...
    std::string formatTarget, formatChat, formatNotes;
    std::string retry; // {error}
    llm::StructuredSpec nightAction, vote, chat;

    // The shipped strategy per role (werewolf.md, villager.md, seer.md, doctor.md) and the
    // user's replacement, if any (Settings: editable, resettable).
    std::array<std::string, werewolf::kRoleCount> defaultStrategies;
    std::array<std::optional<std::string>, werewolf::kRoleCount> strategyOverrides;

    const std::string& strategy(werewolf::Role r) const;
    void setStrategy(werewolf::Role r, std::string text) { strategyOverrides[index(r)] = std::move(text); }
    void resetStrategy(werewolf::Role r) { strategyOverrides[index(r)].reset(); }

    const std::string& task(AskKind k) const;
    const std::string& format(AskKind k) const;
    // The answer's schema for a structured decision; null for Notes (a text answer).
    const llm::StructuredSpec* spec(AskKind k) const;

private:
    static std::size_t index(werewolf::Role r) { return static_cast<std::size_t>(r); }
};

// Reads every file of assets/werewolf/; the error names the first missing or invalid one.
llm::Result<WerewolfPrompts> loadWerewolfPrompts(const llm::AssetSource& assets);

} // namespace chaiba::werewolfmode
