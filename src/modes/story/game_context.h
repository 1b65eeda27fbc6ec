// The world's markdown as one "# Game Context" message for the model: every .md file except media
// folders and the files that are prompts of their own (system.md, style-guide.md).
#pragma once

#include "src/modes/story/world_files.h"

#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

// True for a *.md file that belongs in the context: not under a folder named images/ or videos/
// (at any depth), and not named system.md or style-guide.md (at any depth, as in the original).
bool isContextFile(std::string_view path);

// What it is: the concatenated context, the files it holds, and files that could not be read.
struct GameContext {
    std::string text;                  // "## <path>\n\n<content>" sections joined by "\n\n---\n\n"
    std::vector<std::string> paths;    // in the order of the sections (sorted by path)
    std::vector<std::string> warnings; // unreadable files, each a sentence
};

GameContext loadGameContext(const WorldFiles& files);

// "# Game Context\n\n<text>", or "" when the world has no context files.
std::string gameContextMessage(const GameContext& context);

} // namespace chaiba::story
