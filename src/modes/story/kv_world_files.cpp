// Worlds in a key-value store and the library of worlds (see kv_world_files.h).
#include "src/modes/story/kv_world_files.h"

#include "src/modes/story/agent_log.h"
#include "src/modes/story/transcript.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba::story {

using nlohmann::json;

namespace {

bool isImage(std::string_view path) {
    const WorldPathCheck check = checkWorldPath(path);
    return check.ok() && check.kind == WorldPathKind::Image;
}

// A stored value as the file's content (an image's base64 decoded).
ReadResult storedContent(std::string_view path, std::string value) {
    ReadResult out;
    if (!isImage(path)) {
        out.content = std::move(value);
        return out;
    }
    std::optional<std::string> bytes = base64Decode(value);
    if (!bytes)
        out.error = WorldError::make(WorldErrorKind::Io, "the stored image \"" + std::string(path) + "\" is corrupt");
    else
        out.content = std::move(*bytes);
    return out;
}

std::string yamlQuoted(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n' || c == '\r') {
            out += ' ';
            continue;
        }
        out += c;
    }
    return out + "\"";
}

} // namespace

KvWorldFiles::KvWorldFiles(KeyValueStore& store, std::string worldId)
    : store_(store), worldId_(std::move(worldId)) {}

std::string KvWorldFiles::fileKey(std::string_view path) const {
    return std::string(kWorldKeyPrefix) + "w." + worldId_ + ".f." + std::string(path);
}

std::string KvWorldFiles::indexKey() const {
    return std::string(kWorldKeyPrefix) + "w." + worldId_ + ".index";
}

std::vector<std::string> KvWorldFiles::list() const {
    std::vector<std::string> paths;
    const std::optional<std::string> text = store_.get(indexKey());
    if (!text) return paths;
    const json index = json::parse(*text, nullptr, false);
    if (!index.is_array()) return paths;
    for (const json& entry : index)
        if (entry.is_string() && checkWorldPath(entry.get<std::string>()).ok())
            paths.push_back(entry.get<std::string>());
    std::sort(paths.begin(), paths.end());
    return paths;
}

ReadResult KvWorldFiles::read(std::string_view path) const {
    ReadResult out;
    if (const WorldPathCheck check = checkWorldPath(path); !check.ok()) {
        out.error = check.error;
        return out;
    }
    std::optional<std::string> value = store_.get(fileKey(path));
    if (value) return storedContent(path, std::move(*value));
    // A released agent log is listed but not in memory.
    const std::vector<std::string> paths = isTurnLogPath(path) ? list() : std::vector<std::string>{};
    if (std::binary_search(paths.begin(), paths.end(), std::string(path)))
        out.error = WorldError::make(WorldErrorKind::NotLoaded,
                                     std::string(1, '"').append(path).append("\" is kept in the browser's storage, "
                                                                              "not in memory: it is read back when shown"));
    else
        out.error = WorldError::make(WorldErrorKind::Missing, "no file \"" + std::string(path) + "\" in the world");
    return out;
}

void KvWorldFiles::readLater(std::vector<std::string> paths, ReadsDone done) const {
    std::vector<std::string> keys;
    keys.reserve(paths.size());
    for (const std::string& path : paths) keys.push_back(fileKey(path));
    // Nothing of `this` is kept: the world may be closed before the answer.
    store_.readMany(std::move(keys), [paths = std::move(paths), done = std::move(done)](
                                         std::vector<std::optional<std::string>> values, std::string error) {
        std::vector<ReadResult> files;
        for (std::size_t i = 0; i < paths.size(); ++i) {
            const std::string& path = paths[i];
            if (const WorldPathCheck check = checkWorldPath(path); !check.ok())
                files.push_back({{}, check.error});
            else if (!error.empty())
                files.push_back({{}, WorldError::make(WorldErrorKind::Io, "\"" + path +
                                                                              "\" could not be read from the browser's "
                                                                              "storage: " + error)});
            else if (i >= values.size() || !values[i])
                files.push_back({{}, WorldError::make(WorldErrorKind::Missing, "no file \"" + path + "\" in the world")});
            else
                files.push_back(storedContent(path, std::move(*values[i])));
        }
        done(std::move(files));
    });
}

int KvWorldFiles::releaseLogs() {
    int released = 0;
    for (const std::string& path : list())
        if (isTurnLogPath(path)) {
            store_.release(fileKey(path));
            ++released;
        }
    return released;
}

WorldError KvWorldFiles::saveIndex(const std::vector<std::string>& paths) {
    if (auto error = store_.set(indexKey(), json(paths).dump()))
        return WorldError::make(WorldErrorKind::Io,
                                "the browser refused to save the world's file list: " + *error);
    return WorldError::none();
}

WorldError KvWorldFiles::write(std::string_view path, std::string_view content) {
    if (WorldError error = checkWorldWrite(path, content); !error.ok()) return error;
    const std::string value = isImage(path) ? base64Encode(content) : std::string(content);
    if (auto error = store_.set(fileKey(path), value))
        return WorldError::make(WorldErrorKind::Io,
                                "the browser refused to save \"" + std::string(path) + "\": " + *error);
    if (isTurnLogPath(path)) store_.release(fileKey(path)); // read back when shown (readLater)
    std::vector<std::string> paths = list();
    if (!std::binary_search(paths.begin(), paths.end(), std::string(path))) {
        paths.insert(std::upper_bound(paths.begin(), paths.end(), std::string(path)), std::string(path));
        return saveIndex(paths);
    }
    return WorldError::none();
}

WorldError KvWorldFiles::remove(std::string_view path) {
    if (const WorldPathCheck check = checkWorldPath(path); !check.ok()) return check.error;
    std::vector<std::string> paths = list();
    auto it = std::find(paths.begin(), paths.end(), std::string(path));
    if (it == paths.end())
        return WorldError::make(WorldErrorKind::Missing, "no file \"" + std::string(path) + "\" to remove");
    paths.erase(it);
    store_.remove(fileKey(path));
    return saveIndex(paths);
}

void KvWorldFiles::clear() {
    for (const std::string& path : list()) store_.remove(fileKey(path));
    store_.remove(indexKey());
}

llm::Result<std::vector<WorldEntry>> loadWorldList(const KeyValueStore& store) {
    using R = llm::Result<std::vector<WorldEntry>>;
    const std::optional<std::string> text = store.get(std::string(kWorldKeyPrefix) + "worlds");
    if (!text) return R::ok({});
    const json doc = json::parse(*text, nullptr, false);
    if (!doc.is_object() || !doc.contains("worlds") || !doc["worlds"].is_array())
        return R::fail("the stored list of worlds is not readable (story.v1.worlds)");
    if (!doc.contains("version") || !doc["version"].is_number_integer() || doc["version"].get<int>() > 1)
        return R::fail("the stored list of worlds was written by a newer version of the page");
    std::vector<WorldEntry> worlds;
    for (const json& entry : doc["worlds"]) {
        if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string())
            return R::fail("the stored list of worlds has an entry without an id");
        WorldEntry world{entry["id"].get<std::string>(), ""};
        if (entry.contains("title") && entry["title"].is_string())
            world.title = entry["title"].get<std::string>();
        worlds.push_back(std::move(world));
    }
    return R::ok(std::move(worlds));
}

std::optional<std::string> saveWorldList(KeyValueStore& store, const std::vector<WorldEntry>& worlds) {
    json list = json::array();
    for (const WorldEntry& world : worlds) list.push_back({{"id", world.id}, {"title", world.title}});
    return store.set(
        std::string(kWorldKeyPrefix) + "worlds",
        json{{"version", 1}, {"worlds", list}}.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::string newWorldId(const std::vector<WorldEntry>& worlds, std::string_view title) {
    const std::string base = safeFileName(title, "world", 32);
    auto taken = [&](const std::string& id) {
        return std::any_of(worlds.begin(), worlds.end(), [&](const WorldEntry& w) { return w.id == id; });
    };
    std::string id = base;
    for (int n = 2; taken(id); ++n) id = base + "-" + std::to_string(n);
    return id;
}

WorldError installSampleWorld(const llm::AssetSource& assets, WorldFiles& into) {
    llm::Result<std::string> manifest = assets.read("story/sample.files");
    if (!manifest.isOk())
        return WorldError::make(WorldErrorKind::Missing,
                                "the sample world's file list did not load: " + manifest.error);
    std::size_t start = 0;
    const std::string& text = *manifest.value;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string path = text.substr(start, end - start);
        start = end + 1;
        if (path.empty() || path[0] == '#') continue;
        llm::Result<std::string> content = assets.read("story/sample/" + path);
        if (!content.isOk())
            return WorldError::make(WorldErrorKind::Missing,
                                    "the sample world's " + path + " did not load: " + content.error);
        if (WorldError error = into.write(path, *content.value); !error.ok()) return error;
    }
    return WorldError::none();
}

WorldError writePitchWorld(WorldFiles& into, std::string_view title, std::string_view pitch) {
    const std::string config = "title: " + yamlQuoted(title) + "\nsetting: " + yamlQuoted(pitch) +
                               "\ntone: \"Grounded and vivid; the world answers the player's choices.\"\n"
                               "institutions: []\nplayer:\n  name: \"The traveller\"\n"
                               "  description: \"A newcomer, as yet unknown here.\"\n"
                               "opening: " +
                               yamlQuoted(pitch) + "\n";
    const std::pair<const char*, std::string> files[] = {
        {"config.yaml", config},
        {"system.md",
         "Keep the world consistent with its files; create what is missing before you use it.\n"},
        {"style-guide.md", "# Style\n\nSecond person, present tense. Short paragraphs. End on a choice.\n"},
        {"factions.md", "# Factions\n\nNone written yet: the world fills this in as the story needs them.\n"},
    };
    for (const auto& [path, content] : files)
        if (WorldError error = into.write(path, content); !error.ok()) return error;
    return WorldError::none();
}

} // namespace chaiba::story
