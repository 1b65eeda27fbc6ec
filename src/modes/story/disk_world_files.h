// A Story world as a real folder (native; also works on emscripten's file systems). Writes are
// atomic: a hidden temp file beside the target, flushed and synced, then renamed over it.
#pragma once

#include "src/modes/story/world_files.h"

#include <filesystem>

namespace chaiba::story {

// What it is: the WorldFiles of one folder. Paths go through checkWorldPath, and no path may pass
// through a symbolic link, so nothing outside the folder is ever read or written. Files whose
// names break the rules (hidden files, temp files, other extensions) are invisible to list().
class DiskWorldFiles final : public WorldFiles {
public:
    // The folder must exist (see create()).
    explicit DiskWorldFiles(std::filesystem::path root);

    // Makes the folder if needed; an error when it cannot or when root is not a folder.
    static WorldError create(const std::filesystem::path& root);

    std::vector<std::string> list() const override;
    std::vector<std::string> listWorld() const override; // conversations/ and logs/ not walked
    ReadResult read(std::string_view path) const override;
    WorldError write(std::string_view path, std::string_view content) override;
    // Also removes folders the removal leaves empty (never the root).
    WorldError remove(std::string_view path) override;

    const std::filesystem::path& root() const { return root_; }

private:
    std::vector<std::string> walk(bool records) const;
    // The full path, or an error if the path is invalid or passes through a symbolic link.
    WorldError resolve(std::string_view path, std::filesystem::path& full) const;

    std::filesystem::path root_;
};

} // namespace chaiba::story
