// SillyTavern's formats read at the edge into typed structs: a character card (a PNG whose tEXt
// chunk `chara` or `ccv3` holds base64 JSON, or the JSON itself: spec V1, V2 `chara_card_v2`, V3
// `chara_card_v3`) and a lorebook (World Info: SillyTavern's `entries` object, or the spec's array,
// alone or as `lorebook_v3`). What becomes world files is in card_import.h.
#pragma once

#include "src/llm/chat.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

// The largest file the importers read: a card PNG is a portrait (SillyTavern's default card is
// 517 KiB); a lorebook is text.
inline constexpr std::size_t kMaxCardFileBytes = 8u << 20;
inline constexpr std::size_t kMaxLorebookEntries = 2000;

// What it is: one chunk of a PNG, its bytes still in the file it came from.
struct PngChunk {
    std::string type;   // four letters: "IHDR", "tEXt", ...
    std::size_t at = 0; // the chunk's offset in the file (its length field)
    std::string_view data;
};

// CRC-32 (IEEE), as every PNG chunk carries it over its type and data.
std::uint32_t pngCrc(std::string_view bytes);

// Every chunk of a PNG, each CRC checked; an error names the chunk and its offset (not a PNG,
// truncated, a failed CRC, no IEND).
llm::Result<std::vector<PngChunk>> readPngChunks(std::string_view bytes);

// The PNG again without the text chunks of these keywords (lower case; matched in any case): the
// card's JSON leaves its picture.
std::string pngWithoutText(std::string_view bytes, const std::vector<PngChunk>& chunks,
                           const std::vector<std::string>& keywords);

// One lorebook entry with every field the formats name; what the keyed-file model cannot express
// is reported by the import (card_import.h).
struct LoreEntry {
    std::string name;    // name, else comment
    std::string comment;
    std::string id;      // uid / id as text
    std::vector<std::string> keys;
    std::vector<std::string> secondaryKeys;
    std::string content;
    bool enabled = true;
    bool constant = false;
    bool selective = false;
    bool useRegex = false;
    bool caseSensitive = false;
    double order = 100;            // insertion_order / order
    std::string position;          // "" (before the character, the default), or what else it said
    std::optional<int> depth;      // SillyTavern's @depth insertion
    std::optional<double> probability; // below 100 and used
    std::vector<std::string> otherFields; // set fields with no counterpart (group, sticky, ...)
};

// What it is: a lorebook: its own settings and its entries, in file order.
struct Lorebook {
    std::string name;
    std::string description;
    std::vector<LoreEntry> entries;
    std::vector<std::string> otherFields; // scan_depth, token_budget, recursive_scanning when set
};

// A standalone lorebook file (JSON text).
llm::Result<Lorebook> parseLorebook(std::string_view jsonText);

// What it is: a character card's fields (data.* of V2/V3, the top level of V1).
struct CharacterCard {
    int specVersion = 1; // 1, 2 or 3
    std::string name;
    std::string nickname;
    std::string description;
    std::string personality;
    std::string scenario;
    std::string firstMessage;
    std::vector<std::string> alternateGreetings;
    std::vector<std::string> groupGreetings;
    std::string exampleDialogue;
    std::string systemPrompt;
    std::string postHistoryInstructions;
    std::string creatorNotes;
    std::string creator;
    std::string characterVersion;
    std::vector<std::string> tags;
    std::vector<std::string> extensionKeys; // data.extensions' keys
    std::vector<std::string> assets;        // V3 assets other than the card's own picture: "type name (uri)"
    std::optional<Lorebook> book;
    std::string picture;    // the PNG without its card chunks; empty for a JSON card
    std::string chunk;      // "ccv3", "chara" or "" (JSON)
    std::vector<std::string> notes; // what reading it decided (which chunk won, ...)
};

// A card from a PNG (by its signature) or JSON text.
llm::Result<CharacterCard> parseCharacterCard(std::string_view bytes);

} // namespace chaiba::story
