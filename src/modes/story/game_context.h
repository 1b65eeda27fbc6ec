// The world's markdown as one "# Game Context" message for the model: every .md file except media
// folders and the files that are prompts of their own (system.md, style-guide.md).
#pragma once

#include "src/modes/story/world_files.h"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

namespace chaiba::story {

// True for a *.md file that belongs in the context: not under a folder named images/ or videos/
// (at any depth), and not named system.md or style-guide.md (at any depth, as in the original).
bool isContextFile(std::string_view path);

// The most of one file the context takes (about 16 000 tokens): a larger file is left out whole.
inline constexpr std::size_t kMaxContextFileBytes = 64 * 1024;

// Why a context file's content is never sent to the model, or nothing: binary (a NUL or another
// control character), not UTF-8 text, or larger than kMaxContextFileBytes.
std::optional<std::string> contextExclusion(std::string_view content);

// What it is: the concatenated context, the files it holds, and files that could not be read.
struct GameContext {
    std::string text;                  // "## <path>\n\n<content>" sections joined by "\n\n---\n\n"
    std::vector<std::string> paths;    // in the order of the sections (sorted by path)
    std::vector<std::string> warnings; // unreadable files and files left out, each a sentence
    std::vector<std::pair<std::string, std::string>> leftOut; // context files not sent: path, why
};

GameContext loadGameContext(const WorldFiles& files);

// "# Game Context\n\n<text>", or "" when the world has no context files.
std::string gameContextMessage(const GameContext& context);

} // namespace chaiba::story
