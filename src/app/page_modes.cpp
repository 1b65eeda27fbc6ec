// The page's modes as ModeModules: each owns its screens; the planner module composes the two
// arenas into the plan's stage host.
#include "src/app/page_modes.h"

#include "src/app/plan_arena_host.h"
#include "src/modes/chess/arena_screen.h"
#include "src/modes/chess/match_screen.h"
#include "src/modes/chess/ui/board_style.h"
#include "src/modes/chess/ui/chess_settings_panel.h"
#include "src/modes/planner/ui/plan_panel.h"
#include "src/modes/story/ui/story_screen.h"
#include "src/modes/story/ui/story_settings.h"
#include "src/modes/werewolf/ui/tournament_screen.h"
#include "src/modes/werewolf/ui/werewolf_screen.h"
#include "src/modes/werewolf/ui/werewolf_settings.h"
#include "src/ui/image_atlas.h"

namespace chaiba {

namespace {

class ChessModule final : public ModeModule {
public:
    ChessModule(ModeHost& host, ChessServices services)
        : host_(host), assets_(loadChessAssets(services.assets)), play_(readSettings(host)), settingsPanel_(assets_.prompts),
          match_(host.context, services, assets_, play_), arena_(host.context, services, assets_, play_) {}
    std::vector<ui::Screen*> screens() override { return {&match_, &arena_}; }
    std::string_view noun() const override { return "chess"; }
    // The model call's settings as the shell has them now (a key saved, a timeout changed).
    void settingsChanged() override { static_cast<llm::CallSettings&>(play_) = host_.settings; }
    // The boards' pieces and colours.
    void beginFrame() override {
        ui::ImageAtlases* pictures = host_.platform ? host_.platform->imageAtlases() : nullptr;
        ui::setBoardLook(look_.pieceSet, look_.boardTheme, host_.settings.theme, pictures);
    }
    bool drawSettings() override {
        if (!host_.context.fonts) return false;
        return settingsPanel_.draw(*host_.context.fonts, play_, look_, host_.settings.theme, pieceSetProblem());
    }
    void writeSettings(nlohmann::json& blob) const override { chessmode::writeChessSettings(blob, play_, look_); }
    ArenaScreen& arena() { return arena_; }

private:
    // The chess values of the stored blob over the shell's call settings (look_ too).
    chessmode::ChessPlaySettings readSettings(ModeHost& host) {
        chessmode::ChessPlaySettings settings;
        static_cast<llm::CallSettings&>(settings) = host.settings;
        chessmode::readChessSettings(host.settings.stored, settings, look_, host.settingsWarnings);
        return settings;
    }
    // For Settings: why the chosen pieces are not drawn, or "".
    std::string pieceSetProblem() const {
        const ui::ImageSet* set = ui::pieceImageSet(look_.pieceSet);
        if (!set) return "";
        const char* label = chessmode::pieceSetLabel(look_.pieceSet);
        ui::ImageAtlases* pictures = host_.platform ? host_.platform->imageAtlases() : nullptr;
        if (!pictures) return std::string(label) + " pieces need the browser; the boards show font glyphs.";
        switch (pictures->state(set->name)) {
        // Loading takes a moment (the glyphs show meanwhile): a line that came and went would move
        // the choices under the pointer.
        case ui::ImageSetState::Ready:
        case ui::ImageSetState::Loading: return "";
        case ui::ImageSetState::Failed: break;
        }
        return std::string(label) + " pieces could not be loaded: " + pictures->failure(set->name) +
               ". The boards show font glyphs.";
    }

    ModeHost& host_;
    ChessAssets assets_; // the prompts and opening suite both screens share (and the Settings defaults)
    chessmode::BoardLook look_;
    chessmode::ChessPlaySettings play_; // what both screens play with (the shell's call settings + chess's)
    chessmode::ChessSettingsPanel settingsPanel_;
    MatchScreen match_;
    ArenaScreen arena_;
};

class WerewolfModule final : public ModeModule {
public:
    WerewolfModule(ModeHost& host, const PageServices& services)
        : table_(host.context, host.store, host.assets),
          arena_(host.context, services.largeStore ? services.largeStore : host.store, host.assets,
                 services.makeBootstrapRunner) {
        // A finished arena game opens in the Werewolf screen's replay viewer.
        arena_.setReplayOpener([this, show = host.showScreen](const std::string& record, const std::string& title)
                                   -> std::optional<std::string> {
            if (auto why = table_.openReplay(record, title)) return why;
            if (show) show(table_.id());
            return std::nullopt;
        });
    }
    std::vector<ui::Screen*> screens() override { return {&table_, &arena_}; }
    std::string_view noun() const override { return "Werewolf"; }
    bool drawSettings() override {
        werewolfmode::drawWerewolfStrategySettings(); // (saved by itself, under its own keys)
        return false;
    }
    WerewolfArenaScreen& arena() { return arena_; }

private:
    werewolfmode::WerewolfScreen table_;
    WerewolfArenaScreen arena_;
};

class StoryModule final : public ModeModule {
public:
    StoryModule(ModeHost& host, const PageServices& services)
        : fonts_(host.context.fonts), screen_(story::makeStoryScreen(host.context, {services.largeStore ? services.largeStore : host.store, host.store,
                                                        host.assets, host.clock, services.takeStorageError, host.saveKey})) {}
    std::vector<ui::Screen*> screens() override { return {screen_.get()}; }
    std::string_view noun() const override { return "stories"; }
    bool drawSettings() override {
        if (fonts_) ui::drawStorySettingsSection(*fonts_); // (saved by itself, under its own key)
        return false;
    }

private:
    const ui::Fonts* fonts_;
    std::unique_ptr<ui::Screen> screen_;
};

// "Plan with AI" beside the arena: its plan's stages play on both arenas; window.chaiba.planner.
class PlannerModule final : public ModeModule {
public:
    // `keep`: where each finished stage's tournament is kept (the browser's large store).
    PlannerModule(ModeHost& host, ArenaScreen& arena, WerewolfArenaScreen& werewolfArena, KeyValueStore* keep)
        : show_(host.showScreen), stages_(arena, werewolfArena, host.showScreen, keep),
          panel_(host.context, planner::PlannerServices{host.store, host.transport, host.clock, host.assets, &stages_,
                                                        host.saveKey}) {
        arena.setLeftPanel(&panel_);
    }
    std::vector<ui::Screen*> screens() override { return {}; }
    // "Plan with AI" in the header: the arena with the planner open.
    std::vector<HeaderLink> headerLinks() override {
        return {{"planner", "Plan with AI", [this] {
                     show_("arena");
                     panel_.openPanel();
                 }}};
    }
    void tick(double nowMs) override { panel_.tick(nowMs); }
    void drawWindows() override { panel_.drawWindows(); }
    bool drawSettings() override {
        panel_.drawSettingsSection(); // (saved by itself, under its own key)
        return false;
    }
    double spentUsd() const override { return panel_.spentUsd(); }
    uint64_t changeCounter() const override { return panel_.changeCounter(); }
    bool wantsContinuousFrames() const override { return panel_.wantsContinuousFrames(); }
    std::vector<std::string> endpoints() const override { return {"planner"}; }
    std::vector<ui::CommandInfo> endpointCommands(std::string_view) const override { return panel_.commands(); }
    std::string endpointState(std::string_view) const override { return panel_.stateJson(); }
    std::optional<std::string> endpointCommand(std::string_view, std::string_view name, std::string_view argumentJson,
                                               std::string* resultJson) override {
        return panel_.command(name, argumentJson, resultJson);
    }

private:
    std::function<void(std::string_view)> show_;
    PlanArenaHost stages_;
    planner::PlanPanel panel_;
};

} // namespace

std::vector<std::unique_ptr<ModeModule>> makePageModes(ModeHost& host, PageServices services) {
    ChessServices chess = std::move(services.chess);
    if (!chess.store) chess.store = host.store;
    if (!chess.assets) chess.assets = host.assets;
    if (!chess.arenaStore) chess.arenaStore = services.largeStore;
    if (chess.arenaStoreWarning.empty()) chess.arenaStoreWarning = services.largeStoreWarning;
    if (!chess.takeStorageError) chess.takeStorageError = services.takeStorageError;
    shareStorageErrors(chess); // the arena and the match history share the large store
    if (!chess.makeBootstrapRunner) chess.makeBootstrapRunner = services.makeBootstrapRunner;
    auto chessModule = std::make_unique<ChessModule>(host, std::move(chess));
    auto werewolfModule = std::make_unique<WerewolfModule>(host, services);
    auto planner = std::make_unique<PlannerModule>(host, chessModule->arena(), werewolfModule->arena(),
                                                   services.largeStore ? services.largeStore : host.store);
    std::vector<std::unique_ptr<ModeModule>> modes;
    modes.push_back(std::move(chessModule));
    modes.push_back(std::move(werewolfModule));
    modes.push_back(std::make_unique<StoryModule>(host, services));
    modes.push_back(std::move(planner)); // (the shell destroys the modes last first: the planner before the arenas)
    return modes;
}

} // namespace chaiba
