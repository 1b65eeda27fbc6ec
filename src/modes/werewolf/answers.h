// Reading an AI player's answers, decoded once at the edge into typed values: a night action or a
// vote ({"target","reasoning"}), a chat turn ({"send","message","reasoning","suspicions"}) and the
// notes (text). A target that is unknown, dead or not allowed is an error with a sentence the model
// reads on its retry, never a silent abstention.
#pragma once

#include "engine/werewolf/game.h"
#include "src/llm/chat.h"
#include "src/llm/structured.h"

#include <optional>
#include <string>
#include <vector>

namespace chaiba::werewolfmode {

struct TargetAnswer {
    int target = werewolf::kNoSeat;
    std::string reasoning;
};

struct Suspicion {
    int seat = werewolf::kNoSeat;
    double level = 0; // 0 = sure villager .. 1 = sure wolf
    bool operator==(const Suspicion&) const = default;
};

struct ChatAnswer {
    bool send = false;
    std::string message; // empty when silent
    std::string reasoning;
    std::vector<Suspicion> suspicions; // valid seats only, levels clamped to [0, 1]
};

// A seat named in an answer: "P3", "p3", "player 3", "3" or the number 3 (1-based); nothing else.
std::optional<int> readSeatRef(const std::string& text);

// The spec readStructured checks an answer against: the same name, but only the fields without
// which the answer means nothing are required ("target"; "send"), so a text-channel answer that
// forgets its reasoning still counts.
llm::StructuredSpec lenientSpec(const llm::StructuredSpec& spec, const std::string& requiredField);

// objectJson: the answer's JSON object (from llm::readStructured). The target must be one of
// allowed; game gives the reason when it is not (unknown seat, dead, not allowed). With abstain
// (a vote under Rules::abstainAllowed) "abstain" is also accepted, as werewolf::kAbstain; without
// it, "abstain" is refused with the reason.
llm::Result<TargetAnswer> parseTargetAnswer(const std::string& objectJson, const werewolf::Game& game,
                                            const std::vector<int>& allowed, bool abstain = false);

// A chat turn: send true needs a non-blank message of at most werewolf::kMaxChatChars.
llm::Result<ChatAnswer> parseChatAnswer(const std::string& objectJson, const werewolf::Game& game);

// Notes from a text answer: trimmed, cut to maxChars (at a line end when one is near); an empty
// answer is an error.
llm::Result<std::string> parseNotesAnswer(const std::string& content, std::size_t maxChars);

} // namespace chaiba::werewolfmode
