// The world's markdown as one "# Game Context" message for the model: the .md files (not media
// folders nor the files that are prompts of their own, system.md and style-guide.md) that are
// always on, and the keyed ones (story cards) that the recent story names, within a token budget.
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

// A world file's keys (story-card / World Info style), from a front matter opening the file:
//   ---
//   keys: Mira, ferrywoman, the ferry
//   always: true            (optional: sent every turn, keys or not)
//   ---
// Without keys (and without a front matter: every older world) a file is always on.
struct FileKeys {
    std::vector<std::string> keys; // as written, trimmed; matched without regard to case
    bool always = false;           // always: true (or no keys)
    std::size_t bodyAt = 0;        // where the text after the front matter starts (0: none)
};
FileKeys parseFileKeys(std::string_view content);

// About 4 characters a token: the estimate the budget and the meter use.
long long estimateTokens(std::string_view text);

// Why a context file is or is not in this turn's context.
enum class FileInclusion {
    Always,     // no keys, or always: true
    Named,      // a key appears in the recent turns or the player's line
    NotNamed,   // keyed, and no key appears
    OverBudget, // named, but the turn's budget was spent by the rest
    NotSent,    // binary, not UTF-8, too large, or unreadable: never sent
};
const char* fileInclusionName(FileInclusion inclusion);

// What it is: one context file's state for a turn (what the Files panel shows beside its name).
struct ContextFileState {
    std::string path;
    FileInclusion inclusion = FileInclusion::Always;
    std::vector<std::string> keys;
    std::string namedKey;  // Named/OverBudget: the key found
    long long tokens = 0;  // estimated, of its section
    std::string why;       // NotSent: the reason ("binary, not text ...")
    bool sent() const { return inclusion == FileInclusion::Always || inclusion == FileInclusion::Named; }
};

// What decides the keyed files: the text they are looked for in and the tokens they may take.
struct ContextSelection {
    std::string mentions;           // the recent turns' text, oldest first, then the player's line
    long long filesBudgetTokens = -1; // what the files may take, always-on ones first; < 0: no limit
};

// What it is: the concatenated context, the files it holds, and files that could not be read.
struct GameContext {
    std::string text;                  // "## <path>\n\n<content>" sections joined by "\n\n---\n\n"
    std::vector<std::string> paths;    // in the order of the sections (sorted by path)
    std::vector<std::string> warnings; // unreadable files and files left out, each a sentence
    std::vector<std::pair<std::string, std::string>> leftOut; // context files never sent: path, why
    std::vector<ContextFileState> files; // every context file, sorted by path
};

// Always-on files all; named keyed files most recently named first while they fit the budget.
GameContext loadGameContext(const WorldFiles& files, const ContextSelection& selection = {});

// "# Game Context\n\n<text>", or "" when the world has no context files.
std::string gameContextMessage(const GameContext& context);

} // namespace chaiba::story
