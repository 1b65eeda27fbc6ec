// Story game context: which files go in (skip rules), in which order, and in which shape.
#include "src/modes/story/game_context.h"

#include <doctest/doctest.h>

using namespace chaiba::story;

TEST_CASE("story context skips media folders, the config and the prompt files") {
    CHECK(isContextFile("factions.md"));
    CHECK(isContextFile("NPCs/mira.md"));
    CHECK(isContextFile("locations/old/quay.md"));
    CHECK(isContextFile("NPCs/images-of-mira.md")); // only a folder named images is skipped
    CHECK_FALSE(isContextFile("images/captions.md"));
    CHECK_FALSE(isContextFile("videos/intro.md"));
    CHECK_FALSE(isContextFile("NPCs/images/mira.md"));
    CHECK_FALSE(isContextFile("config.yaml"));
    CHECK_FALSE(isContextFile("system.md"));
    CHECK_FALSE(isContextFile("style-guide.md"));
    CHECK_FALSE(isContextFile("images/map.png"));
    CHECK_FALSE(isContextFile("../factions.md"));
}

TEST_CASE("story context joins sections in sorted path order") {
    const MemoryWorldFiles world({
        {"locations/quay.md", "The quay.\n\n"},
        {"NPCs/mira.md", "Mira."},
        {"factions.md", "Factions."},
        {"system.md", "You are the narrator."},
        {"style-guide.md", "Short sentences."},
        {"config.yaml", "tone: x"},
        {"images/notes.md", "image notes"},
        {"images/map.png", "PNG"},
        {"videos/cut.md", "video notes"},
    });
    const GameContext context = loadGameContext(world);
    CHECK(context.paths == std::vector<std::string>{"NPCs/mira.md", "factions.md", "locations/quay.md"});
    CHECK(context.text == "## NPCs/mira.md\n\nMira.\n\n---\n\n"
                          "## factions.md\n\nFactions.\n\n---\n\n"
                          "## locations/quay.md\n\nThe quay.");
    CHECK(context.warnings.empty());
    CHECK(gameContextMessage(context) == "# Game Context\n\n" + context.text);
}

TEST_CASE("story context of a world without markdown is empty") {
    const MemoryWorldFiles world({{"system.md", "x"}, {"images/a.png", "y"}});
    const GameContext context = loadGameContext(world);
    CHECK(context.text.empty());
    CHECK(context.paths.empty());
    CHECK(gameContextMessage(context).empty());
}

TEST_CASE("story context never sends a binary, non-UTF-8 or oversized file, and says why") {
    std::string binary = "PNG\x89\x0d\x0a\x1a";
    binary += std::string(1, '\0') + "IHDR";
    const MemoryWorldFiles world({
        {"lore.md", "Lore: caf\xC3\xA9 and \xE2\x9C\x93."}, // UTF-8 with accents and symbols: sent
        {"fake.md", binary},                                // a picture named .md
        {"latin1.md", "caf\xE9 au lait"},                   // Latin-1, not UTF-8
        {"huge.md", std::string(kMaxContextFileBytes + 1, 'x')},
        {"exact.md", std::string(kMaxContextFileBytes, 'y')}, // at the limit: sent
    });
    const GameContext context = loadGameContext(world);
    CHECK(context.paths == std::vector<std::string>{"exact.md", "lore.md"});
    REQUIRE(context.leftOut.size() == 3);
    CHECK(context.leftOut[0].first == "fake.md");
    CHECK(context.leftOut[0].second.find("binary") != std::string::npos);
    CHECK(context.leftOut[1].first == "huge.md");
    CHECK(context.leftOut[1].second.find("too large to send: 65 KiB") != std::string::npos);
    CHECK(context.leftOut[2].first == "latin1.md");
    CHECK(context.leftOut[2].second.find("not UTF-8 text (byte 4)") != std::string::npos);
    CHECK(context.warnings.size() == 3);
    CHECK(context.text.find("IHDR") == std::string::npos);
    CHECK(context.text.find("au lait") == std::string::npos);
    CHECK_FALSE(contextExclusion("\xF0\x9F\x8E\xB2 a die"));      // a four-byte character
    CHECK(contextExclusion("\xF0\x9F\x8E"));                       // cut short
    CHECK(contextExclusion("tab\tand\r\nlines").has_value() == false);
}
