// Turn changes as patches: making them, undoing and redoing them (see turn_changes.h).
#include "src/modes/story/turn_changes.h"

#include <algorithm>
#include <cstdio>

namespace chaiba::story {

ContentStamp stampOf(std::string_view content) {
    std::uint64_t hash = 1469598103934665603ull;
    for (const char c : content) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return {hash, content.size()};
}

std::string stampText(const ContentStamp& stamp) {
    char text[48];
    std::snprintf(text, sizeof text, "%016llx-%zu", static_cast<unsigned long long>(stamp.hash), stamp.bytes);
    return text;
}

std::optional<ContentStamp> stampFromText(std::string_view text) {
    if (text.size() < 18 || text.size() > 40 || text[16] != '-') return std::nullopt;
    ContentStamp stamp;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (i == 16) continue;
        const bool digit = c >= '0' && c <= '9';
        if (i < 16) {
            if (!digit && !(c >= 'a' && c <= 'f')) return std::nullopt;
            stamp.hash = stamp.hash * 16 + static_cast<std::uint64_t>(digit ? c - '0' : c - 'a' + 10);
        } else {
            if (!digit) return std::nullopt;
            stamp.bytes = stamp.bytes * 10 + static_cast<std::size_t>(c - '0');
        }
    }
    return stamp;
}

bool FileChange::isPicture() const {
    const WorldPathCheck check = checkWorldPath(path);
    return check.ok() && check.kind == WorldPathKind::Image;
}

FileChange makeFileChange(std::string path, const std::optional<std::string>& before,
                          const std::optional<std::string>& after) {
    FileChange change;
    change.path = std::move(path);
    if (before) change.before = stampOf(*before);
    if (after) change.after = stampOf(*after);
    if (change.isPicture()) {
        change.beforeBytes = before;
        change.afterBytes = after;
    } else {
        change.patch = makePatch(before.value_or(""), after.value_or(""));
    }
    return change;
}

std::vector<std::string> TurnChanges::touchedPaths() const {
    std::vector<std::string> paths;
    for (const FileChange& change : changes_)
        if (std::find(paths.begin(), paths.end(), change.path) == paths.end()) paths.push_back(change.path);
    return paths;
}

namespace {

// One change made (forward) or taken back: the file written with the side it leads to, or removed.
WorldError apply(WorldFiles& files, const FileChange& change, bool forward) {
    const std::optional<ContentStamp>& to = forward ? change.after : change.before;
    if (!to) {
        const WorldError error = files.remove(change.path);
        // A file already gone is as removed as it gets.
        return error.kind == WorldErrorKind::Missing ? WorldError::none() : error;
    }
    if (change.isPicture()) {
        const std::optional<std::string>& bytes = forward ? change.afterBytes : change.beforeBytes;
        if (!bytes) return WorldError::make(WorldErrorKind::Missing, "the picture's bytes were not kept");
        return files.write(change.path, *bytes);
    }
    const std::optional<ContentStamp>& from = forward ? change.before : change.after;
    std::string text;
    if (from) {
        ReadResult now = files.read(change.path);
        if (!now.ok() && !now.missing()) return now.error;
        text = std::move(now.content);
    }
    std::optional<std::string> made = applyPatch(text, change.patch, forward);
    if (!made)
        return WorldError::make(WorldErrorKind::Io,
                                "the lines the turn changed were edited since (change them back "
                                "by hand, or undo that edit first)");
    return files.write(change.path, *made);
}

} // namespace

WorldError undo(WorldFiles& files, const TurnChanges& turn) {
    const std::vector<FileChange>& changes = turn.changes();
    for (auto it = changes.rbegin(); it != changes.rend(); ++it)
        if (const WorldError error = apply(files, *it, false); !error.ok())
            return WorldError::make(error.kind, "undo stopped at " + it->path + ": " + error.message);
    return WorldError::none();
}

std::vector<std::string> changedSince(const WorldFiles& files, const TurnChanges& turn) {
    std::vector<std::string> out;
    for (const std::string& path : turn.touchedPaths()) {
        const FileChange* last = nullptr;
        for (const FileChange& c : turn.changes())
            if (c.path == path) last = &c;
        const ReadResult now = files.read(path);
        const bool same = last->after ? now.ok() && stampOf(now.content) == *last->after : now.missing();
        if (!same) out.push_back(path);
    }
    return out;
}

WorldError redo(WorldFiles& files, const TurnChanges& turn) {
    for (const FileChange& change : turn.changes())
        if (const WorldError error = apply(files, change, true); !error.ok())
            return WorldError::make(error.kind, "redo stopped at " + change.path + ": " + error.message);
    return WorldError::none();
}

} // namespace chaiba::story
