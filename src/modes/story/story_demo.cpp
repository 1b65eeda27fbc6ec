// The recorded tour read and checked (see story_demo.h), and what the replay shows after N steps.
#include "src/modes/story/story_demo.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <initializer_list>
#include <optional>

namespace chaiba::story {

namespace {

using json = nlohmann::json;

// The page's build does not catch C++ exceptions (nlohmann's are off; a throw escapes to the page's
// JavaScript uncaught): every check here returns its error instead.
using Error = std::optional<std::string>;

// One message from its parts (one call where a chain of + would be many: the page's size counts).
std::string say(std::initializer_list<std::string_view> parts) {
    std::string out;
    for (std::string_view part : parts) out += part;
    return out;
}

Error textAt(const json& object, const char* key, const std::string& where, std::string* out) {
    const auto it = object.find(key);
    if (it == object.end()) return say({where, " lacks '", key, "'"});
    if (!it->is_string()) return say({where, ".", key, " must be a string"});
    *out = it->get<std::string>();
    return std::nullopt;
}

// A conversation document inside the tour, read by the conversations' own reader.
Error conversationAt(const json& doc, const std::string& where, Conversation* out) {
    llm::Result<Conversation> read = conversationFromJson(doc.dump());
    if (!read.isOk()) return say({where, ": ", read.error});
    for (std::size_t t = 0; t < read.value->turns.size(); ++t)
        if (read.value->turns[t].number != static_cast<int>(t) + 1)
            return say({where, ": its turns are not numbered 1, 2, 3..."});
    *out = std::move(*read.value);
    return std::nullopt;
}

std::string turnText(const TurnRecord& turn) {
    Conversation one;
    one.turns.push_back(turn);
    return conversationToJson(one);
}

std::size_t entriesOf(const Conversation& c, int from, int to) {
    std::size_t n = 0;
    for (int t = from; t <= to; ++t) n += c.turns[static_cast<std::size_t>(t - 1)].entries.size();
    return n;
}

// A scene's turns and its steps: Undo's turn is played, then taken back (one step more);
// Branch's first step is the switch.
std::size_t sceneSteps(const StoryDemo& demo, const DemoScene& scene) {
    const Conversation& c = demo.conversations[scene.conversation];
    switch (scene.kind) {
    case DemoSceneKind::Play: return entriesOf(c, scene.fromTurn, scene.toTurn);
    case DemoSceneKind::Undo: return scene.undone.entries.size() + 1;
    case DemoSceneKind::Branch: return 1 + entriesOf(c, c.branchedAtTurn + 1, static_cast<int>(c.turns.size()));
    }
    return 0;
}

} // namespace

namespace {

// `a` holds the first `count` turns of `b` as they are (a branch, the conversation before an undo).
Error shared(const Conversation& a, const Conversation& b, int count, const std::string& where) {
    for (std::size_t t = 0; t < static_cast<std::size_t>(count); ++t)
        if (turnText(a.turns[t]) != turnText(b.turns[t]))
            return say({where, ": turn ", std::to_string(t + 1), " of \"", a.id, "\" differs from \"", b.id,
                        "\"'s (it shares the turns up to where it starts)"});
    return std::nullopt;
}

Error readScene(const json& doc, const std::string& where, StoryDemo& demo, std::vector<int>& shown,
                std::vector<bool>& reached, DemoScene& scene) {
    if (!doc.is_object()) return say({where, " must be an object"});
    std::string kind, id;
    if (Error e = textAt(doc, "kind", where, &kind)) return e;
    if (Error e = textAt(doc, "conversation", where, &id)) return e;
    const auto named = std::find_if(demo.conversations.begin(), demo.conversations.end(),
                                    [&](const Conversation& c) { return c.id == id; });
    if (named == demo.conversations.end()) return say({where, ": no conversation \"", id, "\""});
    scene.conversation = static_cast<std::size_t>(named - demo.conversations.begin());
    const Conversation& c = *named;
    int& seen = shown[scene.conversation];
    const int turns = static_cast<int>(c.turns.size());
    if (kind == "play") {
        scene.kind = DemoSceneKind::Play;
        const auto range = doc.find("turns");
        if (range == doc.end() || !range->is_array() || range->size() != 2 || !(*range)[0].is_number_integer() ||
            !(*range)[1].is_number_integer())
            return say({where, ".turns must be [first, last]"});
        scene.fromTurn = (*range)[0].get<int>();
        scene.toTurn = (*range)[1].get<int>();
        if (scene.fromTurn != seen + 1 || scene.toTurn < scene.fromTurn || scene.toTurn > turns)
            return say({where, ": plays turns ", range->dump(), " of \"", id, "\", which has ", std::to_string(turns),
                        " and has shown ", std::to_string(seen), " (a scene goes on from the turn after those shown)"});
        if (!c.branchedFrom.empty() && !reached[scene.conversation])
            return say({where, ": \"", id, "\" is a branch: a branch scene shows it first"});
        seen = scene.toTurn;
    } else if (kind == "undo") {
        // The conversation as it stood when the player pressed Undo: the turns shown, then the one taken back.
        scene.kind = DemoSceneKind::Undo;
        const auto before = doc.find("before");
        if (before == doc.end()) return say({where, " lacks 'before'"});
        Conversation stood;
        if (Error e = conversationAt(*before, where + ".before", &stood)) return e;
        if (static_cast<int>(stood.turns.size()) != seen + 1)
            return say({where, ".before must hold the ", std::to_string(seen), " turns of \"", id,
                        "\" shown so far and the turn taken back"});
        if (Error e = shared(stood, c, seen, where + ".before")) return e;
        scene.undone = std::move(stood.turns.back());
    } else if (kind == "branch") {
        scene.kind = DemoSceneKind::Branch;
        const int at = c.branchedAtTurn;
        const auto from = std::find_if(demo.conversations.begin(), demo.conversations.end(),
                                       [&](const Conversation& o) { return o.id == c.branchedFrom; });
        if (c.branchedFrom.empty() || from == demo.conversations.end())
            return say({where, ": \"", id, "\" is not a branch of a conversation in the recording"});
        const std::size_t source = static_cast<std::size_t>(from - demo.conversations.begin());
        if (reached[scene.conversation] || at < 1 || at >= turns || shown[source] < at)
            return say({where, ": the branch \"", id, "\" from turn ", std::to_string(at), " must come once, after that turn of \"",
                        from->id, "\" was shown, and have turns of its own"});
        if (Error e = shared(c, *from, at, where)) return e;
        seen = turns;
    } else {
        return say({where, ".kind: unknown value '", kind, "' (play, undo or branch)"});
    }
    reached[scene.conversation] = true;
    return std::nullopt;
}

Error readDemo(const json& doc, StoryDemo& demo) {
    std::string format;
    if (Error e = textAt(doc, "format", "recording", &format)) return e;
    if (format != "chaiba-story-demo") return "not a recorded Story tour (format must be \"chaiba-story-demo\")";
    const auto version = doc.find("version");
    if (version == doc.end() || !version->is_number_integer() || version->get<long long>() != 1)
        return say({"recording version ", version == doc.end() ? "missing" : version->dump(), ": this page reads version 1"});
    if (Error e = textAt(doc, "title", "recording", &demo.title)) return e;
    const auto conversations = doc.find("conversations");
    if (conversations == doc.end() || !conversations->is_array() || conversations->empty())
        return "recording.conversations must be a list of at least one conversation";
    for (std::size_t i = 0; i < conversations->size(); ++i) {
        const std::string where = "conversations[" + std::to_string(i) + "]";
        demo.conversations.emplace_back();
        if (Error e = conversationAt((*conversations)[i], where, &demo.conversations.back())) return e;
        for (std::size_t j = 0; j < i; ++j)
            if (demo.conversations[j].id == demo.conversations[i].id)
                return say({where, ": a second conversation \"", demo.conversations[i].id, "\""});
    }
    const auto scenes = doc.find("scenes");
    if (scenes == doc.end()) return "recording lacks 'scenes'";
    if (!scenes->is_array() || scenes->empty()) return "recording.scenes must be a list of at least one scene";
    // How many turns of each conversation the scenes so far have shown, and which were shown at all.
    std::vector<int> shown(demo.conversations.size(), 0);
    std::vector<bool> reached(demo.conversations.size(), false);
    for (std::size_t s = 0; s < scenes->size(); ++s) {
        demo.scenes.emplace_back();
        if (Error e = readScene((*scenes)[s], "scenes[" + std::to_string(s) + "]", demo, shown, reached,
                                demo.scenes.back()))
            return e;
    }
    return std::nullopt;
}

} // namespace

llm::Result<StoryDemo> storyDemoFromJson(std::string_view input) {
    const json doc = json::parse(input.begin(), input.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return llm::Result<StoryDemo>::fail("the recording is not a JSON object");
    StoryDemo demo;
    if (Error e = readDemo(doc, demo)) return llm::Result<StoryDemo>::fail("the recorded tour: " + *e);
    return llm::Result<StoryDemo>::ok(std::move(demo));
}

std::size_t demoSteps(const StoryDemo& demo) {
    std::size_t n = 0;
    for (const DemoScene& scene : demo.scenes) n += sceneSteps(demo, scene);
    return n;
}

std::string undoBanner(const TurnRecord& undone) {
    std::string files;
    const std::vector<std::string> paths = undone.changes.touchedPaths();
    for (std::size_t i = 0; i < paths.size(); ++i) {
        files += i == 0 ? "" : i + 1 == paths.size() ? " and " : ", ";
        files += paths[i];
    }
    const std::string n = std::to_string(undone.number);
    return say({"Undo: the player took back turn ", n, "; its narration", files.empty() ? "" : " and its edit of ", files,
                files.empty() ? " was" : " were", " reverted, and the line went back to the input. A new turn ", n,
                " takes its place."});
}

std::string branchBanner(const Conversation& branch) {
    const std::string at = std::to_string(branch.branchedAtTurn);
    return say({"Branch from turn ", at, ": a branch is a new conversation (", branch.id, ") that shares turns 1-", at,
                " of \"", branch.branchedFrom, "\", with the world's files as they were after turn ", at,
                ", and goes another way from there. \"", branch.branchedFrom, "\" stays as it was."});
}

DemoView demoView(const StoryDemo& demo, std::size_t step) {
    DemoView view;
    if (demo.scenes.empty()) return view;
    // The scene the step is in, and how far into it.
    std::size_t into = std::max<std::size_t>(step, 1);
    while (view.scene + 1 < demo.scenes.size() && into > sceneSteps(demo, demo.scenes[view.scene]))
        into -= sceneSteps(demo, demo.scenes[view.scene++]);
    const DemoScene& scene = demo.scenes[view.scene];
    into = std::min(into, sceneSteps(demo, scene));
    view.kind = scene.kind;
    const Conversation& c = demo.conversations[scene.conversation];
    view.conversation = &c;
    view.showing = c.branchedFrom.empty() ? say({"the main line (conversation ", c.id, ")"})
                                          : say({"a branch from turn ", std::to_string(c.branchedAtTurn), " of ",
                                                 c.branchedFrom, " (conversation ", c.id, ")"});
    // The turns of this conversation shown whole before this scene, its turns taken back so far,
    // and this scene's own.
    int whole = 0;
    std::vector<const TurnRecord*> undone;
    for (std::size_t s = 0; s < view.scene; ++s) {
        const DemoScene& earlier = demo.scenes[s];
        if (earlier.conversation != scene.conversation) continue;
        if (earlier.kind == DemoSceneKind::Play) whole = earlier.toTurn;
        if (earlier.kind == DemoSceneKind::Branch) whole = static_cast<int>(c.turns.size());
        if (earlier.kind == DemoSceneKind::Undo) undone.push_back(&earlier.undone);
    }
    int revealFrom = 0; // the first turn this scene reveals entry by entry
    std::size_t reveal = 0;
    if (scene.kind == DemoSceneKind::Play) {
        revealFrom = scene.fromTurn;
        reveal = into;
    } else if (scene.kind == DemoSceneKind::Branch) {
        whole = c.branchedAtTurn;
        revealFrom = whole + 1;
        reveal = into - 1;
    }
    auto undoneBefore = [&](int number) {
        for (const TurnRecord* turn : undone)
            if (turn->number == number) {
                view.items.push_back({DemoItem::Kind::Undone, turn, turn->entries.size(), {}});
                view.items.push_back({DemoItem::Kind::Banner, nullptr, 0, undoBanner(*turn)});
            }
    };
    for (const TurnRecord& turn : c.turns) {
        if (turn.number > whole && (revealFrom == 0 || turn.number < revealFrom)) break;
        undoneBefore(turn.number);
        if (!c.branchedFrom.empty() && turn.number == c.branchedAtTurn + 1)
            view.items.push_back({DemoItem::Kind::Banner, nullptr, 0, branchBanner(c)});
        if (turn.number <= whole) {
            view.items.push_back({DemoItem::Kind::Turn, &turn, turn.entries.size(), {}});
            continue;
        }
        if (reveal == 0) break;
        const std::size_t n = std::min(reveal, turn.entries.size());
        view.items.push_back({DemoItem::Kind::Turn, &turn, n, {}});
        reveal -= n;
    }
    if (scene.kind == DemoSceneKind::Undo) {
        undoneBefore(whole + 1); // the ones taken back earlier at this place
        const std::size_t played = scene.undone.entries.size();
        if (into <= played) {
            view.items.push_back({DemoItem::Kind::Turn, &scene.undone, into, {}});
        } else {
            view.items.push_back({DemoItem::Kind::Undone, &scene.undone, played, {}});
            view.items.push_back({DemoItem::Kind::Banner, nullptr, 0, undoBanner(scene.undone)});
        }
    }
    return view;
}

} // namespace chaiba::story
