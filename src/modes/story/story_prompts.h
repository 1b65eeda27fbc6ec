// The Story agents' prompts and tool schemas as data (assets/story/prompts, schemas, tools), and
// the narrator's system prompt built from the world's config (plus its system.md and style guide).
#pragma once

#include "src/llm/assets.h"
#include "src/modes/story/transcript.h"
#include "src/modes/story/world_config.h"
#include "src/modes/story/world_files.h"

#include <string>
#include <vector>

namespace chaiba::story {

// What it is: every text the agents are given, loaded once.
struct StoryPrompts {
    std::string orchestrator;       // system prompt
    std::string worldAdvance;       // template: {task}
    std::string factionTurn;        // template: {faction}, {situation}
    std::string narrator;           // template: {title} {setting} {tone} {institutions} {player} ...
    std::string summary;            // system prompt of the call folding older turns into the summary
    std::string continueReply;      // the user message asking the narrator to extend its last reply
    std::string direction;          // template: {instruction}, a regenerated reply's direction
    std::string orchestratorSchema; // JSON Schema of the decision
    std::vector<llm::ToolDefinition>
        tools; // write_file, edit_file, twist_of_fate, search_image, create_image
};

llm::Result<StoryPrompts> loadStoryPrompts(const llm::AssetSource& assets);

// The narrator's tools and world_advance's: all five; faction_turn's: all but twist_of_fate.
std::vector<llm::ToolDefinition> toolsFor(const StoryPrompts& prompts, AgentKind agent);

// The narrator template filled from the config, then the world's system.md and style-guide.md
// (when present) as further sections.
std::string narratorSystemPrompt(const StoryPrompts& prompts, const WorldConfig& config,
                                 const WorldFiles& files);

} // namespace chaiba::story
