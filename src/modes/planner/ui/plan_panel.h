// "Plan with AI" in the page: a left-side panel (a ui::SidePanel the app lends to the arena) with
// the plan's graph (layered layout, pan, zoom, click a node to read or edit it through the same
// validated mutations), the chat (messages, streaming text, a card per tool call, the net change
// and Undo under each reply, Stop, key entry), "Run plan" over a StageHost, export and import,
// and the automation commands (window.chaiba.planner.*). Plan and chat are kept in localStorage.
#pragma once

#include "src/llm/anthropic_client.h"
#include "src/llm/assets.h"
#include "src/llm/provider_router.h"
#include "src/modes/planner/plan_chat.h"
#include "src/modes/planner/plan_run.h"
#include "src/modes/planner/ui/plan_settings.h"
#include "src/persist/key_value_store.h"
#include "src/ui/command_queue.h"
#include "src/ui/screen.h"
#include "src/ui/side_panel.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::planner {

// The most an imported plan (a picked file or pasted text) may hold; a plan of a hundred tasks is
// about 10 KiB.
inline constexpr std::size_t kMaxPlanFileBytes = 1u << 20;

inline constexpr const char* kPlanChatStoreKey = "chaiba.planner.chat";
// The finished stages' results of the plan's runs (stageResultsJson), kept beside the chat.
inline constexpr const char* kPlanResultsStoreKey = "chaiba.planner.results";

// Copies text into a fixed ImGui input buffer (cut at its size).
void copyText(char* buffer, size_t size, const std::string& text);

// What the app lends the panel besides the screen context.
struct PlannerServices {
    KeyValueStore* store = nullptr;
    net::HttpTransport* transport = nullptr;
    const net::Clock* clock = nullptr;
    const llm::AssetSource* assets = nullptr;
    StageHost* host = nullptr; // where "Run plan" plays the stages (the arena)
    // Stores the OpenRouter key typed into the panel (the shell's Settings own it); an error sentence.
    std::function<std::optional<std::string>(const std::string& key)> saveOpenRouterKey;
};

class PlanPanel final : public ui::SidePanel {
public:
    PlanPanel(const ui::ScreenContext& context, PlannerServices services);
    ~PlanPanel() override;

    float drawSide(float availWidth, float height) override;
    bool drawNarrow(float availWidth, float height) override;
    // The node editor and the import dialog (own windows).
    void drawWindows();
    // The planner's part of the Settings window; true when a setting changed.
    bool drawSettingsSection();
    void tick(double nowMs);
    void openPanel(); // opens the panel (the header's "Plan with AI")
    bool wantsContinuousFrames() const;
    uint64_t changeCounter() const { return changes_; }
    double spentUsd() const; // this session's planner spend (kept over New plan and undo)

    // The automation API (window.chaiba.planner.*).
    std::string stateJson() const;
    std::optional<std::string> command(std::string_view name, std::string_view argumentJson, std::string* resultJson);
    std::vector<ui::CommandInfo> commands() const; // window.chaiba.planner's methods

private:
    // Changes the draw code asks for (hand edits replace the plan it walks), applied at the start
    // of the next tick.
    ui::CommandQueue commands_;
    // plan_panel.cpp
    void createChat();
    void makeAnthropicClient();
    void save();
    void saveSettings();
    void changed() { ++changes_; }
    bool providerReady() const;
    std::optional<std::string> say(const std::string& text);
    std::optional<std::string> newPlan();
    std::optional<std::string> undo(size_t index);
    std::optional<std::string> redo();
    // Review of the model's proposal: all of it (only == nullptr) or the changes of these tasks.
    std::optional<std::string> accept(const std::vector<std::string>* only);
    std::optional<std::string> reject();
    std::optional<std::string> importText(const std::string& text);
    // replace: the person agreed that the run replaces the tournaments named by
    // StageHost::replacedByRun (else such a run is refused with that sentence).
    std::optional<std::string> runPlan(bool replace);
    std::optional<std::string> saveKey(const std::string& key);
    void applyEdit(const PlanResult& result, const std::string& what);
    // A hand edit from the draw code: `edit` runs on the plan as it is at the next tick.
    void editAfterFrame(std::function<PlanResult(const PlanGraph&, const PlanContext&)> edit, std::string what);
    void drawClosedTab(float height);
    void drawPanel(float width, float height); // the open panel, `width` wide
    void drawHeaderRow();
    void drawKeyEntry();
    void drawRunRow();
    // plan_panel_chat.cpp
    void drawMessages(float height);
    void drawTurn(size_t index, const PlanTurn& turn);
    void drawHandEdit(size_t index, const PlanTurn& turn);
    void drawUndoButton(size_t index, const char* label, const char* tooltip);
    void drawReview(size_t index, const PlanTurn& turn); // the pending proposal: its changes, Accept, Reject
    void drawRedo();
    void drawRedoButton(size_t index);
    void postRedo(); // Redo at the next tick
    void postUndo(size_t index); // Undo of step `index` at the next tick
    void drawInput();
    // plan_graph_view.cpp
    void drawGraph(float height);
    void drawEditor();
    void selectNode(const std::string& id);
    void openNewTask(); // the editor, on a new task's text
    void drawTaskText(const std::string& id); // the editor's text of task `id` ("" = the new task)
    void drawStageResult(const std::string& id); // the editor's table of a finished stage
    void drawEditError();
    void saveResults();
    uint64_t savedResults_ = 0; // the runner's resultChanges() when last stored

    const ui::ScreenContext& context_;
    PlannerServices services_;
    PlannerSettings settings_;
    std::vector<std::string> warnings_;
    std::optional<PlanChatAssets> assets_;
    std::string assetsError_;
    std::unique_ptr<llm::AnthropicClient> anthropic_;
    // Each call to the provider chosen when it is sent (OpenRouter: the shell's client; Anthropic:
    // the panel's own).
    llm::ProviderRouter provider_;
    std::unique_ptr<PlanChat> chat_;
    PlanRunner runner_;
    uint64_t changes_ = 0;
    double chatSpentUsd() const; // the current chat's messages
    double spentBeforeUsd_ = 0;  // chats left by New plan, messages undone
    std::string notice_; // the last action's result ("exported", why an import failed)
    std::string confirmRun_; // Run plan would replace this (asked before running), or ""
    // Opening a kept stage would replace this: {task, what}, asked first; empty when not asking.
    std::pair<std::string, std::string> confirmOpen_;
    std::optional<std::string> openStage(const std::string& id, bool replace);
    bool noticeIsError_ = false;
    // An Undo that would take later steps with it asks first: the step asked about.
    std::optional<size_t> confirmUndo_;
    // review: the proposal's changes picked for "Accept selected" (task id → picked), for the
    // message `reviewFor_`; why the last Accept was refused
    std::map<std::string, bool> reviewPick_;
    size_t reviewFor_ = size_t(-1);
    std::string reviewError_;

    // chat view
    char input_[4096] = {};
    char keyInput_[520] = {};
    bool scrollToEnd_ = true;
    bool stickToEnd_ = true; // the messages follow new content
    float scrollY_ = 0, scrollMaxY_ = 0; // the messages' scroll, for the automation API
    // A scroll to the end asked but not yet shown (ImGui applies it at the next frame, and an idle
    // page draws none): a few more frames are asked for, so a resize or a new line shows the end.
    int followFrames_ = 0;
    // graph view
    float zoom_ = 1.0f;
    float panX_ = 0, panY_ = 0;
    bool fitRequested_ = true;
    std::pair<int, int> fittedShape_; // layers and rows at the last fit: a new shape fits again
    float fittedWidth_ = 0;           // the graph's width at the last fit: a new width fits again
    bool graphDragging_ = false;      // the graph's button was active last frame (a drag goes on over the zoom buttons)
    bool vertical_ = false;           // layers top to bottom (a tall, narrow view: a phone), chosen at each fit
    std::string selected_;
    std::string editError_;
    bool editorOpen_ = false;
    char editName_[256] = {};
    char editDescription_[2048] = {};
    char editDependency_[80] = {};
    // The task as text (every field, its stage's too), or a new task's text when addingTask_.
    std::vector<char> editText_ = std::vector<char>(8192, 0);
    bool addingTask_ = false;
    int editStatus_ = 0;
    // import
    bool importOpen_ = false;
    bool importPicking_ = false; // "Choose a file…" was clicked: the picked file is ours
    std::vector<char> importBuffer_ = std::vector<char>(1 << 16, 0);
    std::string importError_;
    // settings section
    char modelBuffer_[160] = {};
    char anthropicModelBuffer_[160] = {};
    char anthropicUrlBuffer_[520] = {};
    char anthropicKeyBuffer_[520] = {};
    bool settingsBuffersLoaded_ = false;
    std::string settingsError_;
};

} // namespace chaiba::planner
