// The Story screen ("story"): worlds kept in the page's IndexedDB store, the story of the chosen
// conversation (the narrator's text streaming in, the player's messages, dice rolls with their
// bands, off-screen summaries folded under each reply), the world's files (viewer and editor), the
// agent log per turn, undo and branch, export and import, the memory within the context budget
// (the meter, each file's place in the context, the rolling summary), and the sample world's
// recorded adventure replayed step by step without a key. Logic and automation API here; drawing in story_view.cpp.
#pragma once

#include "src/modes/story/conversation_store.h"
#include "src/modes/story/kv_world_files.h"
#include "src/modes/story/story_demo.h"
#include "src/modes/story/story_memory.h"
#include "src/modes/story/story_turn.h"
#include "src/modes/story/ui/markdown_view.h"
#include "src/modes/story/ui/story_settings.h"
#include "src/net/http.h"
#include "src/ui/command_queue.h"
#include "src/ui/debug_window.h"
#include "src/ui/document_editor.h"
#include "src/ui/screen.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::story {

// What the page lends the Story screen besides the shell's ScreenContext.
struct StoryServices {
    KeyValueStore* worldStore = nullptr;    // worlds (IndexedDB on the web)
    KeyValueStore* settingsStore = nullptr; // the Story settings and the current world (localStorage)
    const llm::AssetSource* assets = nullptr;
    const net::Clock* clock = nullptr;
    std::function<std::optional<std::string>()> takeStorageError; // background IndexedDB failures
    // Stores the OpenRouter key (localStorage, as Settings does): an error sentence when refused.
    std::function<std::optional<std::string>(const std::string& key)> setApiKey;
};

enum class StoryPanel { Scene, Files, Log };
// On a phone one view fills the screen: the story, the worlds list, or the side panel.
enum class PhoneView { Story, Worlds, Panel };
// Narrower than this many UI font sizes (800 CSS px at 16 px), the screen is one column.
constexpr float kPhoneWidthEms = 50.0f;

// A string field of a command's arguments or of a stored document; "" when it is missing or not a
// string (story_screen_api.cpp).
std::string argString(const nlohmann::json& args, const char* name);

class StoryScreen final : public ui::Screen {
public:
    StoryScreen(ui::ScreenContext& context, StoryServices services);
    ~StoryScreen() override;

    std::string_view id() const override { return "story"; }
    std::string_view title() const override { return "Story"; }
    void tick(double nowMs) override;
    void draw() override;
    void drawWindows() override;
    bool wantsContinuousFrames() const override;
    // While a turn runs, a streamed answer grows twenty times a second at most: smooth to read, a
    // third of the frames (input keeps the full rate).
    double contentFrameIntervalMs() const override { return 50.0; }
    uint64_t changeCounter() const override { return revision_; }
    double spentUsd() const override { return sessionCostUsd_; }
    std::string stateJson() const override;
    std::optional<std::string> command(std::string_view name, std::string_view argumentJson,
                                       std::string* resultJson) override;
    std::vector<ui::CommandInfo> commands() const override;

    // ---- the buttons' paths (also the automation API's) -------------------------------------
    std::optional<std::string> newWorld(const std::string& title, const std::string& pitch);
    std::optional<std::string> selectWorld(const std::string& id);
    // Opens another conversation of the world and (moveWorld) takes the files to where it left them.
    std::optional<std::string> selectConversation(const std::string& id, bool moveWorld = true);
    std::optional<std::string> say(const std::string& text);
    std::optional<std::string> stop();
    std::optional<std::string> undo();
    std::optional<std::string> branch(int turn, bool keepReply);
    std::optional<std::string> editFile(const std::string& path, const std::string& content);
    // A person's edit of the rolling summary: a recorded change (Undo takes it back).
    std::optional<std::string> editSummary(const std::string& text);
    // Steering (story_steering_screen.cpp): regenerate the last reply (a direction for its narrator
    // only), flip to or delete one of its answers (1-based), continue it, edit any reply, and redo
    // what Undo took back.
    std::optional<std::string> regenerate(const std::string& instruction);
    std::optional<std::string> selectAnswer(int answer);
    std::optional<std::string> deleteAnswer(int answer);
    std::optional<std::string> continueReply();
    std::optional<std::string> editReply(int turn, const std::string& text);
    std::optional<std::string> redo();
    std::optional<std::string> startReplay();
    std::optional<std::string> replayStep();
    void stopReplay();
    // The open world as one archive, its agent logs read back first (the page keeps them out of
    // memory): `done` runs in the call or later, never after the screen is gone.
    void exportWorld(std::function<void(llm::Result<std::string>)> done);
    std::optional<std::string> importWorld(const std::string& archive);
    // The worlds library (story_worlds.cpp): a new world from a pitch, empty, or a copy of the
    // sample; rename, duplicate, delete (the page asks first); a SillyTavern character card (PNG
    // or JSON bytes) as a new world, a lorebook into the open world, each with its report.
    enum class NewWorldFrom { Pitch, Empty, Sample };
    std::optional<std::string> newWorldFrom(NewWorldFrom from, const std::string& title, const std::string& pitch);
    std::optional<std::string> renameWorld(const std::string& id, const std::string& title);
    std::optional<std::string> duplicateWorld(const std::string& id);
    std::optional<std::string> deleteWorld(const std::string& id);
    std::optional<std::string> importCard(const std::string& bytes);
    std::optional<std::string> importLorebook(const std::string& text, const std::string& fileName);
    // A new world of these files (copied from a scratch world), listed and opened.
    std::optional<std::string> addWorld(const std::string& title, const WorldFiles& from);
    // The automation API's worlds commands; nothing when `name` is not one of them.
    std::optional<std::optional<std::string>> worldsCommand(std::string_view name, std::string_view argumentJson,
                                                            std::string* resultJson);

private:
    // Changes the draw code asks for (a branch, another world or conversation, an undo: each
    // replaces what the draw code walks), applied at the start of the next tick.
    ui::CommandQueue commands_;
    // Drawing (story_view.cpp).
    void drawSidebar(float width);
    void drawStory(float width, float height);
    void drawConversation(const Conversation& conversation, std::size_t entryLimit, bool replay, float width);
    // The recorded tour at its step: the turns, the turn taken back (greyed), the undo's and the
    // branch's banners, each whole turn's decision and file changes.
    void drawReplay(float width);
    void drawReplayDetails(const TurnRecord& turn, bool undone);
    // The turns the replay has reached in the conversation it shows (not those taken back).
    std::vector<const TurnRecord*> replayTurns() const;
    void drawTurn(const TurnRecord& turn, std::size_t entryLimit, bool live, bool replay, float width);
    void drawDice(const TwistOfFate& twist, float width);
    void drawEdit(const TurnRecord& turn, const TranscriptEntry& entry, float width);
    void drawComposer(float width);
    void drawSidePanel(float width, float height, bool tabRow);
    void drawPhone(float width, float height);
    void drawScene(float width);
    void drawFiles(float width, float height);
    void drawLog(float width);
    void drawKeyPrompt(float width);
    void drawNewWorldDialog();
    void drawWorldTools();   // the worlds panel's buttons (story_worlds.cpp)
    void drawWorldDialogs(); // rename, the delete question, the import report
    void takePickedFile();   // a file the person chose for one of the imports
    void closeWorld();       // no world left open (the last one deleted)
    void drawCallLog();
    // Memory within the budget (story_memory_view.cpp).
    void refreshEstimate(); // again when the world, the conversation or the line changed
    void drawMeter(float width);
    void drawFileTag(const std::string& path); // after the file's Selectable
    void drawMemory(float width);

    std::optional<std::string> dispatch(std::string_view name, std::string_view argumentJson,
                                        std::string* resultJson);
    void bump() { ++revision_; }
    void loadWorlds();
    void openWorld(std::size_t index);
    void saveCurrent();
    void reloadFiles();
    std::optional<std::string> ensureModels(TurnSettings& settings) const;
    // What stops a run now (a replay, a turn running, no world, prompts or key), or nothing; then
    // the run of the game master from `from`, as a new turn or a steered one.
    std::optional<std::string> runRefusal(const std::string& draft);
    enum class RunKind { Play, Regenerate, Continue };
    std::optional<std::string> startRun(const Conversation& from, const std::string& text, RunKind kind,
                                        TurnSteer steer);
    void onTurnDone(const TurnResult& result);
    void onSteeredDone(const TurnResult& result); // a regenerate or a continue (story_steering_screen.cpp)
    // The steering commands of the automation API; nothing when `name` is not one of them.
    std::optional<std::optional<std::string>> steeringCommand(std::string_view name, const nlohmann::json& args);
    // Steering's drawing (story_steering_view.cpp): the row under the last reply (‹ 2/3 ›, Regenerate…,
    // Continue, Edit reply), the reply being edited, and the dialogs (the direction, a confirm).
    void drawSteering(const TurnRecord& turn, float width);
    void drawReplyEditor(const TurnRecord& turn, float width);
    void drawSteeringDialogs();
    // A change of the history drops the undone turns Redo could bring back: with any, `change`
    // waits for the person's yes in a dialog ("what" names the change); with none it runs now.
    void unlessRedoLost(std::string what, std::function<void()> change);
    // A turn's file changes (a person's edit, or the game master's) as a diff, coloured by line.
    void drawTurnDiff(const TurnRecord& turn);
    double totalCostUsd() const;
    // The most recent picture of the conversation: the last one a turn created, or the last one a
    // reply showed (src empty when there is none).
    struct Picture {
        std::string src;
        std::string alt;
    };
    Picture currentImage() const;
    // How the story's markdown finds its pictures this frame; item names start with itemPrefix.
    ui::MarkdownImages pictures(const std::string& itemPrefix);
    // The world's pictures changed under their paths (undo, branch, an edit): decode them again.
    void forgetPictures();

    ui::ScreenContext& context_;
    StoryServices services_;
    MemoryStore fallbackStore_; // when the page has no persistent store
    KeyValueStore* worldStore_ = nullptr;
    StorySettings storySettings_;

    std::optional<StoryPrompts> prompts_;
    std::string promptsError_;
    std::vector<WorldEntry> worlds_;
    std::size_t world_ = 0;
    std::unique_ptr<KvWorldFiles> files_;
    LoadedWorldConfig config_;
    std::vector<std::string> conversations_;
    Conversation conversation_;
    std::vector<std::string> fileList_;

    // The turn in flight.
    std::unique_ptr<StoryTurn> turn_;
    std::unique_ptr<StoryRng> rng_;
    std::string pendingPlayer_;
    std::string streamText_;
    std::vector<TranscriptEntry> liveEntries_;
    TurnPhase phase_ = TurnPhase::Idle;
    std::vector<std::string> liveNotes_;
    std::vector<std::unique_ptr<StoryTurn>> finishedTurns_; // a turn may not die in its own callback
    RunKind runKind_ = RunKind::Play;
    std::string runInstruction_; // a regenerate's direction
    // Steering's dialogs and the reply being edited.
    bool directionOpen_ = false;
    char direction_[512] = {};
    int confirmDeleteAnswer_ = 0; // the answer (1-based) a confirm popup asks about
    struct RedoLoss {
        std::string what;
        std::function<void()> change;
    };
    std::optional<RedoLoss> redoLoss_; // a change waiting for the yes of unlessRedoLost's dialog
    int editingReply_ = 0;        // the turn whose reply is being edited
    ui::DocumentEditor replyEditor_{"story.replyEditor"};

    // What the screen says.
    std::string error_;     // the last turn's failure, in plain words
    std::string notice_;    // what the last action did
    bool needsKey_ = false; // a say without a key: the key prompt shows
    // What the next file the person picks is for (other screens pick files too).
    enum class PickFor { None, World, Card, Lorebook };
    PickFor pickFor_ = PickFor::None;
    std::string importReport_;      // the last card or lorebook import's report
    bool importReportOpen_ = false;
    bool renameOpen_ = false;
    char renameBuffer_[128] = {};
    std::string deleteAsked_;       // the world whose deletion the page is asking about
    bool deleteAskOpen_ = false;
    int newWorldFrom_ = 0;          // the New world dialog's choice (NewWorldFrom)
    std::map<std::string, std::string> conversationLabels_; // id -> its first line, for the list
    char keyBuffer_[256] = {};
    char composer_[2048] = {};
    std::string savedDraft_;
    double sessionCostUsd_ = 0;
    std::vector<TurnLog> sessionLogs_;
    std::vector<llm::CallRecord> sessionCalls_; // the model calls of this session's latest finished turns
    std::size_t sessionCallsDropped_ = 0;       // the older ones let go (each holds its whole prompt)
    ui::DebugWindow callLog_;

    // The meter: the next request as it stands, and its cost at the catalog's prices.
    std::optional<ContextEstimate> estimate_;
    uint64_t estimateRevision_ = 0;
    std::string estimateLine_;
    std::string estimateCatalog_; // the catalog the estimate was priced with (see refreshEstimate)
    double estimateCostUsd_ = 0;
    std::string estimateUnpriced_; // models the catalog has no price for, comma-separated
    ui::DocumentEditor summaryEditor_{"story.summaryEditor"};

    // Replay of the recorded sample adventure (a tour: the main line, an undo, a branch).
    std::optional<StoryDemo> recording_;
    std::string recordingError_; // why the shipped recording did not load
    // The pictures the recording made (its image changes' after-states): a replay shows them
    // without writing them into the world.
    std::unique_ptr<MemoryWorldFiles> recordedPictures_;
    bool replaying_ = false;
    std::size_t replayEntries_ = 0;

    // Panels.
    StoryPanel panel_ = StoryPanel::Scene;
    PhoneView phoneView_ = PhoneView::Story;
    bool phone_ = false; // the last frame was drawn in one column
    std::string openFile_;
    bool revealOpenFile_ = false; // the list scrolls to the open file once (opened from elsewhere)
    ui::DocumentEditor fileEditor_{"story.fileEditor"}; // the open file, being edited
    int logTurn_ = 0;
    std::string storedLogPath_; // the stored log asked for last (asked again when the turn shown changes)
    bool storedLogPending_ = false; // its read has not answered (the page reads it back from IndexedDB)
    std::optional<TurnLog> storedLog_;
    std::string storedLogError_;
    // Reads that answer later (a stored log, an export, a continue's log) hold this weakly: a
    // screen gone by then is not touched.
    std::shared_ptr<int> life_ = std::make_shared<int>(0);
    std::shared_ptr<std::optional<llm::Result<std::string>>> apiExport_; // the automation's export on its way
    // A continue's base: the reply's agent log, read while the narrator runs (appendContinuation
    // adds the continuation's steps to it); a run that ends before the read answers waits for it.
    struct ContinueLog {
        std::string path;
        std::optional<ReadResult> read;
        std::optional<TurnResult> finished;
    };
    std::optional<ContinueLog> continueLog_;
    bool newWorldOpen_ = false;
    char newTitle_[128] = {};
    char newPitch_[1024] = {};
    bool scrollToEnd_ = false;
    bool storyAtEnd_ = true;              // the story was scrolled to its end in the last frame
    float storyViewSize_[2] = {0, 0};     // the story view's size in the last frame
    // Each turn's height when last drawn, at this width in this conversation: a turn far outside
    // the view stands in as a gap of that height instead of being laid out (drawConversation).
    struct TurnHeight {
        std::size_t signature = 0; // of what the turn shows (entries, their texts, answers, changes)
        float height = 0;
    };
    std::map<int, TurnHeight> turnHeights_;
    float turnHeightsWidth_ = 0;
    std::string turnHeightsConversation_;
    int turnsLaidOut_ = 0; // the turns the last frame laid out (the others stood in as gaps)
    uint64_t revision_ = 1;
    float viewHeight_ = 800;                      // the page area's height, for picture sizes
    std::vector<ui::ShownPicture> shownPictures_; // the pictures of the last frame drawn
    ui::MarkdownImages storyPictures_;            // the story column's, made at each draw()
};

// "not sent: binary", "sent: named \"Mira\"": a context file's tag in the Files panel.
std::string fileTagText(const ContextFileState& state);

// The registration the shell makes: one line in src/app/app.cpp.
std::unique_ptr<ui::Screen> makeStoryScreen(ui::ScreenContext& context, StoryServices services);

} // namespace chaiba::story
