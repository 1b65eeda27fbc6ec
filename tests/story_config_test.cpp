// Story world config: a good config.yaml, each kind of mistake named by its key, the default world
// with its visible warning, and the sample world in assets/story/sample.
#include "src/modes/story/disk_world_files.h"
#include "src/modes/story/game_context.h"
#include "src/modes/story/world_config.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace chaiba::story;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

bool anyContains(const std::vector<std::string>& lines, const std::string& part) {
    for (const std::string& line : lines)
        if (contains(line, part)) return true;
    return false;
}

const char* kGoodConfig = R"(title: The Lamps of Brackwater
setting: |
  A town on stilts over a salt marsh.
  The lamps keep the wisps away.
tone: Damp, wry, a little eerie.
institutions:
  - The Lamplighters' Guild
  - The Salt Exchequer
player:
  name: Wren Aldane
  description: A courier with a sealed letter.
opening: The ferry bumps against the Stilt Quay.
models:
  narrator: openai/gpt-5.2
)";

} // namespace

TEST_CASE("story config reads a good config.yaml") {
    const ConfigParse parsed = parseWorldConfig(kGoodConfig);
    REQUIRE(parsed.ok());
    CHECK(parsed.errors.empty());
    CHECK(parsed.warnings.empty());
    const WorldConfig& config = *parsed.config;
    CHECK(config.title == "The Lamps of Brackwater");
    CHECK(config.setting == "A town on stilts over a salt marsh.\nThe lamps keep the wisps away.\n");
    CHECK(config.tone == "Damp, wry, a little eerie.");
    CHECK(config.institutions == std::vector<std::string>{"The Lamplighters' Guild", "The Salt Exchequer"});
    CHECK(config.player.name == "Wren Aldane");
    CHECK(config.player.description == "A courier with a sealed letter.");
    CHECK(config.opening == "The ferry bumps against the Stilt Quay.");
    CHECK(config.models.narrator == "openai/gpt-5.2");
    CHECK(config.models.world.empty());
}

TEST_CASE("story config names a missing required field") {
    ConfigParse parsed = parseWorldConfig("setting: A marsh.\nplayer:\n  name: Wren\n");
    CHECK_FALSE(parsed.ok());
    CHECK(parsed.errors == std::vector<std::string>{"tone: missing (required)"});

    parsed = parseWorldConfig("setting: A marsh.\ntone: wry\nplayer:\n  description: a courier\n");
    CHECK_FALSE(parsed.ok());
    CHECK(parsed.errors == std::vector<std::string>{"player.name: missing (required)"});

    parsed = parseWorldConfig("setting: \"\"\ntone: wry\nplayer: {name: Wren}\n");
    CHECK_FALSE(parsed.ok());
    CHECK(anyContains(parsed.errors, "setting (line 1): must not be empty"));
}

TEST_CASE("story config names a key of the wrong type") {
    ConfigParse parsed = parseWorldConfig("setting: [a, b]\ntone: wry\nplayer: {name: Wren}\n");
    CHECK_FALSE(parsed.ok());
    CHECK(parsed.errors == std::vector<std::string>{"setting (line 1): expected text, found a list"});

    parsed = parseWorldConfig("setting: x\ntone: wry\nplayer: Wren\n");
    CHECK(anyContains(parsed.errors, "player (line 3): expected a mapping"));

    parsed = parseWorldConfig("setting: x\ntone: wry\ninstitutions: the guild\nplayer: {name: Wren}\n");
    CHECK(anyContains(parsed.errors, "institutions (line 3): expected a list of text, found text"));

    parsed = parseWorldConfig("setting: x\ntone: wry\ninstitutions: [guild, {a: b}]\nplayer: {name: Wren}\n");
    CHECK(anyContains(parsed.errors, "institutions[1]"));

    parsed = parseWorldConfig("setting: x\ntone:\nplayer: {name: [W, r]}\n");
    CHECK(anyContains(parsed.errors, "tone (line 2): expected text, found nothing"));
    CHECK(anyContains(parsed.errors, "player.name (line 3): expected text, found a list"));
}

TEST_CASE("story config warns about unknown keys and still reads") {
    const ConfigParse parsed =
        parseWorldConfig("setting: x\ntone: wry\ncolour: teal\nplayer: {name: Wren, age: 30}\n");
    REQUIRE(parsed.ok());
    CHECK(parsed.warnings.size() == 2);
    CHECK(anyContains(parsed.warnings, "colour (line 3): unknown key, ignored"));
    CHECK(anyContains(parsed.warnings,
                      "player.age (line 4): unknown key, ignored (known keys: name, description)"));
}

TEST_CASE("story config reports YAML syntax errors with a line and duplicated keys") {
    ConfigParse parsed = parseWorldConfig("setting: x\ntone: [unclosed\nplayer: {name: Wren}\n");
    CHECK_FALSE(parsed.ok());
    REQUIRE(parsed.errors.size() == 1);
    CHECK(contains(parsed.errors[0], "config.yaml line "));

    parsed = parseWorldConfig("setting: x\ntone: a\ntone: b\nplayer: {name: Wren}\n");
    CHECK(anyContains(parsed.errors, "tone (line 3): the key appears more than once"));

    CHECK(parseWorldConfig("").errors ==
          std::vector<std::string>{"config.yaml is empty (it needs at least setting, tone and player)"});
    CHECK(anyContains(parseWorldConfig("- a\n- b\n").errors, "must be a mapping"));
}

TEST_CASE("story config falls back to the default world with a visible warning") {
    const MemoryWorldFiles missing;
    LoadedWorldConfig loaded = loadWorldConfig(missing);
    CHECK(loaded.usedDefault);
    CHECK(loaded.config.title == defaultWorldConfig().title);
    CHECK(contains(loaded.banner, "config.yaml is missing"));

    // Readable YAML with errors: what was read is kept, the rest is the default world's.
    const MemoryWorldFiles invalid({{"config.yaml", "setting: [a]\ncolour: red\n"}});
    loaded = loadWorldConfig(invalid);
    CHECK_FALSE(loaded.usedDefault);
    CHECK(loaded.partlyDefault);
    CHECK(contains(loaded.banner, "config.yaml has a problem (setting (line 1): expected text, found a list; and 2 more)"));
    CHECK(loaded.config.setting == defaultWorldConfig().setting);
    CHECK(anyContains(loaded.warnings, "colour"));
    CHECK(anyContains(loaded.warnings, "tone: missing"));
    // One bad key no longer costs the others (it used to replace the whole config with defaults).
    const MemoryWorldFiles oneBad({{"config.yaml", "title: Salt\nsetting: A marsh town.\ntone: wry\n"
                                                   "player: {name: Wren}\nopening: [a, list]\n"}});
    loaded = loadWorldConfig(oneBad);
    CHECK(loaded.partlyDefault);
    CHECK(loaded.config.title == "Salt");
    CHECK(loaded.config.setting == "A marsh town.");
    CHECK(loaded.config.player.name == "Wren");
    CHECK(contains(loaded.banner, "opening"));
    // Not YAML at all: the default world, as before.
    const MemoryWorldFiles broken({{"config.yaml", "setting: [unclosed\n"}});
    loaded = loadWorldConfig(broken);
    CHECK(loaded.usedDefault);
    CHECK(contains(loaded.banner, "config.yaml is invalid"));

    const MemoryWorldFiles good({{"config.yaml", kGoodConfig}});
    loaded = loadWorldConfig(good);
    CHECK_FALSE(loaded.usedDefault);
    CHECK(loaded.banner.empty());
    CHECK(loaded.config.player.name == "Wren Aldane");

    const WorldConfig fallback = defaultWorldConfig();
    CHECK_FALSE(fallback.setting.empty());
    CHECK_FALSE(fallback.tone.empty());
    CHECK_FALSE(fallback.player.name.empty());
}

TEST_CASE("story sample world loads cleanly") {
    const DiskWorldFiles sample(std::string(CHAIBA_SOURCE_DIR) + "/assets/story/sample");
    const LoadedWorldConfig loaded = loadWorldConfig(sample);
    CHECK_MESSAGE(!loaded.usedDefault, loaded.banner);
    CHECK(loaded.warnings.empty());
    CHECK(loaded.config.institutions.size() >= 2);

    CHECK(sample.exists("system.md"));
    CHECK(sample.exists("style-guide.md"));
    const GameContext context = loadGameContext(sample);
    CHECK(context.warnings.empty());
    CHECK(std::find(context.paths.begin(), context.paths.end(), "factions.md") != context.paths.end());
    CHECK(std::count_if(context.paths.begin(), context.paths.end(),
                        [](const std::string& p) { return p.rfind("NPCs/", 0) == 0; }) >= 2);
    CHECK(std::count_if(context.paths.begin(), context.paths.end(),
                        [](const std::string& p) { return p.rfind("locations/", 0) == 0; }) >= 2);
    CHECK(contains(context.text, "Recent Actions"));
    CHECK(context.text.size() < 16 * 1024);
}
