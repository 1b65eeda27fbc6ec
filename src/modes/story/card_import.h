// A character card or a lorebook (character_card.h) made into world files: the character's file,
// picture and instructions, a config.yaml when the world has none, lorebook entries as keyed files
// (story cards), and a report of what was not carried over (what keyed files cannot express).
#pragma once

#include "src/modes/story/character_card.h"
#include "src/modes/story/world_files.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chaiba::story {

// What it is: the files an import writes (none exists in the world: names that collide get
// "-2", "-3"), and what it could not carry over, each a sentence.
struct WorldImport {
    std::string what;  // "character card V2 \"Seraphina\" (the PNG's chara chunk)"
    std::string title; // the card's name or the lorebook's
    std::vector<std::pair<std::string, std::string>> files; // path, content
    std::vector<std::string> notCarried;
    std::vector<std::string> notes;
};

// The card's files, against the world it goes into (its config.yaml, if any, is kept; its player's
// name stands in for {{user}}).
WorldImport planCardImport(const CharacterCard& card, const WorldFiles& world);
// The lorebook's entries as keyed files under lore/<name>/ (name: the book's, else `fileStem`).
WorldImport planLorebookImport(const Lorebook& book, std::string_view fileStem, const WorldFiles& world);

// Writes every file or none: the first failure removes what this import wrote and names the file.
WorldError applyWorldImport(const WorldImport& plan, WorldFiles& world);

// The report as lines: what was read, the files written, what was not carried over, notes.
std::string importReportText(const WorldImport& plan);

} // namespace chaiba::story
