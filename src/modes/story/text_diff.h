// A line diff of two texts (a person's edit of a world file shown in the story and the agent
// log): the lines kept, removed and added, and a compact unified form with a little context; and
// a reversible patch (what a stored turn keeps of a text file it changed instead of both texts).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

enum class DiffOp { Keep, Remove, Add };

struct DiffLine {
    DiffOp op = DiffOp::Keep;
    std::string text; // the line without its newline
};

// Every line of both texts in order: the longest common subsequence of lines is kept, the rest
// removed (from before) or added (from after). Beyond kMaxDiffCells comparisons the differing
// middle is shown as all removed then all added (still correct, only less tight).
constexpr std::size_t kMaxDiffCells = 4'000'000;
std::vector<DiffLine> diffLines(std::string_view before, std::string_view after);

struct DiffCount {
    std::size_t added = 0;
    std::size_t removed = 0;
};
DiffCount countDiff(const std::vector<DiffLine>& lines);

// "+ added", "- removed", "  kept" lines; kept lines farther than `context` from any change fold
// to one "  …" line per run. Empty when the texts are equal.
std::string unifiedDiff(const std::vector<DiffLine>& lines, std::size_t context = 2);

// What it is: one run of a patch: its kept (context), removed and added lines, starting at line
// beforeLine of the old text and afterLine of the new one (0-based).
struct PatchHunk {
    std::size_t beforeLine = 0;
    std::size_t afterLine = 0;
    std::vector<DiffLine> lines;
};
// What it is: the change from one text to another as hunks with `context` kept lines around each
// change, and whether each text ends with a newline: applied forward to the old text it gives the
// new one exactly, backward to the new one the old one.
struct TextPatch {
    std::vector<PatchHunk> hunks;
    bool beforeEndsNewline = false;
    bool afterEndsNewline = false;
};
TextPatch makePatch(std::string_view before, std::string_view after, std::size_t context = 2);
// The patch applied to `text` (forward: text is the old one). A hunk is looked for where it
// should be, then at the nearest place its kept and replaced lines are found (the text was edited
// elsewhere since); nothing when one is found nowhere (the text was edited in those lines).
std::optional<std::string> applyPatch(std::string_view text, const TextPatch& patch, bool forward);
// The patch in the unified form above (hunks apart by "  …").
std::string unifiedPatch(const TextPatch& patch);

} // namespace chaiba::story
