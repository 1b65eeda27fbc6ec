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
    while (tail < a.size() - head && tail < b.size() - head &&
           a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
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
                at(i, j) =
                    a[head + i] == b[head + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
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

TextPatch makePatch(std::string_view before, std::string_view after, std::size_t context) {
    TextPatch patch;
    patch.beforeEndsNewline = !before.empty() && before.back() == '\n';
    patch.afterEndsNewline = !after.empty() && after.back() == '\n';
    std::vector<DiffLine> lines = diffLines(before, after);
    // A line is in a hunk when a change lies within `context` lines of it.
    std::vector<bool> near(lines.size(), false);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].op == DiffOp::Keep) continue;
        const std::size_t from = i > context ? i - context : 0;
        for (std::size_t k = from; k < std::min(lines.size(), i + context + 1); ++k) near[k] = true;
    }
    std::size_t b = 0, a = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (near[i]) {
            if (i == 0 || !near[i - 1]) patch.hunks.push_back({b, a, {}});
            patch.hunks.back().lines.push_back(std::move(lines[i]));
        }
        const DiffOp op = near[i] ? patch.hunks.back().lines.back().op : lines[i].op;
        if (op != DiffOp::Add) ++b;
        if (op != DiffOp::Remove) ++a;
    }
    return patch;
}

std::optional<std::string> applyPatch(std::string_view text, const TextPatch& patch, bool forward) {
    const std::vector<std::string_view> lines = splitLines(text);
    const DiffOp gone = forward ? DiffOp::Remove : DiffOp::Add; // lines the text has and loses
    std::vector<std::string_view> out;
    std::size_t cursor = 0;
    std::ptrdiff_t shift = 0; // where the hunks are found against where they were made
    for (const PatchHunk& hunk : patch.hunks) {
        std::vector<std::string_view> from, to;
        for (const DiffLine& line : hunk.lines) {
            if (line.op != (forward ? DiffOp::Add : DiffOp::Remove)) from.push_back(line.text);
            if (line.op != gone) to.push_back(line.text);
        }
        auto fits = [&](std::size_t at) {
            if (at < cursor || at + from.size() > lines.size()) return false;
            for (std::size_t k = 0; k < from.size(); ++k)
                if (lines[at + k] != from[k]) return false;
            return true;
        };
        const std::ptrdiff_t expected =
            static_cast<std::ptrdiff_t>(forward ? hunk.beforeLine : hunk.afterLine) + shift;
        std::optional<std::size_t> found;
        // The nearest place from where it should be, either way.
        for (std::size_t d = 0; !found && d <= lines.size() + 1; ++d) {
            for (const std::ptrdiff_t at :
                 {expected - static_cast<std::ptrdiff_t>(d), expected + static_cast<std::ptrdiff_t>(d)})
                if (!found && at >= 0 && fits(static_cast<std::size_t>(at)))
                    found = static_cast<std::size_t>(at);
        }
        if (!found) return std::nullopt;
        shift += static_cast<std::ptrdiff_t>(*found) - expected;
        out.insert(out.end(), lines.begin() + static_cast<std::ptrdiff_t>(cursor),
                   lines.begin() + static_cast<std::ptrdiff_t>(*found));
        out.insert(out.end(), to.begin(), to.end());
        cursor = *found + from.size();
    }
    out.insert(out.end(), lines.begin() + static_cast<std::ptrdiff_t>(cursor), lines.end());
    std::string result;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (i) result += '\n';
        result += out[i];
    }
    if (!out.empty() && (forward ? patch.afterEndsNewline : patch.beforeEndsNewline)) result += '\n';
    return result;
}

std::string unifiedPatch(const TextPatch& patch) {
    std::string out;
    for (std::size_t h = 0; h < patch.hunks.size(); ++h) {
        if (h > 0 || patch.hunks[h].beforeLine > 0) out += "  \xE2\x80\xA6\n";
        for (const DiffLine& line : patch.hunks[h].lines)
            out += (line.op == DiffOp::Add      ? "+ "
                    : line.op == DiffOp::Remove ? "- "
                                                : "  ") +
                   line.text + "\n";
    }
    return out;
}

} // namespace chaiba::story
