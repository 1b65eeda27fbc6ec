// Undoing a turn's file changes (see turn_changes.h).
#include "src/modes/story/turn_changes.h"

#include <algorithm>

namespace chaiba::story {

std::vector<std::string> TurnChanges::touchedPaths() const {
    std::vector<std::string> paths;
    for (const FileChange& change : changes_)
        if (std::find(paths.begin(), paths.end(), change.path) == paths.end()) paths.push_back(change.path);
    return paths;
}

WorldError undo(WorldFiles& files, const TurnChanges& turn) {
    const std::vector<FileChange>& changes = turn.changes();
    for (auto it = changes.rbegin(); it != changes.rend(); ++it) {
        const WorldError error = it->before ? files.write(it->path, *it->before) : files.remove(it->path);
        // A file the turn created and something else already removed is as undone as it gets.
        if (!error.ok() && !(error.kind == WorldErrorKind::Missing && !it->before))
            return WorldError::make(error.kind, "undo stopped at " + it->path + ": " + error.message);
    }
    return WorldError::none();
}

std::vector<std::string> changedSince(const WorldFiles& files, const TurnChanges& turn) {
    std::vector<std::string> out;
    for (const std::string& path : turn.touchedPaths()) {
        const FileChange* last = nullptr;
        for (const FileChange& c : turn.changes())
            if (c.path == path) last = &c;
        const ReadResult now = files.read(path);
        const bool same = last->after ? now.ok() && now.content == *last->after
                                      : !now.ok() && now.error.kind == WorldErrorKind::Missing;
        if (!same) out.push_back(path);
    }
    return out;
}

WorldError redo(WorldFiles& files, const TurnChanges& turn) {
    for (const FileChange& change : turn.changes()) {
        const WorldError error = change.after ? files.write(change.path, *change.after) : files.remove(change.path);
        // A file the turn removed and something else already removed is as redone as it gets.
        if (!error.ok() && !(error.kind == WorldErrorKind::Missing && !change.after))
            return WorldError::make(error.kind, "redo stopped at " + change.path + ": " + error.message);
    }
    return WorldError::none();
}

} // namespace chaiba::story
