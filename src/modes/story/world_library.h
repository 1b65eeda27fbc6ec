// The page's library of worlds beyond one world's files: rename, duplicate and delete a world in
// the store, a world's files copied into another, and the names conversations are listed by.
#pragma once

#include "src/modes/story/kv_world_files.h"
#include "src/modes/story/transcript.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

// Every file of `from` written into `to` (which should be empty); on a failure what was written is
// removed again and the error names the file.
WorldError copyWorldFiles(const WorldFiles& from, WorldFiles& to);
// Every file of `from` gathered in memory, read with readLater (the page keeps agent logs out of
// memory), or the first unreadable file's error: `done` runs in the call or later.
void gatherWorldFiles(const WorldFiles& from, std::function<void(llm::Result<MemoryWorldFiles>)> done);

// A new title for world `id` (trimmed, not empty, at most 120 bytes), saved in the list.
std::optional<std::string> renameWorld(KeyValueStore& store, std::vector<WorldEntry>& worlds, const std::string& id,
                                       const std::string& title);
// A copy of world `id` with all its files (conversations, pictures, logs) as "<title> (copy)",
// appended to the list; the new entry, or why not (the store is then as before). Every file must
// be in memory (the page's screen gathers them first: gatherWorldFiles).
llm::Result<WorldEntry> duplicateWorld(KeyValueStore& store, std::vector<WorldEntry>& worlds, const std::string& id);
// World `id` and all its files removed from the store and the list.
std::optional<std::string> deleteWorld(KeyValueStore& store, std::vector<WorldEntry>& worlds, const std::string& id);

// What a conversation is called in lists: its title, else its first player line (older builds
// kept none), on one line and cut to `maxChars` characters with "…"; "" before its first turn.
std::string conversationLabel(const Conversation& conversation, std::size_t maxChars = 40);
// The labels of these conversations of the world, read from their heads (a head without a title
// loads its conversation to take its first player line); a branch's says the turn it starts from
// ("I look around the quay. · from turn 2"); an unreadable one is "".
std::map<std::string, std::string> conversationLabels(const WorldFiles& files, const std::vector<std::string>& ids);

} // namespace chaiba::story
