// Story's SillyTavern import: character cards (PNG chunks, V1/V2/V3 JSON) and lorebooks made into
// world files, on the formats' published examples (tests/data/story_cards/README.md), damaged
// inputs each with its error, and the imported keyed entries through the memory selection.
#include "src/modes/story/card_import.h"
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/game_context.h"
#include "src/modes/story/transcript.h"
#include "src/modes/story/world_config.h"
#include "src/modes/story/zlib_inflate.h"

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace chaiba::story;

namespace {

std::string readData(const std::string& name) {
    std::ifstream in(std::string(CHAIBA_SOURCE_DIR) + "/tests/data/story_cards/" + name, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "missing test file " << name);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string be32(std::uint32_t v) {
    return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

std::string chunk(const std::string& type, const std::string& data) {
    return be32(std::uint32_t(data.size())) + type + data + be32(pngCrc(type + data));
}

// A 1x1 grey PNG with the given extra chunks before IEND.
std::string tinyPng(const std::string& extra) {
    const std::string ihdr = be32(1) + be32(1) + std::string("\x08\x00\x00\x00\x00", 5);
    const std::string idat("\x78\x9c\x63\x60\x00\x00\x00\x02\x00\x01", 10);
    return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IDAT", idat) + extra + chunk("IEND", "");
}

std::string textChunk(const std::string& keyword, const std::string& text) {
    return chunk("tEXt", keyword + std::string(1, '\0') + text);
}

const std::string* fileOf(const WorldImport& plan, const std::string& path) {
    for (const auto& [p, content] : plan.files)
        if (p == path) return &content;
    return nullptr;
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
    for (const std::string& line : lines)
        if (line.find(text) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("story card import reads SillyTavern's default Seraphina card into a new world") {
    const std::string png = readData("default_Seraphina.png");
    chaiba::llm::Result<CharacterCard> card = parseCharacterCard(png);
    REQUIRE_MESSAGE(card.isOk(), card.error);
    CHECK(card.value->specVersion == 2);
    CHECK(card.value->chunk == "chara");
    CHECK(card.value->name == "Seraphina");
    REQUIRE(card.value->book);
    CHECK(card.value->book->entries.size() == 4);
    // The picture keeps its image and loses the card's JSON.
    CHECK(card.value->picture.size() < png.size());
    CHECK(card.value->picture.find("chara") == std::string::npos);
    CHECK(readPngChunks(card.value->picture).isOk());

    MemoryWorldFiles world;
    const WorldImport plan = planCardImport(*card.value, world);
    REQUIRE(applyWorldImport(plan, world).ok());
    const std::string character = world.read("characters/seraphina.md").content;
    CHECK(character.find("# Seraphina") == 0);
    CHECK(character.find("![Seraphina](characters/seraphina.png)") != std::string::npos);
    CHECK(character.find("## Description") != std::string::npos);
    CHECK(character.find("Seraphina's Personality") != std::string::npos);
    CHECK(character.find("{{char}}") == std::string::npos);
    CHECK(character.find("{{user}}") == std::string::npos);
    CHECK(character.find('\r') == std::string::npos);
    CHECK(world.read("characters/seraphina.png").content == card.value->picture);
    // A world without a config gets one from the card: the first message opens the story.
    const LoadedWorldConfig config = loadWorldConfig(world);
    CHECK_MESSAGE(config.banner.empty(), config.banner);
    CHECK(config.config.title == "Seraphina");
    CHECK(config.config.opening.find("*You wake with a start") == 0);
    CHECK(config.config.player.name == "Traveller");
    // Its character_book: one keyed file per entry.
    const std::string eldoria = world.read("lore/eldoria/eldoria.md").content;
    CHECK(eldoria.find("---\nkeys: eldoria, wood, forest, magical forest\n---\n") == 0);
    CHECK(world.exists("lore/eldoria/shadowfang.md"));
    CHECK(world.exists("lore/eldoria/glade.md"));
    CHECK(world.exists("lore/eldoria/power.md"));
    // What was not carried over, in the report.
    CHECK(mentions(plan.notCarried, "the creator's notes"));
    CHECK(mentions(plan.notCarried, "creator OtisAlejandro"));
    CHECK(mentions(plan.notCarried, "extensions: fav, talkativeness, world"));
    const std::string report = importReportText(plan);
    CHECK(report.find("Imported character card V2 \"Seraphina\" (the PNG's chara chunk)") == 0);
    CHECK(report.find("  + lore/eldoria/power.md") != std::string::npos);
}

TEST_CASE("story card import reads SillyTavern's Eldoria World Info into keyed files") {
    chaiba::llm::Result<Lorebook> book = parseLorebook(readData("Eldoria.json"));
    REQUIRE_MESSAGE(book.isOk(), book.error);
    REQUIRE(book.value->entries.size() == 4);
    CHECK(book.value->entries[1].keys ==
          std::vector<std::string>{"shadowfang", "beast", "monster", "monsters", "beasts"});
    MemoryWorldFiles world({{"config.yaml", "setting: s\ntone: t\nplayer:\n  name: Wren\n"}});
    const WorldImport plan = planLorebookImport(*book.value, "Eldoria", world);
    REQUIRE(applyWorldImport(plan, world).ok());
    CHECK(plan.files.size() == 4);
    const std::string glade = world.read("lore/eldoria/glade.md").content;
    CHECK(glade.find("---\nkeys: glade, safe haven, refuge\n---\n") == 0);
    // {{user}} is the world's player; {{char}} has no card to stand for.
    CHECK(glade.find("Wren: \"What is the glade?\"") != std::string::npos);
    CHECK(mentions(plan.notCarried, "{{char}}"));

    // Then the memory selection sends a keyed entry only when its key is named.
    const GameContext quiet = loadGameContext(world, {"I rest by the fire.", -1});
    CHECK(std::find(quiet.paths.begin(), quiet.paths.end(), "lore/eldoria/shadowfang.md") == quiet.paths.end());
    const GameContext named = loadGameContext(world, {"What are those beasts howling outside?", -1});
    CHECK(std::find(named.paths.begin(), named.paths.end(), "lore/eldoria/shadowfang.md") != named.paths.end());
    CHECK(std::find(named.paths.begin(), named.paths.end(), "lore/eldoria/glade.md") == named.paths.end());
    CHECK(named.text.find("## lore/eldoria/shadowfang.md\n\nWren: \"What are Shadowfangs?\"") != std::string::npos);
}

TEST_CASE("story card import reads a V3 card from its ccv3 chunk and reports what keyed files cannot hold") {
    const std::string json = readData("v3_card.json");
    // ccv3 wins over a chara chunk of the same PNG (the V3 spec).
    const std::string v2 = R"({"spec":"chara_card_v2","data":{"name":"Old Odile"}})";
    const std::string png = tinyPng(textChunk("chara", base64Encode(v2)) + textChunk("ccv3", base64Encode(json)));
    chaiba::llm::Result<CharacterCard> card = parseCharacterCard(png);
    REQUIRE_MESSAGE(card.isOk(), card.error);
    CHECK(card.value->specVersion == 3);
    CHECK(card.value->chunk == "ccv3");
    CHECK(card.value->name == "Captain Odile Marr");
    CHECK(mentions(card.value->notes, "both ccv3 and chara"));

    MemoryWorldFiles world({{"config.yaml", "setting: s\ntone: t\nplayer:\n  name: Wren\n"},
                            {"characters/captain-odile-marr.md", "an older file of the same name"}});
    const WorldImport plan = planCardImport(*card.value, world);
    REQUIRE(applyWorldImport(plan, world).ok());
    // The name collides: the import takes the next free one and keeps the world's file.
    CHECK(world.read("characters/captain-odile-marr.md").content == "an older file of the same name");
    const std::string character = world.read("characters/captain-odile-marr-2.md").content;
    CHECK(character.find("# Captain Odile Marr (Odile)") == 0);
    CHECK(character.find("Odile commands the salvage barge") != std::string::npos); // nickname for {{char}}
    CHECK(character.find("You're the new hand, Wren?") != std::string::npos); // first message kept here
    CHECK(character.find("## Other openings") != std::string::npos);
    CHECK(character.find("## Example dialogue") != std::string::npos);
    CHECK(world.read("config.yaml").content == "setting: s\ntone: t\nplayer:\n  name: Wren\n");
    const std::string instructions = world.read("characters/captain-odile-marr-instructions.md").content;
    CHECK(instructions.find("clipped, nautical voice") != std::string::npos);
    CHECK(instructions.find("never speak for Wren") != std::string::npos);
    // The lorebook: a constant entry is always on; disabled and regex-only entries are not imported.
    CHECK(world.read("lore/the-flooded-coast/the-gannet.md").content.find("---\nkeys: Gannet, barge\n---\n") == 0);
    CHECK(world.read("lore/the-flooded-coast/the-rising-sea.md").content.find("---\nalways: true\n---\n") == 0);
    CHECK_FALSE(world.exists("lore/the-flooded-coast/the-mutiny.md"));
    CHECK_FALSE(world.exists("lore/the-flooded-coast/salvage-law.md"));
    CHECK(mentions(plan.notCarried, "entry \"The mutiny\": disabled"));
    CHECK(mentions(plan.notCarried, "entry \"Salvage law\": only regular-expression"));
    CHECK(mentions(plan.notCarried, "secondary keys ruins, tower"));
    CHECK(mentions(plan.notCarried, "group-only greeting"));
    CHECK(mentions(plan.notCarried, "asset background \"deck\""));
    CHECK(mentions(plan.notCarried, "scan_depth 4"));
    CHECK(mentions(plan.notCarried, "insertion order"));
    const GameContext context = loadGameContext(world, {"The barge creaks.", -1});
    CHECK(std::find(context.paths.begin(), context.paths.end(), "lore/the-flooded-coast/the-gannet.md") != context.paths.end());
    CHECK(std::find(context.paths.begin(), context.paths.end(), "lore/the-flooded-coast/saltmere.md") == context.paths.end());
}

TEST_CASE("story card import reads V1 and V2 JSON cards and the V3 standalone lorebook") {
    chaiba::llm::Result<CharacterCard> v1 =
        parseCharacterCard(R"({"name":"Bram","description":"A miller.","first_mes":"Flour everywhere.","mes_example":""})");
    REQUIRE_MESSAGE(v1.isOk(), v1.error);
    CHECK(v1.value->specVersion == 1);
    CHECK(v1.value->firstMessage == "Flour everywhere.");
    chaiba::llm::Result<CharacterCard> v2 = parseCharacterCard(
        R"({"spec":"chara_card_v2","spec_version":"2.0","data":{"name":"Ada","description":"d","system_prompt":"Be brief."}})");
    REQUIRE_MESSAGE(v2.isOk(), v2.error);
    CHECK(v2.value->systemPrompt == "Be brief.");
    // A name over lines and 120 bytes is a world title on one line.
    chaiba::llm::Result<CharacterCard> longName =
        parseCharacterCard(R"({"name":"Ada\nthe\tGreat )" + std::string(200, 'x') + R"("})");
    REQUIRE(longName.isOk());
    const WorldImport titled = planCardImport(*longName.value, MemoryWorldFiles{});
    CHECK(titled.title == "Ada the Great " + std::string(106, 'x'));
    CHECK(fileOf(titled, "characters/ada-the-great-xxxxxxxxxxxxxxxxxxxxxxxxxx.md"));
    CHECK(v2.value->chunk.empty());
    chaiba::llm::Result<Lorebook> book = parseLorebook(readData("lorebook_v3.json"));
    REQUIRE_MESSAGE(book.isOk(), book.error);
    MemoryWorldFiles world;
    const WorldImport plan = planLorebookImport(*book.value, "file", world);
    CHECK(plan.title == "Harbour Lore");
    REQUIRE(fileOf(plan, "lore/harbour-lore/tolland.md"));
    CHECK(mentions(plan.notCarried, "lore/harbour-lore/tolland.md: case-sensitive keys"));
    CHECK(mentions(plan.notCarried, "lore/harbour-lore/lamp-oil.md: position after the character"));
    CHECK(mentions(plan.notCarried, "the lorebook's description"));
}

TEST_CASE("story card import refuses damaged or foreign files, each with its reason") {
    const std::string good = tinyPng(textChunk("chara", base64Encode(R"({"name":"Bram"})")));
    REQUIRE(parseCharacterCard(good).isOk());
    auto error = [](const std::string& bytes) {
        chaiba::llm::Result<CharacterCard> r = parseCharacterCard(bytes);
        return r.isOk() ? std::string("(read)") : r.error;
    };
    CHECK(error("GIF89a....") == "not a character card: neither a PNG nor JSON");
    CHECK(error(good.substr(0, good.size() - 20)).find("the PNG is truncated") == 0);
    CHECK(error(good.substr(0, 8 + 25 + 4)).find("the PNG is truncated") == 0);
    std::string badCrc = good;
    badCrc[8 + 25 + 22 + 9] ^= 0x20; // a byte of the tEXt chunk's data
    CHECK(error(badCrc).find("fails its CRC check") != std::string::npos);
    CHECK(error(badCrc).find("chunk tEXt") != std::string::npos);
    CHECK(error(tinyPng("")) == "the PNG holds no character card (no tEXt, zTXt or iTXt chunk named chara or ccv3)");
    CHECK(error(tinyPng(textChunk("chara", "not base64 at all!"))) == "the PNG's chara chunk is not valid base64");
    CHECK(error(tinyPng(textChunk("chara", base64Encode("{\"name\": ")))) ==
          "the PNG's chara chunk: the card's JSON is not valid JSON");
    CHECK(error(tinyPng(textChunk("ccv3", base64Encode(R"({"spec":"chara_card_v9","data":{}})")))) ==
          "the PNG's ccv3 chunk: unknown card spec \"chara_card_v9\" (known: chara_card_v2, chara_card_v3, or V1 without spec)");
    CHECK(error(tinyPng(chunk("zTXt", std::string("chara\0\0x", 8)))) ==
          "the PNG's zTXt chunk \"chara\": the compressed text is too short to be a zlib stream");
    CHECK(error(readData("Eldoria.json")).find("this is a lorebook") == 0);
    CHECK(error(R"({"spec":"chara_card_v2","data":{"name":"  "}})") == "the card has no name");
    CHECK(error(std::string(kMaxCardFileBytes + 1, '{')).find("at most 8 MiB is read") != std::string::npos);

    chaiba::llm::Result<Lorebook> notBook = parseLorebook(R"({"spec":"chara_card_v2","data":{"name":"x"}})");
    CHECK(notBook.error.find("this is a character card") == 0);
    CHECK(parseLorebook("[1,2]").error == "the lorebook's JSON is not an object");
    CHECK(parseLorebook(R"({"entries": 3})").error.find("\"entries\" must be") == 0);
    std::string many = R"({"entries":[)";
    for (std::size_t i = 0; i <= kMaxLorebookEntries; ++i) many += std::string(i ? "," : "") + R"({"keys":["k"],"content":"c"})";
    CHECK(parseLorebook(many + "]}").error.find("at most 2000 are imported") != std::string::npos);
}

TEST_CASE("story card import writes every file or none") {
    chaiba::llm::Result<Lorebook> book = parseLorebook(readData("Eldoria.json"));
    REQUIRE(book.isOk());
    MemoryWorldFiles world;
    WorldImport plan = planLorebookImport(*book.value, "Eldoria", world);
    plan.files.back().second.assign(kMaxWorldFileBytes + 1, 'x'); // the last file cannot be written
    const WorldError error = applyWorldImport(plan, world);
    CHECK_FALSE(error.ok());
    CHECK(error.message.find("lore/eldoria/power.md") != std::string::npos);
    CHECK(world.list().empty());
    CHECK(safeFileName("Épée de l'Aube!", "x") == "p-e-de-l-aube");
    CHECK(safeFileName("***", "entry-3") == "entry-3");
}

TEST_CASE("story lorebook import into a world with a story is a turn that undo takes away and redo brings back") {
    chaiba::llm::Result<Lorebook> book = parseLorebook(readData("Eldoria.json"));
    REQUIRE(book.isOk());
    MemoryWorldFiles world({{"config.yaml", "setting: s\ntone: t\n"}, {"places.md", "# Places\n"}});
    Conversation story;
    story.id = "main";
    REQUIRE(recordPersonEdit(world, story, "places.md", "# Places\n\nThe glade.\n").ok());
    const WorldImport plan = planLorebookImport(*book.value, "Eldoria", world);
    REQUIRE(applyWorldImport(plan, world).ok());
    REQUIRE(recordPersonImport(world, story, plan.files, "You imported the lorebook \"Eldoria\": 4 keyed file(s)").ok());
    REQUIRE(story.turns.size() == 2);
    const TurnRecord& turn = story.turns.back();
    CHECK(turn.kind == TurnKind::Edit);
    CHECK(turn.entries.at(0).text == "You imported the lorebook \"Eldoria\": 4 keyed file(s)");
    CHECK(turn.changes.touchedPaths().size() == 4);
    CHECK(editTurnDiff(turn).find("lore/eldoria/glade.md") != std::string::npos);
    // Stored: a reload sees the turn.
    chaiba::llm::Result<Conversation> loaded = loadConversation(world, "main");
    REQUIRE(loaded.isOk());
    CHECK(loaded.value->turns.size() == 2);

    REQUIRE(undoLastTurn(world, story).ok());
    CHECK_FALSE(world.exists("lore/eldoria/glade.md"));
    CHECK(world.read("places.md").content == "# Places\n\nThe glade.\n"); // the turn before stays
    REQUIRE(redoTurn(world, story).ok());
    CHECK(world.read("lore/eldoria/glade.md").content.find("keys: glade") != std::string::npos);

    // A branch from before the import starts without its files.
    chaiba::llm::Result<Conversation> branch = branchConversation(world, story, {1, true}, "c1");
    REQUIRE_MESSAGE(branch.isOk(), branch.error);
    CHECK(branch.value->turns.size() == 1);
}


namespace {

// The zlib streams of tests/data/story_cards/compressed.json (make_compressed.py), by name.
std::map<std::string, nlohmann::json> compressedStreams() {
    const nlohmann::json doc = nlohmann::json::parse(readData("compressed.json"));
    std::map<std::string, nlohmann::json> byName;
    for (const nlohmann::json& s : doc.at("streams")) byName[s.at("name").get<std::string>()] = s;
    return byName;
}

std::string zlibOf(const nlohmann::json& stream) {
    std::optional<std::string> bytes = base64Decode(stream.at("zlib").get<std::string>());
    REQUIRE(bytes);
    return *bytes;
}

} // namespace

TEST_CASE("story card inflate reads zlib streams of stored, fixed and dynamic blocks") {
    const auto streams = compressedStreams();
    int checked = 0;
    for (const auto& [name, stream] : streams) {
        if (name == "zeros 24 MiB") continue;
        CAPTURE(name);
        chaiba::llm::Result<std::string> plain = zlibInflate(zlibOf(stream), kMaxCardFileBytes);
        REQUIRE_MESSAGE(plain.isOk(), plain.error);
        CHECK(plain.value->size() == stream.at("plainBytes").get<std::size_t>());
        if (stream.contains("plain")) CHECK(*plain.value == *base64Decode(stream.at("plain").get<std::string>()));
        ++checked;
    }
    CHECK(checked == 7);
}

TEST_CASE("story card import reads the card from a zTXt chunk and from a compressed iTXt chunk") {
    chaiba::llm::Result<CharacterCard> original = parseCharacterCard(readData("default_Seraphina.png"));
    REQUIRE(original.isOk());
    const auto streams = compressedStreams();
    for (const std::string level : {"seraphina-level-0", "seraphina-level-1", "seraphina-level-9"}) {
        CAPTURE(level);
        const std::string z = zlibOf(streams.at(level));
        for (const std::string& extra : {chunk("zTXt", std::string("chara\0\0", 7) + z),
                                         chunk("iTXt", std::string("chara\0\x01\0\0\0", 10) + z)}) {
            chaiba::llm::Result<CharacterCard> card = parseCharacterCard(tinyPng(extra));
            REQUIRE_MESSAGE(card.isOk(), card.error);
            CHECK(card.value->name == "Seraphina");
            CHECK(card.value->description == original.value->description);
            CHECK(card.value->book->entries.size() == original.value->book->entries.size());
        }
    }
}

TEST_CASE("story card inflate refuses damaged, truncated and oversized streams, each with its reason") {
    const auto streams = compressedStreams();
    const std::string good = zlibOf(streams.at("text"));
    std::string badSum = good;
    badSum.back() = static_cast<char>(badSum.back() ^ 1);
    CHECK(zlibInflate(badSum, kMaxCardFileBytes).error.find("Adler-32") != std::string::npos);
    CHECK(zlibInflate(good.substr(0, good.size() / 2), kMaxCardFileBytes).error.find("does not inflate: it ends") !=
          std::string::npos);
    CHECK(zlibInflate(good.substr(0, good.size() - 2), kMaxCardFileBytes).error.find("before its checksum") !=
          std::string::npos);
    CHECK(zlibInflate(std::string("\x78\x9d") + good.substr(2), kMaxCardFileBytes).error.find("bad header") !=
          std::string::npos);
    CHECK(zlibInflate(std::string("\x78\x01\x07\0\0\0\0\0", 8), kMaxCardFileBytes).error.find("reserved type 3") !=
          std::string::npos);
    // A bomb: 24 MiB of zeros in a few KiB, past the 8 MiB an import reads.
    const std::string bomb = zlibOf(streams.at("zeros 24 MiB"));
    CHECK(bomb.size() < 64 * 1024);
    CHECK(zlibInflate(bomb, kMaxCardFileBytes).error.find("past the limit") != std::string::npos);
    // In a card: the chunk named, nothing imported.
    chaiba::llm::Result<CharacterCard> card =
        parseCharacterCard(tinyPng(chunk("zTXt", std::string("chara\0\0", 7) + badSum)));
    CHECK_FALSE(card.isOk());
    CHECK(card.error.find("the PNG's zTXt chunk \"chara\": the compressed text fails its Adler-32 check") == 0);
    CHECK(parseCharacterCard(tinyPng(chunk("zTXt", std::string("chara\0\x05", 7) + good))).error.find("unknown compression method") !=
          std::string::npos);
}
