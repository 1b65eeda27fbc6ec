// The file changes of one Story turn, kept small: a text file's change as a reversible line patch
// (text_diff.h) with a stamp of each side, a picture's whole bytes, so a turn can be undone, made
// again, and shown (what the game master changed) without keeping any file's whole text.
#pragma once

#include "src/modes/story/text_diff.h"
#include "src/modes/story/world_files.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::story {

// A content's identity: its 64-bit FNV-1a hash and its size ("<16 hex>-<bytes>" in JSON).
struct ContentStamp {
    std::uint64_t hash = 0;
    std::size_t bytes = 0;
    bool operator==(const ContentStamp& other) const { return hash == other.hash && bytes == other.bytes; }
    bool operator!=(const ContentStamp& other) const { return !(*this == other); }
};
ContentStamp stampOf(std::string_view content);
std::string stampText(const ContentStamp& stamp);
std::optional<ContentStamp> stampFromText(std::string_view text);

// What it is: one file change. before/after stamp each side (nothing: the file did not exist, so
// the change created or removed it). A text file's change is `patch`; a picture's is its whole
// bytes (beforeBytes/afterBytes, set where the side exists): pictures are not diffed.
struct FileChange {
    std::string path;
    std::optional<ContentStamp> before;
    std::optional<ContentStamp> after;
    TextPatch patch;
    std::optional<std::string> beforeBytes;
    std::optional<std::string> afterBytes;

    bool created() const { return !before && after; }
    bool removed() const { return before && !after; }
    bool isPicture() const;
};
// The change from `before` to `after` of the file at path (nothing: the file is not there).
FileChange makeFileChange(std::string path, const std::optional<std::string>& before,
                          const std::optional<std::string>& after);

// What it is: every file change of one turn, in the order they happened. The same path may appear
// several times (created, then edited twice); undo walks them backwards.
class TurnChanges {
public:
    void record(FileChange change) { changes_.push_back(std::move(change)); }
    void record(std::string path, const std::optional<std::string>& before,
                const std::optional<std::string>& after) {
        record(makeFileChange(std::move(path), before, after));
    }
    const std::vector<FileChange>& changes() const { return changes_; }
    bool empty() const { return changes_.empty(); }
    void clear() { changes_.clear(); }

    // Each path touched, once, in first-touched order.
    std::vector<std::string> touchedPaths() const;

private:
    std::vector<FileChange> changes_;
};

// Reverts every change of the turn, last first: a file the change created is removed, a text
// file's patch applied backward, a picture's bytes put back. A text file edited since keeps the
// edits that do not touch the turn's lines; one edited in those lines stops the undo, which says
// which change it was (the changes before it stay reverted).
WorldError undo(WorldFiles& files, const TurnChanges& turn);

// The paths the turn changed whose file is no longer as the turn left it (edited or removed by a
// person since): an undo would discard that. In first-touched order.
std::vector<std::string> changedSince(const WorldFiles& files, const TurnChanges& turn);

// Makes every change of the turn again, first first. Stops at the first failure and says which
// change it was.
WorldError redo(WorldFiles& files, const TurnChanges& turn);

} // namespace chaiba::story
