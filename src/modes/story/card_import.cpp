// Cards and lorebooks made into world files, and the report of what was left behind (see
// card_import.h).
#include "src/modes/story/card_import.h"

#include "src/modes/story/world_config.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace chaiba::story {

namespace {

constexpr std::string_view kPlayerStandIn = "Traveller"; // {{user}} in a world without a player yet

std::string trimmed(std::string_view s) {
    const std::size_t a = s.find_first_not_of(" \t\r\n");
    if (a == std::string_view::npos) return {};
    const std::size_t b = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(a, b - a + 1));
}

std::string withoutCarriageReturns(std::string text) {
    text.erase(std::remove(text.begin(), text.end(), '\r'), text.end());
    return text;
}

void replaceAll(std::string& text, std::string_view from, std::string_view to, int& count) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
        ++count;
    }
}

// What stands in for the card's macros, and how many were replaced or left as written.
struct Macros {
    std::string character; // empty: {{char}} stays (a lorebook alone)
    std::string player;
    int replaced = 0;
    std::set<std::string> left;

    std::string apply(std::string text) {
        text = withoutCarriageReturns(std::move(text));
        for (std::string_view m : {"{{char}}", "{{Char}}", "{{CHAR}}", "<BOT>", "<bot>", "<char>"})
            if (!character.empty()) replaceAll(text, m, character, replaced);
        for (std::string_view m : {"{{user}}", "{{User}}", "{{USER}}", "<USER>", "<user>"})
            replaceAll(text, m, player, replaced);
        for (std::size_t at = text.find("{{"); at != std::string::npos; at = text.find("{{", at + 2)) {
            const std::size_t end = text.find("}}", at);
            if (end == std::string::npos || end - at > 40) continue;
            left.insert(text.substr(at, end + 2 - at));
        }
        return text;
    }

    void report(WorldImport& plan) const {
        if (replaced > 0)
            plan.notes.push_back(std::to_string(replaced) + " macro(s) replaced: " +
                                 (character.empty() ? std::string() : "{{char}} by " + character + ", ") +
                                 "{{user}} by " + player);
        if (!left.empty()) {
            std::string list;
            for (const std::string& m : left) list += (list.empty() ? "" : ", ") + m;
            plan.notCarried.push_back("macros left as written (the game master reads them as text): " + list);
        }
    }
};

// A path that neither the world nor this plan holds: stem.ext, stem-2.ext, ...
std::string freePath(const std::string& folder, const std::string& stem, const std::string& ext,
                     const std::set<std::string>& taken) {
    std::string path = folder + stem + ext;
    for (int n = 2; taken.count(path); ++n) path = folder + stem + "-" + std::to_string(n) + ext;
    return path;
}

std::set<std::string> takenPaths(const WorldFiles& world) {
    const std::vector<std::string> listed = world.listWorld();
    return {listed.begin(), listed.end()};
}

void add(WorldImport& plan, std::set<std::string>& taken, std::string path, std::string content) {
    taken.insert(path);
    plan.files.emplace_back(std::move(path), std::move(content));
}

std::string yamlQuoted(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
    }
    return out + "\"";
}

// A literal block (`key: |`), every line indented: any text survives it.
std::string yamlBlock(std::string_view key, const std::string& text) {
    std::string out = std::string(key) + ": |-\n";
    std::size_t from = 0;
    while (from <= text.size()) {
        std::size_t nl = text.find('\n', from);
        if (nl == std::string::npos) nl = text.size();
        out += "  " + text.substr(from, nl - from) + "\n";
        from = nl + 1;
    }
    return out;
}

std::string section(const std::string& heading, const std::string& body) {
    const std::string text = trimmed(body);
    return text.empty() ? std::string() : "## " + heading + "\n\n" + text + "\n\n";
}

std::string joinList(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

// A key the front matter can carry: one line, no comma (the list's separator).
bool plainKey(const std::string& key) {
    return key.find_first_of(",\n\r") == std::string::npos && !trimmed(key).empty();
}

bool regexKey(const std::string& key) {
    return key.size() >= 3 && key.front() == '/' && key.rfind('/') > 0;
}

void planEntries(const Lorebook& book, const std::string& folder, Macros& macros, std::set<std::string>& taken,
                 WorldImport& plan) {
    std::set<double> orders;
    for (std::size_t i = 0; i < book.entries.size(); ++i) {
        const LoreEntry& e = book.entries[i];
        const std::string label = !e.name.empty() ? e.name : !e.comment.empty() ? e.comment
                                  : !e.keys.empty() ? e.keys.front()
                                                    : "entry " + (e.id.empty() ? std::to_string(i + 1) : e.id);
        const std::string quoted = "entry \"" + label + "\"";
        if (!e.enabled) {
            plan.notCarried.push_back(quoted + ": disabled, not imported");
            continue;
        }
        if (trimmed(e.content).empty()) {
            plan.notCarried.push_back(quoted + ": no content, not imported");
            continue;
        }
        std::vector<std::string> keys, dropped;
        for (const std::string& key : e.keys) {
            if (e.useRegex || regexKey(key) || !plainKey(key))
                dropped.push_back(key);
            else
                keys.push_back(trimmed(key));
        }
        if (keys.empty() && !e.constant) {
            plan.notCarried.push_back(quoted + ": " +
                                      (dropped.empty() ? std::string("no keys and not constant (never sent)")
                                                       : "only regular-expression or multi-line keys (" +
                                                             joinList(dropped) + ")") +
                                      ", not imported");
            continue;
        }
        const std::string path = freePath(folder, safeFileName(label, "entry-" + std::to_string(i + 1)), ".md", taken);
        std::string front = "---\n";
        if (!keys.empty()) front += "keys: " + joinList(keys) + "\n";
        if (e.constant) front += "always: true\n";
        front += "---\n";
        add(plan, taken, path, front + macros.apply(e.content) + (e.content.back() == '\n' ? "" : "\n"));
        orders.insert(e.order);
        // What the keyed file cannot say.
        std::vector<std::string> lost;
        if (!dropped.empty()) lost.push_back("keys dropped (regular expressions or with commas): " + joinList(dropped));
        if (e.selective && !e.secondaryKeys.empty())
            lost.push_back("secondary keys " + joinList(e.secondaryKeys) + " (sent on its primary keys alone)");
        if (e.caseSensitive) lost.push_back("case-sensitive keys (matched in any case)");
        if (!e.position.empty()) lost.push_back("position " + e.position +
                                                (e.depth ? " " + std::to_string(*e.depth) : std::string()));
        if (e.probability) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "probability %g%% (sent every time it is named)", *e.probability);
            lost.push_back(buf);
        }
        for (const std::string& other : e.otherFields) lost.push_back(other);
        if (!lost.empty()) plan.notCarried.push_back(path + ": " + joinList(lost));
    }
    if (orders.size() > 1)
        plan.notCarried.push_back("insertion order (the budget sends the most recently named entries first)");
    if (!book.otherFields.empty()) plan.notCarried.push_back("the lorebook's " + joinList(book.otherFields));
}

} // namespace

namespace {

// A name on one line and at most 120 bytes (a whole UTF-8 character last): a world's title.
std::string oneLineName(std::string_view text) {
    std::string name = trimmed(text);
    for (char& c : name)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (name.size() > 120) {
        std::size_t cut = 120;
        while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
        name = trimmed(name.substr(0, cut));
    }
    return name;
}

} // namespace

WorldImport planCardImport(const CharacterCard& card, const WorldFiles& world) {
    WorldImport plan;
    plan.title = oneLineName(card.name);
    plan.what = "character card V" + std::to_string(card.specVersion) + " \"" + plan.title + "\"" +
                (card.chunk.empty() ? " (JSON)" : " (the PNG's " + card.chunk + " chunk)");
    plan.notes = card.notes;
    std::set<std::string> taken = takenPaths(world);
    const bool hasConfig = world.exists(kConfigPath);
    Macros macros;
    macros.character = trimmed(card.nickname.empty() ? card.name : card.nickname);
    macros.player = hasConfig ? loadWorldConfig(world).config.player.name : std::string(kPlayerStandIn);
    if (macros.player.empty()) macros.player = kPlayerStandIn;

    const std::string stem = safeFileName(card.name, "character");
    std::string picturePath;
    if (!card.picture.empty()) {
        if (card.picture.size() > kMaxWorldFileBytes) {
            plan.notCarried.push_back("the card's picture (" + std::to_string(card.picture.size() >> 10) +
                                      " KiB, over the world's 1 MiB a file)");
        } else {
            picturePath = freePath("characters/", stem, ".png", taken);
            add(plan, taken, picturePath, card.picture);
        }
    }
    const std::string characterPath = freePath("characters/", stem, ".md", taken);
    std::string body = "# " + plan.title + (card.nickname.empty() ? "" : " (" + trimmed(card.nickname) + ")") + "\n\n";
    if (!picturePath.empty()) body += "![" + plan.title + "](" + picturePath + ")\n\n";
    body += section("Description", macros.apply(card.description));
    body += section("Personality", macros.apply(card.personality));
    body += section("Scenario", macros.apply(card.scenario));
    if (hasConfig) body += section("First message", macros.apply(card.firstMessage));
    std::string greetings;
    for (std::size_t i = 0; i < card.alternateGreetings.size(); ++i)
        greetings += "### Greeting " + std::to_string(i + 2) + "\n\n" + trimmed(macros.apply(card.alternateGreetings[i])) + "\n\n";
    body += section("Other openings", greetings);
    body += section("Example dialogue", macros.apply(card.exampleDialogue));
    add(plan, taken, characterPath, trimmed(body) + "\n");

    const std::string instructions =
        section("The card's system prompt", macros.apply(card.systemPrompt)) +
        section("After the story so far (the card's post-history instructions)", macros.apply(card.postHistoryInstructions));
    if (!instructions.empty())
        add(plan, taken, freePath("characters/", stem + "-instructions", ".md", taken),
            "# How to play " + plan.title + "\n\n" + trimmed(instructions) + "\n");

    if (!hasConfig) {
        const std::string scenario = trimmed(macros.apply(card.scenario));
        std::string config = "# Made from the character card of " + plan.title + " (see " + characterPath + ").\n";
        config += "title: " + yamlQuoted(plan.title) + "\n";
        config += yamlBlock("setting", scenario.empty() ? "The world of " + plan.title + ": see " + characterPath + "." : scenario);
        config += "tone: \"Follows the character's card: stay true to " + plan.title + "'s voice and world.\"\n";
        config += "institutions: []\nplayer:\n  name: " + yamlQuoted(macros.player) + "\n";
        config += "  description: \"The person " + plan.title + " speaks with.\"\n";
        const std::string opening = trimmed(macros.apply(card.firstMessage));
        if (!opening.empty()) config += yamlBlock("opening", opening);
        plan.files.insert(plan.files.begin(), {std::string(kConfigPath), config});
        plan.notes.push_back("config.yaml made from the card (title, setting from its scenario, the first message as the opening)");
    } else if (!trimmed(card.firstMessage).empty()) {
        plan.notes.push_back("the world's config.yaml is kept: the card's first message is in " + characterPath);
    }

    if (!card.groupGreetings.empty())
        plan.notCarried.push_back(std::to_string(card.groupGreetings.size()) + " group-only greeting(s)");
    if (!trimmed(card.creatorNotes).empty()) plan.notCarried.push_back("the creator's notes (meant for readers, not the model)");
    std::vector<std::string> meta;
    if (!card.creator.empty()) meta.push_back("creator " + card.creator);
    if (!card.characterVersion.empty()) meta.push_back("version " + card.characterVersion);
    if (!card.tags.empty()) meta.push_back("tags " + joinList(card.tags));
    if (!meta.empty()) plan.notCarried.push_back("the card's " + joinList(meta));
    if (!card.extensionKeys.empty()) plan.notCarried.push_back("extensions: " + joinList(card.extensionKeys));
    for (const std::string& asset : card.assets) plan.notCarried.push_back("asset " + asset);

    if (card.book && !card.book->entries.empty()) {
        const std::string bookName = card.book->name.empty() ? plan.title : card.book->name;
        planEntries(*card.book, "lore/" + safeFileName(bookName, stem) + "/", macros, taken, plan);
    }
    macros.report(plan);
    return plan;
}

WorldImport planLorebookImport(const Lorebook& book, std::string_view fileStem, const WorldFiles& world) {
    WorldImport plan;
    plan.title = oneLineName(book.name.empty() ? std::string(fileStem) : book.name);
    if (plan.title.empty()) plan.title = "lorebook";
    plan.what = "lorebook \"" + plan.title + "\" (" + std::to_string(book.entries.size()) + " entries)";
    std::set<std::string> taken = takenPaths(world);
    Macros macros;
    macros.player = world.exists(kConfigPath) ? loadWorldConfig(world).config.player.name : std::string(kPlayerStandIn);
    if (macros.player.empty()) macros.player = kPlayerStandIn;
    planEntries(book, "lore/" + safeFileName(plan.title, "lorebook") + "/", macros, taken, plan);
    if (!trimmed(book.description).empty()) plan.notCarried.push_back("the lorebook's description");
    macros.report(plan);
    return plan;
}

WorldError applyWorldImport(const WorldImport& plan, WorldFiles& world) {
    for (const auto& [path, content] : plan.files) {
        if (WorldError e = checkWorldWrite(path, content); !e.ok()) return e;
        if (world.exists(path))
            return WorldError::make(WorldErrorKind::Io, path + " already exists in the world; nothing was imported");
    }
    for (std::size_t i = 0; i < plan.files.size(); ++i) {
        if (WorldError e = world.write(plan.files[i].first, plan.files[i].second); !e.ok()) {
            for (std::size_t j = 0; j < i; ++j) world.remove(plan.files[j].first);
            return WorldError::make(e.kind, e.message + " (nothing was imported)");
        }
    }
    return WorldError::none();
}

std::string importReportText(const WorldImport& plan) {
    std::string out = "Imported " + plan.what + " into " + std::to_string(plan.files.size()) + " file(s):\n";
    for (const auto& file : plan.files) out += "  + " + file.first + "\n";
    if (!plan.notCarried.empty()) {
        out += "Not carried over:\n";
        for (const std::string& line : plan.notCarried) out += "  - " + line + "\n";
    }
    for (const std::string& note : plan.notes) out += "Note: " + note + "\n";
    return out;
}

} // namespace chaiba::story
