// One Story turn, as a state machine driven by chat callbacks (nothing blocks): older turns folded
// into the rolling summary when a fold is due (story_memory.h), then the orchestrator's
// structured decision (primary model, then the fallback, then nothing, each failure logged), the
// pre-steps in order (world_advance, faction_turn: tool loops of at most 5 rounds, "REFUSED:" ends
// a step), then the narrator (a streamed tool loop of at most 20 rounds, told what happened
// off-screen and which dice rolls are suggested). Simple mode (v1) is the narrator alone. Every
// request holds the context within the world's budget (memory: in config.yaml), and no new round
// starts once the turn spent its cost cap. The turn's transcript, file changes and agent log come
// out at the end; the caller records them.
#pragma once

#include "src/llm/ask.h"
#include "src/llm/call_log.h"
#include "src/llm/chat.h"
#include "src/llm/tool_loop.h"
#include "src/modes/story/agent_log.h"
#include "src/modes/story/story_images.h"
#include "src/modes/story/story_prompts.h"
#include "src/modes/story/transcript.h"
#include "src/modes/story/world_config.h"
#include "src/net/http.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::story {

enum class TurnMode { Agentic, Simple }; // v2 (the default), v1

// OpenRouter model ids per role; empty preStep/faction models use the narrator's, an empty
// fallback means none, an empty image model disables create_image.
struct TurnModels {
    std::string narrator;
    std::string orchestrator;
    std::string orchestratorFallback;
    std::string worldAdvance;
    std::string factionTurn;
    std::string image;
};

struct TurnSettings {
    TurnMode mode = TurnMode::Agentic;
    TurnModels models;
    int preStepMaxRounds = 5;
    int narratorMaxRounds = 20;
    bool streamNarrator = true;
    std::optional<double> temperature;
    // The catalog entry of a model (structured-answer channel, prices), or null when unknown.
    std::function<const llm::ModelInfo*(const std::string& model)> findModel;
};

enum class TurnPhase { Idle, Memory, Orchestrator, PreSteps, Narrator, Images, Done };
const char* turnPhaseName(TurnPhase phase);

enum class TurnStatus { Completed, Failed, Stopped };

// What a turn gives back: the record to append to the conversation (with its file changes) and
// the agent log. Failed and Stopped turns have had their file changes reverted already.
struct TurnResult {
    TurnStatus status = TurnStatus::Completed;
    std::string error;
    TurnRecord record;
    TurnLog log;
};

// What the screen and the CLI follow while a turn runs. All optional.
struct TurnHandlers {
    std::function<void(const std::string& delta)> onNarratorText; // the narrator's stream
    std::function<void(TurnPhase phase)> onPhase;
    std::function<void(const OrchestratorDecision& decision)> onDecision;
    std::function<void(const TranscriptEntry& entry)> onEntry; // tool calls, dice, off-screen summaries
    std::function<void(const std::string& note)> onNote;       // fallbacks, drops, refusals
    std::function<void(const TurnResult& result)> onDone;      // exactly once
};

// How a run is asked (the steering controls, turn_steering.h): a direction for the narrator of
// this run only (a regenerated reply), or the continuation of the conversation's last reply (the
// narrator alone, no player line: its record holds what it added).
struct TurnSteer {
    std::string instruction;
    bool continueReply = false;
};

// What it is: one turn of one conversation, used once: start(), then the chat service's poll()
// drives it to onDone. The world files, prompts, config, clock and rng must outlive it.
class StoryTurn {
public:
    StoryTurn(llm::ChatService& chat, WorldFiles& files, const StoryPrompts& prompts,
              const WorldConfig& config, TurnSettings settings, const net::Clock& clock, StoryRng& rng);
    ~StoryTurn();
    StoryTurn(const StoryTurn&) = delete;
    StoryTurn& operator=(const StoryTurn&) = delete;

    void start(const Conversation& conversation, std::string playerText, TurnHandlers handlers,
               TurnSteer steer = {});
    // The player's Stop: calls in flight are cancelled, the turn's file changes reverted.
    void stop();
    bool running() const { return phase_ != TurnPhase::Idle && phase_ != TurnPhase::Done; }
    TurnPhase phase() const { return phase_; }
    // Every model call of the turn so far (orchestrator, pre-steps, narrator, pictures).
    const llm::CallLog& calls() const { return calls_; }

private:
    // A create_image call: the order, the log step it fills, and the ask (kept to the turn's end).
    struct PendingImage {
        ImageOrder order;
        std::size_t step = 0;
        std::string stored; // the stored picture's path, once accepted
        std::unique_ptr<llm::Ask> ask;
    };

    void setPhase(TurnPhase phase);
    std::vector<llm::ChatMessage> sharedMessages(const std::string& offScreen);
    // A request's messages as its log step keeps them (the older turns of the transcript left out).
    std::vector<llm::ChatMessage> loggedInput(const std::vector<llm::ChatMessage>& messages) const;
    llm::AskPolicy askPolicy() const;
    llm::AskModel askModel(const std::string& model) const;
    void startFold();
    void onFoldDone(const llm::AskResult& result, int throughTurn);
    void startAgents();
    // What the turn may still spend (its cost cap less what it spent), or nothing without a cap.
    std::optional<double> capLeft() const;
    // A tool loop's end as its log step's status and error ("" when it ended well).
    std::string loopFailure(const llm::ToolLoopOutcome& outcome) const;
    void startOrchestrator();
    void onOrchestratorCall(const llm::AskCall& call);
    void onOrchestratorDone(const llm::AskResult& result);
    void startPreStep(std::size_t index);
    void onPreStepEnd(std::size_t index, std::size_t stepIndex, const llm::ToolLoopOutcome& outcome);
    void startNarrator();
    void onNarratorEnd(std::size_t stepIndex, const llm::ToolLoopOutcome& outcome);
    llm::ToolResult runTool(AgentKind agent, std::size_t step, const llm::ToolCall& call);
    llm::ToolLoopHooks loopHooks(AgentKind agent, std::size_t step);
    void startImage(ImageOrder order);
    std::string storePicture(PendingImage& image, const llm::ChatReply& reply);
    void onImageDone(PendingImage& image, const llm::AskResult& result);
    void addEntry(TranscriptEntry entry);
    void note(std::string text);
    void maybeFinish();
    void finish(TurnStatus status, std::string error);
    std::optional<llm::ModelPricing> pricing(const std::string& model) const;
    std::int64_t sinceStart() const;

    llm::ChatService& chat_;
    WorldFiles& files_;
    const StoryPrompts& prompts_;
    const WorldConfig& config_;
    TurnSettings settings_;
    const net::Clock& clock_;
    StoryRng& rng_;

    TurnHandlers handlers_;
    TurnSteer steer_;
    TurnPhase phase_ = TurnPhase::Idle;
    Conversation conversation_;
    std::string playerText_;
    std::int64_t startMs_ = 0;
    int turnNumber_ = 0; // the number this turn will have in the conversation (its calls' turn)
    std::size_t transcriptAt_ = 0;    // where the transcript starts in sharedMessages' answer
    std::size_t transcriptCount_ = 0; // and how many messages it has
    std::optional<StorySummary> summary_; // the memory this turn's requests carry
    long long fixedTokens_ = 0;           // the narrator's system prompt and tools, estimated
    std::unique_ptr<llm::Ask> fold_;      // the summary call (kept to the end, as the orchestrator's)
    std::size_t foldStep_ = 0;
    TurnRecord record_;
    TurnLog log_;
    std::vector<std::string> offScreen_; // pre-step summaries
    llm::CallLog calls_;
    std::unique_ptr<llm::Ask> orchestrator_;      // kept to the end: an ask may not die in its own callback
    std::size_t orchestratorStep_ = 0;            // the log step of the model being asked
    std::optional<OrchestratorDecision> decided_; // the accepted answer, decoded
    std::vector<std::unique_ptr<llm::ToolLoop>>
        loops_; // kept to the end: a loop may not die in its own callback
    std::vector<std::unique_ptr<PendingImage>> images_;
    int imagesPending_ = 0;
    bool narratorDone_ = false;
    bool narratorFailed_ = false;
    std::string narratorError_;
};

} // namespace chaiba::story
