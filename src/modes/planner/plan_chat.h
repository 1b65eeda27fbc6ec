// "Plan with AI": one conversation about one plan. Each person's message runs through THE tool loop
// (system prompt = the format spec + the current plan; the 8 planner tools, called in parallel;
// at most maxRounds tool rounds, then one closing call without tools that says what was done and
// what remains). A round's calls are one step, all or nothing; a round whose calls all succeeded
// and that carries the model's words to the person ends the message (one call for a one-shot
// request). Each message is one undo step with its net change; the conversation kept for later
// messages holds each tool result's first line (the plan itself is always in the system prompt)
// within a budget; plan and chat serialize to versioned JSON.
#pragma once

#include "src/llm/assets.h"
#include "src/llm/call_log.h"
#include "src/llm/chat.h"
#include "src/llm/tool_loop.h"
#include "src/modes/planner/plan.h"
#include "src/modes/planner/plan_diff.h"
#include "src/modes/planner/plan_tools.h"

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace chaiba::planner {

// The data files of the chat: the system prompt template, the closing note, the format spec and
// the tool schemas (assets/planner/...).
struct PlanChatAssets {
    std::string systemTemplate;  // {format} and {plan} are filled in
    std::string closingTemplate; // {rounds}
    std::string formatSpec;
    std::vector<llm::ToolDefinition> tools; // in plannerToolNames() order
    std::string samplePlan;                 // a plan that runs without a key (Import's sample)
};
llm::Result<PlanChatAssets> loadPlanChatAssets(const llm::AssetSource& assets);

// The planner's model unless the person picks another, the same in the page and `chaiba plan`:
// through OpenRouter, and through Anthropic's own API.
inline constexpr const char* kDefaultPlannerModel = "anthropic/claude-sonnet-4.5";
inline constexpr const char* kDefaultAnthropicPlannerModel = "claude-sonnet-4-5";

struct PlanChatConfig {
    std::string model;
    int maxRounds = 10; // tool rounds per person's message, then the closing call
    bool stream = true;
    std::optional<double> temperature;
    std::optional<int> maxTokens;
    std::optional<llm::ModelPricing> pricing; // to estimate a cost the provider did not report
    PlanContext context;                      // which model ids a stage may name
    // The model's changes wait for the person: a message that changed the plan ends with a
    // proposal (PlanTurn::review Pending) that accept() applies, whole or per task, or reject()
    // drops. Off: a message's changes apply as they come (the CLI).
    bool review = false;
};

// One tool call of a message, as the UI shows it.
struct PlanToolCall {
    int round = 0; // 1-based model answer within the message
    std::string name;
    std::string arguments;
    ToolCard card; // tool, target, old → new
    bool isError = false;
    std::string result; // what the model read (the error to fix, or the plan's summary)
};

// How a message's loop ended.
enum class TurnEnd : std::uint8_t { Running, Answered, Capped, Stopped, Failed };
const char* turnEndName(TurnEnd end);

// Where a message's proposed change stands (PlanChatConfig::review).
enum class Review : std::uint8_t { None, Pending, Accepted, Partial, Rejected };
const char* reviewName(Review review); // "none", "pending", "accepted", "partial", "rejected"

// One person's message and what it did: the undo step. A hand edit (the graph view's editor) is a
// step too: byHand, its text what was done ("set the status of 'final' to ready"), no calls.
struct PlanTurn {
    std::string text;  // the person's message, or what the hand edit did
    bool byHand = false;
    std::string reply; // the model's last words (after the cap: the closing call's)
    std::vector<PlanToolCall> calls;
    PlanGraph before; // the plan before the message: undo restores it
    PlanGraph after;  // the plan after it (while its review is pending: the proposal)
    PlanDiff diff;    // before → after
    TurnEnd end = TurnEnd::Running;
    std::string error; // Failed: why
    int rounds = 0;    // model answers, the closing call included
    double costUsd = 0;
    long long inputTokens = 0; // prompt tokens of every model call of the message
    bool undone = false;
    Review review = Review::None;
    std::string reviewNote; // "accepted the changes to qual and final; rejected the one to plan"
    int toolErrors() const;
};

class PlanChat {
public:
    PlanChat(llm::ChatService& chat, PlanChatAssets assets, PlanChatConfig config, PlanGraph plan = {});
    ~PlanChat();
    PlanChat(const PlanChat&) = delete;
    PlanChat& operator=(const PlanChat&) = delete;

    // Runs one person's message; false (with nothing sent) when busy or the text is blank.
    bool send(const std::string& text);
    // The Stop button: the call in flight is cancelled; the changes made so far stay (undoable).
    void stop();
    bool busy() const { return loop_ != nullptr; }

    // The plan as it stands (a proposal waiting for review is not in it).
    const PlanGraph& plan() const { return plan_; }
    // The message whose proposed change waits for the person, or nothing.
    std::optional<size_t> pendingReview() const;
    // The proposal of that message, or the plan when none waits: what the graph shows.
    const PlanGraph& shownPlan() const;
    // Applies the pending proposal: all of it, or only the changes of the tasks in `only` (each
    // task's change whole: added, removed or changed); the model is told what was kept. False with
    // the reason when nothing waits or that part alone is not a valid plan (nothing changes then).
    bool accept(const std::vector<std::string>* only = nullptr, std::string* why = nullptr);
    // Drops the pending proposal; the model is told in the next message.
    bool reject(std::string* why = nullptr);
    const std::vector<PlanTurn>& turns() const { return turns_; }
    // The answer being streamed in the current round ("" between rounds).
    const std::string& streamingText() const { return streaming_; }
    // The tool calls being streamed in the current round, as far as they came (name, partial JSON
    // arguments): the cards to come. Empty between rounds; the reply's calls replace them.
    const std::vector<llm::ToolCall>& streamingCalls() const { return streamingCalls_; }
    const llm::CallLog& log() const { return log_; }
    const PlanChatConfig& config() const { return config_; }
    void setModel(std::string model) { config_.model = std::move(model); }
    void setReview(bool on) { config_.review = on; } // the next messages' changes wait for review, or not

    // Restores the plan from before message `index` (later messages are undone with it) and tells
    // the model in the next message. False with the reason when busy, out of range or already undone.
    bool undo(size_t index, std::string* why = nullptr);
    // The steps after `index` that undo(index) would undo with it (not undone yet, changed the plan).
    int laterSteps(size_t index) const;
    // Takes back the last undo while the plan is as that undo left it; false with the reason.
    bool redo(std::string* why = nullptr);
    // What redo() would bring back ("the message \"…\" and 1 after it"), or "" when it cannot.
    std::string redoText() const;
    // The first step redo() brings back, while it can.
    std::optional<size_t> redoFirst() const;
    // Replaces the plan by an imported one (not an undo step); the model is told next time.
    void importPlan(PlanGraph plan);
    // A change the program made for the person (a plan run's statuses): not an undo step; the
    // model is told what changed next time. `what`: "ran the plan (...)".
    void editPlan(PlanGraph plan, const std::string& what);
    // A change the person made by hand in the graph's editor: an undo step like a message (a turn
    // with byHand, `what` as its text, its net change); the model is told next time. False with
    // the reason (nothing changed) while a message is running or when nothing would change.
    bool handEdit(PlanGraph plan, const std::string& what, std::string* why = nullptr);

    // Versioned JSON of plan and chat (the conversation the model sees included), and back.
    std::string toJson() const;
    // Restores a saved chat; false with the reason (nothing changed) on a bad or newer document.
    bool loadJson(std::string_view json, std::string* why = nullptr);

    // The UI's hooks: the plan changed (after a tool call, an undo, an import), a call ran, a
    // message ended, the streamed answer grew: a piece of text, or "" when only the streaming
    // calls did (a redraw, so a panel listening for text shows them too).
    std::function<void()> onPlanChanged;
    std::function<void(const PlanToolCall& call)> onToolCall;
    std::function<void(const PlanTurn& turn)> onTurnEnd;
    std::function<void(const std::string& delta)> onText;

private:
    llm::ChatRequest baseRequest() const;
    std::string systemPrompt() const;
    // A reply's tool calls, applied as one step: all of them on a copy of the plan, kept only when
    // every one succeeded (else nothing is, and each call's result says why). runTool then hands
    // out the prepared results in the calls' order.
    void prepareBatch(const llm::ChatReply& reply);
    llm::ToolResult runTool(const llm::ToolCall& call);
    // The hooks that follow a round's streamed answer (text and the calls being written).
    void followStream(llm::ToolLoopHooks& hooks);
    void clearStreaming();
    void onLoopEnd(const llm::ToolLoopOutcome& outcome);
    void startClosingCall();
    void finishTurn(TurnEnd end, std::string error = {});
    void keepConversation(const std::vector<llm::ChatMessage>& messages);

    llm::ChatService& chat_;
    PlanChatAssets assets_;
    PlanChatConfig config_;
    PlanGraph plan_;
    std::vector<PlanTurn> turns_;
    std::vector<llm::ChatMessage> history_; // the model's view, without the system prompt
    std::vector<std::string> pendingNotes_; // undo and import notes for the next message
    // Each undo that can be taken back: the plan before it, the plan it left, the steps it undid.
    struct UndoneStep {
        PlanGraph restore;
        PlanGraph left;
        std::vector<size_t> turns;
    };
    std::vector<UndoneStep> redo_;
    std::set<std::string> readCalls_; // this message's get_graph and list_models calls (name, arguments)
    std::unique_ptr<llm::ToolLoop> loop_;
    std::vector<std::unique_ptr<llm::ToolLoop>> retired_; // ended loops, freed at the next send()
    bool closing_ = false;
    std::string streaming_;
    std::vector<llm::ToolCall> streamingCalls_;
    struct Prepared {
        std::string callId;
        PlanToolCall record;
    };
    std::vector<Prepared> batch_; // this round's calls, their results prepared
    size_t batchNext_ = 0;
    llm::CallLog log_;
};

} // namespace chaiba::planner
