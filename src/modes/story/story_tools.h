// The Story game master's tools as the model calls them: edit_file, write_file and twist_of_fate
// (create_image and search_image answer "no image model configured" for now). Each returns a typed
// result: isError and a text for the model, plus the file change or the roll for the screen.
#pragma once

#include "src/modes/story/turn_changes.h"
#include "src/modes/story/twist_of_fate.h"
#include "src/modes/story/world_files.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace chaiba::story {

// Tools with a schema in assets/story/tools/<name>.json.
constexpr std::array<std::string_view, 3> kStoryToolNames = {"edit_file", "write_file", "twist_of_fate"};

// What it is: the answer to one tool call. text goes back to the model either way (an error is
// something it can fix); change is the file change made, twist the roll made.
struct StoryToolResult {
    bool isError = false;
    std::string text;
    std::optional<FileChange> change;
    std::optional<TwistOfFate> twist;

    static StoryToolResult error(std::string text) { return {true, std::move(text), {}, {}}; }
};

// Replaces oldString with newString in a markdown file where oldString occurs exactly once; no
// match or several matches are errors that say how many.
StoryToolResult editFile(WorldFiles& files, std::string_view path, std::string_view oldString,
                         std::string_view newString);

// Creates or overwrites a markdown file (folders are made as needed).
StoryToolResult writeFile(WorldFiles& files, std::string_view path, std::string_view content);

// Parses the stakes, rolls 1-100 and reports the band that hit; bad stakes are an error.
StoryToolResult twistOfFate(std::string_view stakes, StoryRng& rng);

// Runs the named tool with the model's JSON arguments (malformed JSON, missing or mistyped
// arguments and unknown tools are errors for the model).
StoryToolResult runStoryTool(WorldFiles& files, std::string_view name, std::string_view argumentsJson,
                             StoryRng& rng);

// The same, and records the file change (if any) in turn.
StoryToolResult runStoryTool(WorldFiles& files, TurnChanges& turn, std::string_view name,
                             std::string_view argumentsJson, StoryRng& rng);

} // namespace chaiba::story
