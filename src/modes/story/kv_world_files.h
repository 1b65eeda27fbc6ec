// Worlds kept in a key-value store (the page's IndexedDB store): a WorldFiles per world, and the
// library of worlds (several, each with its conversations, images and agent logs as files), with
// the shipped sample installed on first start. Keys are versioned ("story.v1.").
#pragma once

#include "src/llm/assets.h"
#include "src/modes/story/world_files.h"
#include "src/persist/key_value_store.h"

#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

// Key layout (format version 1):
//   story.v1.worlds             {"version":1,"worlds":[{"id","title"}]}
//   story.v1.w.<id>.index       ["path", ...] every file of the world, sorted
//   story.v1.w.<id>.f.<path>    the file's content (images in base64: the store keeps text)
constexpr std::string_view kWorldKeyPrefix = "story.v1.";

// What it is: one world's files in the store. Reads come from the store (the page's store serves
// them from memory); every write updates the file and, when the set of files changed, the index.
// Agent logs (isTurnLogPath: ~20 KB a turn, most of a campaign's records, shown one at a time) are
// released once written (KeyValueStore::release: the page's copy in memory goes once IndexedDB has
// them): read() answers NotLoaded for one, readLater() reads it back.
class KvWorldFiles final : public WorldFiles {
public:
    KvWorldFiles(KeyValueStore& store, std::string worldId);

    std::vector<std::string> list() const override;
    ReadResult read(std::string_view path) const override;
    WorldError write(std::string_view path, std::string_view content) override;
    WorldError remove(std::string_view path) override;
    void readLater(std::vector<std::string> paths, ReadsDone done) const override;

    const std::string& worldId() const { return worldId_; }
    // Removes every file and the index (deleting the world).
    void clear();
    // Releases the agent logs already stored (the page loads every record at start); how many.
    int releaseLogs();

private:
    std::string fileKey(std::string_view path) const;
    std::string indexKey() const;
    WorldError saveIndex(const std::vector<std::string>& paths);

    KeyValueStore& store_;
    std::string worldId_;
};

struct WorldEntry {
    std::string id;
    std::string title;
};

// The list of worlds in the store; an unreadable list is an error (nothing is overwritten then).
llm::Result<std::vector<WorldEntry>> loadWorldList(const KeyValueStore& store);
std::optional<std::string> saveWorldList(KeyValueStore& store, const std::vector<WorldEntry>& worlds);
// A free id made from a title ("the-salt-marsh", "the-salt-marsh-2").
std::string newWorldId(const std::vector<WorldEntry>& worlds, std::string_view title);

// The shipped sample world: the files listed in assets/story/sample.files, read from
// assets/story/sample/, written into `into`. An error names the file that failed.
WorldError installSampleWorld(const llm::AssetSource& assets, WorldFiles& into);

// A new world from a short pitch: config.yaml (title, setting from the pitch, tone, a player),
// empty system.md, style-guide.md and factions.md; world_advance fills it on the first turn.
WorldError writePitchWorld(WorldFiles& into, std::string_view title, std::string_view pitch);

} // namespace chaiba::story
