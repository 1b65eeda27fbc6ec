// App: lifecycle, header, settings, catalog and key check, game start/restore and autosave, and
// the automation API. The match screen's drawing is in match_screen.cpp.
#include "src/app/app.h"

#include "src/modes/chess/chess_agent.h"
#include "src/modes/chess/players.h"
#include "src/ui/format.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace chaiba {

using nlohmann::json;

namespace {

constexpr const char* kGameStoreKey = "chaiba.game";
constexpr const char* kCatalogStoreKey = "chaiba.catalog";
constexpr const char* kCatalogTimeStoreKey = "chaiba.catalog.time";
constexpr long long kCatalogMaxAgeSeconds = 12 * 3600;
constexpr const char* kScreenStoreKey = "chaiba.screen";

std::string perMillion(double usdPerToken) {
    char buf[32];
    const double m = usdPerToken * 1e6;
    if (m == 0) return "$0";
    std::snprintf(buf, sizeof buf, m < 1 ? "$%.2f" : (m < 10 ? "$%.2f" : "$%.0f"), m);
    return buf;
}

// The catalog is cached as a compact JSON list (only what the app uses).
std::string encodeCatalog(const std::vector<llm::ModelInfo>& models) {
    json list = json::array();
    for (const auto& m : models)
        list.push_back({{"id", m.id},
                        {"name", m.name},
                        {"context", m.contextLength},
                        {"in", m.pricing.promptUsdPerToken},
                        {"out", m.pricing.completionUsdPerToken},
                        {"tools", m.supportsTools},
                        {"reasoning", m.supportsReasoning}});
    return list.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<std::vector<llm::ModelInfo>> decodeCatalog(const std::string& text) {
    json list = json::parse(text, nullptr, false);
    if (list.is_discarded() || !list.is_array()) return std::nullopt;
    std::vector<llm::ModelInfo> out;
    for (const json& e : list) {
        if (!e.is_object() || !e.contains("id") || !e["id"].is_string()) return std::nullopt;
        llm::ModelInfo m;
        m.id = e["id"].get<std::string>();
        if (e.contains("name") && e["name"].is_string()) m.name = e["name"].get<std::string>();
        if (e.contains("context") && e["context"].is_number_integer()) m.contextLength = e["context"].get<long long>();
        if (e.contains("in") && e["in"].is_number()) m.pricing.promptUsdPerToken = e["in"].get<double>();
        if (e.contains("out") && e["out"].is_number()) m.pricing.completionUsdPerToken = e["out"].get<double>();
        if (e.contains("tools") && e["tools"].is_boolean()) m.supportsTools = e["tools"].get<bool>();
        if (e.contains("reasoning") && e["reasoning"].is_boolean()) m.supportsReasoning = e["reasoning"].get<bool>();
        out.push_back(std::move(m));
    }
    return out;
}

} // namespace

App::App(AppServices services) : services_(std::move(services)) {
    SettingsLoad load = loadSettings(*services_.store);
    settings_ = load.settings;
    loadWarnings_ = load.warnings;
    if (!services_.storagePersistent)
        loadWarnings_.push_back("this browser does not allow local storage: settings and games will not be kept");
    if (!loadWarnings_.empty()) {
        std::string text;
        for (const auto& w : loadWarnings_) text += (text.empty() ? "" : "\n") + w;
        settingsPanel_.notice = text;
        settingsPanel_.noticeIsError = true;
    }
    if (services_.assets) {
        llm::Result<chessmode::AgentPrompts> prompts = chessmode::loadAgentPrompts(*services_.assets);
        if (prompts.isOk()) prompts_ = *prompts.value;
        else promptsError_ = "the model prompts could not be loaded: " + prompts.error;
        llm::Result<llm::DefaultModels> models = llm::loadDefaultModels(*services_.assets);
        if (models.isOk()) defaultModels_ = models.value->models;
        if (defaultModels_.empty()) defaultModels_.push_back("openai/gpt-4o");
    }
    if (auto cached = services_.store->get(kCatalogStoreKey)) {
        if (auto models = decodeCatalog(*cached)) {
            catalog_ = std::move(*models);
            catalogStatus_ = std::to_string(catalog_.size()) + " models (cached)";
        }
    }
    ensureChat();
    session_ = std::make_unique<MatchSession>(sessionEnvironment());

    // The default game: engines when there is no key (one click shows a live game), else two
    // models from the default list.
    if (settings_.apiKey.empty()) {
        lastSetup_.white = PlayerSpec{PlayerKind::Engine, "", std::min(4, services_.maxEngineLevel)};
        lastSetup_.black = PlayerSpec{PlayerKind::Engine, "", std::min(2, services_.maxEngineLevel)};
    } else {
        const auto& list = settings_.selectedModels.empty() ? defaultModels_ : settings_.selectedModels;
        lastSetup_.white = PlayerSpec{PlayerKind::Llm, list[0], 0};
        lastSetup_.black = PlayerSpec{PlayerKind::Llm, list.size() > 1 ? list[1] : list[0], 0};
    }
    if (auto saved = services_.store->get(kGameStoreKey)) {
        if (auto error = session_->restore(*saved, settings_)) {
            services_.store->set(std::string(kGameStoreKey) + ".corrupt", *saved);
            gameError_ = "The saved game could not be restored (" + *error + "); it was kept aside.";
            session_ = std::make_unique<MatchSession>(sessionEnvironment());
        } else {
            lastSetup_ = session_->setup();
            savedRevision_ = session_->revision();
        }
    }
    // The arena: the default field, then whatever tournament this browser kept.
    if (services_.assets) {
        llm::Result<std::string> suite = services_.assets->read("chess/openings/classical.json");
        chessmode::Parsed<std::vector<chessmode::Opening>> parsed =
            suite.isOk() ? ArenaSession::parseOpeningSuite(*suite.value)
                         : chessmode::Parsed<std::vector<chessmode::Opening>>::fail(suite.error);
        if (parsed.ok()) openingSuite_ = *parsed.value;
        else openingSuiteError_ = "(opening suite unavailable: " + parsed.error + ")";
    }
    ensureChat();
    arena_ = std::make_unique<ArenaSession>(arenaEnvironment());
    arena_->draft() = ArenaSession::defaultDraft(settings_.selectedModels.empty() ? defaultModels_ : settings_.selectedModels,
                                                 !settings_.apiKey.empty(), services_.maxEngineLevel);
    arena_->load(settings_, services_.platform ? services_.platform->nowMs() : 0.0);
    if (auto screen = services_.store->get(kScreenStoreKey)) screen_ = *screen == "arena" ? Screen::Arena : Screen::Match;

    // The catalog is public, but only worth fetching for someone who can use it: with a key, and
    // when the cached copy is older than 12 hours (the New Game dialog can refresh it by hand).
    long long fetchedAt = 0;
    if (auto t = services_.store->get(kCatalogTimeStoreKey)) fetchedAt = std::atoll(t->c_str());
    const long long age = static_cast<long long>(std::time(nullptr)) - fetchedAt;
    if (!settings_.apiKey.empty() && (catalog_.empty() || age > kCatalogMaxAgeSeconds)) refreshCatalog();
}

App::~App() {
    session_.reset();  // players cancel their calls before the clients go
    arena_.reset();
}

ArenaEnvironment App::arenaEnvironment() {
    ArenaEnvironment e;
    e.store = services_.arenaStore ? services_.arenaStore : services_.store;
    e.chat = settings_.apiKey.empty() ? nullptr : chat_;
    e.prompts = promptsError_.empty() ? &prompts_ : nullptr;
    e.makeEngine = services_.makeEngine;
    e.engineName = services_.engineName;
    e.engineRating = services_.engineRating;
    e.maxEngineLevel = services_.maxEngineLevel;
    e.modelInfo = [this](const std::string& id) -> std::optional<llm::ModelInfo> {
        for (const auto& m : catalog_)
            if (m.id == id) return m;
        return std::nullopt;
    };
    e.apiKey = [this] { return settings_.apiKey; };
    return e;
}

void App::showScreen(Screen screen) {
    screen_ = screen;
    services_.store->set(kScreenStoreKey, screen == Screen::Arena ? "arena" : "match");
}

void App::setFonts(const ui::Fonts& fonts, float pixelRatio) {
    fonts_ = fonts;
    pixelRatio_ = pixelRatio;
}

SessionEnvironment App::sessionEnvironment() {
    SessionEnvironment env;
    env.chat = settings_.apiKey.empty() ? nullptr : chat_;
    env.prompts = promptsError_.empty() ? &prompts_ : nullptr;
    env.makeEngine = services_.makeEngine;
    env.engineName = services_.engineName;
    env.maxEngineLevel = services_.maxEngineLevel;
    env.supportsTools = [this](const std::string& model) {
        for (const auto& m : catalog_)
            if (m.id == model) return m.supportsTools;
        return true;  // unknown (a local server): try tools; the agent falls back on prose answers
    };
    return env;
}

void App::ensureChat() {
    if (chat_ && chat_->config().apiKey == settings_.apiKey && chat_->config().baseUrl == settings_.baseUrl) return;
    if (!services_.transport || !services_.clock) return;
    llm::OpenRouterConfig config;
    config.apiKey = settings_.apiKey;
    config.baseUrl = settings_.baseUrl;
    config.title = "CHAIBA";
    clients_.push_back(std::make_unique<llm::OpenRouterClient>(*services_.transport, *services_.clock, config));
    chat_ = clients_.back().get();
}

void App::refreshCatalog() {
    if (!chat_ || catalogLoading_) return;
    catalogLoading_ = true;
    if (catalog_.empty()) catalogStatus_ = "loading the model catalog\xE2\x80\xA6";
    chat_->fetchModels([this](llm::Result<std::vector<llm::ModelInfo>> r) {
        catalogLoading_ = false;
        ++asyncChanges_;
        if (!r.isOk()) {
            catalogStatus_ = "catalog unavailable (" + r.error + ")" + (catalog_.empty() ? "" : "; showing the cached list");
            return;
        }
        catalog_ = std::move(*r.value);
        std::sort(catalog_.begin(), catalog_.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        catalogStatus_ = std::to_string(catalog_.size()) + " models";
        services_.store->set(kCatalogStoreKey, encodeCatalog(catalog_));
        services_.store->set(kCatalogTimeStoreKey, std::to_string(static_cast<long long>(std::time(nullptr))));
    });
}

void App::checkKey() {
    ensureChat();
    if (settings_.apiKey.empty()) {
        keyStatus_ = "No key stored.";
        return;
    }
    keyStatus_ = "checking the key\xE2\x80\xA6";
    chat_->checkKey([this](llm::Result<llm::KeyInfo> r) {
        ++asyncChanges_;
        if (!r.isOk()) {
            keyStatus_ = "The key was not accepted: " + r.error;
            return;
        }
        const llm::KeyInfo& k = *r.value;
        keyStatus_ = "Key \"" + k.label + "\" works";
        if (k.limitRemainingUsd) keyStatus_ += " \xC2\xB7 " + formatCost(*k.limitRemainingUsd) + " credit left";
        else keyStatus_ += " \xC2\xB7 no credit limit";
        keyStatus_ += " \xC2\xB7 used " + formatCost(k.usageUsd);
        if (k.isFreeTier) keyStatus_ += " \xC2\xB7 free tier";
    });
}

ui::NewGameContext App::newGameContext() const {
    ui::NewGameContext c;
    c.haveKey = !settings_.apiKey.empty();
    c.maxEngineLevel = services_.maxEngineLevel;
    c.engineName = services_.engineName;
    c.catalogStatus = catalogStatus_;
    if (!catalog_.empty()) {
        for (const auto& m : catalog_)
            c.models.push_back({m.id, perMillion(m.pricing.promptUsdPerToken) + " / " +
                                          perMillion(m.pricing.completionUsdPerToken) + " per M",
                                m.supportsTools});
    } else {
        for (const auto& id : settings_.selectedModels.empty() ? defaultModels_ : settings_.selectedModels)
            c.models.push_back({id, "", true});
    }
    return c;
}

std::optional<std::string> App::startGame(const GameSetup& setup) {
    // Check what can fail before the current game is dropped.
    ValidatedStart check = validateStart(setup, 1);
    if (!check.start) return check.error;
    const bool wantsLlm = setup.white.kind == PlayerKind::Llm || setup.black.kind == PlayerKind::Llm;
    if (wantsLlm && settings_.apiKey.empty()) return std::string("language models need an OpenRouter API key: add one in Settings");
    if (wantsLlm && !promptsError_.empty()) return promptsError_;
    if (session_ && session_->runner()) {
        sessionCostUsd_ += session_->totalCostUsd();
    }
    session_.reset();
    ensureChat();
    session_ = std::make_unique<MatchSession>(sessionEnvironment());
    const uint64_t seed = static_cast<uint64_t>(services_.platform->nowMs() * 1000.0) ^ 0x9E3779B97F4A7C15ull;
    if (auto error = session_->newGame(setup, settings_, seed)) return error;
    lastSetup_ = setup;
    navigator_.goLive();
    board_.clearSelection();
    animatedMoves_ = session_->runner() ? session_->runner()->moves().size() : 0;
    gameError_.clear();
    autosaveGame();
    return std::nullopt;
}

void App::save() {
    if (auto error = saveSettings(*services_.store, settings_)) {
        settingsPanel_.notice = "Not saved: " + *error;
        settingsPanel_.noticeIsError = true;
    } else if (settingsPanel_.noticeIsError && loadWarnings_.empty()) {
        settingsPanel_.notice.clear();
    }
}

void App::autosaveGame() {
    if (!session_ || !session_->runner()) return;
    if (session_->revision() == savedRevision_) return;
    savedRevision_ = session_->revision();
    if (auto error = services_.store->set(kGameStoreKey, session_->saveJson()))
        gameError_ = "The game could not be saved in this browser: " + *error;
}

void App::tick() {
    for (auto& c : clients_) c->poll();
    if (!chat_ && services_.transport) services_.transport->poll();
    if (session_) session_->poll();
    autosaveGame();
    if (arena_) {
        ensureChat();  // a key typed in Settings reaches new arena players
        arena_->setChat(settings_.apiKey.empty() ? nullptr : chat_);
        arena_->poll(services_.platform->nowMs());
    }
    if (services_.takeStorageError) {
        if (auto error = services_.takeStorageError()) arenaNotice_ = "Not saved in this browser: " + *error;
    }
}

uint64_t App::changeCounter() const {
    return asyncChanges_ + (session_ ? session_->revision() : 0) + clients_.size() + (arena_ ? arena_->revision() : 0);
}

bool App::wantsContinuousFrames() const {
    const double now = services_.platform->nowMs();
    if (board_.busy(now)) return true;
    if (screen_ == Screen::Match && session_ && session_->runner() && session_->runner()->thinking()) return true;
    if (screen_ == Screen::Arena && arena_ && arena_->busy()) return true;
    return catalogLoading_;
}

void App::frame() {
    if (appliedTheme_ != settings_.theme || appliedRatio_ != pixelRatio_) {
        ui::applyTheme(settings_.theme, pixelRatio_);
        appliedTheme_ = settings_.theme;
        appliedRatio_ = pixelRatio_;
    }
    ui::beginItemFrame();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    const bool visible = ImGui::Begin("CHAIBA##main", nullptr, flags);
    ImGui::PopStyleVar();
    if (visible) {
        drawHeader();
        if (screen_ == Screen::Arena) drawArenaScreen();
        else drawMatchScreen();
    }
    ImGui::End();
    drawArenaResetConfirm();
    drawArenaImport();
    const std::string keyBefore = settings_.apiKey;
    ui::SettingsContext settingsContext;
    if (settingsPanel_.open) {
        settingsContext.defaultPromptBase = prompts_.systemBase;
        settingsContext.defaultPromptWhite = prompts_.systemWhite;
        settingsContext.defaultPromptBlack = prompts_.systemBlack;
        settingsContext.defaultModels = defaultModels_;
        for (const auto& m : catalog_) settingsContext.catalogIds.push_back(m.id);
    }
    if (settingsPanel_.DrawWindow(fonts_, settings_, settingsContext)) {
        save();
        if (settings_.apiKey != keyBefore) keyStatus_.clear();
    }
    if (settingsPanel_.open) {
        settingsPanel_.keyStatus = keyStatus_;
        if (settingsPanel_.takeCheckKeyRequest()) checkKey();
    }
    if (newGame_.takeRefreshRequest()) {
        ensureChat();
        refreshCatalog();
    }
    if (auto setup = newGame_.DrawWindow(fonts_, newGameContext())) {
        if (auto error = startGame(*setup)) newGame_.error = *error;
        else newGame_.open = false;
    }
    drawInstructionsEditor();
    drawDebugWindows();
    ui::endItemFrame();
}

void App::drawHeader() {
    const ui::Palette& pal = ui::palette();
    const ImGuiStyle& style = ImGui::GetStyle();
    const char* tagline = "language models play chess";
    const double cost = sessionCostUsd_ + (session_ ? session_->totalCostUsd() : 0) + (arena_ ? arena_->spentUsd() : 0);
    const std::string costText = "session " + formatCost(cost);
    const char* keyState = settings_.apiKey.empty() ? "No API key \xC2\xB7 engines play" : "\xE2\x9C\x93 API key set";
    ImGui::PushFont(fonts_.bold);
    ImGui::SetWindowFontScale(1.5f);
    const float titleW = ImGui::CalcTextSize("CHAIBA").x;
    ImGui::TextUnformatted("CHAIBA");
    ImGui::SetWindowFontScale(1.0f);
    ImGui::PopFont();
    // The two screens, as tabs next to the wordmark.
    float tabsW = 0;
    for (const Screen screen : {Screen::Match, Screen::Arena}) {
        const char* label = screen == Screen::Match ? "Match" : "Arena";
        const bool active = screen_ == screen;
        ImGui::SameLine(0, screen == Screen::Match ? style.ItemSpacing.x * 3 : style.ItemSpacing.x);
        if (active) {
            ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_Text));
        }
        ImGui::PushFont(fonts_.bold);
        if (ImGui::Button(label)) showScreen(screen);
        ImGui::PopFont();
        if (active) ImGui::PopStyleColor(2);
        ui::markItem(screen == Screen::Match ? "header.match" : "header.arena");
        tabsW += ImGui::GetItemRectSize().x + style.ItemSpacing.x * (screen == Screen::Match ? 3 : 1);
    }
    // Priority when narrow (phones): Settings always, then the cost, the key state, the tagline.
    const float buttonW = ImGui::CalcTextSize("Settings").x + style.FramePadding.x * 2;
    const float right = ImGui::GetWindowContentRegionMax().x;
    float free = right - ImGui::GetWindowContentRegionMin().x - titleW - tabsW - buttonW - style.ItemSpacing.x * 2;
    const float costW = ImGui::CalcTextSize(costText.c_str()).x + style.ItemSpacing.x;
    const bool showCost = free > costW;
    if (showCost) free -= costW;
    const float stateW = ImGui::CalcTextSize(keyState).x + style.ItemSpacing.x * 2;
    const bool showState = free > stateW;
    if (showState) free -= stateW;
    const bool showTagline = free > ImGui::CalcTextSize(tagline).x + style.ItemSpacing.x;
    if (showTagline) {
        ImGui::SameLine();
        ImGui::AlignTextToFramePadding();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "%s", tagline);
    }
    float x = right - buttonW;
    if (showState) {
        x -= stateW;
        ImGui::SameLine(x);
        ImGui::AlignTextToFramePadding();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(settings_.apiKey.empty() ? pal.muted : pal.ok), "%s", keyState);
    }
    if (showCost) {
        x -= costW;
        ImGui::SameLine(x);
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(costText.c_str());
        ui::markItem("header.cost");
    }
    ImGui::SameLine(right - buttonW);
    if (ImGui::Button("Settings")) settingsPanel_.open = !settingsPanel_.open;
    ui::markItem("header.settings");
    ImGui::Separator();
}

// ---- automation API ---------------------------------------------------------------------

std::string App::stateJson() const {
    json doc = json::object();
    doc["flipped"] = board_.flipped;
    doc["sessionCostUsd"] = sessionCostUsd_ + (session_ ? session_->totalCostUsd() : 0);
    doc["error"] = gameError_;
    const chessmode::MatchRunner* r = session_ ? session_->runner() : nullptr;
    if (!r) {
        doc["status"] = "empty";
        doc["fen"] = chess::Position::startPosition().fen();
        doc["moves"] = json::array();
        return doc.dump(-1, ' ', false, json::error_handler_t::replace);
    }
    doc["fen"] = r->game().position().fen();
    doc["startFen"] = r->game().startPosition().fen();
    json moves = json::array();
    int retries = 0;
    for (const auto& m : r->moves()) {
        if (m.ply >= 0) moves.push_back(m.san);
        retries += std::max(0, m.attempts - 1);
    }
    doc["moves"] = moves;
    doc["attemptsBeyondFirst"] = retries;
    switch (session_->phase()) {
    case SessionPhase::Empty: doc["status"] = "empty"; break;
    case SessionPhase::Running: doc["status"] = "running"; break;
    case SessionPhase::Paused: doc["status"] = "paused"; break;
    case SessionPhase::Finished: doc["status"] = "finished"; break;
    }
    doc["thinking"] = r->thinking();
    // The side whose draw offer is open ("white" / "black"), or null.
    if (const auto offer = session_->pendingDrawOffer())
        doc["drawOffer"] = *offer == chess::Color::White ? "white" : "black";
    else
        doc["drawOffer"] = nullptr;
    doc["result"] = r->result();
    doc["reason"] = r->termination();
    doc["white"] = session_->setup().white.text();
    doc["black"] = session_->setup().black.text();
    doc["costUsd"] = {{"white", r->costUsd(chess::Color::White)}, {"black", r->costUsd(chess::Color::Black)}};
    json errors = json::array();
    for (chess::Color side : {chess::Color::White, chess::Color::Black}) {
        const chessmode::Player* p = const_cast<MatchSession&>(*session_).player(side);
        const auto* llm = dynamic_cast<const chessmode::LlmPlayer*>(p);
        if (!llm) continue;
        auto* agent = const_cast<chessmode::LlmPlayer*>(llm)->agent();
        if (!agent) continue;
        for (const auto& note : agent->notes()) errors.push_back((side == chess::Color::White ? "white: " : "black: ") + note);
    }
    doc["notes"] = errors;
    return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<std::string> App::configure(const std::string& apiKey, const std::string& baseUrl, bool setKey,
                                          bool setUrl) {
    if (setKey) {
        if (!apiKey.empty())
            if (auto error = validateApiKey(apiKey)) return error;
        settings_.apiKey = apiKey;
    }
    if (setUrl) {
        if (auto error = validateBaseUrl(baseUrl)) return error;
        settings_.baseUrl = baseUrl;
    }
    save();
    ensureChat();
    if (!settings_.apiKey.empty()) refreshCatalog();
    return std::nullopt;
}

std::optional<std::string> App::newMatch(const std::string& white, const std::string& black, bool chess960,
                                         const std::string& fen) {
    PlayerSpecResult w = parsePlayerSpec(white, services_.maxEngineLevel);
    if (!w.spec) return "white: " + w.error;
    PlayerSpecResult b = parsePlayerSpec(black, services_.maxEngineLevel);
    if (!b.spec) return "black: " + b.error;
    GameSetup setup;
    setup.white = *w.spec;
    setup.black = *b.spec;
    if (!fen.empty()) {
        setup.mode = StartMode::Fen;
        setup.fen = fen;
    } else if (chess960) {
        setup.mode = StartMode::Chess960;
        setup.chess960Number = -1;
    }
    return startGame(setup);
}

std::optional<std::string> App::setRequestTimeout(int seconds) {
    if (seconds < 1 || seconds > 3600) return std::string("the answer timeout must be 1 to 3600 seconds");
    settings_.requestTimeoutSeconds = seconds;
    save();
    return std::nullopt;
}

void App::start() {
    if (!session_ || !session_->runner()) {
        if (auto error = startGame(lastSetup_)) gameError_ = *error;
        return;
    }
    if (session_->phase() == SessionPhase::Finished) {
        if (auto error = startGame(lastSetup_)) gameError_ = *error;
        return;
    }
    session_->setAutoPlay(true);
}

void App::pause() {
    if (session_) session_->setAutoPlay(false);
}

std::string App::pgn() const { return session_ ? session_->pgn() : std::string(); }

} // namespace chaiba
