// A Story world as a set of files (markdown, images, config.yaml) behind one interface, with the
// path rules every access obeys, and the in-memory implementation (tests; the browser over
// IndexedDB). The folder-on-disk implementation is in disk_world_files.h.
#pragma once

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

constexpr std::size_t kMaxWorldPathLength = 200;    // bytes, whole relative path
constexpr std::size_t kMaxWorldFileBytes = 1 << 20; // 1 MiB per file
constexpr std::string_view kConfigPath = "config.yaml";

// What a valid world path names; the extension decides (config.yaml only at the top). Data is
// the app's own JSON (conversations, agent logs, the image index): never context, never a tool's.
enum class WorldPathKind { Markdown, Image, Config, Data };

// NotLoaded: the file is there but its store keeps it out of memory (the page's agent logs):
// read() cannot give it, readLater() reads it back.
enum class WorldErrorKind { None, InvalidPath, TooLarge, Missing, Io, NotLoaded };

// Why a world file operation failed, as a sentence that names the path; ok() when it did not.
struct WorldError {
    WorldErrorKind kind = WorldErrorKind::None;
    std::string message;

    bool ok() const { return kind == WorldErrorKind::None; }
    static WorldError none() { return {}; }
    static WorldError make(WorldErrorKind kind, std::string message) { return {kind, std::move(message)}; }
};

// A valid path's kind, or why the path is refused.
struct WorldPathCheck {
    WorldPathKind kind = WorldPathKind::Markdown; // valid when error.ok()
    WorldError error;
    bool ok() const { return error.ok(); }
};

// The rules: relative, '/'-separated, at most kMaxWorldPathLength bytes; segments of
// [A-Za-z0-9 _.-] that are not empty, not "." or "..", and do not start with '.' or a space or
// end with a space; no backslashes or control characters; the name ends in .md, an image
// extension (.png .jpg .jpeg .webp .gif), .json (Data) or is the top-level config.yaml.
WorldPathCheck checkWorldPath(std::string_view path);

// A file's content, or why not (kind Missing when the file does not exist).
struct ReadResult {
    std::string content;
    WorldError error;
    bool ok() const { return error.ok(); }
    bool missing() const { return error.kind == WorldErrorKind::Missing; }
};

// What it is: the files of one world, addressed by paths relative to the world (see
// checkWorldPath). Every implementation refuses invalid paths and contents over
// kMaxWorldFileBytes with an error that names the path, and never touches anything outside.
class WorldFiles {
public:
    virtual ~WorldFiles() = default;

    // Every file with a valid path, sorted by path (byte order).
    virtual std::vector<std::string> list() const = 0;
    // The same without the game's records (conversations/ and logs/, one file per turn): what the
    // context and the tools look at, so a turn's cost does not grow with the campaign. A store may
    // skip those folders without reading them.
    virtual std::vector<std::string> listWorld() const;
    virtual ReadResult read(std::string_view path) const = 0;
    // Creates or replaces the file (and any folders on its way).
    virtual WorldError write(std::string_view path, std::string_view content) = 0;
    // Removing a missing file is an error of kind Missing.
    virtual WorldError remove(std::string_view path) = 0;
    // Files in the paths' order, read by a store that may answer later (one that keeps some files
    // out of memory reads them back: KvWorldFiles); this one reads them at once, in the call.
    using ReadsDone = std::function<void(std::vector<ReadResult> files)>;
    virtual void readLater(std::vector<std::string> paths, ReadsDone done) const;

    // A file kept out of memory (NotLoaded) exists too.
    bool exists(std::string_view path) const {
        const ReadResult r = read(path);
        return r.ok() || r.error.kind == WorldErrorKind::NotLoaded;
    }
};

// A safe file or id name from any text ("Épée de l'Aube!" -> "p-e-de-l-aube"): lower-case
// letters, digits and '-', at most maxBytes; `fallback` when nothing is left.
std::string safeFileName(std::string_view text, std::string_view fallback, std::size_t maxBytes = 40);

// True for a path in the game's records folders (conversations/, logs/).
bool isGameRecordPath(std::string_view path);

// The checks every write shares: a valid path and a content within kMaxWorldFileBytes.
WorldError checkWorldWrite(std::string_view path, std::string_view content);

// Path -> content, sorted by path; std::less<> so string_views look paths up without a copy.
using WorldFileMap = std::map<std::string, std::string, std::less<>>;

// A world held in memory: a sorted map from path to content.
class MemoryWorldFiles final : public WorldFiles {
public:
    MemoryWorldFiles() = default;
    // Starts with these files; invalid entries are refused and counted in rejectedCount().
    explicit MemoryWorldFiles(const WorldFileMap& files);
    MemoryWorldFiles(std::initializer_list<WorldFileMap::value_type> files)
        : MemoryWorldFiles(WorldFileMap(files)) {}

    std::vector<std::string> list() const override;
    ReadResult read(std::string_view path) const override;
    WorldError write(std::string_view path, std::string_view content) override;
    WorldError remove(std::string_view path) override;

    const WorldFileMap& files() const { return files_; }
    int rejectedCount() const { return rejectedCount_; }

private:
    WorldFileMap files_;
    int rejectedCount_ = 0;
};

} // namespace chaiba::story
