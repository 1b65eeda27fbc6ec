// A line diff of two texts (a person's edit of a world file shown in the story and the agent
// log): the lines kept, removed and added, and a compact unified form with a little context.
#pragma once

#include <cstddef>
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

} // namespace chaiba::story
