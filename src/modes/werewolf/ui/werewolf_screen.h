// The Werewolf screen: one game at a table of bots, models and a person. The game is a
// GameSession driven on a simulated clock (so it replays exactly); events are revealed at the
// chosen speed; the answers of the models and the person's decisions are recorded, so the game
// survives a reload (it comes back paused) and exports/imports as one JSON file. Drawing lives
// in werewolf_view.cpp and werewolf_panels.cpp, the New Game dialog in werewolf_setup.cpp.
#pragma once

#include "src/modes/werewolf/game_session.h"
#include "src/modes/werewolf/replay_view.h"
#include "src/modes/werewolf/ui/replay_chat.h"
#include "src/modes/werewolf/ui/werewolf_setup.h"
#include "src/persist/key_value_store.h"
#include "src/ui/debug_window.h"
#include "src/ui/screen.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::werewolfmode {

// A person's decision as recorded for the replay: submitted when the game had `atEvent` events.
struct PersonDecision {
    std::size_t atEvent = 0;
    werewolf::Decision decision;
    bool pass = false; // "I'm done" in the day's discussion (decision.seat only)
};

// What the banner, the table and the chat draw: the live game up to its revealed events, or a
// replay at its cursor. Built for one frame (never kept across a click).
struct ShownGame {
    const std::vector<werewolf::Event>* events = nullptr;
    std::size_t count = 0;             // events [0, count) are drawn
    int pov = -1;                      // -1: everything (a spectator)
    std::vector<werewolf::Role> roles; // by seat, as dealt (what a seat may see depends on it)
    std::vector<std::string> who;      // by seat: "bot", "you", a model's short name
    int person = -1;                   // a person's seat: their result heads the banner
    std::string status;                // the banner's right corner in a replay ("event 37/120")
    bool replay = false;
    bool visible(const werewolf::Event& e) const;
};

// On a narrow page a row of controls wraps: the next item (its label) goes on this line when it
// fits, else below.
void sameLineIfFits(const char* label);

class WerewolfScreen final : public ui::Screen {
public:
    // store keeps the game across reloads (and the edited strategy documents); assets holds
    // assets/werewolf. Both outlive the screen.
    WerewolfScreen(const ui::ScreenContext& context, KeyValueStore* store, const llm::AssetSource* assets);
    ~WerewolfScreen() override;

    std::string_view id() const override { return "werewolf"; }
    std::string_view title() const override { return "Werewolf"; }
    void tick(double nowMs) override;
    void draw() override;
    void drawWindows() override;
    bool wantsContinuousFrames() const override;
    // A table that tells an event every 0.9 s at 1x (more at 4x and 16x) needs no more than twenty
    // frames a second while nobody types or clicks (input keeps the full rate): on a machine
    // without a GPU every frame is drawn on the CPU.
    double contentFrameIntervalMs() const override { return 50.0; }
    uint64_t changeCounter() const override { return changes_; }
    double spentUsd() const override;
    std::string stateJson() const override;
    std::optional<std::string> command(std::string_view name, std::string_view argumentJson,
                                       std::string* resultJson) override;
    std::vector<ui::CommandInfo> commands() const override;
    // Opens a game file in the replay viewer (a CLI game, the page's export, a run log's record
    // line, an arena game); the error says why not, and nothing shown changes.
    std::optional<std::string> openReplay(const std::string& text, const std::string& title);

private:
    // werewolf_screen.cpp: lifecycle, pacing, storage
    // personDayTurns false: the day's rules of games saved before format 2 (a replay stays exact).
    std::optional<std::string> newGame(const TableSetup& setup, bool personDayTurns = true);
    std::optional<std::string> loadDocument(const std::string& text, bool fromStorage);
    std::string document() const;
    std::optional<std::string> importFile(const std::string& text); // the page's export, or a game file to replay
    std::string exportText() const; // the stored document plus the whole game (events, reasoning, notes, costs)
    void save();
    void restore();
    void advance(double nowMs);
    std::optional<std::string> submitPerson(const werewolf::Decision& d);
    std::optional<std::string> passPerson(); // "I'm done" talking today
    int personSeat() const;
    int povSeat() const; // -1: spectator
    bool visible(const werewolf::Event& e) const;
    // The person's seat is out (dead in the events shown): the view unlocks (a spectator).
    bool personOut() const;
    // werewolf_view.cpp: the table, the banner, the chat, the controls
    ShownGame liveShown() const;
    void drawBody(const ShownGame& shown); // the banner, then the table, chat and seat (or the phone's tabs)
    void drawControls();
    void drawBanner(float width, const ShownGame& shown);
    void drawTable(float size, const ShownGame& shown);
    void drawChat(const ShownGame& shown);
    void drawPersonActions();
    void keepDraftInItsPhase();
    // replay_screen.cpp: the replay viewer (any finished game, or this one once over or once the
    // person is out), drawn in place of the live table while open.
    std::optional<std::string> openCurrentReplay();
    ShownGame replayShown() const;
    void drawReplayBar(float width);
    void drawReplayMind();
    std::optional<std::string> replayCommand(std::string_view name, const nlohmann::json& arg);
    nlohmann::json replayStateJson() const;
    bool replayMoved(std::size_t to);
    // werewolf_panels.cpp: the selected player, the call log
    void drawPlayerPanel(float width, float height);
    void drawCallLog();

    const ui::ScreenContext& context_;
    KeyValueStore* store_;
    WerewolfPrompts prompts_;
    std::string promptsError_;
    ReplayChat chat_;
    TableSetup setup_;
    std::unique_ptr<GameSession> session_;
    std::vector<PersonDecision> personDecisions_;
    std::size_t personReplayed_ = 0; // of personDecisions_, submitted (all of them outside a replay)
    std::vector<std::int64_t> eventSimMs_; // the simulated time each event appeared
    std::int64_t simNowMs_ = 0;

    // Pacing: the view shows the first shownEvents_ events; the session runs ahead only when
    // everything is shown.
    std::size_t shownEvents_ = 0;
    bool running_ = false;
    int stepsWanted_ = 0;
    int speedIndex_ = 1;
    double lastRevealMs_ = 0;
    // Restoring: the session replays (instantly) to this many events, then pauses.
    std::optional<std::size_t> replayTo_;
    std::size_t savedEvents_ = static_cast<std::size_t>(-1);
    double lastSaveMs_ = 0;
    double lastTickMs_ = 0;
    bool corruptKept_ = false; // the stored game was unreadable and is kept aside

    int selected_ = 0;
    // A phone-wide page (under kPhoneWidthEms): one column, a row of tabs, the chosen view below.
    static constexpr float kPhoneWidthEms = 44.0f;
    enum class PhoneView : std::uint8_t { Table, Chat, Seat };
    bool phone_ = false;
    PhoneView phoneView_ = PhoneView::Table;
    void drawPhone(float width, float height, const ShownGame& shown);
    bool scrollChat_ = false; // the replay's cursor moved: the chat scrolls to it
    // What a seat knows as of the events the table shows (a replay of the shown log, so the panel
    // never runs ahead of the table at 1x); the live context when everything is shown. Cached
    // per seat and event count.
    const std::string& shownContextFor(int seat);
    struct ShownContext {
        int seat = -1;
        std::size_t events = 0;
        const void* game = nullptr;
        std::string text;
    } shownContext_;
    int pov_ = -1; // -1 spectator, else a seat
    bool spectating_ = false; // the person is out and the view was switched to all once
    // The replay viewer: the game read, its cursor (the last event shown) and point of view.
    std::optional<GameRecord> replay_;
    std::size_t replayAt_ = 0;
    int replayPov_ = -1;
    std::string replayTitle_;
    bool replayCloseWanted_ = false; // "Back to the game": closed between frames
    std::string message_;       // an error or notice shown in the banner
    bool messageIsError_ = false;
    char sayBuffer_[1024] = {};
    // The person's draft belongs to one phase: typing pauses the table's clock (the countdown
    // with it); a draft left when the phase moves on is kept aside, never posted elsewhere.
    bool composing_ = false;
    double lastDraftEditMs_ = -1e9;
    std::string draftPhase_;  // the phase the box's text was typed in
    int draftPhaseKey_ = -1;  // its round and phase, checked at each tick
    std::string unsentDraft_; // a draft the phase left behind, and where it was typed
    std::string unsentWhere_;
    std::string decisionsKey_;   // the person's awaited night/vote decisions as last drawn
    double decisionsShownMs_ = 0; // when they appeared: a click in the first moments is ignored
    ui::DebugWindow callLog_;   // every AI seat's model calls
    bool importWanted_ = false; // the Import button asked for a file
    SetupDialog dialog_;
    uint64_t changes_ = 1;
};

} // namespace chaiba::werewolfmode
