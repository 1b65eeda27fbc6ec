// The page's entry point: GLFW + WebGL2 + Dear ImGui, and a main loop that renders only when
// something changed (input, resize, app activity, or a 1 s heartbeat for clocks), so an idle
// tab costs next to no CPU. The automation API `window.chaiba` is installed here.
#include "engine/search/levels.h"
#include "src/llm/assets.h"
#include "src/app/app.h"
#include "src/app/page_modes.h"
#include "src/net/http.h"
#include "src/net/section_timer.h"
#include "src/ui/item_registry.h"
#include "web/browser_web.h"
#include "web/engine_player_web.h"
#include "web/position_scorer_web.h"
#include "web/http_web.h"
#include "web/idb_store.h"
#include "web/image_atlas_web.h"
#include "web/image_texture.h"
#include "web/storage_web.h"
#include "web/text_areas_web.h"

#include <GLFW/glfw3.h>
#include <GLES3/gl3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <memory>
#include <string>

// web/gl_state_shim.cpp: glViewport, remembered for the ImGui backend's state restore.
extern "C" void chaiba_gl_note_viewport(GLint x, GLint y, GLsizei width, GLsizei height);

namespace {

class WebPlatform final : public chaiba::Platform {
public:
    void copyToClipboard(const std::string& text) override { chaiba::web::copyToClipboard(text); }
    void downloadTextFile(const std::string& fileName, const std::string& mimeType,
                          const std::string& text) override {
        chaiba::web::downloadTextFile(fileName, mimeType, text);
    }
    double nowMs() const override { return emscripten_get_now(); }
    void pickTextFile(const std::string& accept, std::size_t maxBytes, bool binary) override {
        chaiba::web::pickTextFile(accept, maxBytes, binary);
    }
    std::optional<chaiba::PickedFile> takePickedFile() override { return chaiba::web::takePickedFile(); }
    chaiba::ui::ImageTextures* imageTextures() override { return &chaiba::web::imageTextures(); }
    chaiba::ui::ImageAtlases* imageAtlases() override { return &chaiba::web::imageAtlases(); }
    chaiba::ui::TextAreas* textAreas() override { return &chaiba::web::textAreas(); }
};

struct Loop {
    GLFWwindow* window = nullptr;
    std::unique_ptr<chaiba::KeyValueStore> store;
    std::unique_ptr<chaiba::KeyValueStore> arenaStore;
    WebPlatform platform;
    std::unique_ptr<chaiba::web::WebHttpTransport> transport;
    chaiba::net::SteadyClock clock;
    std::unique_ptr<chaiba::llm::DirectoryAssetSource> assets;
    std::unique_ptr<chaiba::App> app;
    chaiba::web::CanvasSize canvas;
    chaiba::ui::Fonts fonts;
    float fontRatio = 0.0f;
    int framesToRender = 3;
    double lastRenderMs = 0.0;
    double lastInputMs = 0.0;
    // Figures for the automation API and the idle-CPU test.
    unsigned long long loopCalls = 0;
    unsigned long long framesRendered = 0;
    double lastFrameCpuMs = 0.0;
    double maxFrameCpuMs = 0.0;
    double sumFrameCpuMs = 0.0;  // since the last reset, for the average
    unsigned long long measuredFrames = 0;
    unsigned long long framesOver16Ms = 0;
    // app->tick() (network, players, saving) runs every loop call, drawn or not.
    // It also runs between frames when answers arrive (ticksBetweenFrames of measuredTicks).
    double maxTickCpuMs = 0.0;
    double sumTickCpuMs = 0.0;
    unsigned long long measuredTicks = 0;
    unsigned long long ticksBetweenFrames = 0;
    unsigned long long ticksOver8Ms = 0;
    bool overlayHidden = false;
};

Loop gLoop;

constexpr double kHeartbeatMs = 1000.0;  // idle redraw period (elapsed-time displays, caret)
constexpr int kSettleFrames = 4;         // frames after an event for ImGui to settle hover/layout
constexpr double kInputFullRateMs = 500.0; // full frame rate after an input event
constexpr int kAnswersPerTick = 1;        // a poll delivers one finished answer, then yields

void rebuildFontsIfNeeded() {
    if (gLoop.fontRatio == gLoop.canvas.pixelRatio) return;
    ImGuiIO& io = ImGui::GetIO();
    if (auto error = chaiba::ui::loadFonts(*io.Fonts, "/fonts", gLoop.canvas.pixelRatio, gLoop.fonts))
        std::fprintf(stderr, "CHAIBA: %s\n", error->c_str());
    io.FontDefault = gLoop.fonts.ui;
    if (gLoop.fontRatio != 0.0f) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    gLoop.fontRatio = gLoop.canvas.pixelRatio;
    gLoop.app->setFonts(gLoop.fonts, gLoop.canvas.pixelRatio);
}

// A tick between frames: JS calls it from a task of its own (a MessageChannel message), so that
// answers are handled as they arrive, a slice at a time, instead of piling up for the next frame.
EM_JS(void, js_schedule_pump, (), {
    var pump = Module.chaibaPump;
    if (!pump) {
        pump = Module.chaibaPump = { scheduled: false, channel: new MessageChannel() };
        pump.channel.port1.onmessage = function() {
            pump.scheduled = false;
            _chaiba_pump();
        };
    }
    if (pump.scheduled) return;
    pump.scheduled = true;
    pump.channel.port2.postMessage(0);
});

// One run of app->tick(): network, players, saving. Timed for chaiba.stats().
void runTick(bool betweenFrames) {
    const double start = emscripten_get_now();
    gLoop.app->tick();
    const double ms = emscripten_get_now() - start;
    if (gLoop.framesRendered > 5) {
        gLoop.maxTickCpuMs = std::max(gLoop.maxTickCpuMs, ms);
        gLoop.sumTickCpuMs += ms;
        ++gLoop.measuredTicks;
        if (betweenFrames) ++gLoop.ticksBetweenFrames;
        if (ms > 8.0) ++gLoop.ticksOver8Ms;
    }
    // A poll that stopped at its limit left answers waiting: the next slice runs soon, as a task
    // of its own, so that a frame or an input event can come first.
    if (gLoop.transport->backlog()) js_schedule_pump();
}

void frame() {
    ++gLoop.loopCalls;
    runTick(false);  // network and players progress even when nothing is drawn
    const double now = emscripten_get_now();
    chaiba::web::imageAtlases().update(now);  // piece images: a settled size is rasterised, old ones freed
    static uint64_t drawnChanges = 0;
    const uint64_t changes = gLoop.app->changeCounter();
    const bool input = chaiba::web::takeWakeRequest();
    if (input) gLoop.lastInputMs = now;
    const bool woke = input || changes != drawnChanges;
    drawnChanges = changes;
    if (woke) gLoop.framesToRender = kSettleFrames;
    const bool busy = gLoop.app->wantsContinuousFrames();
    if (!busy && gLoop.framesToRender <= 0 && now - gLoop.lastRenderMs < kHeartbeatMs) return;
    // Content changes alone (answers, moves, timers) redraw at the screen's calmer rate; input keeps
    // the full rate for a moment after it.
    if (now - gLoop.lastInputMs > kInputFullRateMs && now - gLoop.lastRenderMs < gLoop.app->contentFrameIntervalMs())
        return;
    if (gLoop.framesToRender > 0) --gLoop.framesToRender;

    if (chaiba::web::takeResizeRequest()) {
        gLoop.canvas = chaiba::web::fitCanvasToWindow();
        rebuildFontsIfNeeded();
        gLoop.framesToRender = kSettleFrames;
    }

    ImGui_ImplOpenGL3_NewFrame();
    chaiba::web::beforeImGuiNewFrame();
    ImGui_ImplGlfw_NewFrame();
    chaiba::web::afterImGuiNewFrame(gLoop.canvas);
    ImGui::NewFrame();
    chaiba::web::afterNewFrame();
    {
        chaiba::net::SectionTimer timer("frame.app");
        chaiba::web::textAreas().setPixelRatio(gLoop.canvas.pixelRatio);
        gLoop.app->frame();
        chaiba::web::textAreas().endFrame(); // the text editors this frame did not place are hidden
    }
    {
        chaiba::net::SectionTimer timer("frame.render");
        ImGui::Render();
        chaiba_gl_note_viewport(0, 0, gLoop.canvas.pixelWidth(), gLoop.canvas.pixelHeight()); // web/gl_state_shim.cpp
        const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        glClearColor(bg.x, bg.y, bg.z, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }

    chaiba::web::setKeyboardCaptured(ImGui::GetIO().WantCaptureKeyboard && ImGui::GetIO().WantTextInput);
    gLoop.lastRenderMs = now;
    ++gLoop.framesRendered;
    gLoop.lastFrameCpuMs = emscripten_get_now() - now;
    if (gLoop.framesRendered > 5) {
        if (gLoop.lastFrameCpuMs > gLoop.maxFrameCpuMs) gLoop.maxFrameCpuMs = gLoop.lastFrameCpuMs;
        gLoop.sumFrameCpuMs += gLoop.lastFrameCpuMs;
        ++gLoop.measuredFrames;
        if (gLoop.lastFrameCpuMs > 16.0) ++gLoop.framesOver16Ms;
    }
    if (!gLoop.overlayHidden && gLoop.framesRendered >= 2) {
        chaiba::web::hideLoadingOverlay();
        gLoop.overlayHidden = true;
    }
}

EM_JS(void, js_install_automation_api, (), {
    var call = function(name) {
        var ptr = Module['ccall'](name, 'number', [], []);
        var text = UTF8ToString(ptr);
        _free(ptr);
        return JSON.parse(text);
    };
    window.chaiba = window.chaiba || {};
    window.chaiba.stats = function() {
        var stats = call('chaiba_stats_json');
        // Where the HTTP requests and IndexedDB writes went (web/io_client.js): the I/O worker, or
        // the page (before the worker ran, or without one).
        var io = Module['chaibaIo'];
        if (io) stats.io = { worker: io.ready, workerDb: io.dbReady, failed: io.failed, dbFailed: io.dbFailed,
                             requestsInWorker: io.requestsInWorker, requestsOnPage: io.requestsOnPage,
                             writesInWorker: io.writesInWorker, writesOnPage: io.writesOnPage };
        return stats;
    };
    window.chaiba.ui = function() { return call('chaiba_ui_json'); };
    var text = function(name, args) {
        var types = args.map(function() { return 'string'; });
        var ptr = Module['ccall'](name, 'number', types, args);
        var out = UTF8ToString(ptr);
        _free(ptr);
        if (out) throw new Error(out);
    };
    // configure({apiKey, baseUrl}): either may be omitted; an empty apiKey forgets the key.
    window.chaiba.configure = function(o) {
        o = o || {};
        if ("timeoutSeconds" in o) text('chaiba_configure_timeout', [String(o.timeoutSeconds)]);
        text('chaiba_configure', ["apiKey" in o ? "1" : "0", String(o.apiKey || ""),
                                  "baseUrl" in o ? "1" : "0", String(o.baseUrl || "")]);
    };
    // A screen's command: the argument goes as JSON, the answer comes back as JSON; a refused
    // command throws with the reason.
    var command = function(screen, name, argument) {
        var ptr = Module['ccall']('chaiba_screen_command', 'number', ['string', 'string', 'string'],
                                  [screen, name, argument === undefined ? "" : argument]);
        var out = JSON.parse(UTF8ToString(ptr));
        _free(ptr);
        if ('error' in out) throw new Error(out.error);
        return out.result;
    };
    var screenState = function(screen) {
        var ptr = Module['ccall']('chaiba_screen_state', 'number', ['string'], [screen]);
        var text = UTF8ToString(ptr);
        _free(ptr);
        return JSON.parse(text);
    };
    // A command whose answer may come later ({pending: true} until then): asked again every
    // 20 ms; a promise of its answer.
    var later = function(ask) {
        return new Promise(function(resolve, reject) {
            var poll = function() {
                try {
                    var r = ask();
                    if (r && r.pending) setTimeout(poll, 20);
                    else resolve(r);
                } catch (e) { reject(e); }
            };
            poll();
        });
    };
    // One shape for every mode: window.chaiba.<mode> = {state(), command(name, argument), show()
    // (screens), and a method per command, camelCase, as the C++ side lists them}. A method takes one
    // value (an object, a string, a number; a document also as its JSON text) and returns the
    // answer; a refused command throws with the reason; a command that answers later returns a
    // promise of its answer.
    var endpoints = call('chaiba_endpoints_json');
    endpoints.forEach(function(e) {
        var api = {
            state: function() { return screenState(e.id); },
            command: function(name, argument) {
                return command(e.id, String(name), argument === undefined ? "" : JSON.stringify(argument));
            }
        };
        if (e.screen) api.show = function() { window.chaiba.show(e.id); };
        e.commands.forEach(function(c) {
            api[c.name] = c.async ? function(argument) { return later(function() { return api.command(c.name, argument); }); }
                                  : function(argument) { return api.command(c.name, argument); };
        });
        window.chaiba[e.api] = api;
    });
    // The match's shorthands at the top (the first screen): chaiba.state(), newMatch, start, pause, pgn.
    ['state', 'newMatch', 'start', 'pause', 'pgn'].forEach(function(name) {
        window.chaiba[name] = function(argument) { return window.chaiba.match[name](argument); };
    });
    // Why saving fails although what was stored was read (a full localStorage), or "".
    window.chaiba.storageWarning = function() { return Module['chaibaStorageWarning'] || ""; };
    window.chaiba.resetStats = function() { Module['ccall']('chaiba_reset_stats', null, [], []); };
    window.chaiba.show = function(screen) { text('chaiba_show', [String(screen)]); };
    window.chaiba.ready = true;
});

} // namespace

extern "C" EMSCRIPTEN_KEEPALIVE char* chaiba_stats_json() {
    const double avg = gLoop.measuredFrames ? gLoop.sumFrameCpuMs / static_cast<double>(gLoop.measuredFrames) : 0.0;
    const double avgTick = gLoop.measuredTicks ? gLoop.sumTickCpuMs / static_cast<double>(gLoop.measuredTicks) : 0.0;
    nlohmann::json stats = {
        {"loopCalls", gLoop.loopCalls}, {"framesRendered", gLoop.framesRendered},
        {"lastFrameCpuMs", gLoop.lastFrameCpuMs}, {"maxFrameCpuMs", gLoop.maxFrameCpuMs}, {"avgFrameCpuMs", avg},
        {"framesOver16Ms", gLoop.framesOver16Ms}, {"measuredFrames", gLoop.measuredFrames},
        {"avgTickCpuMs", avgTick}, {"maxTickCpuMs", gLoop.maxTickCpuMs}, {"measuredTicks", gLoop.measuredTicks},
        {"ticksBetweenFrames", gLoop.ticksBetweenFrames}, {"ticksOver8Ms", gLoop.ticksOver8Ms},
        {"pixelRatio", gLoop.canvas.pixelRatio}, {"canvasWidth", gLoop.canvas.pixelWidth()},
        {"canvasHeight", gLoop.canvas.pixelHeight()}, {"lastWheelY", chaiba::web::lastWheelY()},
        {"imageAtlasesMade", chaiba::web::imageAtlases().made()},
        {"workerScoreRequests", chaiba::web::WorkerPositionScorer::requestsSent()},
        // The WASM heap in use (malloc's allocated bytes): HEAP8's length only says the peak.
        {"wasmHeapInUseBytes", static_cast<double>(mallinfo().uordblks)}};
    // Where the tick's and the frame's time went since the last reset, costliest first.
    nlohmann::json sections = nlohmann::json::array();
    for (const chaiba::net::SectionFigures& s : chaiba::net::sectionFigures())
        sections.push_back({{"name", s.name}, {"count", s.count}, {"totalMs", s.totalMs}, {"worstMs", s.worstMs}});
    stats["sections"] = std::move(sections);
    const std::string text = stats.dump();
    char* out = static_cast<char*>(std::malloc(text.size() + 1));
    std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
}

namespace {
char* mallocCopy(const std::string& text) {
    char* out = static_cast<char*>(std::malloc(text.size() + 1));
    std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
}
} // namespace

extern "C" EMSCRIPTEN_KEEPALIVE char* chaiba_ui_json() { return mallocCopy(chaiba::ui::itemsJson(gLoop.canvas.pixelRatio)); }

// Automation API entry points (window.chaiba.*): the shell's return "" or an error message.
extern "C" EMSCRIPTEN_KEEPALIVE char* chaiba_configure(const char* setKey, const char* key, const char* setUrl,
                                                       const char* url) {
    auto error = gLoop.app->configure(key, url, setKey[0] == '1', setUrl[0] == '1');
    chaiba::web::takeWakeRequest();
    return mallocCopy(error ? *error : "");
}
extern "C" EMSCRIPTEN_KEEPALIVE char* chaiba_configure_timeout(const char* seconds) {
    auto error = gLoop.app->setRequestTimeout(std::atoi(seconds));
    return mallocCopy(error ? *error : "");
}
extern "C" EMSCRIPTEN_KEEPALIVE char* chaiba_show(const char* screen) {
    auto error = gLoop.app->showScreen(screen);
    chaiba::web::requestWake();
    return mallocCopy(error ? *error : "");
}
// The tick between frames (js_schedule_pump): nothing runs before the app exists.
extern "C" EMSCRIPTEN_KEEPALIVE void chaiba_pump() {
    if (gLoop.app) runTick(true);
}

extern "C" EMSCRIPTEN_KEEPALIVE void chaiba_reset_stats() {
    gLoop.maxFrameCpuMs = gLoop.sumFrameCpuMs = 0.0;
    gLoop.measuredFrames = gLoop.framesOver16Ms = 0;
    gLoop.maxTickCpuMs = gLoop.sumTickCpuMs = 0.0;
    gLoop.measuredTicks = gLoop.ticksBetweenFrames = gLoop.ticksOver8Ms = 0;
    chaiba::net::resetSectionFigures();
}

// The endpoints of window.chaiba and their commands (App::endpointsJson).
extern "C" EMSCRIPTEN_KEEPALIVE char* chaiba_endpoints_json() { return mallocCopy(gLoop.app->endpointsJson()); }

// A screen's state (JSON) and commands, dispatched by the app to the screen with that id.
extern "C" EMSCRIPTEN_KEEPALIVE char* chaiba_screen_state(const char* screen) {
    std::string state;
    if (auto error = gLoop.app->screenState(screen, &state))
        return mallocCopy(nlohmann::json{{"error", *error}}.dump());
    return mallocCopy(state);
}
// Answers {"result": <the command's JSON answer or null>} or {"error": "why"}.
extern "C" EMSCRIPTEN_KEEPALIVE char* chaiba_screen_command(const char* screen, const char* name,
                                                            const char* argumentJson) {
    const chaiba::CommandResult r = gLoop.app->screenCommand(screen, name, argumentJson);
    chaiba::web::requestWake();
    nlohmann::json out = nlohmann::json::object();
    if (r.error) out["error"] = *r.error;
    else out["result"] = r.resultJson.empty() ? nlohmann::json(nullptr) : nlohmann::json::parse(r.resultJson, nullptr, false);
    return mallocCopy(out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

int main() {
    glfwSetErrorCallback([](int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); });
    if (!glfwInit()) {
        chaiba::web::showFatalError("The page could not start.", "GLFW failed to initialise in this browser.");
        return 1;
    }
    gLoop.canvas = chaiba::web::fitCanvasToWindow();
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    // An opaque canvas with no depth or stencil buffer: ImGui uses neither, every frame is cleared
    // opaque, and the compositor then copies the canvas instead of blending it over the page (less
    // work for the GPU process each frame; with software GL it shares the cores with the page).
    glfwWindowHint(GLFW_ALPHA_BITS, 0);
    glfwWindowHint(GLFW_DEPTH_BITS, 0);
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    gLoop.window = glfwCreateWindow(gLoop.canvas.pixelWidth(), gLoop.canvas.pixelHeight(), "CHAIBA", nullptr, nullptr);
    if (!gLoop.window) {
        chaiba::web::showFatalError("WebGL 2 is not available.",
                                    "CHAIBA draws with WebGL 2. Turn on hardware acceleration in the browser "
                                    "settings or try another browser.");
        return 1;
    }
    glfwMakeContextCurrent(gLoop.window);
    gLoop.canvas = chaiba::web::fitCanvasToWindow();  // createWindow resized the canvas; take it back

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // layout is computed each frame; nothing to persist
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    ImGui_ImplGlfw_InitForOpenGL(gLoop.window, true);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    chaiba::web::installBrowserFixes(gLoop.window);

    // A full localStorage is still read (key, settings, the current game); only saving fails.
    const chaiba::web::LocalStorageStore::Probe storage = chaiba::web::LocalStorageStore::probe();
    const bool persistent = storage.readable;
    if (persistent) {
        gLoop.store = std::make_unique<chaiba::web::LocalStorageStore>();
    } else {
        gLoop.store = std::make_unique<chaiba::MemoryStore>();
    }
    // Tournaments outgrow localStorage: they live in IndexedDB (memory only, with a warning, when
    // this browser has none). The settings and the API key stay in localStorage.
    std::string arenaWarning;
    if (auto why = chaiba::web::IndexedDbStore::unavailableReason()) {
        gLoop.arenaStore = std::make_unique<chaiba::MemoryStore>();
        arenaWarning = "Tournaments are not kept in this browser (" + *why + ").";
    } else {
        gLoop.arenaStore = std::make_unique<chaiba::web::IndexedDbStore>();
    }
    gLoop.transport = std::make_unique<chaiba::web::WebHttpTransport>();
    // Answers are delivered one a tick, each tick soon after they arrive: the page's main thread
    // never holds a pile of answers for one long tick.
    gLoop.transport->setFinishedPerPoll(kAnswersPerTick);
    gLoop.transport->setOnFinishedArrival([] { js_schedule_pump(); });
    gLoop.assets = std::make_unique<chaiba::llm::DirectoryAssetSource>("/assets");
    chaiba::AppServices services;
    services.store = gLoop.store.get();
    services.platform = &gLoop.platform;
    services.storagePersistent = persistent;
    if (persistent && !storage.writable)
        services.storageWarning = "this browser's local storage is full: what was stored is shown, but "
                                  "settings, the key and the current game cannot be saved until space is freed "
                                  "(clear other sites' data or this site's old data)";
    EM_ASM({ Module['chaibaStorageWarning'] = UTF8ToString($0); }, services.storageWarning.c_str());
    services.transport = gLoop.transport.get();
    services.clock = &gLoop.clock;
    services.assets = gLoop.assets.get();
    chaiba::PageServices page;
    page.largeStore = gLoop.arenaStore.get();
    page.largeStoreWarning = arenaWarning;
    page.takeStorageError = [] { return chaiba::web::IndexedDbStore::takeWriteError(); };
    page.chess.maxEngineLevel = chaiba::search::maxLevel();
    page.chess.engineRating = [](int level) -> std::optional<double> {
        auto spec = chaiba::search::levelSpec(level < 0 ? chaiba::search::maxLevel() : level);
        if (!spec || spec->ratingElo <= 0) return std::nullopt;
        return double(spec->ratingElo);
    };
    page.chess.engineName = [](int level) {
        auto spec = chaiba::search::levelSpec(level);
        return spec ? chaiba::search::levelLabel(*spec) : std::string("engine level ") + std::to_string(level);
    };
    page.chess.makeEngine = [](const std::string& id, int level, uint64_t seed,
                             int delayMs) -> std::unique_ptr<chaiba::chessmode::Player> {
        auto spec = chaiba::search::levelSpec(level);
        if (!spec) return nullptr;
        return std::make_unique<chaiba::web::WorkerEnginePlayer>(id, *spec, seed, delayMs);
    };
    page.chess.makeScorer = []() -> std::unique_ptr<chaiba::chessmode::PositionScorer> {
        return std::make_unique<chaiba::web::WorkerPositionScorer>();
    };
    page.chess.analysisShareWhileRunning = chaiba::web::WorkerPositionScorer::shareWhileGamesRun();
    page.makeBootstrapRunner = []() -> std::unique_ptr<chaiba::play::BootstrapRunner> {
        return std::make_unique<chaiba::web::WorkerBootstrapRunner>();
    };
    services.makeModes = [page = std::move(page)](chaiba::ModeHost& host) { return chaiba::makePageModes(host, page); };
    gLoop.app = std::make_unique<chaiba::App>(std::move(services));
    rebuildFontsIfNeeded();
    js_install_automation_api();
    emscripten_set_main_loop(frame, 0, false);
    return 0;
}
