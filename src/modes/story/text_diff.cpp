// Line diffs (see text_diff.h).
#include "src/modes/story/text_diff.h"

#include <algorithm>

namespace chaiba::story {

namespace {

std::vector<std::string_view> splitLines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

} // namespace

std::vector<DiffLine> diffLines(std::string_view before, std::string_view after) {
    const std::vector<std::string_view> a = splitLines(before), b = splitLines(after);
    // The common head and tail need no table.
    std::size_t head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
    std::size_t tail = 0;
    while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
        ++tail;
    const std::size_t n = a.size() - head - tail, m = b.size() - head - tail;
    std::vector<DiffLine> out;
    for (std::size_t i = 0; i < head; ++i) out.push_back({DiffOp::Keep, std::string(a[i])});
    if (n > 0 && m > 0 && (n + 1) * (m + 1) <= kMaxDiffCells) {
        // lcs[i][j]: the longest common subsequence of a[head+i..] and b[head+j..] (middle only).
        std::vector<std::size_t> lcs((n + 1) * (m + 1), 0);
        auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return lcs[i * (m + 1) + j]; };
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                at(i, j) = a[head + i] == b[head + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
        std::size_t i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[head + i] == b[head + j]) {
                out.push_back({DiffOp::Keep, std::string(a[head + i])});
                ++i, ++j;
            } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
                out.push_back({DiffOp::Remove, std::string(a[head + i++])}); // removals first
            } else {
                out.push_back({DiffOp::Add, std::string(b[head + j++])});
            }
        }
    } else {
        for (std::size_t i = 0; i < n; ++i) out.push_back({DiffOp::Remove, std::string(a[head + i])});
        for (std::size_t j = 0; j < m; ++j) out.push_back({DiffOp::Add, std::string(b[head + j])});
    }
    for (std::size_t i = a.size() - tail; i < a.size(); ++i) out.push_back({DiffOp::Keep, std::string(a[i])});
    return out;
}

DiffCount countDiff(const std::vector<DiffLine>& lines) {
    DiffCount count;
    for (const DiffLine& line : lines) {
        if (line.op == DiffOp::Add) ++count.added;
        if (line.op == DiffOp::Remove) ++count.removed;
    }
    return count;
}

std::string unifiedDiff(const std::vector<DiffLine>& lines, std::size_t context) {
    // A kept line is shown when a change lies within `context` lines of it.
    std::vector<bool> near(lines.size(), false);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].op == DiffOp::Keep) continue;
        const std::size_t from = i > context ? i - context : 0;
        for (std::size_t k = from; k < std::min(lines.size(), i + context + 1); ++k) near[k] = true;
    }
    std::string out;
    if (std::find(near.begin(), near.end(), true) == near.end()) return out; // equal texts
    bool folded = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!near[i]) {
            if (!folded) out += "  \xE2\x80\xA6\n"; // … for each run of hidden lines
            folded = true;
            continue;
        }
        folded = false;
        out += lines[i].op == DiffOp::Add ? "+ " : lines[i].op == DiffOp::Remove ? "- " : "  ";
        out += lines[i].text;
        out += '\n';
    }
    return out;
}

} // namespace chaiba::story
