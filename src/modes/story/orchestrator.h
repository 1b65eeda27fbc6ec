// The orchestrator's decision as typed data: pre-steps to run off-screen before the narrator and
// dice rolls to suggest. Decoded once from the model's JSON object, checked against the factions
// and NPCs the world files hold, and turned into the narrator's "off-screen" message.
#pragma once

#include "src/llm/chat.h"
#include "src/modes/story/world_files.h"

#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

enum class PreStepKind { WorldAdvance, FactionTurn };
const char* preStepKindName(PreStepKind kind); // "world_advance", "faction_turn"

// One piece of off-screen work: world_advance uses description; faction_turn faction and situation.
struct PreStep {
    PreStepKind kind = PreStepKind::WorldAdvance;
    std::string description;
    std::string faction;
    std::string situation;
};

// A moment of genuine chance the narrator should settle with twist_of_fate.
struct SuggestedTwist {
    std::string situation;
    std::string reason;
};

// What it is: the orchestrator's answer ({preSteps, suggestedTwists, reasoning}; see
// assets/story/schemas/orchestrator.json). Empty when the orchestrator failed.
struct OrchestratorDecision {
    std::vector<PreStep> preSteps;
    std::vector<SuggestedTwist> suggestedTwists;
    std::string reasoning;
};

// Decodes the JSON object; unknown pre-step types and ill-typed fields are errors that say where.
llm::Result<OrchestratorDecision> decodeDecision(std::string_view objectJson);
std::string decisionToJson(const OrchestratorDecision& decision);

// The factions and NPCs the world knows: the "## " headings of factions.md, and each NPCs/*.md
// file's name (without .md) and first "# " heading.
std::vector<std::string> knownActors(const WorldFiles& files);

// True when name designates one of actors (case, punctuation and a leading "the" ignored; a name
// contained in an actor's heading, like "Idris Hale" in "Captain Idris Hale, Lamplighters' Guild",
// counts).
bool isKnownActor(std::string_view name, const std::vector<std::string>& actors);

// Removes faction_turn steps for factions the world does not hold; one log line per drop.
std::vector<std::string> dropUnknownFactions(OrchestratorDecision& decision,
                                             const std::vector<std::string>& actors);

// The message the narrator gets before the player's last message: "# What Happened Off-Screen"
// (the pre-step summaries, or "Nothing of note.") and "# Suggested Dice Rolls" (or "None.").
std::string offScreenMessage(const std::vector<std::string>& summaries,
                             const std::vector<SuggestedTwist>& twists);

// One line for the CLI and logs: "pre-steps: world_advance(...), faction_turn(...); twists: 1".
std::string describeDecision(const OrchestratorDecision& decision);

} // namespace chaiba::story
