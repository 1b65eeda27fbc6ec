// Loading the Story prompts and building the narrator's system prompt (see story_prompts.h).
#include "src/modes/story/story_prompts.h"

namespace chaiba::story {

llm::Result<StoryPrompts> loadStoryPrompts(const llm::AssetSource& assets) {
    using R = llm::Result<StoryPrompts>;
    StoryPrompts prompts;
    const std::pair<std::string*, const char*> texts[] = {
        {&prompts.orchestrator, "story/prompts/orchestrator.md"},
        {&prompts.worldAdvance, "story/prompts/world_advance.md"},
        {&prompts.factionTurn, "story/prompts/faction_turn.md"},
        {&prompts.narrator, "story/prompts/narrator.md"},
        {&prompts.summary, "story/prompts/summary.md"},
        {&prompts.continueReply, "story/prompts/continue.md"},
        {&prompts.direction, "story/prompts/direction.md"},
        {&prompts.orchestratorSchema, "story/schemas/orchestrator.json"},
    };
    for (const auto& [target, path] : texts) {
        llm::Result<std::string> text = llm::loadText(assets, path);
        if (!text.isOk()) return R::fail(text.error);
        *target = std::move(*text.value);
    }
    for (const char* name : {"write_file", "edit_file", "twist_of_fate", "search_image", "create_image"}) {
        llm::Result<llm::ToolDefinition> tool =
            llm::loadTool(assets, std::string("story/tools/") + name + ".json");
        if (!tool.isOk()) return R::fail(tool.error);
        prompts.tools.push_back(std::move(*tool.value));
    }
    return R::ok(std::move(prompts));
}

std::vector<llm::ToolDefinition> toolsFor(const StoryPrompts& prompts, AgentKind agent) {
    std::vector<llm::ToolDefinition> tools;
    for (const llm::ToolDefinition& tool : prompts.tools)
        if (!(agent == AgentKind::FactionTurn && tool.name == "twist_of_fate")) tools.push_back(tool);
    return tools;
}

std::string narratorSystemPrompt(const StoryPrompts& prompts, const WorldConfig& config,
                                 const WorldFiles& files) {
    std::string institutions;
    for (const std::string& institution : config.institutions) institutions += "- " + institution + "\n";
    if (institutions.empty()) institutions = "(none named)";
    std::string text =
        llm::fillTemplate(prompts.narrator, {{"title", config.title.empty() ? "" : ": " + config.title},
                                             {"setting", config.setting},
                                             {"tone", config.tone},
                                             {"institutions", institutions},
                                             {"player", config.player.name},
                                             {"playerDescription", config.player.description}});
    if (const ReadResult system = files.read("system.md"); system.ok())
        text += "\n\n# The world's own instructions\n" + system.content;
    if (const ReadResult style = files.read("style-guide.md"); style.ok())
        text += "\n\n# Style guide\n" + style.content;
    return text;
}

} // namespace chaiba::story
