// The library of worlds: rename, duplicate, delete, and conversations' labels (see world_library.h).
#include "src/modes/story/world_library.h"

#include "src/modes/story/conversation_store.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba::story {

namespace {

std::string trimmed(std::string_view s) {
    const std::size_t a = s.find_first_not_of(" \t\r\n");
    if (a == std::string_view::npos) return {};
    return std::string(s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1));
}

std::vector<WorldEntry>::iterator findWorld(std::vector<WorldEntry>& worlds, const std::string& id) {
    return std::find_if(worlds.begin(), worlds.end(), [&](const WorldEntry& w) { return w.id == id; });
}

} // namespace

WorldError copyWorldFiles(const WorldFiles& from, WorldFiles& to) {
    std::vector<std::string> written;
    for (const std::string& path : from.list()) {
        const ReadResult file = from.read(path);
        WorldError error = file.ok() ? to.write(path, file.content) : file.error;
        if (!error.ok()) {
            for (const std::string& done : written) to.remove(done);
            return error;
        }
        written.push_back(path);
    }
    return WorldError::none();
}

void gatherWorldFiles(const WorldFiles& from, std::function<void(llm::Result<MemoryWorldFiles>)> done) {
    std::vector<std::string> paths = from.list();
    from.readLater(paths, [paths, done = std::move(done)](std::vector<ReadResult> reads) {
        MemoryWorldFiles files;
        for (std::size_t i = 0; i < paths.size(); ++i) {
            const WorldError error = i < reads.size() ? (reads[i].ok() ? files.write(paths[i], reads[i].content) : reads[i].error)
                                                      : WorldError::make(WorldErrorKind::Io, paths[i] + " was not read");
            if (!error.ok()) return done(llm::Result<MemoryWorldFiles>::fail(error.message));
        }
        done(llm::Result<MemoryWorldFiles>::ok(std::move(files)));
    });
}

std::optional<std::string> renameWorld(KeyValueStore& store, std::vector<WorldEntry>& worlds, const std::string& id,
                                       const std::string& title) {
    const auto it = findWorld(worlds, id);
    if (it == worlds.end()) return "no world \"" + id + "\"";
    const std::string name = trimmed(title);
    if (name.empty()) return "give the world a name";
    if (name.size() > 120) return "a world's name is at most 120 bytes";
    if (name.find('\n') != std::string::npos) return "a world's name is one line";
    const std::string before = it->title;
    it->title = name;
    if (auto error = saveWorldList(store, worlds)) {
        it->title = before;
        return "the world list was not saved: " + *error;
    }
    return std::nullopt;
}

llm::Result<WorldEntry> duplicateWorld(KeyValueStore& store, std::vector<WorldEntry>& worlds, const std::string& id) {
    using R = llm::Result<WorldEntry>;
    const auto it = findWorld(worlds, id);
    if (it == worlds.end()) return R::fail("no world \"" + id + "\"");
    const std::string title = (it->title.empty() ? it->id : it->title) + " (copy)";
    WorldEntry copy{newWorldId(worlds, title), title};
    const KvWorldFiles from(store, id);
    KvWorldFiles to(store, copy.id);
    if (WorldError error = copyWorldFiles(from, to); !error.ok()) {
        to.clear();
        return R::fail("the copy was not made: " + error.message);
    }
    worlds.push_back(copy);
    if (auto error = saveWorldList(store, worlds)) {
        worlds.pop_back();
        to.clear();
        return R::fail("the world list was not saved: " + *error);
    }
    return R::ok(copy);
}

std::optional<std::string> deleteWorld(KeyValueStore& store, std::vector<WorldEntry>& worlds, const std::string& id) {
    const auto it = findWorld(worlds, id);
    if (it == worlds.end()) return "no world \"" + id + "\"";
    const WorldEntry gone = *it;
    const std::ptrdiff_t at = it - worlds.begin();
    worlds.erase(it);
    // The list first: a world whose files outlive a failed removal is hidden, never half listed.
    if (auto error = saveWorldList(store, worlds)) {
        worlds.insert(worlds.begin() + at, gone);
        return "the world list was not saved: " + *error;
    }
    KvWorldFiles(store, id).clear();
    return std::nullopt;
}

std::string conversationLabel(const Conversation& conversation, std::size_t maxChars) {
    std::string text = conversation.title;
    if (text.empty())
        for (const TurnRecord& turn : conversation.turns)
            if (turn.kind == TurnKind::Play && !trimmed(turn.playerText()).empty()) {
                text = turn.playerText();
                break;
            }
    text = trimmed(text);
    for (char& c : text)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    // Cut at a character boundary (UTF-8 continuation bytes are 10xxxxxx).
    std::size_t chars = 0, at = 0;
    for (; at < text.size(); ++at) {
        if ((static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) continue;
        if (chars++ == maxChars) break;
    }
    if (at >= text.size()) return text;
    return trimmed(text.substr(0, at)) + "\xE2\x80\xA6";
}

std::map<std::string, std::string> conversationLabels(const WorldFiles& files, const std::vector<std::string>& ids) {
    std::map<std::string, std::string> labels;
    for (const std::string& id : ids) {
        const ReadResult stored = files.read(conversationPath(id));
        const nlohmann::json doc = stored.ok() ? nlohmann::json::parse(stored.content, nullptr, false) : nlohmann::json();
        Conversation head;
        if (doc.is_object() && doc.contains("title") && doc["title"].is_string())
            head.title = doc["title"].get<std::string>();
        if (doc.is_object() && doc.contains("branchedAtTurn") && doc["branchedAtTurn"].is_number_integer())
            head.branchedAtTurn = doc["branchedAtTurn"].get<int>();
        // A branch's title is its source's with " (branch)" added (once per generation): the turn
        // it starts from tells branches apart.
        const std::string suffix = " (branch)";
        while (head.title.size() > suffix.size() && head.title.compare(head.title.size() - suffix.size(), suffix.size(), suffix) == 0)
            head.title.resize(head.title.size() - suffix.size());
        if (head.title.empty()) {
            llm::Result<Conversation> loaded = loadConversation(files, id);
            if (loaded.isOk()) head.turns = std::move(loaded.value->turns);
        }
        std::string label = conversationLabel(head, head.branchedAtTurn > 0 ? 30 : 40);
        if (head.branchedAtTurn > 0 && !label.empty()) label += " \xC2\xB7 from turn " + std::to_string(head.branchedAtTurn);
        labels[id] = label;
    }
    return labels;
}

} // namespace chaiba::story
