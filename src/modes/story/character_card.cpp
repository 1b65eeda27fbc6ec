// Character cards and lorebooks read into typed structs (see character_card.h): PNG chunks with
// their CRCs, the card's base64 JSON, and the JSON forms of each spec.
#include "src/modes/story/character_card.h"

#include "src/modes/story/transcript.h"
#include "src/modes/story/zlib_inflate.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace chaiba::story {

using nlohmann::json;

namespace {

constexpr std::string_view kPngSignature = "\x89PNG\r\n\x1a\n";

std::uint32_t be32(std::string_view bytes, std::size_t at) {
    auto b = [&](std::size_t i) { return std::uint32_t(static_cast<unsigned char>(bytes[at + i])); };
    return b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
}

std::string hexOffset(std::size_t at) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "byte %zu", at);
    return buf;
}

// ---- JSON readers: a missing or mistyped field is its default ------------------------------------

std::string text(const json& j, const char* key) {
    if (!j.is_object()) return {};
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> textList(const json& j, const char* key) {
    std::vector<std::string> out;
    if (!j.is_object()) return out;
    const auto it = j.find(key);
    if (it == j.end()) return out;
    if (it->is_string()) { // secondary keys as "a, b" (the V3 text says so)
        const std::string s = it->get<std::string>();
        std::size_t from = 0;
        while (from <= s.size()) {
            std::size_t comma = s.find(',', from);
            if (comma == std::string::npos) comma = s.size();
            std::string part = s.substr(from, comma - from);
            const std::size_t a = part.find_first_not_of(" \t"), b = part.find_last_not_of(" \t");
            if (a != std::string::npos) out.push_back(part.substr(a, b - a + 1));
            from = comma + 1;
        }
        return out;
    }
    if (!it->is_array()) return out;
    for (const json& v : *it)
        if (v.is_string() && !v.get<std::string>().empty()) out.push_back(v.get<std::string>());
    return out;
}

bool flag(const json& j, const char* key, bool otherwise = false) {
    if (!j.is_object()) return otherwise;
    const auto it = j.find(key);
    return it != j.end() && it->is_boolean() ? it->get<bool>() : otherwise;
}

std::optional<double> number(const json& j, const char* key) {
    if (!j.is_object()) return std::nullopt;
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
}

std::string idText(const json& j, const char* key) {
    if (!j.is_object() || !j.contains(key)) return {};
    const json& v = j[key];
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer()) return std::to_string(v.get<long long>());
    return {};
}

// SillyTavern's numeric positions (world-info.js world_info_position).
std::string stPosition(int position) {
    switch (position) {
    case 0: return "";
    case 1: return "after the character";
    case 2: return "top of the author's note";
    case 3: return "bottom of the author's note";
    case 4: return "at a chat depth";
    case 5: return "top of the example messages";
    case 6: return "bottom of the example messages";
    default: return "position " + std::to_string(position);
    }
}

// Fields with no counterpart, noted when set to something other than their default.
void noteOther(const json& entry, std::vector<std::string>& out) {
    static const char* const kTruthy[] = {"excludeRecursion", "preventRecursion", "delayUntilRecursion",
                                          "groupOverride",    "vectorized",       "useGroupScoring",
                                          "matchWholeWords"};
    static const char* const kNumbers[] = {"sticky", "cooldown", "delay", "scanDepth", "scan_depth", "role",
                                           "selectiveLogic", "priority"};
    for (const char* key : kTruthy)
        if (flag(entry, key)) out.push_back(key);
    for (const char* key : kNumbers)
        if (std::optional<double> v = number(entry, key); v && *v != 0) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s %g", key, *v);
            out.push_back(buf);
        }
    if (!text(entry, "group").empty()) out.push_back("group \"" + text(entry, "group") + "\"");
    if (!text(entry, "automationId").empty()) out.push_back("automationId");
}

// One entry of either form: SillyTavern's (key, keysecondary, disable, order, position number) or
// the spec's (keys, secondary_keys, enabled, insertion_order, position text; SillyTavern's own
// fields under extensions).
LoreEntry readEntry(const json& e) {
    LoreEntry out;
    const json ext = e.is_object() && e.contains("extensions") && e["extensions"].is_object() ? e["extensions"] : json::object();
    out.name = text(e, "name");
    out.comment = text(e, "comment");
    out.id = !idText(e, "uid").empty() ? idText(e, "uid") : idText(e, "id");
    out.keys = e.contains("keys") ? textList(e, "keys") : textList(e, "key");
    out.secondaryKeys = e.contains("secondary_keys") ? textList(e, "secondary_keys") : textList(e, "keysecondary");
    out.content = text(e, "content");
    out.enabled = e.contains("enabled") ? flag(e, "enabled", true) : !flag(e, "disable");
    out.constant = flag(e, "constant");
    out.selective = flag(e, "selective");
    out.useRegex = flag(e, "use_regex");
    out.caseSensitive = flag(e, "case_sensitive") || flag(e, "caseSensitive") || flag(ext, "case_sensitive");
    if (auto v = number(e, "insertion_order")) out.order = *v;
    else if (auto o = number(e, "order")) out.order = *o;
    // Position: a number (SillyTavern's entries, or extensions.position), else the spec's words.
    std::optional<double> stPos = number(e, "position");
    if (!stPos) stPos = number(ext, "position");
    if (stPos)
        out.position = stPosition(static_cast<int>(*stPos));
    else if (text(e, "position") == "after_char")
        out.position = "after the character";
    const json& depthFrom = number(e, "depth") ? e : ext;
    if (out.position == "at a chat depth")
        if (auto d = number(depthFrom, "depth")) out.depth = static_cast<int>(*d);
    const json& probFrom = e.contains("useProbability") ? e : ext;
    if (flag(probFrom, "useProbability"))
        if (auto p = number(probFrom, "probability"); p && *p < 100) out.probability = *p;
    noteOther(e, out.otherFields);
    noteOther(ext, out.otherFields);
    return out;
}

llm::Result<Lorebook> readBook(const json& book) {
    using R = llm::Result<Lorebook>;
    if (!book.is_object() || !book.contains("entries"))
        return R::fail("no \"entries\": this is not a lorebook (World Info) file");
    const json& entries = book["entries"];
    if (!entries.is_object() && !entries.is_array())
        return R::fail("\"entries\" must be an object (SillyTavern) or an array (the card spec)");
    if (entries.size() > kMaxLorebookEntries)
        return R::fail("the lorebook has " + std::to_string(entries.size()) + " entries; at most " +
                       std::to_string(kMaxLorebookEntries) + " are imported");
    Lorebook out;
    out.name = text(book, "name");
    out.description = text(book, "description");
    for (const char* key : {"scan_depth", "token_budget"})
        if (auto v = number(book, key)) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s %g", key, *v);
            out.otherFields.push_back(buf);
        }
    if (flag(book, "recursive_scanning")) out.otherFields.push_back("recursive_scanning");
    for (const json& e : entries) {
        if (!e.is_object()) return R::fail("an entry of the lorebook is not an object");
        out.entries.push_back(readEntry(e));
    }
    return R::ok(std::move(out));
}

llm::Result<CharacterCard> readCardJson(std::string_view jsonText) {
    using R = llm::Result<CharacterCard>;
    const json doc = json::parse(jsonText.begin(), jsonText.end(), nullptr, false);
    if (doc.is_discarded()) return R::fail("the card's JSON is not valid JSON");
    if (!doc.is_object()) return R::fail("the card's JSON is not an object");
    CharacterCard card;
    const std::string spec = text(doc, "spec");
    const json* data = &doc;
    if (spec == "chara_card_v2" || spec == "chara_card_v3") {
        card.specVersion = spec == "chara_card_v2" ? 2 : 3;
        if (!doc.contains("data") || !doc["data"].is_object())
            return R::fail("the card says " + spec + " but has no \"data\" object");
        data = &doc["data"];
        const std::string version = text(doc, "spec_version");
        if (card.specVersion == 3 && !version.empty() && std::atof(version.c_str()) > 3.0)
            card.notes.push_back("the card is spec version " + version +
                                 ", newer than 3.0: fields this importer does not know are left out");
    } else if (spec == "lorebook_v3" || (spec.empty() && doc.contains("entries"))) {
        return R::fail("this is a lorebook (World Info), not a character card: import it as a lorebook");
    } else if (!spec.empty()) {
        return R::fail("unknown card spec \"" + spec + "\" (known: chara_card_v2, chara_card_v3, or V1 without spec)");
    } else if (!doc.contains("name") || !doc["name"].is_string()) {
        return R::fail("the JSON has neither a \"spec\" nor a \"name\": it is not a character card");
    }
    const json& d = *data;
    card.name = text(d, "name");
    if (card.name.find_first_not_of(" \t\r\n") == std::string::npos) return R::fail("the card has no name");
    card.nickname = text(d, "nickname");
    card.description = text(d, "description");
    card.personality = text(d, "personality");
    card.scenario = text(d, "scenario");
    card.firstMessage = text(d, "first_mes");
    card.alternateGreetings = textList(d, "alternate_greetings");
    card.groupGreetings = textList(d, "group_only_greetings");
    card.exampleDialogue = text(d, "mes_example");
    card.systemPrompt = text(d, "system_prompt");
    card.postHistoryInstructions = text(d, "post_history_instructions");
    card.creatorNotes = text(d, "creator_notes");
    if (card.creatorNotes.empty() && card.specVersion == 1) card.creatorNotes = text(d, "creatorcomment");
    card.creator = text(d, "creator");
    card.characterVersion = text(d, "character_version");
    card.tags = textList(d, "tags");
    if (d.contains("extensions") && d["extensions"].is_object())
        for (const auto& item : d["extensions"].items()) card.extensionKeys.push_back(item.key());
    if (d.contains("assets") && d["assets"].is_array())
        for (const json& a : d["assets"]) {
            const std::string uri = text(a, "uri");
            if (text(a, "type") == "icon" && uri == "ccdefault:") continue; // the card's own picture
            card.assets.push_back(text(a, "type") + " \"" + text(a, "name") + "\" (" +
                                  (uri.size() > 60 ? uri.substr(0, 57) + "..." : uri) + ")");
        }
    if (d.contains("character_book") && !d["character_book"].is_null()) {
        llm::Result<Lorebook> book = readBook(d["character_book"]);
        if (!book.isOk()) return R::fail("the card's character_book: " + book.error);
        card.book = std::move(*book.value);
    }
    return R::ok(std::move(card));
}

} // namespace

std::uint32_t pngCrc(std::string_view bytes) {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xFFFFFFFFu;
    for (unsigned char b : bytes) c = table[(c ^ b) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

llm::Result<std::vector<PngChunk>> readPngChunks(std::string_view bytes) {
    using R = llm::Result<std::vector<PngChunk>>;
    if (bytes.substr(0, kPngSignature.size()) != kPngSignature) return R::fail("not a PNG file (its signature is missing)");
    std::vector<PngChunk> chunks;
    std::size_t at = kPngSignature.size();
    while (at < bytes.size()) {
        if (bytes.size() - at < 12)
            return R::fail("the PNG is truncated: it ends inside a chunk header at " + hexOffset(at));
        const std::uint32_t length = be32(bytes, at);
        const std::string type(bytes.substr(at + 4, 4));
        if (length > bytes.size() - at - 12)
            return R::fail("the PNG is truncated: chunk " + type + " at " + hexOffset(at) + " says " +
                           std::to_string(length) + " bytes and the file ends first");
        const std::string_view covered = bytes.substr(at + 4, 4 + length);
        if (pngCrc(covered) != be32(bytes, at + 8 + length))
            return R::fail("the PNG is damaged: chunk " + type + " at " + hexOffset(at) + " fails its CRC check");
        chunks.push_back({type, at, bytes.substr(at + 8, length)});
        at += 12 + length;
        if (type == "IEND") return R::ok(std::move(chunks));
    }
    return R::fail("the PNG is truncated: it has no IEND chunk");
}

std::string pngWithoutText(std::string_view bytes, const std::vector<PngChunk>& chunks,
                           const std::vector<std::string>& keywords) {
    std::string out(kPngSignature);
    for (const PngChunk& c : chunks) {
        bool drop = false;
        if (c.type == "tEXt" || c.type == "iTXt" || c.type == "zTXt") {
            std::string keyword(c.data.substr(0, c.data.find('\0')));
            for (char& ch : keyword) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            for (const std::string& k : keywords) drop = drop || keyword == k;
        }
        if (!drop) out.append(bytes.substr(c.at, 12 + c.data.size()));
    }
    return out;
}

llm::Result<Lorebook> parseLorebook(std::string_view jsonText) {
    using R = llm::Result<Lorebook>;
    if (jsonText.size() > kMaxCardFileBytes)
        return R::fail("the lorebook is " + std::to_string(jsonText.size() >> 10) + " KiB; at most " +
                       std::to_string(kMaxCardFileBytes >> 20) + " MiB is read");
    const json doc = json::parse(jsonText.begin(), jsonText.end(), nullptr, false);
    if (doc.is_discarded()) return R::fail("the lorebook is not valid JSON");
    if (!doc.is_object()) return R::fail("the lorebook's JSON is not an object");
    const std::string spec = text(doc, "spec");
    if (spec == "chara_card_v2" || spec == "chara_card_v3")
        return R::fail("this is a character card, not a lorebook: import it as a card (its character_book comes with it)");
    if (spec == "lorebook_v3" || (spec.empty() && doc.contains("data") && doc["data"].is_object() && !doc.contains("entries")))
        return readBook(doc.contains("data") ? doc["data"] : json());
    if (!spec.empty()) return R::fail("unknown lorebook spec \"" + spec + "\" (known: lorebook_v3, or SillyTavern's World Info)");
    return readBook(doc);
}

llm::Result<CharacterCard> parseCharacterCard(std::string_view bytes) {
    using R = llm::Result<CharacterCard>;
    if (bytes.size() > kMaxCardFileBytes)
        return R::fail("the card is " + std::to_string(bytes.size() >> 10) + " KiB; at most " +
                       std::to_string(kMaxCardFileBytes >> 20) + " MiB is read");
    if (bytes.substr(0, kPngSignature.size()) != kPngSignature) {
        const std::size_t first = bytes.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
        if (first == std::string_view::npos || bytes[first] != '{')
            return R::fail("not a character card: neither a PNG nor JSON");
        return readCardJson(bytes);
    }
    llm::Result<std::vector<PngChunk>> chunks = readPngChunks(bytes);
    if (!chunks.isOk()) return R::fail(chunks.error);
    // ccv3 wins over chara (the V3 spec); a keyword in any case, as SillyTavern reads it.
    std::optional<std::string> chara, ccv3;
    for (const PngChunk& c : *chunks.value) {
        const std::size_t nul = c.data.find('\0');
        if (nul == std::string_view::npos) continue;
        std::string keyword(c.data.substr(0, nul));
        for (char& ch : keyword) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (keyword != "chara" && keyword != "ccv3") continue;
        std::string value;
        if (c.type == "tEXt") {
            value = std::string(c.data.substr(nul + 1));
        } else if (c.type == "zTXt") {
            // keyword\0 method compressed-text (method 0: zlib deflate)
            const std::string_view rest = c.data.substr(nul + 1);
            if (rest.empty() || rest[0] != 0)
                return R::fail("the PNG's zTXt chunk \"" + keyword + "\" uses an unknown compression method");
            llm::Result<std::string> text = zlibInflate(rest.substr(1), kMaxCardFileBytes);
            if (!text.isOk()) return R::fail("the PNG's zTXt chunk \"" + keyword + "\": " + text.error);
            value = std::move(*text.value);
        } else if (c.type == "iTXt") {
            // keyword\0 compression-flag method language\0 translated\0 text
            std::string_view rest = c.data.substr(nul + 1);
            if (rest.size() < 2 || (rest[0] != 0 && rest[0] != 1) || (rest[0] == 1 && rest[1] != 0))
                return R::fail("the PNG's iTXt chunk \"" + keyword + "\" has an unknown compression flag or method");
            const bool compressed = rest[0] == 1;
            rest.remove_prefix(2);
            for (int skip = 0; skip < 2; ++skip) {
                const std::size_t z = rest.find('\0');
                if (z == std::string_view::npos) return R::fail("the PNG's iTXt chunk \"" + keyword + "\" is malformed");
                rest.remove_prefix(z + 1);
            }
            if (compressed) {
                llm::Result<std::string> text = zlibInflate(rest, kMaxCardFileBytes);
                if (!text.isOk()) return R::fail("the PNG's iTXt chunk \"" + keyword + "\": " + text.error);
                value = std::move(*text.value);
            } else {
                value = std::string(rest);
            }
        } else {
            continue;
        }
        (keyword == "ccv3" ? ccv3 : chara) = std::move(value);
    }
    if (!chara && !ccv3)
        return R::fail("the PNG holds no character card (no tEXt, zTXt or iTXt chunk named chara or ccv3)");
    CharacterCard card;
    for (const std::string* which : {ccv3 ? &*ccv3 : nullptr, chara ? &*chara : nullptr}) {
        if (!which) continue;
        const std::string name = which == (ccv3 ? &*ccv3 : nullptr) ? "ccv3" : "chara";
        std::optional<std::string> decoded = base64Decode(*which);
        if (!decoded) return R::fail("the PNG's " + name + " chunk is not valid base64");
        llm::Result<CharacterCard> read = readCardJson(*decoded);
        if (!read.isOk()) return R::fail("the PNG's " + name + " chunk: " + read.error);
        card = std::move(*read.value);
        card.chunk = name;
        if (ccv3 && chara) card.notes.push_back("the PNG holds both ccv3 and chara: ccv3 was read (the V3 spec)");
        break;
    }
    card.picture = pngWithoutText(bytes, *chunks.value, {"chara", "ccv3"});
    return R::ok(std::move(card));
}

} // namespace chaiba::story
