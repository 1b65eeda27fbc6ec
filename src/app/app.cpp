// App: lifecycle, the one client, settings, catalog and key check, the header, the screen registry
// and the dispatch of the automation API. The screens themselves live in their modes.
#include "src/app/app.h"

#include "src/net/section_timer.h"
#include "src/ui/format.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace chaiba {

using nlohmann::json;

namespace {

constexpr const char* kCatalogStoreKey = "chaiba.catalog";
constexpr const char* kCatalogTimeStoreKey = "chaiba.catalog.time";
constexpr long long kCatalogMaxAgeSeconds = 12 * 3600;
constexpr const char* kScreenStoreKey = "chaiba.screen";

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

// Shown when the shell was given no mode (a test of the shell alone).
class NoModesScreen final : public ui::Screen {
public:
    std::string_view id() const override { return "none"; }
    std::string_view title() const override { return "CHAIBA"; }
    void tick(double) override {}
    void draw() override { ImGui::TextUnformatted("No mode is installed."); }
    bool wantsContinuousFrames() const override { return false; }
    uint64_t changeCounter() const override { return 0; }
    std::string stateJson() const override { return "{}"; }
    std::optional<std::string> command(std::string_view name, std::string_view, std::string*) override {
        return "no command '" + std::string(name) + "': no mode is installed";
    }
};

} // namespace

App::App(AppServices services) : services_(std::move(services)) {
    SettingsLoad load = loadSettings(*services_.store);
    settings_ = load.settings;
    loadWarnings_ = load.warnings;
    if (!services_.storagePersistent)
        loadWarnings_.push_back("this browser does not allow local storage: settings and games will not be kept");
    if (!services_.storageWarning.empty()) loadWarnings_.push_back(services_.storageWarning);
    if (services_.assets) {
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

    // What the screens read of the shell, then the screens (in header order).
    context_.fonts = &fonts_;
    context_.platform = services_.platform;
    context_.catalog = &catalog_;
    context_.catalogStatus = &catalogStatus_;
    context_.catalogLoading = &catalogLoading_;
    context_.selectedModels = &settings_.selectedModels;
    context_.defaultModels = &defaultModels_;
    context_.saveSettings = [this] { save(); };
    context_.openSettings = [this] { settingsPanel_.open = true; };
    context_.refreshCatalog = [this] {
        ensureChat();
        refreshCatalog();
    };
    context_.showScreen = [this](std::string_view id) { showScreen(id); };
    context_.shownScreen = [this] { return shown().id(); };
    ensureChat();
    // The modes, each adding its screens to the header in order.
    host_ = std::make_unique<ModeHost>(ModeHost{context_, services_.store, services_.platform, services_.transport,
                                                services_.clock, services_.assets, settings_, loadWarnings_,
                                                [this](const std::string& key) { return configure(key, "", true, false); },
                                                [this](std::string_view id) { showScreen(id); }});
    if (services_.makeModes) modules_ = services_.makeModes(*host_);
    // What could not be read of the stored settings (the shell's values and the modes'), at the
    // top of the Settings window.
    if (!loadWarnings_.empty()) {
        std::string text;
        for (const auto& w : loadWarnings_) text += (text.empty() ? "" : "\n") + w;
        settingsPanel_.notice = text;
        settingsPanel_.noticeIsError = true;
    }
    for (const auto& module : modules_)
        for (ui::Screen* screen : module->screens()) screens_.push_back(screen);
    if (screens_.empty()) {
        noModes_ = std::make_unique<NoModesScreen>();
        screens_.push_back(noModes_.get());
    }
    if (auto id = services_.store->get(kScreenStoreKey)) {
        for (size_t i = 0; i < screens_.size(); ++i)
            if (screens_[i]->id() == *id) shown_ = i;
    }

    // The catalog is public, but only worth fetching for someone who can use it: with a key, and
    // when the cached copy is older than 12 hours (the New Game dialog can refresh it by hand).
    long long fetchedAt = 0;
    if (auto t = services_.store->get(kCatalogTimeStoreKey)) fetchedAt = std::atoll(t->c_str());
    const long long age = static_cast<long long>(std::time(nullptr)) - fetchedAt;
    if (!settings_.apiKey.empty() && (catalog_.empty() || age > kCatalogMaxAgeSeconds)) refreshCatalog();
}

App::~App() {
    // Players cancel their calls before the client goes; the modes go last first (a mode may lend
    // another's screens, as the planner the arenas).
    screens_.clear();
    while (!modules_.empty()) modules_.pop_back();
}

void App::setFonts(const ui::Fonts& fonts, float pixelRatio) {
    fonts_ = fonts;
    pixelRatio_ = pixelRatio;
}

ui::Screen* App::findScreen(std::string_view id) const {
    for (ui::Screen* screen : screens_)
        if (screen->id() == id) return screen;
    return nullptr;
}

ModeModule* App::findEndpoint(std::string_view id) const {
    for (const auto& module : modules_)
        if (module->hasEndpoint(id)) return module.get();
    return nullptr;
}

std::optional<std::string> App::showScreen(std::string_view id) {
    for (size_t i = 0; i < screens_.size(); ++i) {
        if (screens_[i]->id() != id) continue;
        shown_ = i;
        services_.store->set(kScreenStoreKey, std::string(id));
        return std::nullopt;
    }
    std::string known;
    for (ui::Screen* screen : screens_) known += (known.empty() ? "'" : " or '") + std::string(screen->id()) + "'";
    return "show takes " + known;
}

void App::ensureChat() {
    if (!services_.transport || !services_.clock) return;
    llm::OpenRouterConfig config;
    config.apiKey = settings_.apiKey;
    config.baseUrl = settings_.baseUrl;
    config.title = "CHAIBA";
    if (!chat_) {
        chat_ = std::make_unique<llm::OpenRouterClient>(*services_.transport, *services_.clock, config);
        ++configChanges_;
    } else if (chat_->config().apiKey != settings_.apiKey || chat_->config().baseUrl != settings_.baseUrl) {
        chat_->configure(config);  // calls in flight finish with the settings they started with
        ++configChanges_;
    }
    // Without a key, models cannot play: the screens see no chat service.
    context_.chat = settings_.apiKey.empty() ? nullptr : chat_.get();
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
    if (settings_.apiKey.empty() || !chat_) {
        keyStatus_ = "No key stored.";
        return;
    }
    keyStatus_ = "checking the key\xE2\x80\xA6";
    chat_->checkKey([this](llm::Result<llm::KeyInfo> r) {
        ++asyncChanges_;
        keyCheckFailed_ = !r.isOk();
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

void App::save() {
    for (const auto& module : modules_) module->writeSettings(settings_.stored);
    for (const auto& module : modules_) module->settingsChanged();
    if (auto error = saveSettings(*services_.store, settings_)) {
        settingsPanel_.notice = "Not saved: " + *error;
        settingsPanel_.noticeIsError = true;
    } else if (settingsPanel_.noticeIsError && loadWarnings_.empty()) {
        settingsPanel_.notice.clear();
    }
}

void App::tick() {
    ensureChat();  // a key typed in Settings reaches the screens' new players
    // The one pump: the client polls the transport and starts due retries; every callback of
    // every screen's calls runs from here, never from inside another screen's or game's poll.
    {
        net::SectionTimer timer("app.network");
        if (chat_) chat_->poll();
        else if (services_.transport) services_.transport->poll();
    }
    const double now = services_.platform->nowMs();
    for (ui::Screen* screen : screens_) screen->tick(now);
    for (const auto& module : modules_) module->tick(now);
}

double App::contentFrameIntervalMs() const { return shown().contentFrameIntervalMs(); }

uint64_t App::changeCounter() const {
    uint64_t sum = asyncChanges_ + configChanges_;
    for (ui::Screen* screen : screens_) sum += screen->changeCounter();
    for (const auto& module : modules_) sum += module->changeCounter();
    return sum;
}

bool App::wantsContinuousFrames() const {
    if (shown().wantsContinuousFrames() || catalogLoading_) return true;
    for (const auto& module : modules_)
        if (module->wantsContinuousFrames()) return true;
    return false;
}

void App::frame() {
    if (appliedTheme_ != settings_.theme || appliedRatio_ != pixelRatio_) {
        ui::applyTheme(settings_.theme, pixelRatio_);
        appliedTheme_ = settings_.theme;
        appliedRatio_ = pixelRatio_;
    }
    for (const auto& module : modules_) module->beginFrame();
    ui::beginItemFrame();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                   ImGuiWindowFlags_NoBackground;  // the frame is cleared to WindowBg first
    const bool visible = ImGui::Begin("CHAIBA##main", nullptr, flags);
    ImGui::PopStyleVar();
    if (visible) {
        drawHeader();
        shown().draw();
    }
    ImGui::End();
    const std::string keyBefore = settings_.apiKey;
    ui::SettingsContext settingsContext;
    if (settingsPanel_.open) {
        settingsContext.defaultModels = defaultModels_;
        for (const auto& m : catalog_) settingsContext.catalogIds.push_back(m.id);
        settingsContext.drawModeSections = [this] {
            bool changed = false;
            for (const auto& module : modules_)
                if (module->drawSettings()) changed = true;
            return changed;
        };
    }
    if (settingsPanel_.DrawWindow(fonts_, settings_, settingsContext)) {
        save();
        if (settings_.apiKey != keyBefore) {
            keyStatus_.clear();
            keyCheckFailed_ = false;
        }
        ensureChat();
    }
    if (settingsPanel_.open) {
        settingsPanel_.keyStatus = keyStatus_;
        settingsPanel_.keyRefused = !settings_.apiKey.empty() && (keyCheckFailed_ || (chat_ && chat_->keyRefused()));
        if (settingsPanel_.takeCheckKeyRequest()) checkKey();
    }
    for (ui::Screen* screen : screens_) screen->drawWindows();
    for (const auto& module : modules_) module->drawWindows();
    ui::endItemFrame();
}

void App::drawHeader() {
    const ui::Palette& pal = ui::palette();
    const ImGuiStyle& style = ImGui::GetStyle();
    // "language models play chess, Werewolf and stories": what the modes say they play.
    std::vector<std::string_view> nouns;
    for (const auto& module : modules_)
        if (!module->noun().empty()) nouns.push_back(module->noun());
    std::string taglineText = "language models play";
    for (size_t i = 0; i < nouns.size(); ++i)
        taglineText.append(i == 0 ? " " : i + 1 == nouns.size() ? " and " : ", ").append(nouns[i]);
    const char* tagline = taglineText.c_str();
    double cost = 0;
    for (ui::Screen* screen : screens_) cost += screen->spentUsd();
    for (const auto& module : modules_) cost += module->spentUsd();
    // Phones: a smaller wordmark and short forms, so the cost and the key state always show.
    const bool narrow = ImGui::GetContentRegionAvail().x < fonts_.uiSize * 36;
    const std::string costText = (narrow ? "" : "session ") + formatCost(cost);
    // The key's state as the last check or call found it: a refused key is never "set".
    const bool keyRefused = !settings_.apiKey.empty() && (keyCheckFailed_ || (chat_ && chat_->keyRefused()));
    const char* keyState = settings_.apiKey.empty() ? (narrow ? "no key" : "No API key \xC2\xB7 engines play")
                           : keyRefused             ? (narrow ? "\xE2\x9C\x97 key" : "\xE2\x9C\x97 API key refused")
                                                    : (narrow ? "\xE2\x9C\x93 key" : "\xE2\x9C\x93 API key set");
    ImGui::PushFont(fonts_.bold);
    ImGui::SetWindowFontScale(narrow ? 1.15f : 1.5f);
    const float titleW = ImGui::CalcTextSize("CHAIBA").x;
    ImGui::TextUnformatted("CHAIBA");
    ImGui::SetWindowFontScale(1.0f);
    ImGui::PopFont();
    // The registered screens, as tabs next to the wordmark; when they do not all fit beside
    // Settings (phones), one button with the shown screen's title opens the list of screens.
    const float settingsW = ImGui::CalcTextSize("Settings").x + style.FramePadding.x * 2;
    float allTabsW = 0;
    std::vector<HeaderLink> links;
    for (const auto& module : modules_)
        for (HeaderLink& link : module->headerLinks()) links.push_back(std::move(link));
    ImGui::PushFont(fonts_.bold);
    for (const auto& screen : screens_)
        allTabsW += ImGui::CalcTextSize(std::string(screen->title()).c_str()).x + style.FramePadding.x * 2 +
                    style.ItemSpacing.x;
    for (const HeaderLink& link : links)
        allTabsW += ImGui::CalcTextSize(link.label.c_str()).x + style.FramePadding.x * 2 + style.ItemSpacing.x * 2;
    ImGui::PopFont();
    std::function<void()> linkClicked;
    const bool tabsFit = titleW + allTabsW + style.ItemSpacing.x * 4 + settingsW <=
                         ImGui::GetWindowContentRegionMax().x - ImGui::GetWindowContentRegionMin().x;
    float tabsW = 0;
    if (!tabsFit) {
        ImGui::SameLine(0, style.ItemSpacing.x * 3);
        ImGui::PushFont(fonts_.bold);
        const std::string label = std::string(shown().title()) + " \xE2\x96\xBE"; // ▾
        if (ImGui::Button(label.c_str())) ImGui::OpenPopup("##screens");
        ImGui::PopFont();
        ui::markItem("header.screens");
        tabsW = ImGui::GetItemRectSize().x + style.ItemSpacing.x * 3;
        if (ImGui::BeginPopup("##screens")) {
            for (ui::Screen* screen : screens_) {
                if (ImGui::Selectable(std::string(screen->title()).c_str(), &shown() == screen))
                    showScreen(screen->id());
                ui::markItem("header." + std::string(screen->id()));
            }
            if (!links.empty()) ImGui::Separator();
            for (const HeaderLink& link : links) {
                if (ImGui::Selectable(link.label.c_str(), false)) linkClicked = link.open;
                ui::markItem("header." + link.id);
            }
            ImGui::EndPopup();
        }
    }
    for (size_t i = 0; tabsFit && i < screens_.size(); ++i) {
        const ui::Screen& screen = *screens_[i];
        const std::string label(screen.title());
        const bool active = shown_ == i;
        const float gap = i == 0 ? style.ItemSpacing.x * (narrow ? 1.5f : 3.0f) : style.ItemSpacing.x;
        ImGui::SameLine(0, gap);
        if (active) {
            ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_Text));
        }
        ImGui::PushFont(fonts_.bold);
        const bool pressed = ImGui::Button(label.c_str());
        ImGui::PopFont();
        if (active) ImGui::PopStyleColor(2);
        ui::markItem("header." + std::string(screen.id()));
        tabsW += ImGui::GetItemRectSize().x + gap;
        if (pressed) showScreen(screen.id());
    }
    for (size_t i = 0; tabsFit && i < links.size(); ++i) {
        const float gap = style.ItemSpacing.x * (i == 0 ? 3.0f : 1.0f);
        ImGui::SameLine(0, gap);
        ImGui::PushFont(fonts_.bold);
        ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().accent);
        if (ImGui::Button(links[i].label.c_str())) linkClicked = links[i].open;
        ImGui::PopStyleColor();
        ImGui::PopFont();
        ui::markItem("header." + links[i].id);
        tabsW += ImGui::GetItemRectSize().x + gap;
    }
    if (linkClicked) linkClicked(); // (the header is drawn before the screens: they draw the change)
    // Priority when narrow (phones): Settings always, then the cost, the key state, the tagline.
    const float buttonW = settingsW;
    const float right = ImGui::GetWindowContentRegionMax().x;
    float free = right - ImGui::GetWindowContentRegionMin().x - titleW - tabsW - buttonW - style.ItemSpacing.x * 2;
    const float costW = ImGui::CalcTextSize(costText.c_str()).x + style.ItemSpacing.x;
    const bool showCost = free > costW;
    if (showCost) free -= costW;
    const float stateW = ImGui::CalcTextSize(keyState).x + style.ItemSpacing.x * (narrow ? 1 : 2);
    const bool showState = free > stateW;
    if (showState) free -= stateW;
    const bool showTagline = free > ImGui::CalcTextSize(tagline).x + style.ItemSpacing.x;
    if (showTagline) {
        ImGui::SameLine();
        ImGui::AlignTextToFramePadding();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "%s", tagline);
    }
    float x = right - buttonW;
    const bool oneRow = showCost && showState;
    if (oneRow) {
        x -= stateW;
        ImGui::SameLine(x);
        ImGui::AlignTextToFramePadding();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(settings_.apiKey.empty() ? pal.muted : keyRefused ? pal.danger : pal.ok),
                           "%s", keyState);
        ui::markItem(keyRefused ? "header.keyRefused" : "header.keyState");
    }
    if (oneRow) {
        x -= costW;
        ImGui::SameLine(x);
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(costText.c_str());
        ui::markItem("header.cost");
    }
    ImGui::SameLine(right - buttonW);
    if (ImGui::Button("Settings")) settingsPanel_.open = !settingsPanel_.open;
    ui::markItem("header.settings");
    // Too narrow for one row (phones): the cost and the key state get a row of their own, never
    // dropped — they are what a person must always see.
    if (!showCost || !showState) {
        ImGui::TextUnformatted(costText.c_str());
        ui::markItem("header.cost");
        ImGui::SameLine(right - ImGui::CalcTextSize(keyState).x);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(settings_.apiKey.empty() ? pal.muted : keyRefused ? pal.danger : pal.ok),
                           "%s", keyState);
        ui::markItem(keyRefused ? "header.keyRefused" : "header.keyState");
    }
    if (!services_.storageWarning.empty()) {
        // Saving fails on every page: said where it is seen, not only in Settings.
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.danger));
        ImGui::TextWrapped("Not saving: %s.", services_.storageWarning.c_str());
        ImGui::PopStyleColor();
        ui::markItem("header.storageWarning");
    }
    ImGui::Separator();
}

// ---- automation API ---------------------------------------------------------------------

std::optional<std::string> App::configure(const std::string& apiKey, const std::string& baseUrl, bool setKey,
                                          bool setUrl) {
    if (setKey) {
        if (!apiKey.empty())
            if (auto error = validateApiKey(apiKey)) return error;
        if (apiKey != settings_.apiKey) keyCheckFailed_ = false;
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

std::optional<std::string> App::setRequestTimeout(int seconds) {
    if (seconds < 1 || seconds > 3600) return std::string("the answer timeout must be 1 to 3600 seconds");
    settings_.requestTimeoutSeconds = seconds;
    save();
    return std::nullopt;
}

std::optional<std::string> App::screenState(std::string_view screen, std::string* stateJson) const {
    if (const ModeModule* endpoint = findEndpoint(screen)) {
        *stateJson = endpoint->endpointState(screen);
        return std::nullopt;
    }
    const ui::Screen* s = findScreen(screen);
    if (!s) return "no screen '" + std::string(screen) + "'";
    *stateJson = s->stateJson();
    return std::nullopt;
}

CommandResult App::screenCommand(std::string_view screen, std::string_view name, std::string_view argumentJson) {
    CommandResult out;
    if (ModeModule* endpoint = findEndpoint(screen)) {
        out.error = endpoint->endpointCommand(screen, name, argumentJson, &out.resultJson);
        return out;
    }
    ui::Screen* s = findScreen(screen);
    if (!s) out.error = "no screen '" + std::string(screen) + "'";
    else out.error = s->command(name, argumentJson, &out.resultJson);
    return out;
}

std::string App::endpointsJson() const {
    // "werewolf-arena" -> "werewolfArena": one naming convention for the page's objects.
    auto apiName = [](std::string_view id) {
        std::string out;
        bool upper = false;
        for (char c : id) {
            if (c == '-' || c == '_') {
                upper = true;
                continue;
            }
            out.push_back(upper ? char(std::toupper(static_cast<unsigned char>(c))) : c);
            upper = false;
        }
        return out;
    };
    auto commandList = [](const std::vector<ui::CommandInfo>& commands) {
        json list = json::array();
        for (const ui::CommandInfo& c : commands) list.push_back({{"name", c.name}, {"async", c.async}});
        return list;
    };
    json out = json::array();
    for (ui::Screen* screen : screens_)
        out.push_back({{"id", std::string(screen->id())}, {"api", apiName(screen->id())}, {"screen", true},
                       {"commands", commandList(screen->commands())}});
    for (const auto& module : modules_)
        for (const std::string& id : module->endpoints())
            out.push_back({{"id", id}, {"api", apiName(id)}, {"screen", false},
                           {"commands", commandList(module->endpointCommands(id))}});
    return out.dump();
}

} // namespace chaiba
