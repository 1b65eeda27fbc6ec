// The UI monkey: the whole page (App with every screen of every mode) drawn natively by Dear ImGui
// without a window, fed thousands of frames of seeded random input: clicks on the named widgets
// and anywhere, drags, wheel, keys, typed text, resizes between a desktop and a phone. Built with
// AddressSanitizer and UBSan (tests/monkey.cmake), it finds draw code that keeps a pointer into
// state a click replaced. Reproducible: a seed gives the same run; a failure prints the seed and
// the last actions.
//
//   chaiba_monkey --seeds 1-8 --frames 3000 [--assets DIR] [--fonts DIR] [--verbose]
#include "src/app/app.h"
#include "src/app/page_modes.h"
#include "src/llm/assets.h"
#include "src/modes/chess/arena_analysis.h"
#include "src/modes/chess/engine_player.h"
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/kv_world_files.h"
#include "src/modes/story/story_demo.h"
#include "src/modes/story/transcript.h"
#include "src/persist/key_value_store.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "tests/fakes/fake_transport.h"
#include "engine/search/levels.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#if defined(__has_include)
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define CHAIBA_HAVE_SANITIZER_CALLBACK 1
#endif
#endif

namespace {

using nlohmann::json;

// ---- what a failure prints --------------------------------------------------------------------

struct Trail {
    unsigned seed = 0;
    int frame = 0;
    std::deque<std::string> actions; // the last ones, newest last
    void add(std::string action) {
        actions.push_back("frame " + std::to_string(frame) + ": " + std::move(action));
        if (actions.size() > 40) actions.pop_front();
    }
    void print(FILE* out) const {
        std::fprintf(out, "ui_monkey: seed %u, frame %d; the last actions:\n", seed, frame);
        for (const std::string& a : actions) std::fprintf(out, "  %s\n", a.c_str());
        std::fprintf(out, "ui_monkey: reproduce with: chaiba_monkey --seeds %u-%u --verbose\n", seed, seed);
    }
};
Trail gTrail;

void printTrail() { gTrail.print(stderr); }

// An assert of ImGui's or ours, or the JSON library's abort on a wrong type: the trail too.
extern "C" void onAbort(int) {
    printTrail();
    std::signal(SIGABRT, SIG_DFL);
    std::raise(SIGABRT);
}

// ---- the platform and the stand-in model server -----------------------------------------------

class MonkeyPlatform final : public chaiba::Platform {
public:
    explicit MonkeyPlatform(const chaiba::fakes::FakeClock& clock) : clock_(clock) {}
    void copyToClipboard(const std::string& text) override { clipboard = text; }
    void downloadTextFile(const std::string&, const std::string&, const std::string& text) override {
        lastDownloadBytes = text.size();
    }
    double nowMs() const override { return double(clock_.nowMs()); }
    std::string clipboard;
    std::size_t lastDownloadBytes = 0;

private:
    const chaiba::fakes::FakeClock& clock_;
};

// Answers what the page asks OpenRouter with seeded, often useless answers: text, garbage, a
// call of one of the tools offered (arguments sensible, empty or broken), HTTP errors, a cut
// connection. A monkey's model: the UI must show each of these, never crash on one.
class MonkeyModels {
public:
    explicit MonkeyModels(unsigned seed) : rng_(seed * 7919u + 17u) {}

    chaiba::fakes::FakeReply answer(const chaiba::net::HttpRequest& request) {
        using chaiba::fakes::FakeReply;
        const std::string& url = request.url;
        if (url.find("/models") != std::string::npos) return FakeReply::json(200, catalog());
        if (url.find("/key") != std::string::npos)
            return FakeReply::json(200, R"({"data":{"label":"monkey","limit":null,"limit_remaining":null,"usage":0.5}})");
        const int roll = pick(100);
        if (roll < 4) return FakeReply::failure(chaiba::net::TransportErrorKind::Other, "monkey: connection reset");
        if (roll < 7) return FakeReply::json(429, R"({"error":{"code":429,"message":"monkey: rate limited"}})");
        if (roll < 9) return FakeReply::json(500, R"({"error":{"code":500,"message":"monkey: server error"}})");
        if (roll < 10) return FakeReply::json(402, R"({"error":{"code":402,"message":"monkey: no credits"}})");
        if (roll < 12) return FakeReply::json(200, "{not json");
        const json body = json::parse(request.body, nullptr, false);
        std::string content;
        json toolCalls = json::array();
        if (!body.is_discarded() && body.contains("tools") && body["tools"].is_array() && !body["tools"].empty() &&
            pick(3) != 0) {
            const json& tools = body["tools"];
            const int calls = 1 + pick(2);
            for (int c = 0; c < calls; ++c) {
                const json& tool = tools[std::size_t(pick(int(tools.size())))];
                const json nameField = member(member(tool, "function"), "name");
                const std::string name = nameField.is_string() ? nameField.get<std::string>() : "x";
                toolCalls.push_back({{"id", "call_" + std::to_string(++calls_)},
                                     {"type", "function"},
                                     {"function", {{"name", name}, {"arguments", arguments(tool)}}}});
            }
        } else {
            content = text();
        }
        const bool stream = member(body, "stream").is_boolean() && member(body, "stream").get<bool>();
        json usage = {{"prompt_tokens", 100 + pick(5000)}, {"completion_tokens", 10 + pick(400)}, {"cost", 0.0001 * pick(50)}};
        if (!stream) {
            json message = {{"role", "assistant"}, {"content", content.empty() ? json() : json(content)}};
            if (!toolCalls.empty()) message["tool_calls"] = toolCalls;
            json reply = {{"id", "gen-monkey"},
                          {"model", member(body, "model").is_string() ? member(body, "model") : json("m")},
                          {"choices", json::array({{{"finish_reason", toolCalls.empty() ? "stop" : "tool_calls"},
                                                    {"message", message}}})},
                          {"usage", usage}};
            return FakeReply::json(200, reply.dump());
        }
        FakeReply r;
        r.status = 200;
        r.headers = {{"Content-Type", "text/event-stream"}};
        r.chunks.push_back(": OPENROUTER PROCESSING\n\n");
        for (std::size_t i = 0; i < content.size(); i += 7) {
            json delta = {{"choices", json::array({{{"delta", {{"content", content.substr(i, 7)}}}}})}};
            r.chunks.push_back("data: " + delta.dump() + "\n\n");
        }
        for (std::size_t i = 0; i < toolCalls.size(); ++i) {
            json call = {{"index", i}, {"id", toolCalls[i]["id"]}, {"type", "function"}, {"function", toolCalls[i]["function"]}};
            json delta = {{"choices", json::array({{{"delta", {{"tool_calls", json::array({call})}}}}})}};
            r.chunks.push_back("data: " + delta.dump() + "\n\n");
        }
        json last = {{"choices", json::array({{{"delta", json::object()},
                                              {"finish_reason", toolCalls.empty() ? "stop" : "tool_calls"}}})}};
        r.chunks.push_back("data: " + last.dump() + "\n\n");
        r.chunks.push_back("data: " + json({{"choices", json::array()}, {"usage", usage}}).dump() + "\n\n");
        if (pick(20) == 0) {
            r.errorAfterBody = chaiba::net::TransportError{chaiba::net::TransportErrorKind::Other, "monkey: stream cut"};
        } else {
            r.chunks.push_back("data: [DONE]\n\n");
        }
        return r;
    }

private:
    int pick(int n) { return int(rng_() % unsigned(std::max(1, n))); }

    // j[key] when j is an object that has it, else null: the page's requests are read without
    // trusting their shape (the JSON library aborts on a wrong type without exceptions).
    static json member(const json& j, const char* key) {
        if (!j.is_object()) return json();
        auto it = j.find(key);
        return it == j.end() ? json() : *it;
    }

    static std::string catalog() {
        return R"({"data":[)"
               R"({"id":"monkey/cheap","name":"Monkey Cheap","context_length":32000,"pricing":{"prompt":"0.000001","completion":"0.000002"},"supported_parameters":["tools","tool_choice"]},)"
               R"({"id":"monkey/dear","name":"Monkey Dear","context_length":200000,"pricing":{"prompt":"0.00001","completion":"0.00003"},"supported_parameters":["tools","reasoning","structured_outputs"]},)"
               R"({"id":"openai/gpt-4o-mini","name":"GPT-4o mini","context_length":128000,"pricing":{"prompt":"0.00000015","completion":"0.0000006"},"supported_parameters":["tools"]})"
               R"(]})";
    }

    std::string text() {
        static const std::array<const char*, 12> kTexts = {
            "e4", "My move: Nf3", "Final Answer: e5", "I resign.", "{\"move\": \"d4\", \"reasoning\": \"centre\"}",
            "{\"vote\": \"P3\", \"reasoning\": \"quiet\"}", "{\"say\": \"I am the Seer. P2 is a wolf.\"}",
            "The lamps gutter as the fog rolls in over **Brackwater**. *Someone* is watching.\n\n- a list\n- of things",
            "", "\xE2\x96\x8C\xF0\x9F\x90\xBA unicode \xC3\xA9", "{\"action\": \"narrate\", \"text\": \"Rain.\"}",
            "# Heading\n\n| a | b |\n|---|---|\n| 1 | 2 |"};
        std::string t = kTexts[std::size_t(pick(int(kTexts.size())))];
        if (pick(10) == 0) t.append(std::size_t(pick(4000)), 'x');
        return t;
    }

    // Arguments for a tool: built from its schema's properties (plausible strings and numbers),
    // or empty, or not JSON at all.
    std::string arguments(const json& tool) {
        const int roll = pick(10);
        if (roll == 0) return "{broken";
        if (roll == 1) return "{}";
        json args = json::object();
        const json props = member(member(member(tool, "function"), "parameters"), "properties");
        static const std::array<const char*, 10> kWords = {"e4", "root", "P1", "lore.md", "qual", "final",
                                                           "engine:2", "llm:monkey/cheap", "yes", "NPCs/old.md"};
        for (auto it = props.begin(); it != props.end(); ++it) {
            // A schema's type may be a list (["string", "null"]): its first entry counts.
            json type = member(it.value(), "type");
            if (type.is_array() && !type.empty()) type = type[0];
            const std::string typeName = type.is_string() ? type.get<std::string>() : "string";
            if (typeName == "integer" || typeName == "number")
                args[it.key()] = pick(20);
            else if (typeName == "boolean")
                args[it.key()] = pick(2) == 1;
            else if (typeName == "array")
                args[it.key()] = json::array({kWords[std::size_t(pick(int(kWords.size())))]});
            else if (typeName == "object")
                args[it.key()] = json::object();
            else
                args[it.key()] = kWords[std::size_t(pick(int(kWords.size())))];
        }
        return args.dump();
    }

    std::mt19937 rng_;
    int calls_ = 0;
};

// The move-quality scorer at a tiny budget: the analyses run, their verdicts show, and the
// sanitized search does not take the frames.
class QuickScorer final : public chaiba::chessmode::PositionScorer {
public:
    bool ready() const override { return inner_.ready(); }
    void request(const chaiba::chessmode::ScoreRequest& request, Callback callback) override {
        chaiba::chessmode::ScoreRequest quick = request;
        quick.budget.maxDepth = 3;
        quick.budget.maxNodes = 400;
        quick.budget.hashMb = 1;
        inner_.request(quick, std::move(callback));
    }
    void poll() override { inner_.poll(); }

private:
    chaiba::chessmode::SearchScorer inner_;
};

// ---- one run ------------------------------------------------------------------------------------

struct Options {
    unsigned firstSeed = 1, lastSeed = 4;
    int frames = 3000;
    std::string assets = "assets";
    std::string fonts = "/usr/share/fonts/truetype/dejavu";
    bool verbose = false;
};

// A plan with dependencies and stages, for the planner's editor (imported as a person would).
constexpr const char* kSamplePlan = R"(task best: Find the best cheap chess model
  cap 2
  needs finals
  desc Which model plays the best chess for little money?
task groups: Qualifying arena
  status ready
  stage chess arena
  games 6
  budget 1
  player engine:1
  player engine:2
  player random
task finals: Final
  needs groups
  stage chess roundrobin
  games 1
  budget 1
  player top 2 of groups
  player engine:3
)";

// The sample world with its recorded adventure as a played conversation, so the Story screen has
// turns to undo, branch and open from the first frame.
void seedStory(chaiba::KeyValueStore& store, const chaiba::llm::AssetSource& assets) {
    using namespace chaiba::story;
    WorldEntry sample{"brackwater", "The Lamps of Brackwater"};
    KvWorldFiles files(store, sample.id);
    if (WorldError e = installSampleWorld(assets, files); !e.ok()) {
        std::fprintf(stderr, "ui_monkey: the sample world did not install: %s\n", e.message.c_str());
        std::exit(2);
    }
    if (auto e = saveWorldList(store, {sample})) {
        std::fprintf(stderr, "ui_monkey: %s\n", e->c_str());
        std::exit(2);
    }
    chaiba::llm::Result<std::string> recorded = assets.read("story/sample/recording.json");
    if (!recorded.isOk()) {
        std::fprintf(stderr, "ui_monkey: no recording: %s\n", recorded.error.c_str());
        std::exit(2);
    }
    chaiba::llm::Result<StoryDemo> demo = storyDemoFromJson(*recorded.value);
    if (!demo.isOk()) {
        std::fprintf(stderr, "ui_monkey: the recording does not load: %s\n", demo.error.c_str());
        std::exit(2);
    }
    Conversation& conversation = demo.value->conversations.front(); // the main line
    conversation.id = "main";
    if (WorldError e = saveConversation(files, conversation); !e.ok()) {
        std::fprintf(stderr, "ui_monkey: %s\n", e.message.c_str());
        std::exit(2);
    }
}

struct Viewport {
    float w, h;
};
constexpr std::array<Viewport, 3> kViewports = {{{1280, 800}, {390, 844}, {1024, 700}}};

class Monkey {
public:
    Monkey(unsigned seed, const Options& options)
        : options_(options), rng_(seed), models_(seed), platform_(clock_), assets_(options.assets) {
        transport_.setResponder([this](const chaiba::net::HttpRequest& r) { return models_.answer(r); });
        seedStory(arenaStore_, assets_);
        chaiba::AppServices services;
        services.store = &store_;
        services.platform = &platform_;
        services.transport = &transport_;
        services.clock = &clock_;
        services.assets = &assets_;
        chaiba::PageServices page;
        page.largeStore = &arenaStore_;
        page.chess.maxEngineLevel = chaiba::search::maxLevel();
        page.chess.engineName = [](int level) { return "engine level " + std::to_string(level); };
        page.chess.engineRating = [](int level) -> std::optional<double> { return 1000.0 + 150 * level; };
        // Low levels at a tiny budget only, like QuickScorer: the monkey tests the page, not the
        // engine, and runs under sanitizers (at level 2's 40 000 nodes and 4 MB table the engine
        // seats of its arenas took over half of the run).
        page.chess.makeEngine = [this](const std::string& id, int level, uint64_t s, int)
            -> std::unique_ptr<chaiba::chessmode::Player> {
            auto spec = chaiba::search::levelSpec(std::clamp(level, 0, 2));
            if (!spec) return nullptr;
            spec->maxNodes = std::min<uint64_t>(spec->maxNodes, 2000);
            spec->hashMb = 1;
            return std::make_unique<chaiba::chessmode::EnginePlayer>(id, *spec, s, &clock_, 0);
        };
        page.chess.makeScorer = []() -> std::unique_ptr<chaiba::chessmode::PositionScorer> {
            return std::make_unique<QuickScorer>();
        };
        services.makeModes = [page = std::move(page)](chaiba::ModeHost& host) { return chaiba::makePageModes(host, page); };
        app_ = std::make_unique<chaiba::App>(std::move(services));
        ImGuiIO& io = ImGui::GetIO();
        if (auto error = chaiba::ui::loadFonts(*io.Fonts, options.fonts, 1.0f, fonts_)) {
            std::fprintf(stderr, "ui_monkey: fonts: %s\n", error->c_str());
            std::exit(2);
        }
        unsigned char* pixels = nullptr;
        int tw = 0, th = 0;
        io.Fonts->GetTexDataAsAlpha8(&pixels, &tw, &th);
        io.FontDefault = fonts_.ui;
        app_->setFonts(fonts_, 1.0f);
        // Half the runs with a key: the model paths (catalog, key check, models playing) open up.
        if (seed % 2 == 0) app_->configure("monkey-test-key", "", true, false);
        if (auto imported = app_->screenCommand("planner", "importText", json(kSamplePlan).dump()); imported.error) {
            std::fprintf(stderr, "ui_monkey: the sample plan was refused: %s\n", imported.error->c_str());
            std::exit(2);
        }
    }

    void run() {
        for (int f = 0; f < options_.frames; ++f) {
            gTrail.frame = f;
            act();
            const auto start = std::chrono::steady_clock::now();
            frame();
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            if (ms > slowestMs_) {
                slowestMs_ = ms;
                slowestAction_ = gTrail.actions.empty() ? std::string("(start)") : gTrail.actions.back();
            }
            totalMs_ += ms;
        }
    }
    // Where the time went (the monkey runs in the test command: a slow screen shows here first).
    std::string timing() const {
        char line[256];
        std::snprintf(line, sizeof line, "%.1f ms a frame on average, slowest %.0f ms after ", totalMs_ / std::max(1, options_.frames),
                      slowestMs_);
        return line + slowestAction_ + "; " + std::to_string(clicks_.size()) + " named widgets clicked";
    }
    // The named widgets clicked, for --verbose (what the monkey reached).
    std::string reached() const {
        std::string out;
        for (const auto& [name, n] : clicks_) out += "  " + name + " x" + std::to_string(n) + "\n";
        return out;
    }

private:
    int pick(int n) { return int(rng_() % unsigned(std::max(1, n))); }
    float pickf(float lo, float hi) { return lo + (hi - lo) * float(rng_() % 10000) / 10000.0f; }

    void note(const std::string& what) {
        gTrail.add(what);
        if (options_.verbose) std::fprintf(stderr, "frame %d: %s\n", gTrail.frame, what.c_str());
    }

    // The named widgets of the last frame (the browser tests' registry), as centres to click.
    std::vector<std::pair<std::string, ImVec2>> namedItems() const {
        std::vector<std::pair<std::string, ImVec2>> out;
        const json items = json::parse(chaiba::ui::itemsJson(1.0f), nullptr, false);
        if (!items.is_object()) return out;
        for (auto it = items.begin(); it != items.end(); ++it) {
            const json& r = it.value();
            if (!r.is_array() || r.size() < 4) continue;
            const float x = r[0].get<float>(), y = r[1].get<float>(), w = r[2].get<float>(), h = r[3].get<float>();
            if (w <= 0 || h <= 0) continue;
            out.push_back({it.key(), ImVec2(x + w * 0.5f, y + h * 0.5f)});
        }
        return out;
    }

    // Chooses this frame's input. A click is a press on one frame and a release on a later one.
    void act() {
        ImGuiIO& io = ImGui::GetIO();
        io.MouseWheel = 0;
        io.MouseWheelH = 0;
        std::fill(std::begin(io.KeysDown), std::end(io.KeysDown), false);
        io.KeyCtrl = io.KeyShift = false;
        if (releaseIn_ > 0 && --releaseIn_ == 0) {
            io.MouseDown[button_] = false;
            return;
        }
        if (releaseIn_ > 0) {
            if (dragging_) io.MousePos = ImVec2(io.MousePos.x + pickf(-30, 30), io.MousePos.y + pickf(-30, 30));
            return;
        }
        dragging_ = false;
        const int roll = pick(100);
        if (roll < 45) {
            auto items = namedItems();
            if (items.empty()) return;
            // Novelty first: a widget clicked often is picked less, so the monkey walks deeper into
            // the screens (a dialog's buttons, a turn's actions) instead of the header again.
            std::vector<double> weights;
            for (const auto& item : items) {
                const double n = double(clicks_[item.first]);
                weights.push_back(1.0 / ((1.0 + n) * (1.0 + n)));
            }
            std::discrete_distribution<std::size_t> choose(weights.begin(), weights.end());
            const auto& [name, at] = items[choose(rng_)];
            ++clicks_[name];
            io.MousePos = at;
            button_ = pick(12) == 0 ? 1 : 0;
            io.MouseDown[button_] = true;
            releaseIn_ = 1 + pick(2);
            note("click " + name + (button_ ? " (right)" : ""));
        } else if (roll < 55) {
            io.MousePos = ImVec2(pickf(0, io.DisplaySize.x), pickf(0, io.DisplaySize.y));
            button_ = 0;
            io.MouseDown[0] = true;
            releaseIn_ = 1 + pick(2);
            note("click at " + std::to_string(int(io.MousePos.x)) + "," + std::to_string(int(io.MousePos.y)));
        } else if (roll < 60) {
            io.MousePos = ImVec2(pickf(0, io.DisplaySize.x), pickf(0, io.DisplaySize.y));
            button_ = 0;
            io.MouseDown[0] = true;
            dragging_ = true;
            releaseIn_ = 3 + pick(8);
            note("drag from " + std::to_string(int(io.MousePos.x)) + "," + std::to_string(int(io.MousePos.y)));
        } else if (roll < 66) {
            io.MousePos = ImVec2(pickf(0, io.DisplaySize.x), pickf(0, io.DisplaySize.y));
            io.MouseWheel = pickf(-3, 3);
            note("wheel");
        } else if (roll < 76) {
            static const std::array<ImGuiKey, 10> kKeys = {ImGuiKey_Enter, ImGuiKey_Escape, ImGuiKey_Tab,
                                                          ImGuiKey_Backspace, ImGuiKey_LeftArrow, ImGuiKey_RightArrow,
                                                          ImGuiKey_UpArrow, ImGuiKey_DownArrow, ImGuiKey_Home, ImGuiKey_Delete};
            const ImGuiKey key = kKeys[std::size_t(pick(int(kKeys.size())))];
            io.KeysDown[io.KeyMap[key]] = true;
            io.KeyCtrl = pick(6) == 0;
            io.KeyShift = pick(6) == 0;
            note(std::string("key ") + std::to_string(int(key)) + (io.KeyCtrl ? " +ctrl" : "") + (io.KeyShift ? " +shift" : ""));
        } else if (roll < 90) {
            static const std::array<const char*, 8> kTyped = {"hello", "e4", "P3 is a wolf", "42", "llm:monkey/cheap",
                                                             "\xC3\xA9t\xC3\xA9", "x", "qual"};
            const char* text = kTyped[std::size_t(pick(int(kTyped.size())))];
            io.AddInputCharactersUTF8(text);
            note(std::string("type \"") + text + "\"");
        } else if (roll < 92) {
            const Viewport v = kViewports[std::size_t(pick(int(kViewports.size())))];
            io.DisplaySize = ImVec2(v.w, v.h);
            note("resize " + std::to_string(int(v.w)) + "x" + std::to_string(int(v.h)));
        } else {
            // Nothing: time passes (models answer, engines move, timers run).
            clock_.advance(pick(2000));
        }
    }

    void frame() {
        ImGuiIO& io = ImGui::GetIO();
        clock_.advance(16);
        io.DeltaTime = 1.0f / 60.0f;
        app_->tick();
        ImGui::NewFrame();
        app_->frame();
        ImGui::Render();
        ++frames_;
    }

    const Options& options_;
    std::mt19937 rng_;
    chaiba::fakes::FakeClock clock_;
    chaiba::fakes::FakeTransport transport_;
    MonkeyModels models_;
    MonkeyPlatform platform_;
    chaiba::MemoryStore store_;
    chaiba::MemoryStore arenaStore_;
    chaiba::llm::DirectoryAssetSource assets_;
    std::unique_ptr<chaiba::App> app_;
    chaiba::ui::Fonts fonts_;
    int releaseIn_ = 0;
    int button_ = 0;
    bool dragging_ = false;
    long frames_ = 0;
    std::map<std::string, int> clicks_; // named widget -> times clicked
    double totalMs_ = 0, slowestMs_ = 0;
    std::string slowestAction_;
};

void setUpImGuiKeys(ImGuiIO& io) {
    // ImGui 1.86: the platform maps ImGuiKey_ to its own key indices; the identity map will do.
    for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = k;
}

bool parseSeeds(const std::string& text, Options& o) {
    const std::size_t dash = text.find('-');
    try {
        o.firstSeed = unsigned(std::stoul(text.substr(0, dash)));
        o.lastSeed = dash == std::string::npos ? o.firstSeed : unsigned(std::stoul(text.substr(dash + 1)));
    } catch (...) {
        return false;
    }
    return o.firstSeed <= o.lastSeed;
}

void usage(FILE* out) {
    std::fprintf(out,
                 "usage: chaiba_monkey [--seeds A-B] [--frames N] [--assets DIR] [--fonts DIR] [--verbose]\n"
                 "  Draws every screen of the page natively with seeded random input; a crash under the\n"
                 "  sanitizers prints the seed and the last actions.\n"
                 "  --seeds A-B   the seeds to run, one fresh page each (default 1-4)\n"
                 "  --frames N    frames per seed (default 3000)\n"
                 "  --assets DIR  the assets folder (default ./assets)\n"
                 "  --fonts DIR   a folder with DejaVuSans.ttf, DejaVuSans-Bold.ttf, DejaVuSansMono.ttf\n"
                 "  --verbose     print every action\n");
}

} // namespace

int main(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "chaiba_monkey: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            usage(stdout);
            return 0;
        } else if (a == "--seeds") {
            if (!parseSeeds(value(), options)) {
                std::fprintf(stderr, "chaiba_monkey: --seeds takes A or A-B with A <= B\n");
                return 2;
            }
        } else if (a == "--frames") {
            options.frames = std::atoi(value().c_str());
        } else if (a == "--assets") {
            options.assets = value();
        } else if (a == "--fonts") {
            options.fonts = value();
        } else if (a == "--verbose") {
            options.verbose = true;
        } else {
            std::fprintf(stderr, "chaiba_monkey: unknown option %s (see --help)\n", a.c_str());
            return 2;
        }
    }
#ifdef CHAIBA_HAVE_SANITIZER_CALLBACK
    __sanitizer_set_death_callback(printTrail);
#endif
    std::signal(SIGABRT, onAbort);
    for (unsigned seed = options.firstSeed; seed <= options.lastSeed; ++seed) {
        gTrail = Trail{};
        gTrail.seed = seed;
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(kViewports[seed % kViewports.size()].w, kViewports[seed % kViewports.size()].h);
        setUpImGuiKeys(io);
        std::string timing;
        {
            Monkey monkey(seed, options);
            monkey.run();
            timing = monkey.timing();
            if (options.verbose) std::fprintf(stderr, "ui_monkey: widgets clicked:\n%s", monkey.reached().c_str());
        }
        ImGui::DestroyContext();
        std::printf("ui_monkey: seed %u: %d frames, no fault (%s)\n", seed, options.frames, timing.c_str());
        std::fflush(stdout);
    }
    return 0;
}
