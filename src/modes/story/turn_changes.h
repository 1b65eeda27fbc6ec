// The file changes of one Story turn as exact before/after pairs, so a turn can be undone (and
// the screen can show what the game master changed).
#pragma once

#include "src/modes/story/world_files.h"

#include <optional>
#include <string>
#include <vector>

namespace chaiba::story {

// One file change: before is nullopt when the change created the file, after is nullopt when it
// removed it.
struct FileChange {
    std::string path;
    std::optional<std::string> before;
    std::optional<std::string> after;

    bool created() const { return !before && after; }
    bool removed() const { return before && !after; }
};

// What it is: every file change of one turn, in the order they happened. The same path may appear
// several times (created, then edited twice); undo walks them backwards.
class TurnChanges {
public:
    void record(FileChange change) { changes_.push_back(std::move(change)); }
    const std::vector<FileChange>& changes() const { return changes_; }
    bool empty() const { return changes_.empty(); }
    void clear() { changes_.clear(); }

    // Each path touched, once, in first-touched order.
    std::vector<std::string> touchedPaths() const;

private:
    std::vector<FileChange> changes_;
};

// Reverts every change of the turn, last first: writes each before back, or removes the file a
// change created. Stops at the first failure and says which change it was.
WorldError undo(WorldFiles& files, const TurnChanges& turn);

// The paths the turn changed whose file is no longer as the turn left it (edited or removed by a
// person since): an undo would discard that. In first-touched order.
std::vector<std::string> changedSince(const WorldFiles& files, const TurnChanges& turn);

// Makes every change of the turn again, first first: writes each after, or removes the file a
// change removed. Stops at the first failure and says which change it was.
WorldError redo(WorldFiles& files, const TurnChanges& turn);

} // namespace chaiba::story
