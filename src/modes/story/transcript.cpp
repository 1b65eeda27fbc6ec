// Conversations to and from JSON, checked field by field (see transcript.h), and base64.
#include "src/modes/story/transcript.h"

#include <nlohmann/json.hpp>

namespace chaiba::story {

namespace {

using json = nlohmann::json;

// Version 2 added the turn's kind (a person's edit is a record of its own); version 1 files load
// as play turns only (an edit there was folded into the next turn as a "person_edit" tool line).
// Version 3 keeps each turn in a file of its own (the head lists their numbers), a large file
// content as a stored version ({"version": name}): a conversation file no longer grows with its
// turns. Versions 1 and 2 (every turn inside) still load, and are written as version 3.
constexpr int kInlineVersion = 2;
constexpr int kConversationVersion = 3;

// Thrown inside conversationFromJson only, and caught there: the message says what is wrong.
struct Malformed {
    std::string message;
};

const json& field(const json& object, const char* key, const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end()) throw Malformed{where + " lacks '" + key + "'"};
    return *it;
}
std::string stringAt(const json& object, const char* key, const std::string& where, bool required = true) {
    const auto it = object.find(key);
    if (it == object.end() && !required) return {};
    const json& value = field(object, key, where);
    if (!value.is_string()) throw Malformed{where + "." + key + " must be a string"};
    return value.get<std::string>();
}
long long intAt(const json& object, const char* key, const std::string& where, long long lo, long long hi) {
    const json& value = field(object, key, where);
    if (!value.is_number_integer() || value.get<long long>() < lo || value.get<long long>() > hi)
        throw Malformed{where + "." + key + " must be an integer from " + std::to_string(lo) + " to " +
                        std::to_string(hi)};
    return value.get<long long>();
}
const json& arrayAt(const json& object, const char* key, const std::string& where) {
    const json& value = field(object, key, where);
    if (!value.is_array()) throw Malformed{where + "." + key + " must be an array"};
    return value;
}

template <class Enum, std::size_t N>
Enum enumAt(const json& object, const char* key, const std::string& where, const char* const (&names)[N]) {
    const std::string name = stringAt(object, key, where);
    for (std::size_t i = 0; i < N; ++i)
        if (name == names[i]) return static_cast<Enum>(i);
    throw Malformed{where + "." + key + ": unknown value '" + name + "'"};
}

constexpr const char* kEntryNames[] = {"player", "narrator", "tool_call", "dice", "off_screen", "edit"};
constexpr const char* kAgentNames[] = {"orchestrator", "world_advance", "faction_turn",
                                       "narrator",     "image",         "person"};
constexpr const char* kTurnKindNames[] = {"play", "edit"};

bool isImagePath(std::string_view path) {
    const WorldPathCheck check = checkWorldPath(path);
    return check.ok() && check.kind == WorldPathKind::Image;
}

json contentJson(const std::string& path, const std::optional<std::string>& content) {
    if (!content) return nullptr;
    return isImagePath(path) ? json(base64Encode(*content)) : json(*content);
}

// A content of a turn kept in its own file: inline when small, else stored once as a version.
constexpr std::size_t kInlineContentBytes = 2048;

std::optional<std::string> contentFrom(const json& value, const std::string& path, const std::string& where,
                                       const ContentVersions* versions = nullptr) {
    if (value.is_null()) return std::nullopt;
    if (value.is_object() && versions) {
        const auto name = value.find("version");
        if (name == value.end() || !name->is_string()) throw Malformed{where + " must name a version"};
        llm::Result<std::string> content = versions->get(path, name->get<std::string>());
        if (!content.isOk()) throw Malformed{where + ": " + content.error};
        return std::move(*content.value);
    }
    if (!value.is_string()) throw Malformed{where + " must be a string or null"};
    if (!isImagePath(path)) return value.get<std::string>();
    std::optional<std::string> bytes = base64Decode(value.get<std::string>());
    if (!bytes) throw Malformed{where + " is not base64"};
    return bytes;
}

json entryJson(const TranscriptEntry& entry) {
    json j{{"kind", entryKindName(entry.kind)}, {"agent", agentKindName(entry.agent)}, {"text", entry.text}};
    if (entry.kind == EntryKind::ToolCall) {
        j["tool"] = entry.toolName;
        j["arguments"] = entry.toolArguments;
        j["error"] = entry.toolError;
    }
    if (entry.twist) {
        json bands = json::array();
        for (const StakeBand& band : entry.twist->bands)
            bands.push_back({{"low", band.low}, {"high", band.high}, {"outcome", band.outcome}});
        j["twist"] = {{"bands", bands}, {"roll", entry.twist->roll}, {"hit", entry.twist->hitIndex}};
    }
    return j;
}

TranscriptEntry entryFrom(const json& j, const std::string& where) {
    if (!j.is_object()) throw Malformed{where + " must be an object"};
    TranscriptEntry entry;
    entry.kind = enumAt<EntryKind>(j, "kind", where, kEntryNames);
    entry.agent = enumAt<AgentKind>(j, "agent", where, kAgentNames);
    entry.text = stringAt(j, "text", where);
    if (entry.kind == EntryKind::ToolCall) {
        entry.toolName = stringAt(j, "tool", where);
        entry.toolArguments = stringAt(j, "arguments", where);
        entry.toolError = j.value("error", false);
    }
    if (auto twist = j.find("twist"); twist != j.end()) {
        TwistOfFate roll;
        const json& bands = arrayAt(*twist, "bands", where + ".twist");
        for (std::size_t i = 0; i < bands.size(); ++i) {
            const std::string at = where + ".twist.bands[" + std::to_string(i) + "]";
            if (!bands[i].is_object()) throw Malformed{at + " must be an object"};
            roll.bands.push_back({static_cast<int>(intAt(bands[i], "low", at, kTwistMin, kTwistMax)),
                                  static_cast<int>(intAt(bands[i], "high", at, kTwistMin, kTwistMax)),
                                  stringAt(bands[i], "outcome", at)});
        }
        roll.roll = static_cast<int>(intAt(*twist, "roll", where + ".twist", kTwistMin, kTwistMax));
        roll.hitIndex = static_cast<std::size_t>(
            intAt(*twist, "hit", where + ".twist", 0, static_cast<long long>(roll.bands.size()) - 1));
        entry.twist = std::move(roll);
    }
    return entry;
}

} // namespace

const char* entryKindName(EntryKind kind) {
    return kEntryNames[static_cast<int>(kind)];
}
const char* agentKindName(AgentKind kind) {
    return kAgentNames[static_cast<int>(kind)];
}

std::string TurnRecord::playerText() const {
    for (const TranscriptEntry& entry : entries)
        if (entry.kind == EntryKind::Player) return entry.text;
    return {};
}

std::string TurnRecord::narration() const {
    std::string text;
    for (const TranscriptEntry& entry : entries)
        if (entry.kind == EntryKind::Narrator && !entry.text.empty())
            text += (text.empty() ? "" : "\n\n") + entry.text;
    return text;
}

namespace {

// A turn's JSON; `versions`: large contents stored as versions (a turn file), else inline.
json turnJson(const TurnRecord& turn, const ContentVersions* versions) {
    json entries = json::array();
    for (const TranscriptEntry& entry : turn.entries) entries.push_back(entryJson(entry));
    json changes = json::array();
    auto content = [&](const std::string& path, const std::optional<std::string>& text) -> json {
        if (!text || !versions || text->size() <= kInlineContentBytes) return contentJson(path, text);
        llm::Result<std::string> name = versions->put(path, *text);
        if (!name.isOk()) throw Malformed{path + ": " + name.error};
        return json{{"version", *name.value}};
    };
    for (const FileChange& change : turn.changes.changes())
        changes.push_back({{"path", change.path},
                           {"before", content(change.path, change.before)},
                           {"after", content(change.path, change.after)}});
    return {{"number", turn.number},
            {"kind", kTurnKindNames[static_cast<int>(turn.kind)]},
            {"entries", entries},
            {"decision", json::parse(decisionToJson(turn.decision))},
            {"changes", changes},
            {"costUsd", turn.costUsd}};
}

TurnRecord turnFrom(const json& j, const std::string& where, long long version, const ContentVersions* versions) {
    if (!j.is_object()) throw Malformed{where + " must be an object"};
    TurnRecord turn;
    turn.number = static_cast<int>(intAt(j, "number", where, 1, 1 << 30));
    // Migration from version 1: no kind, every turn a play turn.
    if (version >= 2) turn.kind = enumAt<TurnKind>(j, "kind", where, kTurnKindNames);
    const json& entries = arrayAt(j, "entries", where);
    for (std::size_t e = 0; e < entries.size(); ++e)
        turn.entries.push_back(entryFrom(entries[e], where + ".entries[" + std::to_string(e) + "]"));
    if (auto decision = j.find("decision"); decision != j.end()) {
        llm::Result<OrchestratorDecision> read = decodeDecision(decision->dump());
        if (!read.isOk()) throw Malformed{where + ".decision: " + read.error};
        turn.decision = std::move(*read.value);
    }
    const json& changes = arrayAt(j, "changes", where);
    for (std::size_t c = 0; c < changes.size(); ++c) {
        const std::string at = where + ".changes[" + std::to_string(c) + "]";
        if (!changes[c].is_object()) throw Malformed{at + " must be an object"};
        FileChange change;
        change.path = stringAt(changes[c], "path", at);
        if (const WorldPathCheck check = checkWorldPath(change.path); !check.ok())
            throw Malformed{at + ": " + check.error.message};
        change.before = contentFrom(field(changes[c], "before", at), change.path, at + ".before", versions);
        change.after = contentFrom(field(changes[c], "after", at), change.path, at + ".after", versions);
        turn.changes.record(std::move(change));
    }
    if (auto cost = j.find("costUsd"); cost != j.end() && cost->is_number()) turn.costUsd = cost->get<double>();
    return turn;
}

json headJson(const Conversation& conversation, int version) {
    return {{"format", "chaiba-story-conversation"},
            {"version", version},
            {"id", conversation.id},
            {"title", conversation.title},
            {"branchedFrom", conversation.branchedFrom},
            {"branchedAtTurn", conversation.branchedAtTurn}};
}

} // namespace

std::string conversationToJson(const Conversation& conversation) {
    json turns = json::array();
    for (const TurnRecord& turn : conversation.turns) turns.push_back(turnJson(turn, nullptr));
    json doc = headJson(conversation, kInlineVersion);
    doc["turns"] = std::move(turns);
    return doc.dump(1, ' ', false, json::error_handler_t::replace);
}

std::string conversationHeadJson(const Conversation& conversation) {
    json doc = headJson(conversation, kConversationVersion);
    json numbers = json::array();
    for (const TurnRecord& turn : conversation.turns) numbers.push_back(turn.number);
    doc["turnFiles"] = std::move(numbers);
    return doc.dump(1, ' ', false, json::error_handler_t::replace);
}

llm::Result<std::string> turnToJson(const TurnRecord& turn, const ContentVersions& versions) {
    try {
        return llm::Result<std::string>::ok(turnJson(turn, &versions).dump(1, ' ', false, json::error_handler_t::replace));
    } catch (const Malformed& error) {
        return llm::Result<std::string>::fail(error.message);
    }
}

llm::Result<TurnRecord> turnFromJson(std::string_view text, const ContentVersions& versions) {
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded()) return llm::Result<TurnRecord>::fail("the turn is not JSON");
    try {
        return llm::Result<TurnRecord>::ok(turnFrom(doc, "turn", kConversationVersion, &versions));
    } catch (const Malformed& error) {
        return llm::Result<TurnRecord>::fail(error.message);
    }
}

llm::Result<ConversationHead> conversationHeadFromJson(std::string_view text) {
    using R = llm::Result<ConversationHead>;
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return R::fail("the conversation is not a JSON object");
    try {
        if (stringAt(doc, "format", "conversation") != "chaiba-story-conversation")
            return R::fail("not a Story conversation (format)");
        const long long version = intAt(doc, "version", "conversation", 1, 1000);
        if (version > kConversationVersion)
            return R::fail("conversation version " + doc["version"].dump() +
                           " is newer than this page reads (" + std::to_string(kConversationVersion) +
                           "): update the page");
        ConversationHead head;
        Conversation& conversation = head.conversation;
        conversation.id = stringAt(doc, "id", "conversation");
        conversation.title = stringAt(doc, "title", "conversation", false);
        conversation.branchedFrom = stringAt(doc, "branchedFrom", "conversation", false);
        if (doc.contains("branchedAtTurn"))
            conversation.branchedAtTurn =
                static_cast<int>(intAt(doc, "branchedAtTurn", "conversation", 0, 1 << 30));
        if (version > kInlineVersion) {
            const json& numbers = arrayAt(doc, "turnFiles", "conversation");
            for (std::size_t t = 0; t < numbers.size(); ++t) {
                if (!numbers[t].is_number_integer() || numbers[t].get<long long>() < 1 ||
                    numbers[t].get<long long>() > (1 << 30))
                    throw Malformed{"conversation.turnFiles[" + std::to_string(t) + "] must be a turn number"};
                head.turnFiles.push_back(numbers[t].get<int>());
            }
            return R::ok(std::move(head));
        }
        head.inlineTurns = true;
        const json& turns = arrayAt(doc, "turns", "conversation");
        for (std::size_t t = 0; t < turns.size(); ++t)
            conversation.turns.push_back(turnFrom(turns[t], "turns[" + std::to_string(t) + "]", version, nullptr));
        return R::ok(std::move(head));
    } catch (const Malformed& error) {
        return R::fail(error.message);
    }
}

llm::Result<Conversation> conversationFromJson(std::string_view text) {
    llm::Result<ConversationHead> head = conversationHeadFromJson(text);
    if (!head.isOk()) return llm::Result<Conversation>::fail(head.error);
    if (!head.value->inlineTurns)
        return llm::Result<Conversation>::fail("the conversation keeps its turns in files of their own");
    return llm::Result<Conversation>::ok(std::move(head.value->conversation));
}

std::string base64Encode(std::string_view bytes) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::uint32_t a = static_cast<unsigned char>(bytes[i]);
        const std::uint32_t b = i + 1 < bytes.size() ? static_cast<unsigned char>(bytes[i + 1]) : 0;
        const std::uint32_t c = i + 2 < bytes.size() ? static_cast<unsigned char>(bytes[i + 2]) : 0;
        const std::uint32_t n = (a << 16) | (b << 8) | c;
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? kAlphabet[n & 63] : '=';
    }
    return out;
}

std::optional<std::string> base64Decode(std::string_view text) {
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+' || c == '-') return 62;
        if (c == '/' || c == '_') return 63;
        return -1;
    };
    std::string out;
    std::uint32_t buffer = 0;
    int bits = 0;
    std::size_t padding = 0;
    for (char c : text) {
        if (c == '\n' || c == '\r' || c == ' ') continue;
        if (c == '=') {
            ++padding;
            continue;
        }
        const int v = value(c);
        if (v < 0 || padding) return std::nullopt;
        buffer = (buffer << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xff);
        }
    }
    if (padding > 2) return std::nullopt;
    return out;
}

} // namespace chaiba::story
