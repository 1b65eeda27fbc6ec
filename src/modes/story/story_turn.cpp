// The Story turn's state machine (see story_turn.h). Step 0 the summary's fold (when due), step 1
// orchestrator, step 2 pre-steps, step 3 narrator, step 4 pictures still being made; every step
// lands in the agent log.
#include "src/modes/story/story_turn.h"

#include "src/llm/structured.h"

#include <algorithm>
#include <cstdio>
#include "src/modes/story/game_context.h"
#include "src/modes/story/orchestrator.h"
#include "src/modes/story/story_memory.h"
#include "src/modes/story/story_tools.h"

namespace chaiba::story {

namespace {

std::string trimmedFront(const std::string& text) {
    std::size_t start = 0;
    while (start < text.size() &&
           (text[start] == ' ' || text[start] == '\n' || text[start] == '\r' || text[start] == '\t'))
        ++start;
    return text.substr(start);
}

bool isRefusal(const std::string& text) {
    return trimmedFront(text).rfind("REFUSED:", 0) == 0;
}

llm::ChatMessage message(llm::Role role, std::string content) {
    return {role, std::move(content), {}, {}, {}, false};
}

} // namespace

const char* turnPhaseName(TurnPhase phase) {
    switch (phase) {
    case TurnPhase::Idle: return "idle";
    case TurnPhase::Memory: return "memory";
    case TurnPhase::Orchestrator: return "orchestrator";
    case TurnPhase::PreSteps: return "pre-steps";
    case TurnPhase::Narrator: return "narrator";
    case TurnPhase::Images: return "images";
    case TurnPhase::Done: return "done";
    }
    return "idle";
}

StoryTurn::StoryTurn(llm::ChatService& chat, WorldFiles& files, const StoryPrompts& prompts,
                     const WorldConfig& config, TurnSettings settings, const net::Clock& clock, StoryRng& rng)
    : chat_(chat), files_(files), prompts_(prompts), config_(config), settings_(std::move(settings)),
      clock_(clock), rng_(rng) {}

StoryTurn::~StoryTurn() = default; // the asks and loops cancel their calls in flight

std::int64_t StoryTurn::sinceStart() const {
    return clock_.nowMs() - startMs_;
}

std::optional<llm::ModelPricing> StoryTurn::pricing(const std::string& model) const {
    const llm::ModelInfo* info = settings_.findModel ? settings_.findModel(model) : nullptr;
    return info ? std::optional<llm::ModelPricing>(info->pricing) : std::nullopt;
}

llm::AskPolicy StoryTurn::askPolicy() const {
    llm::AskPolicy policy; // one try per model: a failure goes to the fallback, or is noted
    policy.turn = turnNumber_;
    return policy;
}

llm::AskModel StoryTurn::askModel(const std::string& model) const {
    const llm::ModelInfo* info = settings_.findModel ? settings_.findModel(model) : nullptr;
    return {model, llm::channelFor(info),
            info ? std::optional<llm::ModelPricing>(info->pricing) : std::nullopt};
}

void StoryTurn::setPhase(TurnPhase phase) {
    phase_ = phase;
    if (handlers_.onPhase) handlers_.onPhase(phase);
}

void StoryTurn::note(std::string text) {
    if (handlers_.onNote) handlers_.onNote(text);
    log_.notes.push_back(std::move(text));
}

void StoryTurn::addEntry(TranscriptEntry entry) {
    if (handlers_.onEntry) handlers_.onEntry(entry);
    record_.entries.push_back(std::move(entry));
}

std::vector<llm::ChatMessage> StoryTurn::sharedMessages(const std::string& offScreen) {
    // The context is read afresh for each agent: the pre-steps change the files.
    TurnContext context =
        buildTurnContext(files_, conversation_, summary_, playerText_, offScreen, config_.memory, fixedTokens_);
    transcriptAt_ = context.transcriptAt;
    transcriptCount_ = context.transcriptCount;
    return std::move(context.messages);
}

std::optional<double> StoryTurn::capLeft() const {
    if (!(config_.memory.turnCostCapUsd > 0)) return std::nullopt;
    return std::max(0.0, config_.memory.turnCostCapUsd - calls_.totalCostUsd());
}

std::string StoryTurn::loopFailure(const llm::ToolLoopOutcome& outcome) const {
    switch (outcome.stop) {
    case llm::LoopStop::Repeating: return "it made the same failing call 3 times: " + outcome.repeatedError;
    case llm::LoopStop::Failed: return outcome.error ? outcome.error->message : "failed";
    case llm::LoopStop::CostCap: {
        char text[160];
        std::snprintf(text, sizeof text, "stopped at the turn's cost cap of $%.4g ($%.4f spent; memory.turn_cost_cap_usd)",
                      config_.memory.turnCostCapUsd, calls_.totalCostUsd());
        return text;
    }
    default: return {};
    }
}

std::vector<llm::ChatMessage> StoryTurn::loggedInput(const std::vector<llm::ChatMessage>& messages) const {
    // The older turns are in the conversation's own records: a log step repeats only the last few,
    // so the log of turn 1 000 is the size of turn 10's.
    constexpr std::size_t kLoggedTranscriptMessages = 6;
    const std::size_t from = transcriptAt_ + 1; // after the system prompt
    if (transcriptCount_ <= kLoggedTranscriptMessages || from + transcriptCount_ > messages.size()) return messages;
    const std::size_t dropped = transcriptCount_ - kLoggedTranscriptMessages;
    std::vector<llm::ChatMessage> kept(messages.begin(), messages.begin() + static_cast<std::ptrdiff_t>(from));
    kept.push_back(message(llm::Role::User, "[" + std::to_string(dropped) +
                                                " earlier messages of the transcript: in the conversation's turns]"));
    kept.insert(kept.end(), messages.begin() + static_cast<std::ptrdiff_t>(from + dropped), messages.end());
    return kept;
}

void StoryTurn::start(const Conversation& conversation, std::string playerText, TurnHandlers handlers,
                      TurnSteer steer) {
    if (phase_ != TurnPhase::Idle) return; // used once
    conversation_ = conversation;
    playerText_ = std::move(playerText);
    handlers_ = std::move(handlers);
    steer_ = std::move(steer);
    startMs_ = clock_.nowMs();
    turnNumber_ = conversation.turns.empty() ? 1 : conversation.turns.back().number + 1;
    log_.conversationId = conversation.id;
    summary_ = currentSummary(conversation_);
    fixedTokens_ = narratorFixedTokens(prompts_, config_, files_);
    if (steer_.continueReply) {
        // The narrator alone extends the last reply: the request ends with the ask to go on.
        turnNumber_ = conversation.turns.empty() ? 1 : conversation.turns.back().number;
        playerText_ = prompts_.continueReply;
        return startNarrator();
    }
    addEntry({EntryKind::Player, AgentKind::Narrator, playerText_, {}, {}, false, std::nullopt});
    startFold();
}

void StoryTurn::startAgents() {
    if (settings_.mode == TurnMode::Simple) return startNarrator();
    startOrchestrator();
}

// Step 0. The memory: once enough turns wait unsummarised, all but the last few are folded into
// the summary by one call (the orchestrator's model, else the narrator's). A failed fold is noted
// and the turn goes on with the summary it had (the turns stay whole until the next try).
void StoryTurn::startFold() {
    const FoldPlan plan = planFold(conversation_, config_.memory.recentTurns);
    if (plan.turns.empty()) return startAgents();
    setPhase(TurnPhase::Memory);
    const std::string model =
        settings_.models.orchestrator.empty() ? settings_.models.narrator : settings_.models.orchestrator;
    llm::AskRequest request;
    request.base.messages.push_back(message(llm::Role::System, prompts_.summary));
    request.base.messages.push_back(message(llm::Role::User, foldRequestText(summary_, plan)));
    request.base.temperature = settings_.temperature;
    request.models.push_back(askModel(model));
    AgentStep step;
    step.agent = AgentKind::Memory;
    step.label = "turns " + std::to_string(plan.turns.front()->number) + "-" + std::to_string(plan.throughTurn);
    step.model = model;
    step.input = request.base.messages;
    step.startMs = sinceStart();
    log_.steps.push_back(std::move(step));
    foldStep_ = log_.steps.size() - 1;
    const int through = plan.throughTurn;
    llm::AskHooks hooks;
    hooks.onDone = [this, through](const llm::AskResult& result) { onFoldDone(result, through); };
    fold_ = std::make_unique<llm::Ask>(std::move(request), askPolicy(), std::move(hooks), &calls_);
    fold_->run(chat_, [through](const llm::ChatReply&, const std::string& answer) {
        return foldAnswer(answer, through).error;
    });
}

void StoryTurn::onFoldDone(const llm::AskResult& result, int throughTurn) {
    AgentStep& step = log_.steps[foldStep_];
    step.endMs = sinceStart();
    step.rounds = result.requests;
    step.usage = result.usage;
    step.costUsd = result.costUsd;
    llm::Result<StorySummary> summary = result.ok() ? foldAnswer(result.answer, throughTurn)
                                                    : llm::Result<StorySummary>::fail(result.error);
    if (summary.isOk()) {
        summary_ = *summary.value;
        record_.summary = summary_;
        step.output = summary_->text;
    } else {
        step.status = StepStatus::Failed;
        step.error = result.failure == llm::AskFailure::ApiError && result.chatError ? result.chatError->message
                                                                                     : summary.error;
        note("the summary of turns up to " + std::to_string(throughTurn) + " failed (" + step.error +
             "): those turns are sent whole until the next try");
    }
    startAgents();
}

// Step 1. The orchestrator: one structured answer; the primary model, then the fallback, one try
// each (a log step and a note per failed try).
void StoryTurn::startOrchestrator() {
    setPhase(TurnPhase::Orchestrator);
    llm::AskRequest request;
    request.base.messages.push_back(message(llm::Role::System, prompts_.orchestrator));
    for (llm::ChatMessage& m : sharedMessages("")) request.base.messages.push_back(std::move(m));
    request.base.temperature = settings_.temperature;
    request.answer = llm::StructuredSpec{"orchestrator_decision", "the orchestrator's decision for this turn",
                                         prompts_.orchestratorSchema};
    request.models.push_back(askModel(settings_.models.orchestrator));
    if (!settings_.models.orchestratorFallback.empty())
        request.models.push_back(askModel(settings_.models.orchestratorFallback));
    llm::AskHooks hooks;
    hooks.onRequest = [this](const llm::ChatRequest& sent, std::size_t modelIndex) {
        AgentStep step;
        step.agent = AgentKind::Orchestrator;
        step.label = modelIndex == 0 ? "primary" : "fallback";
        step.model = sent.model;
        step.input = loggedInput(sent.messages);
        step.startMs = sinceStart();
        log_.steps.push_back(std::move(step));
        orchestratorStep_ = log_.steps.size() - 1;
    };
    hooks.onCall = [this](const llm::AskCall& call) { onOrchestratorCall(call); };
    hooks.onDone = [this](const llm::AskResult& result) { onOrchestratorDone(result); };
    orchestrator_ = std::make_unique<llm::Ask>(std::move(request), askPolicy(), std::move(hooks), &calls_);
    orchestrator_->run(chat_, [this](const llm::ChatReply&, const std::string& answer) {
        llm::Result<OrchestratorDecision> decoded = decodeDecision(answer);
        if (decoded.isOk()) decided_ = std::move(*decoded.value);
        return decoded.error;
    });
}

void StoryTurn::onOrchestratorCall(const llm::AskCall& call) {
    AgentStep& step = log_.steps[orchestratorStep_];
    step.endMs = sinceStart();
    step.rounds = 1;
    if (const std::optional<llm::ChatReply>& reply = call.record.reply) {
        step.usage = reply->usage;
        step.costUsd = call.record.costUsd;
        step.output = call.error.empty() ? call.answer : reply->content;
    }
    if (call.error.empty()) return;
    step.error = call.error;
    step.status = StepStatus::Failed;
    note("orchestrator " + step.model + " failed: " + step.error);
}

void StoryTurn::onOrchestratorDone(const llm::AskResult& result) {
    std::optional<OrchestratorDecision> decision = result.ok() ? std::move(decided_) : std::nullopt;
    if (!decision) {
        note("orchestrator: no decision, so no pre-steps and no suggested dice rolls this turn");
        decision.emplace();
    }
    for (std::string& line : dropUnknownFactions(*decision, knownActors(files_))) note(std::move(line));
    record_.decision = std::move(*decision);
    log_.timing.orchestratorMs = sinceStart();
    if (handlers_.onDecision) handlers_.onDecision(record_.decision);
    if (record_.decision.preSteps.empty()) return startNarrator();
    setPhase(TurnPhase::PreSteps);
    startPreStep(0);
}

llm::ToolLoopHooks StoryTurn::loopHooks(AgentKind agent, std::size_t step) {
    llm::ToolLoopHooks hooks;
    hooks.runTool = [this, agent, step](const llm::ToolCall& call) { return runTool(agent, step, call); };
    hooks.onToolResult = [this, step](const llm::ToolCall& call, const llm::ToolResult& result) {
        log_.steps[step].toolCalls.push_back({call.name, call.arguments, result.content, result.isError});
    };
    return hooks;
}

// Step 2. Pre-steps, in order, not streamed.
void StoryTurn::startPreStep(std::size_t index) {
    if (index >= record_.decision.preSteps.size()) {
        log_.timing.preStepsMs = sinceStart() - log_.timing.orchestratorMs;
        return startNarrator();
    }
    const PreStep& pre = record_.decision.preSteps[index];
    const bool world = pre.kind == PreStepKind::WorldAdvance;
    const AgentKind agent = world ? AgentKind::WorldAdvance : AgentKind::FactionTurn;
    const std::string model = world ? (settings_.models.worldAdvance.empty() ? settings_.models.narrator
                                                                             : settings_.models.worldAdvance)
                                    : (settings_.models.factionTurn.empty() ? settings_.models.narrator
                                                                            : settings_.models.factionTurn);
    const std::string system =
        world ? llm::fillTemplate(prompts_.worldAdvance, {{"task", pre.description}})
              : llm::fillTemplate(prompts_.factionTurn,
                                  {{"faction", pre.faction}, {"situation", pre.situation}});
    llm::ChatRequest request;
    request.model = model;
    request.messages.push_back(message(llm::Role::System, system));
    for (llm::ChatMessage& m : sharedMessages("")) request.messages.push_back(std::move(m));
    request.messages.back().content =
        "(The player's latest message, for your information: " + request.messages.back().content +
        ")\n\nDo your task now.";
    request.tools = toolsFor(prompts_, agent);
    request.temperature = settings_.temperature;

    AgentStep step;
    step.agent = agent;
    step.label = world ? "" : pre.faction;
    step.model = model;
    step.input = loggedInput(request.messages);
    step.startMs = sinceStart();
    log_.steps.push_back(std::move(step));
    const std::size_t stepIndex = log_.steps.size() - 1;

    llm::ToolLoopHooks hooks = loopHooks(agent, stepIndex);
    hooks.afterRound = [](const llm::ChatReply& reply,
                          const std::vector<llm::ToolResult>&) -> std::optional<llm::RoundDecision> {
        if (isRefusal(reply.content)) return llm::RoundDecision::finish();
        return std::nullopt;
    };
    hooks.onEnd = [this, index, stepIndex](const llm::ToolLoopOutcome& outcome) {
        onPreStepEnd(index, stepIndex, outcome);
    };
    llm::ToolLoopOptions options;
    options.maxRepeatedErrors = 3; // a broken model is not paid to repeat a failing call
    options.maxRounds = settings_.preStepMaxRounds;
    options.costCapUsd = capLeft();
    options.pricing = pricing(model);
    options.turn = turnNumber_;
    loops_.push_back(
        std::make_unique<llm::ToolLoop>(chat_, std::move(request), std::move(hooks), options, &calls_));
    loops_.back()->start();
}

void StoryTurn::onPreStepEnd(std::size_t index, std::size_t stepIndex, const llm::ToolLoopOutcome& outcome) {
    if (outcome.stop == llm::LoopStop::Stopped) return;
    const PreStep& pre = record_.decision.preSteps[index];
    AgentStep& step = log_.steps[stepIndex]; // (a picture it asked for adds a step after it)
    step.endMs = sinceStart();
    step.rounds = outcome.rounds;
    step.usage = outcome.usage;
    step.costUsd = outcome.costUsd;
    const std::string what =
        pre.kind == PreStepKind::WorldAdvance ? "world_advance" : "faction_turn (" + pre.faction + ")";
    const std::string text = outcome.lastReply ? trimmedFront(outcome.lastReply->content) : "";
    step.output = text;
    std::string summary;
    if (std::string failure = loopFailure(outcome); !failure.empty()) {
        step.status = StepStatus::Failed;
        step.error = std::move(failure);
        note(what + " failed: " + step.error);
    } else if (isRefusal(text)) {
        step.status = StepStatus::Refused;
        step.error = text.substr(8);
        summary = what + " refused:" + step.error;
        note(summary);
    } else {
        summary = text.empty() ? what + ": done (no summary)" : text;
        if (outcome.stop == llm::LoopStop::RoundCap)
            note(what + " stopped at its cap of " + std::to_string(settings_.preStepMaxRounds) + " steps");
    }
    if (!summary.empty()) {
        offScreen_.push_back(summary);
        addEntry({EntryKind::OffScreen, step.agent, summary, {}, {}, false, std::nullopt});
    }
    startPreStep(index + 1);
}

// Step 3. The narrator: streamed, with every tool.
void StoryTurn::startNarrator() {
    setPhase(TurnPhase::Narrator);
    if (log_.timing.orchestratorMs >= 0 && log_.timing.preStepsMs < 0 && !record_.decision.preSteps.empty())
        log_.timing.preStepsMs = sinceStart() - log_.timing.orchestratorMs;
    llm::ChatRequest request;
    request.model = settings_.models.narrator;
    request.messages.push_back(message(llm::Role::System, narratorSystemPrompt(prompts_, config_, files_)));
    const std::string offScreen = settings_.mode == TurnMode::Agentic && !steer_.continueReply
                                      ? offScreenMessage(offScreen_, record_.decision.suggestedTwists)
                                      : "";
    for (llm::ChatMessage& m : sharedMessages(offScreen)) request.messages.push_back(std::move(m));
    if (!steer_.instruction.empty()) // this run's direction, for the narrator only
        request.messages.push_back(
            message(llm::Role::User, llm::fillTemplate(prompts_.direction, {{"instruction", steer_.instruction}})));
    request.tools = toolsFor(prompts_, AgentKind::Narrator);
    request.stream = settings_.streamNarrator;
    request.temperature = settings_.temperature;

    AgentStep step;
    step.agent = AgentKind::Narrator;
    step.model = request.model;
    step.input = loggedInput(request.messages);
    step.startMs = sinceStart();
    log_.steps.push_back(std::move(step));
    const std::size_t stepIndex = log_.steps.size() - 1;

    llm::ToolLoopHooks hooks = loopHooks(AgentKind::Narrator, stepIndex);
    hooks.onText = [this](const std::string& delta) {
        if (log_.timing.narratorFirstTokenMs < 0) log_.timing.narratorFirstTokenMs = sinceStart();
        if (handlers_.onNarratorText) handlers_.onNarratorText(delta);
    };
    hooks.onReply = [this](const llm::ChatReply& reply) {
        if (log_.timing.narratorFirstTokenMs < 0) log_.timing.narratorFirstTokenMs = sinceStart();
        if (log_.contextTokens == 0) log_.contextTokens = reply.usage.promptTokens;
        if (!reply.content.empty())
            addEntry({EntryKind::Narrator, AgentKind::Narrator, reply.content, {}, {}, false, std::nullopt});
    };
    hooks.onEnd = [this, stepIndex](const llm::ToolLoopOutcome& outcome) { onNarratorEnd(stepIndex, outcome); };
    llm::ToolLoopOptions options;
    options.maxRepeatedErrors = 3; // a broken model is not paid to repeat a failing call
    options.maxRounds = settings_.narratorMaxRounds;
    options.costCapUsd = capLeft();
    options.pricing = pricing(request.model);
    options.turn = turnNumber_;
    loops_.push_back(
        std::make_unique<llm::ToolLoop>(chat_, std::move(request), std::move(hooks), options, &calls_));
    loops_.back()->start();
}

void StoryTurn::onNarratorEnd(std::size_t stepIndex, const llm::ToolLoopOutcome& outcome) {
    if (outcome.stop == llm::LoopStop::Stopped) return;
    // Its own step: a picture the narrator asked for added a step after it.
    AgentStep& step = log_.steps[stepIndex];
    step.endMs = sinceStart();
    step.rounds = outcome.rounds;
    step.usage = outcome.usage;
    step.costUsd = outcome.costUsd;
    step.output = record_.narration();
    narratorDone_ = true;
    if (std::string failure = loopFailure(outcome); !failure.empty()) {
        step.status = StepStatus::Failed;
        step.error = std::move(failure);
        narratorFailed_ = true;
        narratorError_ = "the narrator failed: " + step.error;
    } else if (outcome.stop == llm::LoopStop::RoundCap) {
        note("the narrator stopped at its cap of " + std::to_string(settings_.narratorMaxRounds) + " steps");
    }
    if (imagesPending_ > 0) setPhase(TurnPhase::Images);
    maybeFinish();
}

llm::ToolResult StoryTurn::runTool(AgentKind agent, std::size_t step, const llm::ToolCall& call) {
    TranscriptEntry entry{EntryKind::ToolCall, agent, {}, call.name, call.arguments, false, std::nullopt};
    auto done = [&](std::string text, bool isError) {
        entry.text = text;
        entry.toolError = isError;
        addEntry(std::move(entry));
        return isError ? llm::ToolResult::error(std::move(text)) : llm::ToolResult::ok(std::move(text));
    };
    if (call.name == "search_image") {
        StoryToolResult result = searchImage(files_, call.arguments);
        return done(result.text, result.isError);
    }
    if (call.name == "create_image") {
        if (settings_.models.image.empty()) return done(noImageModelText(), true);
        llm::Result<ImageOrder> order = parseImageOrder(files_, call.arguments);
        if (!order.isOk()) return done(order.error, true);
        const std::string text = "The picture \"" + order.value->slug +
                                 "\" is being made; it will be stored under images/ "
                                 "and linked from " +
                                 order.value->file + ". Go on with the story.";
        startImage(std::move(*order.value));
        return done(text, false);
    }
    if (agent == AgentKind::FactionTurn && call.name == "twist_of_fate")
        return done("twist_of_fate is not available to a faction turn: decide what the faction does.", true);
    (void)step;
    StoryToolResult result = runStoryTool(files_, record_.changes, call.name, call.arguments, rng_);
    if (result.twist && !result.isError) {
        entry.kind = EntryKind::Dice;
        entry.twist = result.twist;
    }
    return done(result.text, result.isError);
}

// Step 4. A picture: one try of the image model, stored when it answers with one.
void StoryTurn::startImage(ImageOrder order) {
    auto pending = std::make_unique<PendingImage>();
    PendingImage& image = *pending;
    image.order = std::move(order);
    llm::AskRequest request;
    request.base = imageRequest(settings_.models.image, image.order);
    request.models.push_back(askModel(settings_.models.image));
    AgentStep step;
    step.agent = AgentKind::Image;
    step.label = image.order.slug;
    step.model = settings_.models.image;
    step.input = request.base.messages;
    step.startMs = sinceStart();
    log_.steps.push_back(std::move(step));
    image.step = log_.steps.size() - 1;
    llm::AskHooks hooks;
    hooks.onDone = [this, &image](const llm::AskResult& result) { onImageDone(image, result); };
    image.ask = std::make_unique<llm::Ask>(std::move(request), askPolicy(), std::move(hooks), &calls_);
    images_.push_back(std::move(pending));
    ++imagesPending_;
    image.ask->run(chat_, [this, &image](const llm::ChatReply& reply, const std::string&) {
        return storePicture(image, reply);
    });
}

std::string StoryTurn::storePicture(PendingImage& image, const llm::ChatReply& reply) {
    if (reply.imageUrls.empty()) return "the image model answered without a picture";
    llm::Result<DecodedImage> decoded = decodeImageDataUrl(reply.imageUrls.front());
    if (!decoded.isOk()) return decoded.error;
    llm::Result<std::string> stored = storeImage(files_, record_.changes, image.order, *decoded.value);
    if (!stored.isOk()) return stored.error;
    image.stored = *stored.value;
    return {};
}

void StoryTurn::onImageDone(PendingImage& image, const llm::AskResult& result) {
    --imagesPending_;
    AgentStep& step = log_.steps[image.step];
    step.endMs = sinceStart();
    step.rounds = 1;
    step.usage = result.usage;
    step.costUsd = result.costUsd;
    if (result.ok()) {
        step.output = image.stored;
        addEntry({EntryKind::ToolCall,
                  AgentKind::Image,
                  "Stored " + image.stored + ", linked from " + image.order.file,
                  "create_image",
                  {},
                  false,
                  std::nullopt});
    } else {
        step.status = StepStatus::Failed;
        step.error = result.failure == llm::AskFailure::ApiError && result.chatError
                         ? result.chatError->message
                         : result.error;
        note("create_image " + image.order.slug + " failed: " + step.error);
    }
    maybeFinish();
}

void StoryTurn::maybeFinish() {
    if (!narratorDone_ || imagesPending_ > 0 || phase_ == TurnPhase::Done) return;
    if (narratorFailed_) return finish(TurnStatus::Failed, narratorError_);
    finish(TurnStatus::Completed, {});
}

void StoryTurn::stop() {
    if (!running()) return;
    if (fold_) fold_->cancel();
    if (orchestrator_) orchestrator_->cancel();
    for (auto& image : images_) image->ask->cancel();
    imagesPending_ = 0;
    for (auto& loop : loops_) loop->stop();
    finish(TurnStatus::Stopped, "stopped by the player");
}

void StoryTurn::finish(TurnStatus status, std::string error) {
    phase_ = TurnPhase::Done;
    if (status != TurnStatus::Completed) {
        // A turn that did not complete leaves the world as it found it.
        if (WorldError undone = undo(files_, record_.changes); !undone.ok()) error += "; " + undone.message;
        record_.changes.clear();
    }
    log_.timing.totalMs = sinceStart();
    for (const AgentStep& step : log_.steps) {
        log_.costUsd += step.costUsd;
        log_.usage += step.usage;
    }
    record_.costUsd = log_.costUsd;
    TurnResult result{status, std::move(error), record_, log_};
    if (handlers_.onPhase) handlers_.onPhase(TurnPhase::Done);
    if (handlers_.onDone) handlers_.onDone(result);
}

} // namespace chaiba::story
