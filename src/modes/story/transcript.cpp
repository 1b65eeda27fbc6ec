// Conversations to and from JSON, checked field by field (see transcript.h), and base64.
#include "src/modes/story/transcript.h"

#include <nlohmann/json.hpp>

namespace chaiba::story {

namespace {

using json = nlohmann::json;

// Version 2 added the turn's kind (a person's edit is a record of its own); version 1 files load
// as play turns only (an edit there was folded into the next turn as a "person_edit" tool line).
// Version 3 kept each turn in a file of its own (the head listing their numbers), a large file
// content as a stored version ({"version": name}). Version 4 keeps a text file's change as a patch
// with a stamp of each side (never the whole texts; a picture's bytes stay a stored version), and
// the head only the count of its turns, numbered 1..N: a turn adds its own record and rewrites
// nothing that grows. Versions 1 to 3 still load (their changes made patches) and are written as
// version 4 at the next save.
constexpr int kConversationVersion = kStoredConversationVersion;
constexpr int kByTurnVersion = 3; // the first version with a turn per file
constexpr const char* kTurnFormat = "chaiba-story-turn";

// What is wrong with the document being read or written. The page's build has no C++ exceptions
// (a throw ends the page), so a reader that finds a problem notes it here, hands back an empty
// value and lets the reading go on; the entry point (one ProblemScope each) fails with the first
// problem noted. A value read after a problem is never used.
thread_local std::string* currentProblem = nullptr;

void malformed(std::string message) {
    if (currentProblem && currentProblem->empty()) *currentProblem = std::move(message);
}
bool failed() {
    return currentProblem && !currentProblem->empty();
}

struct ProblemScope {
    std::string problem;
    std::string* outer = currentProblem;
    ProblemScope() { currentProblem = &problem; }
    ~ProblemScope() { currentProblem = outer; }
    ProblemScope(const ProblemScope&) = delete;
    ProblemScope& operator=(const ProblemScope&) = delete;
};

const json& emptyValue() {
    static const json none;
    return none;
}
const json& emptyArray() {
    static const json none = json::array();
    return none;
}

const json& field(const json& object, const char* key, const std::string& where) {
    const auto it = object.is_object() ? object.find(key) : object.end();
    if (it == object.end()) {
        malformed(where + " lacks '" + key + "'");
        return emptyValue();
    }
    return *it;
}
std::string stringAt(const json& object, const char* key, const std::string& where, bool required = true) {
    if (!required && (!object.is_object() || !object.contains(key))) return {};
    const json& value = field(object, key, where);
    if (!value.is_string()) {
        malformed(where + "." + key + " must be a string");
        return {};
    }
    return value.get<std::string>();
}
long long intAt(const json& object, const char* key, const std::string& where, long long lo, long long hi) {
    const json& value = field(object, key, where);
    if (!value.is_number_integer() || value.get<long long>() < lo || value.get<long long>() > hi) {
        malformed(where + "." + key + " must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
        return lo;
    }
    return value.get<long long>();
}
const json& arrayAt(const json& object, const char* key, const std::string& where) {
    const json& value = field(object, key, where);
    if (!value.is_array()) {
        malformed(where + "." + key + " must be an array");
        return emptyArray();
    }
    return value;
}

template <class Enum, std::size_t N>
Enum enumAt(const json& object, const char* key, const std::string& where, const char* const (&names)[N]) {
    const std::string name = stringAt(object, key, where);
    for (std::size_t i = 0; i < N; ++i)
        if (name == names[i]) return static_cast<Enum>(i);
    malformed(where + "." + key + ": unknown value '" + name + "'");
    return static_cast<Enum>(0);
}

constexpr const char* kEntryNames[] = {"player", "narrator", "tool_call", "dice", "off_screen", "edit"};
constexpr const char* kAgentNames[] = {"orchestrator", "world_advance", "faction_turn",
                                       "narrator",     "image",         "person",
                                       "memory"};
constexpr const char* kTurnKindNames[] = {"play", "edit"};

bool isImagePath(std::string_view path) {
    const WorldPathCheck check = checkWorldPath(path);
    return check.ok() && check.kind == WorldPathKind::Image;
}

json contentJson(const std::string& path, const std::optional<std::string>& content) {
    if (!content) return nullptr;
    return isImagePath(path) ? json(base64Encode(*content)) : json(*content);
}

std::optional<std::string> contentFrom(const json& value, const std::string& path, const std::string& where,
                                       const ContentVersions* versions = nullptr) {
    if (value.is_null()) return std::nullopt;
    if (value.is_object() && versions) {
        const auto name = value.find("version");
        if (name == value.end() || !name->is_string()) {
            malformed(where + " must name a version");
            return std::nullopt;
        }
        llm::Result<std::string> content = versions->get(path, name->get<std::string>());
        if (!content.isOk()) {
            malformed(where + ": " + content.error);
            return std::nullopt;
        }
        return std::move(*content.value);
    }
    if (!value.is_string()) {
        malformed(where + " must be a string or null");
        return std::nullopt;
    }
    if (!isImagePath(path)) return value.get<std::string>();
    std::optional<std::string> bytes = base64Decode(value.get<std::string>());
    if (!bytes) malformed(where + " is not base64");
    return bytes;
}

json stampJson(const std::optional<ContentStamp>& stamp) {
    return stamp ? json(stampText(*stamp)) : json(nullptr);
}

std::optional<ContentStamp> stampFrom(const json& j, const char* key, const std::string& where) {
    const json& value = field(j, key, where);
    if (value.is_null()) return std::nullopt;
    std::optional<ContentStamp> stamp = value.is_string() ? stampFromText(value.get<std::string>()) : std::nullopt;
    if (!stamp) malformed(where + "." + key + " must be a content stamp or null");
    return stamp;
}

// A version 4 change: stamps, and the patch of a text or a picture's bytes (a stored version in
// a turn file, base64 inline).
json changeJson(const FileChange& change, const ContentVersions* versions) {
    json j{{"path", change.path}, {"before", stampJson(change.before)}, {"after", stampJson(change.after)}};
    if (change.isPicture()) {
        auto bytes = [&](const std::optional<std::string>& content) -> json {
            if (!content || !versions) return contentJson(change.path, content);
            llm::Result<std::string> name = versions->put(change.path, *content);
            if (!name.isOk()) {
                malformed(change.path + ": " + name.error);
                return json(nullptr);
            }
            return json{{"version", *name.value}};
        };
        j["beforeBytes"] = bytes(change.beforeBytes);
        j["afterBytes"] = bytes(change.afterBytes);
        return j;
    }
    json hunks = json::array();
    for (const PatchHunk& hunk : change.patch.hunks) {
        json lines = json::array();
        for (const DiffLine& line : hunk.lines)
            lines.push_back((line.op == DiffOp::Add ? "+" : line.op == DiffOp::Remove ? "-" : " ") + line.text);
        hunks.push_back({{"at", {hunk.beforeLine, hunk.afterLine}}, {"lines", std::move(lines)}});
    }
    j["patch"] = {{"newline", {change.patch.beforeEndsNewline, change.patch.afterEndsNewline}}, {"hunks", hunks}};
    return j;
}

FileChange changeFrom(const json& j, const std::string& where, const ContentVersions* versions) {
    FileChange change;
    change.path = stringAt(j, "path", where);
    if (const WorldPathCheck check = checkWorldPath(change.path); !check.ok()) {
        malformed(where + ": " + check.error.message);
        return change;
    }
    change.before = stampFrom(j, "before", where);
    change.after = stampFrom(j, "after", where);
    if (change.isPicture()) {
        change.beforeBytes = contentFrom(field(j, "beforeBytes", where), change.path, where + ".beforeBytes", versions);
        change.afterBytes = contentFrom(field(j, "afterBytes", where), change.path, where + ".afterBytes", versions);
        if (change.beforeBytes.has_value() != change.before.has_value() ||
            change.afterBytes.has_value() != change.after.has_value())
            malformed(where + ": the picture's bytes do not match its stamps");
        return change;
    }
    const json& patch = field(j, "patch", where);
    const std::string at = where + ".patch";
    const json& newline = arrayAt(patch, "newline", at);
    if (newline.size() != 2 || !newline[0].is_boolean() || !newline[1].is_boolean()) {
        malformed(at + ".newline must be two booleans");
        return change;
    }
    change.patch.beforeEndsNewline = newline[0].get<bool>();
    change.patch.afterEndsNewline = newline[1].get<bool>();
    const json& hunks = arrayAt(patch, "hunks", at);
    for (std::size_t h = 0; h < hunks.size(); ++h) {
        const std::string hw = at + ".hunks[" + std::to_string(h) + "]";
        const json& pos = arrayAt(hunks[h], "at", hw);
        if (pos.size() != 2 || !pos[0].is_number_unsigned() || !pos[1].is_number_unsigned()) {
            malformed(hw + ".at must be two line numbers");
            return change;
        }
        PatchHunk hunk{pos[0].get<std::size_t>(), pos[1].get<std::size_t>(), {}};
        for (const json& line : arrayAt(hunks[h], "lines", hw)) {
            const std::string text = line.is_string() ? line.get<std::string>() : std::string();
            if (text.empty() || (text[0] != ' ' && text[0] != '-' && text[0] != '+')) {
                malformed(hw + ".lines: each line starts with ' ', '-' or '+'");
                return change;
            }
            hunk.lines.push_back({text[0] == '+' ? DiffOp::Add : text[0] == '-' ? DiffOp::Remove : DiffOp::Keep,
                                  text.substr(1)});
        }
        change.patch.hunks.push_back(std::move(hunk));
    }
    return change;
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
    TranscriptEntry entry;
    if (!j.is_object()) {
        malformed(where + " must be an object");
        return entry;
    }
    entry.kind = enumAt<EntryKind>(j, "kind", where, kEntryNames);
    entry.agent = enumAt<AgentKind>(j, "agent", where, kAgentNames);
    entry.text = stringAt(j, "text", where);
    if (entry.kind == EntryKind::ToolCall) {
        entry.toolName = stringAt(j, "tool", where);
        entry.toolArguments = stringAt(j, "arguments", where);
        if (auto error = j.find("error"); error != j.end() && error->is_boolean()) entry.toolError = error->get<bool>();
    }
    if (auto twist = j.find("twist"); twist != j.end()) {
        TwistOfFate roll;
        const json& bands = arrayAt(*twist, "bands", where + ".twist");
        for (std::size_t i = 0; i < bands.size(); ++i) {
            const std::string at = where + ".twist.bands[" + std::to_string(i) + "]";
            roll.bands.push_back({static_cast<int>(intAt(bands[i], "low", at, kTwistMin, kTwistMax)),
                                  static_cast<int>(intAt(bands[i], "high", at, kTwistMin, kTwistMax)),
                                  stringAt(bands[i], "outcome", at)});
        }
        roll.roll = static_cast<int>(intAt(*twist, "roll", where + ".twist", kTwistMin, kTwistMax));
        roll.hitIndex = static_cast<std::size_t>(
            intAt(*twist, "hit", where + ".twist", 0, std::max<long long>(0, static_cast<long long>(roll.bands.size()) - 1)));
        if (roll.bands.empty()) malformed(where + ".twist.bands must not be empty");
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

double TurnRecord::allAnswersCostUsd() const {
    double sum = costUsd;
    for (const TurnAnswer& answer : otherAnswers) sum += answer.costUsd;
    return sum;
}

TurnAnswer shownAnswer(const TurnRecord& turn) {
    return static_cast<const TurnAnswer&>(turn);
}

void showAnswer(TurnRecord& turn, TurnAnswer answer) {
    static_cast<TurnAnswer&>(turn) = std::move(answer);
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
    for (const FileChange& change : turn.changes.changes()) changes.push_back(changeJson(change, versions));
    json j = {{"number", turn.number},
              {"kind", kTurnKindNames[static_cast<int>(turn.kind)]},
              {"entries", entries},
              {"decision", json::parse(decisionToJson(turn.decision))},
              {"changes", changes},
              {"costUsd", turn.costUsd}};
    if (turn.summary) j["summary"] = {{"text", turn.summary->text}, {"throughTurn", turn.summary->throughTurn}};
    // Version 5's steering, written only where used (a turn without them reads as in version 4).
    if (turn.variant) j["variant"] = turn.variant;
    if (!turn.instruction.empty()) j["instruction"] = turn.instruction;
    if (!turn.otherAnswers.empty()) {
        json answers = json::array();
        for (const TurnAnswer& answer : turn.otherAnswers) {
            TurnRecord other;
            showAnswer(other, answer);
            json a = turnJson(other, versions);
            a.erase("number");
            a.erase("kind");
            answers.push_back(std::move(a));
        }
        j["answers"] = std::move(answers);
        j["shown"] = turn.shown;
    }
    if (turn.replyEdit) {
        json before = json::array();
        for (const TranscriptEntry& entry : turn.replyEdit->before) before.push_back(entryJson(entry));
        j["replyEdit"] = {{"turn", turn.replyEdit->turn}, {"before", before}, {"text", turn.replyEdit->text}};
    }
    return j;
}

TurnRecord turnFrom(const json& j, const std::string& where, long long version, const ContentVersions* versions) {
    TurnRecord turn;
    if (!j.is_object()) {
        malformed(where + " must be an object");
        return turn;
    }
    turn.number = static_cast<int>(intAt(j, "number", where, 1, 1 << 30));
    // Migration from version 1: no kind, every turn a play turn.
    if (version >= 2) turn.kind = enumAt<TurnKind>(j, "kind", where, kTurnKindNames);
    const json& entries = arrayAt(j, "entries", where);
    for (std::size_t e = 0; e < entries.size(); ++e)
        turn.entries.push_back(entryFrom(entries[e], where + ".entries[" + std::to_string(e) + "]"));
    if (auto decision = j.find("decision"); decision != j.end()) {
        llm::Result<OrchestratorDecision> read = decodeDecision(decision->dump());
        if (read.isOk())
            turn.decision = std::move(*read.value);
        else
            malformed(where + ".decision: " + read.error);
    }
    const json& changes = arrayAt(j, "changes", where);
    for (std::size_t c = 0; c < changes.size(); ++c) {
        const std::string at = where + ".changes[" + std::to_string(c) + "]";
        if (!changes[c].is_object()) {
            malformed(at + " must be an object");
            break;
        }
        if (version >= 4) {
            turn.changes.record(changeFrom(changes[c], at, versions));
            continue;
        }
        // Versions 1 to 3: both whole contents, made a patch here.
        const std::string path = stringAt(changes[c], "path", at);
        if (const WorldPathCheck check = checkWorldPath(path); !check.ok()) {
            malformed(at + ": " + check.error.message);
            break;
        }
        const std::optional<std::string> before = contentFrom(field(changes[c], "before", at), path, at + ".before", versions);
        const std::optional<std::string> after = contentFrom(field(changes[c], "after", at), path, at + ".after", versions);
        turn.changes.record(path, before, after);
    }
    if (auto cost = j.find("costUsd"); cost != j.end() && cost->is_number()) turn.costUsd = cost->get<double>();
    if (auto summary = j.find("summary"); summary != j.end()) {
        const std::string at = where + ".summary";
        turn.summary = StorySummary{stringAt(*summary, "text", at),
                                    static_cast<int>(intAt(*summary, "throughTurn", at, 0, 1 << 30))};
    }
    if (j.contains("variant")) turn.variant = static_cast<int>(intAt(j, "variant", where, 0, 1 << 20));
    turn.instruction = stringAt(j, "instruction", where, false);
    if (auto answers = j.find("answers"); answers != j.end()) {
        if (!answers->is_array()) malformed(where + ".answers must be an array");
        for (std::size_t a = 0; answers->is_array() && a < answers->size() && !failed(); ++a) {
            json other = (*answers)[a];
            const std::string at = where + ".answers[" + std::to_string(a) + "]";
            if (!other.is_object()) {
                malformed(at + " must be an object");
                break;
            }
            other["number"] = turn.number;
            other["kind"] = "play";
            turn.otherAnswers.push_back(shownAnswer(turnFrom(other, at, version, versions)));
        }
        turn.shown = static_cast<int>(intAt(j, "shown", where, 0, static_cast<long long>(turn.otherAnswers.size())));
    }
    if (auto edit = j.find("replyEdit"); edit != j.end()) {
        const std::string at = where + ".replyEdit";
        ReplyEdit reply;
        reply.turn = static_cast<int>(intAt(*edit, "turn", at, 1, 1 << 30));
        const json& before = arrayAt(*edit, "before", at);
        for (std::size_t e = 0; e < before.size(); ++e)
            reply.before.push_back(entryFrom(before[e], at + ".before[" + std::to_string(e) + "]"));
        reply.text = stringAt(*edit, "text", at);
        turn.replyEdit = std::move(reply);
    }
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
    json doc = headJson(conversation, kConversationVersion);
    doc["turns"] = std::move(turns);
    return doc.dump(1, ' ', false, json::error_handler_t::replace);
}

std::string conversationHeadJson(const Conversation& conversation) {
    json doc = headJson(conversation, kConversationVersion);
    doc["turnCount"] = conversation.turns.size();
    if (conversation.redoable) doc["redoable"] = conversation.redoable;
    return doc.dump(1, ' ', false, json::error_handler_t::replace);
}

llm::Result<std::string> turnToJson(const TurnRecord& turn, const ContentVersions& versions) {
    ProblemScope scope;
    json doc = turnJson(turn, &versions);
    if (!scope.problem.empty()) return llm::Result<std::string>::fail(scope.problem);
    doc["format"] = kTurnFormat;
    doc["version"] = kConversationVersion;
    return llm::Result<std::string>::ok(doc.dump(1, ' ', false, json::error_handler_t::replace));
}

llm::Result<TurnRecord> turnFromJson(std::string_view text, const ContentVersions& versions) {
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded()) return llm::Result<TurnRecord>::fail("the turn is not JSON");
    ProblemScope scope;
    // A version 3 turn file has no format of its own.
    long long version = kByTurnVersion;
    if (doc.is_object() && doc.contains("format")) {
        if (stringAt(doc, "format", "turn") != kTurnFormat) return llm::Result<TurnRecord>::fail("not a Story turn (format)");
        version = intAt(doc, "version", "turn", 4, 1000);
        if (!scope.problem.empty()) return llm::Result<TurnRecord>::fail(scope.problem);
        if (version > kConversationVersion)
            return llm::Result<TurnRecord>::fail("turn version " + std::to_string(version) +
                                                 " is newer than this page reads: update the page");
    }
    TurnRecord turn = turnFrom(doc, "turn", version, &versions);
    if (!scope.problem.empty()) return llm::Result<TurnRecord>::fail(scope.problem);
    return llm::Result<TurnRecord>::ok(std::move(turn));
}

llm::Result<ConversationHead> conversationHeadFromJson(std::string_view text) {
    using R = llm::Result<ConversationHead>;
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return R::fail("the conversation is not a JSON object");
    ProblemScope scope;
    const auto done = [&scope](ConversationHead head) {
        return scope.problem.empty() ? R::ok(std::move(head)) : R::fail(scope.problem);
    };
    {
        if (stringAt(doc, "format", "conversation") != "chaiba-story-conversation")
            return R::fail(scope.problem.empty() ? "not a Story conversation (format)" : scope.problem);
        const long long version = intAt(doc, "version", "conversation", 1, 1000);
        if (!scope.problem.empty()) return R::fail(scope.problem);
        if (version > kConversationVersion)
            return R::fail("conversation version " + doc["version"].dump() +
                           " is newer than this page reads (" + std::to_string(kConversationVersion) +
                           "): update the page");
        ConversationHead head;
        head.version = static_cast<int>(version);
        Conversation& conversation = head.conversation;
        conversation.id = stringAt(doc, "id", "conversation");
        conversation.title = stringAt(doc, "title", "conversation", false);
        conversation.branchedFrom = stringAt(doc, "branchedFrom", "conversation", false);
        if (doc.contains("branchedAtTurn"))
            conversation.branchedAtTurn =
                static_cast<int>(intAt(doc, "branchedAtTurn", "conversation", 0, 1 << 30));
        if (doc.contains("turnCount")) { // version 4: turns 1..N, each in its own file
            const long long count = intAt(doc, "turnCount", "conversation", 0, 1 << 30);
            if (doc.contains("redoable"))
                conversation.redoable = static_cast<int>(intAt(doc, "redoable", "conversation", 0, 1 << 30));
            for (long long n = 1; n <= count; ++n) head.turnFiles.push_back(static_cast<int>(n));
            return done(std::move(head));
        }
        if (version == kByTurnVersion) {
            const json& numbers = arrayAt(doc, "turnFiles", "conversation");
            for (std::size_t t = 0; t < numbers.size(); ++t) {
                if (!numbers[t].is_number_integer() || numbers[t].get<long long>() < 1 ||
                    numbers[t].get<long long>() > (1 << 30))
                    return R::fail("conversation.turnFiles[" + std::to_string(t) + "] must be a turn number");
                head.turnFiles.push_back(numbers[t].get<int>());
            }
            return done(std::move(head));
        }
        head.inlineTurns = true;
        const json& turns = arrayAt(doc, "turns", "conversation");
        for (std::size_t t = 0; t < turns.size() && !failed(); ++t)
            conversation.turns.push_back(turnFrom(turns[t], "turns[" + std::to_string(t) + "]", version, nullptr));
        return done(std::move(head));
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
