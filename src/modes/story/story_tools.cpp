// The Story tools and their dispatcher (see story_tools.h). JSON arguments are decoded here, at
// the edge, and nowhere else.
#include "src/modes/story/story_tools.h"

#include <nlohmann/json.hpp>

namespace chaiba::story {

namespace {

using json = nlohmann::json;

std::size_t countOccurrences(std::string_view text, std::string_view needle) {
    std::size_t count = 0;
    for (std::size_t at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1))
        ++count;
    return count;
}

// Only markdown is the game master's to write: images come from the image tools and config.yaml
// belongs to the player.
std::optional<std::string> markdownPathError(std::string_view tool, std::string_view path) {
    const WorldPathCheck check = checkWorldPath(path);
    if (!check.ok()) return check.error.message;
    if (check.kind != WorldPathKind::Markdown)
        return std::string(tool) + " writes markdown (.md) files only; " + std::string(path) + " is not one";
    if (isGameRecordPath(path))
        return std::string(tool) + ": " + std::string(path) + " is the game's own record, not a world file";
    return std::nullopt;
}

std::string bytes(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

// The string argument key, or an error naming it.
std::optional<std::string> stringArgument(const json& args, std::string_view tool, const char* key,
                                          std::string& error) {
    const auto it = args.find(key);
    if (it == args.end()) {
        error = std::string(tool) + " needs the argument '" + key + "' (a string)";
        return std::nullopt;
    }
    if (!it->is_string()) {
        error = std::string(tool) + ": the argument '" + key + "' must be a string, not " + it->type_name();
        return std::nullopt;
    }
    return it->get<std::string>();
}

} // namespace

StoryToolResult editFile(WorldFiles& files, std::string_view path, std::string_view oldString,
                         std::string_view newString) {
    if (auto error = markdownPathError("edit_file", path)) return StoryToolResult::error(*error);
    if (oldString.empty())
        return StoryToolResult::error(
            "old_string is empty; give the exact text to replace (use write_file to "
            "create or rewrite a whole file)");
    if (oldString == newString) return StoryToolResult::error("old_string and new_string are the same");
    const ReadResult current = files.read(path);
    if (current.missing())
        return StoryToolResult::error(std::string(path) + " does not exist; use write_file to create it");
    if (!current.ok()) return StoryToolResult::error(current.error.message);

    const std::size_t count = countOccurrences(current.content, oldString);
    if (count == 0)
        return StoryToolResult::error(
            "old_string does not occur in " + std::string(path) +
            "; copy the exact text from the file, including spaces and line breaks");
    if (count > 1)
        return StoryToolResult::error("old_string occurs " + std::to_string(count) + " times in " +
                                      std::string(path) + "; include more context so it occurs once");

    std::string edited = current.content;
    edited.replace(edited.find(oldString), oldString.size(), newString);
    if (WorldError error = files.write(path, edited); !error.ok())
        return StoryToolResult::error(error.message);
    StoryToolResult result;
    result.text = "Edited " + std::string(path) + " (" + bytes(edited.size()) + ").";
    result.change = makeFileChange(std::string(path), current.content, edited);
    return result;
}

StoryToolResult writeFile(WorldFiles& files, std::string_view path, std::string_view content) {
    if (auto error = markdownPathError("write_file", path)) return StoryToolResult::error(*error);
    const ReadResult current = files.read(path);
    if (!current.ok() && !current.missing()) return StoryToolResult::error(current.error.message);
    std::optional<std::string> before;
    if (current.ok()) before = current.content;
    if (before && *before == content)
        return {false, std::string(path) + " already has this content.", {}, {}};

    if (WorldError error = files.write(path, content); !error.ok())
        return StoryToolResult::error(error.message);
    StoryToolResult result;
    result.text =
        (before ? "Overwrote " : "Created ") + std::string(path) + " (" + bytes(content.size()) + ").";
    result.change = makeFileChange(std::string(path), before, std::string(content));
    return result;
}

StoryToolResult twistOfFate(std::string_view stakes, StoryRng& rng) {
    StakesParse parsed = parseStakes(stakes);
    if (!parsed.ok()) return StoryToolResult::error(parsed.error);
    StoryToolResult result;
    result.twist = rollTwist(std::move(parsed.bands), rng);
    result.text = twistText(*result.twist);
    return result;
}

StoryToolResult runStoryTool(WorldFiles& files, std::string_view name, std::string_view argumentsJson,
                             StoryRng& rng) {
    if (name == "create_image" || name == "search_image")
        return StoryToolResult::error(
            std::string(name) + " is not available: no image model configured. Continue without images.");
    if (name != "edit_file" && name != "write_file" && name != "twist_of_fate")
        return StoryToolResult::error("unknown tool '" + std::string(name) +
                                      "'; the tools are edit_file, write_file and twist_of_fate");

    const json args = json::parse(argumentsJson.begin(), argumentsJson.end(), nullptr, false);
    if (args.is_discarded())
        return StoryToolResult::error(std::string(name) +
                                      ": the arguments are not valid JSON; send an object like " +
                                      "{\"path\": \"...\"}");
    if (!args.is_object())
        return StoryToolResult::error(std::string(name) + ": the arguments must be a JSON object, not " +
                                      args.type_name());

    std::string error;
    if (name == "twist_of_fate") {
        const auto stakes = stringArgument(args, name, "stakes", error);
        return stakes ? twistOfFate(*stakes, rng) : StoryToolResult::error(error);
    }
    const auto path = stringArgument(args, name, "path", error);
    if (!path) return StoryToolResult::error(error);
    if (name == "write_file") {
        const auto content = stringArgument(args, name, "content", error);
        return content ? writeFile(files, *path, *content) : StoryToolResult::error(error);
    }
    const auto oldString = stringArgument(args, name, "old_string", error);
    if (!oldString) return StoryToolResult::error(error);
    const auto newString = stringArgument(args, name, "new_string", error);
    if (!newString) return StoryToolResult::error(error);
    return editFile(files, *path, *oldString, *newString);
}

StoryToolResult runStoryTool(WorldFiles& files, TurnChanges& turn, std::string_view name,
                             std::string_view argumentsJson, StoryRng& rng) {
    StoryToolResult result = runStoryTool(files, name, argumentsJson, rng);
    if (result.change) turn.record(*result.change);
    return result;
}

} // namespace chaiba::story
