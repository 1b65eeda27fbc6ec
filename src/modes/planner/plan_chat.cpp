// The planner's chat: a ToolLoop per person's message over the current plan, the closing call after
// the round cap, undo steps and the JSON of plan and chat. Loops that ended are retired, not
// destroyed, since their end is reported from inside them.
#include "src/modes/planner/plan_chat.h"

#include "src/modes/planner/plan_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba::planner {

namespace {

using nlohmann::json;

constexpr int kChatJsonVersion = 1;
// The earlier messages resent with each request: at most this many characters (the oldest
// messages leave first, the plan is in the system prompt anyway).
constexpr size_t kHistoryBudgetChars = 24000;

std::string planText(const PlanGraph& graph) {
    return graph.tasks.empty() ? std::string() : serializePlan(graph);
}

// A stored plan: empty text is the empty plan; models are not checked (the catalog may have moved).
Result<PlanGraph> readPlanText(const std::string& text) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return Result<PlanGraph>::success({});
    return parsePlan(text, PlanContext{});
}

std::optional<llm::Role> parseRole(std::string_view name) {
    for (llm::Role r : {llm::Role::System, llm::Role::User, llm::Role::Assistant, llm::Role::Tool})
        if (name == llm::roleName(r)) return r;
    return std::nullopt;
}

// Typed reads of stored fields: a missing or mistyped one gives the default, never an exception.
int intAt(const json& o, const char* key) {
    auto it = o.find(key);
    return it != o.end() && it->is_number_integer() ? it->get<int>() : 0;
}
double numberAt(const json& o, const char* key) {
    auto it = o.find(key);
    return it != o.end() && it->is_number() ? it->get<double>() : 0.0;
}
bool boolAt(const json& o, const char* key) {
    auto it = o.find(key);
    return it != o.end() && it->is_boolean() && it->get<bool>();
}
json arrayAt(const json& o, const char* key) {
    auto it = o.find(key);
    return it != o.end() && it->is_array() ? *it : json::array();
}

std::string shortened(const std::string& text, size_t max) {
    return text.size() <= max ? text : text.substr(0, max) + "…";
}

} // namespace

const char* turnEndName(TurnEnd end) {
    switch (end) {
    case TurnEnd::Running: return "running";
    case TurnEnd::Answered: return "answered";
    case TurnEnd::Capped: return "capped";
    case TurnEnd::Stopped: return "stopped";
    case TurnEnd::Failed: return "failed";
    }
    return "running";
}

const char* reviewName(Review review) {
    switch (review) {
    case Review::None: return "none";
    case Review::Pending: return "pending";
    case Review::Accepted: return "accepted";
    case Review::Partial: return "partial";
    case Review::Rejected: return "rejected";
    }
    return "none";
}

int PlanTurn::toolErrors() const {
    int n = 0;
    for (const PlanToolCall& c : calls) n += c.isError ? 1 : 0;
    return n;
}

llm::Result<PlanChatAssets> loadPlanChatAssets(const llm::AssetSource& assets) {
    using R = llm::Result<PlanChatAssets>;
    PlanChatAssets out;
    llm::Result<std::string> system = llm::loadText(assets, "planner/prompts/system.md");
    llm::Result<std::string> closing = llm::loadText(assets, "planner/prompts/closing.md");
    llm::Result<std::string> format = llm::loadText(assets, "planner/format.md");
    llm::Result<std::string> sample = llm::loadText(assets, "planner/sample.plan");
    for (const auto* r : {&system, &closing, &format, &sample})
        if (!r->isOk()) return R::fail(r->error);
    out.systemTemplate = *system.value;
    out.closingTemplate = *closing.value;
    out.formatSpec = *format.value;
    out.samplePlan = *sample.value;
    for (std::string_view name : plannerToolNames()) {
        llm::Result<llm::ToolDefinition> tool =
            llm::loadTool(assets, "planner/tools/" + std::string(name) + ".json");
        if (!tool.isOk()) return R::fail(tool.error);
        out.tools.push_back(std::move(*tool.value));
    }
    return R::ok(std::move(out));
}

PlanChat::PlanChat(llm::ChatService& chat, PlanChatAssets assets, PlanChatConfig config, PlanGraph plan)
    : chat_(chat), assets_(std::move(assets)), config_(std::move(config)), plan_(std::move(plan)) {}

PlanChat::~PlanChat() = default; // a running loop cancels its call as it is destroyed

std::string PlanChat::systemPrompt() const {
    const std::string plan =
        plan_.tasks.empty() ? std::string("(empty: the first task you add becomes the root, the plan itself)")
                            : serializePlan(plan_);
    return llm::fillTemplate(assets_.systemTemplate, {{"format", assets_.formatSpec}, {"plan", plan}});
}

llm::ChatRequest PlanChat::baseRequest() const {
    llm::ChatRequest r;
    r.model = config_.model;
    r.messages.push_back({llm::Role::System, systemPrompt(), {}, {}, {}, false});
    r.messages.insert(r.messages.end(), history_.begin(), history_.end());
    r.tools = assets_.tools;
    r.toolChoice = llm::ToolChoice::Auto;
    r.parallelToolCalls = true; // a request's changes in one answer, applied as one step
    r.temperature = config_.temperature;
    r.maxTokens = config_.maxTokens;
    r.stream = config_.stream;
    return r;
}

bool PlanChat::send(const std::string& text) {
    if (busy() || pendingReview() || text.find_first_not_of(" \t\r\n") == std::string::npos) return false;
    retired_.clear();
    readCalls_.clear();
    redo_.clear();
    // Step 1. The undo step opens with the plan as it is now.
    PlanTurn turn;
    turn.text = text;
    turn.before = plan_;
    turns_.push_back(std::move(turn));
    std::string said;
    for (const std::string& note : pendingNotes_) said += note + "\n\n";
    said += text;
    pendingNotes_.clear();

    // Step 2. The request: format spec and current plan, the conversation so far, the message.
    llm::ChatRequest request = baseRequest();
    request.messages.push_back({llm::Role::User, said, {}, {}, {}, false});
    closing_ = false;
    clearStreaming();

    // Step 3. The loop: every tool call runs on the current plan.
    llm::ToolLoopHooks hooks;
    hooks.onReply = [this](const llm::ChatReply& reply) {
        clearStreaming();
        ++turns_.back().rounds;
        prepareBatch(reply);
    };
    hooks.runTool = [this](const llm::ToolCall& call) { return runTool(call); };
    // Calls that all succeeded, with the model's words to the person beside them: the message is
    // done (a one-shot request costs one call; a round of calls alone asks the model again). A
    // round that asked for the plan or the catalog (get_graph, list_models) goes on: the model
    // wants to read the answer.
    hooks.afterRound = [](const llm::ChatReply& reply,
                          const std::vector<llm::ToolResult>& results) -> std::optional<llm::RoundDecision> {
        if (reply.toolCalls.empty() || reply.content.find_first_not_of(" \t\r\n") == std::string::npos)
            return std::nullopt;
        for (const llm::ToolCall& c : reply.toolCalls)
            if (c.name == "get_graph" || c.name == "list_models") return std::nullopt;
        for (const llm::ToolResult& r : results)
            if (r.isError) return std::nullopt;
        return llm::RoundDecision::finish();
    };
    followStream(hooks);
    hooks.onEnd = [this](const llm::ToolLoopOutcome& outcome) { onLoopEnd(outcome); };
    llm::ToolLoopOptions options;
    options.maxRepeatedErrors = 3;
    options.maxRounds = config_.maxRounds;
    options.pricing = config_.pricing;
    options.turn = int(turns_.size());
    loop_ = std::make_unique<llm::ToolLoop>(chat_, std::move(request), std::move(hooks), options, &log_);
    loop_->start();
    return true;
}

void PlanChat::stop() {
    if (loop_) loop_->stop();
}

void PlanChat::prepareBatch(const llm::ChatReply& reply) {
    batch_.clear();
    batchNext_ = 0;
    const int round = turns_.back().rounds;
    PlanGraph working = plan_;
    std::vector<int> refused; // 1-based places of the refused calls
    for (const llm::ToolCall& call : reply.toolCalls) {
        Prepared p;
        p.callId = call.id;
        p.record.round = round;
        p.record.name = call.name;
        p.record.arguments = call.arguments;
        if (closing_) {
            p.record.isError = true;
            p.record.card.tool = call.name;
            p.record.result = "Error: the tools are closed for this message; answer in text.";
        } else if ((call.name == "get_graph" || call.name == "list_models") &&
                   !readCalls_.insert(call.name + "\n" + call.arguments).second) {
            // The same question twice in one message: its answer is above. Asked again and
            // again, the loop stops (ToolLoop's repeated errors) instead of running to the cap.
            p.record.isError = true;
            p.record.card.tool = call.name;
            p.record.result = "Error: you already made this exact " + call.name +
                              " call in this message; its answer is above. Act on it, or answer the person.";
        } else {
            PlannerToolResult r = runPlannerTool(working, call.name, call.arguments, config_.context);
            p.record.card = r.card;
            p.record.isError = r.isError;
            // What changed, not the whole plan at every call (the round's last result has it).
            p.record.result = r.isError ? r.text : r.text.substr(0, r.text.find('\n'));
            if (r.graph) working = std::move(*r.graph);
        }
        if (p.record.isError) refused.push_back(int(batch_.size()) + 1);
        batch_.push_back(std::move(p));
    }
    if (batch_.empty() || closing_) return;
    if (refused.empty()) {
        plan_ = std::move(working);
        batch_.back().record.result += "\n" + planSummary(plan_);
        if (onPlanChanged) onPlanChanged();
        return;
    }
    if (batch_.size() == 1) return; // a call alone: its error says it all
    // All or nothing: the plan stays as it was; every call says so.
    std::string which;
    for (size_t i = 0; i < refused.size(); ++i)
        which += (i == 0 ? "" : i + 1 == refused.size() ? " and " : ", ") + std::to_string(refused[i]);
    const std::string note = " (nothing of this answer's " + std::to_string(batch_.size()) +
                             " calls was applied: call" + (refused.size() > 1 ? "s " : " ") + which +
                             " refused; send them all again with the refused ones fixed)";
    for (Prepared& p : batch_) {
        if (p.record.isError) {
            p.record.result += note;
        } else {
            p.record.isError = true;
            p.record.result = "Not applied" + note + "; alone it would have done: " + p.record.result;
        }
    }
}

llm::ToolResult PlanChat::runTool(const llm::ToolCall& call) {
    PlanTurn& turn = turns_.back();
    PlanToolCall record;
    if (batchNext_ < batch_.size() && batch_[batchNext_].callId == call.id) {
        record = batch_[batchNext_++].record;
    } else { // a call the reply did not announce (never expected): refused, the plan unchanged
        record.round = turn.rounds;
        record.name = call.name;
        record.arguments = call.arguments;
        record.card.tool = call.name;
        record.isError = true;
        record.result = "Error: this call was not part of the answer's tool calls.";
    }
    turn.calls.push_back(record);
    if (onToolCall) onToolCall(turn.calls.back());
    return record.isError ? llm::ToolResult::error(record.result) : llm::ToolResult::ok(record.result);
}

void PlanChat::followStream(llm::ToolLoopHooks& hooks) {
    hooks.onText = [this](const std::string& delta) {
        streaming_ += delta;
        if (onText) onText(delta);
    };
    hooks.onToolCallsStreaming = [this](const std::vector<llm::ToolCall>& sofar) {
        streamingCalls_ = sofar;
        if (onText) onText("");
    };
    // A failed attempt's calls will not run: the retry streams its own from the start.
    hooks.onRetry = [this](const llm::RetryNotice&) {
        if (streamingCalls_.empty()) return;
        streamingCalls_.clear();
        if (onText) onText("");
    };
}

void PlanChat::clearStreaming() {
    streaming_.clear();
    streamingCalls_.clear();
}

void PlanChat::keepConversation(const std::vector<llm::ChatMessage>& messages) {
    // The loop's conversation starts with the system prompt, rebuilt for every message.
    history_.assign(messages.begin() + (messages.empty() ? 0 : 1), messages.end());
    // Tool results keep their first line (what was done, or the error): the plan they summarised
    // is stale, the current one is in the system prompt.
    size_t total = 0;
    for (llm::ChatMessage& m : history_) {
        if (m.role == llm::Role::Tool) m.content = m.content.substr(0, m.content.find('\n'));
        total += m.content.size() + m.reasoningDetailsJson.size();
        for (const llm::ToolCall& c : m.toolCalls) total += c.arguments.size() + c.name.size();
    }
    // The oldest messages leave, whole (a person's message with every answer and result after it),
    // until the rest fits the budget; the latest message always stays.
    size_t cut = 0;
    while (total > kHistoryBudgetChars) {
        size_t next = cut + 1;
        while (next < history_.size() && history_[next].role != llm::Role::User) ++next;
        if (next >= history_.size()) break;
        for (size_t i = cut; i < next; ++i) {
            total -= history_[i].content.size() + history_[i].reasoningDetailsJson.size();
            for (const llm::ToolCall& c : history_[i].toolCalls) total -= c.arguments.size() + c.name.size();
        }
        cut = next;
    }
    history_.erase(history_.begin(), history_.begin() + std::ptrdiff_t(cut));
}

void PlanChat::onLoopEnd(const llm::ToolLoopOutcome& outcome) {
    PlanTurn& turn = turns_.back();
    turn.costUsd += outcome.costUsd;
    turn.inputTokens += outcome.usage.promptTokens;
    keepConversation(loop_->messages());
    const std::string lastWords = outcome.lastReply ? outcome.lastReply->content : std::string();
    switch (outcome.stop) {
    case llm::LoopStop::Terminal:
    case llm::LoopStop::NoToolCalls:
        turn.reply = lastWords;
        return finishTurn(closing_ ? TurnEnd::Capped : TurnEnd::Answered);
    case llm::LoopStop::RoundCap:
        if (!closing_) return startClosingCall();
        turn.reply = lastWords;
        return finishTurn(TurnEnd::Capped);
    case llm::LoopStop::Stopped: return finishTurn(TurnEnd::Stopped);
    case llm::LoopStop::CostCap: return finishTurn(TurnEnd::Stopped, "the cost cap was reached");
    case llm::LoopStop::Failed:
        return finishTurn(TurnEnd::Failed, outcome.error ? outcome.error->message : std::string("no reply"));
    case llm::LoopStop::Repeating:
        return finishTurn(TurnEnd::Failed, "the model repeated a refused call: " + outcome.repeatedError);
    }
}

void PlanChat::startClosingCall() {
    // One last call without tools: the model says what was done and what remains.
    llm::ChatRequest request = baseRequest();
    request.toolChoice = llm::ToolChoice::None; // tools stay listed: earlier messages call them
    request.messages.push_back(
        {llm::Role::User,
         llm::fillTemplate(assets_.closingTemplate, {{"rounds", std::to_string(config_.maxRounds)}}),
         {},
         {},
         {},
         false});
    closing_ = true;
    clearStreaming();
    llm::ToolLoopHooks hooks;
    hooks.onReply = [this](const llm::ChatReply& reply) {
        clearStreaming();
        ++turns_.back().rounds;
        prepareBatch(reply);
    };
    hooks.runTool = [this](const llm::ToolCall& call) { return runTool(call); };
    hooks.afterRound = [](const llm::ChatReply&, const std::vector<llm::ToolResult>&) {
        return std::optional<llm::RoundDecision>(llm::RoundDecision::finish());
    };
    followStream(hooks);
    hooks.onEnd = [this](const llm::ToolLoopOutcome& outcome) { onLoopEnd(outcome); };
    llm::ToolLoopOptions options;
    options.maxRepeatedErrors = 3;
    options.maxRounds = 1;
    options.pricing = config_.pricing;
    options.turn = int(turns_.size());
    retired_.push_back(std::move(loop_));
    loop_ = std::make_unique<llm::ToolLoop>(chat_, std::move(request), std::move(hooks), options, &log_);
    loop_->start();
}

void PlanChat::finishTurn(TurnEnd end, std::string error) {
    PlanTurn& turn = turns_.back();
    turn.end = end;
    turn.error = std::move(error);
    turn.after = plan_;
    turn.diff = diffPlans(turn.before, plan_);
    if (config_.review && !(turn.before == plan_)) {
        // A proposal: the plan stays as it was until the person accepts it.
        turn.review = Review::Pending;
        plan_ = turn.before;
        if (onPlanChanged) onPlanChanged();
    }
    clearStreaming();
    closing_ = false;
    retired_.push_back(std::move(loop_)); // we are inside its onEnd: destroyed at the next send()
    if (onTurnEnd) onTurnEnd(turn);
}

bool PlanChat::undo(size_t index, std::string* why) {
    auto refuse = [&](const char* reason) {
        if (why) *why = reason;
        return false;
    };
    if (busy()) return refuse("a message is still running: stop it first");
    if (index >= turns_.size()) return refuse("no such message");
    if (turns_[index].undone) return refuse("that message is already undone");
    if (pendingReview()) return refuse("a proposed change waits for review: accept or reject it first");
    const PlanDiff reverted = diffPlans(plan_, turns_[index].before);
    UndoneStep step{plan_, turns_[index].before, {}};
    plan_ = turns_[index].before;
    int alsoUndone = 0;
    for (size_t i = index; i < turns_.size(); ++i) {
        if (turns_[i].undone) continue;
        if (i > index) ++alsoUndone;
        turns_[i].undone = true;
        step.turns.push_back(i);
    }
    redo_.push_back(std::move(step));
    pendingNotes_.push_back("[SYSTEM] The person undid their " +
                            std::string(turns_[index].byHand ? "hand edit" : "message") + " \"" +
                            shortened(turns_[index].text, 80) + "\"" +
                            (alsoUndone ? " and the " + std::to_string(alsoUndone) + " after it" : "") +
                            ": the plan is back to how it was before (" + reverted.text() +
                            "). The current plan is in the system prompt.");
    if (onPlanChanged) onPlanChanged();
    return true;
}

int PlanChat::laterSteps(size_t index) const {
    int n = 0;
    for (size_t i = index + 1; i < turns_.size(); ++i) n += turns_[i].undone || turns_[i].diff.empty() ? 0 : 1;
    return n;
}

std::string PlanChat::redoText() const {
    if (redo_.empty() || busy() || pendingReview() || !(redo_.back().left == plan_)) return {};
    const UndoneStep& step = redo_.back();
    const PlanTurn& first = turns_[step.turns.front()];
    std::string text = std::string(first.byHand ? "the hand edit" : "the message") + " \"" + shortened(first.text, 40) + "\"";
    if (step.turns.size() > 1) text += " and " + std::to_string(step.turns.size() - 1) + " after it";
    return text;
}

std::optional<size_t> PlanChat::redoFirst() const {
    if (redoText().empty()) return std::nullopt;
    return redo_.back().turns.front();
}

bool PlanChat::redo(std::string* why) {
    auto refuse = [&](const char* reason) {
        if (why) *why = reason;
        return false;
    };
    if (busy()) return refuse("a message is still running: stop it first");
    if (redo_.empty()) return refuse("nothing to redo");
    if (pendingReview()) return refuse("a proposed change waits for review: accept or reject it first");
    if (!(redo_.back().left == plan_)) return refuse("the plan changed since the undo: nothing to redo");
    const std::string what = redoText();
    UndoneStep step = std::move(redo_.back());
    redo_.pop_back();
    const PlanDiff change = diffPlans(plan_, step.restore);
    plan_ = std::move(step.restore);
    for (size_t i : step.turns) turns_[i].undone = false;
    pendingNotes_.push_back("[SYSTEM] The person redid " + what + " (" + change.text() +
                            "). The current plan is in the system prompt.");
    if (onPlanChanged) onPlanChanged();
    return true;
}

std::optional<size_t> PlanChat::pendingReview() const {
    for (size_t i = turns_.size(); i-- > 0;)
        if (turns_[i].review == Review::Pending) return i;
    return std::nullopt;
}

const PlanGraph& PlanChat::shownPlan() const {
    const std::optional<size_t> pending = pendingReview();
    return pending ? turns_[*pending].after : plan_;
}

bool PlanChat::accept(const std::vector<std::string>* only, std::string* why) {
    auto refuse = [&](std::string reason) {
        if (why) *why = std::move(reason);
        return false;
    };
    const std::optional<size_t> pending = pendingReview();
    if (!pending) return refuse("no proposed change waits for review");
    PlanTurn& turn = turns_[*pending];
    const std::vector<TaskChange> changes = taskChanges(turn.before, turn.after);
    std::vector<std::string> kept, dropped;
    for (const TaskChange& c : changes) {
        const bool take = !only || std::find(only->begin(), only->end(), c.id) != only->end();
        (take ? kept : dropped).push_back(c.id);
    }
    if (kept.empty()) return refuse("no change chosen: pick at least one, or reject them all");
    PlanResult result = applyChanges(turn.before, turn.after, kept, config_.context);
    if (!result.ok()) return refuse(result.error);
    auto list = [](const std::vector<std::string>& ids) {
        std::string out;
        for (size_t i = 0; i < ids.size(); ++i)
            out += (i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ") + ids[i];
        return out;
    };
    plan_ = std::move(*result.value);
    turn.after = plan_;
    turn.diff = diffPlans(turn.before, plan_);
    if (dropped.empty()) {
        turn.review = Review::Accepted;
        turn.reviewNote = "accepted";
    } else {
        turn.review = Review::Partial;
        turn.reviewNote = "accepted the change" + std::string(kept.size() > 1 ? "s" : "") + " to " + list(kept) +
                          "; rejected the one" + (dropped.size() > 1 ? "s" : "") + " to " + list(dropped);
        pendingNotes_.push_back("[SYSTEM] The person reviewed your changes: " + turn.reviewNote +
                                ". The current plan is in the system prompt.");
    }
    redo_.clear();
    if (onPlanChanged) onPlanChanged();
    return true;
}

bool PlanChat::reject(std::string* why) {
    const std::optional<size_t> pending = pendingReview();
    if (!pending) {
        if (why) *why = "no proposed change waits for review";
        return false;
    }
    PlanTurn& turn = turns_[*pending];
    const PlanDiff proposed = turn.diff;
    turn.after = turn.before;
    turn.diff = PlanDiff{};
    turn.review = Review::Rejected;
    turn.reviewNote = "rejected (" + proposed.text() + ")";
    pendingNotes_.push_back("[SYSTEM] The person rejected the changes of your last answer (" + proposed.text() +
                            "): none of them was applied. The current plan is in the system prompt.");
    if (onPlanChanged) onPlanChanged();
    return true;
}

void PlanChat::importPlan(PlanGraph plan) { editPlan(std::move(plan), "imported a plan"); }

void PlanChat::editPlan(PlanGraph plan, const std::string& what) {
    const PlanDiff change = diffPlans(plan_, plan);
    plan_ = std::move(plan);
    pendingNotes_.push_back("[SYSTEM] The person " + what + " (" + change.text() +
                            "). The current plan is in the system prompt.");
    if (onPlanChanged) onPlanChanged();
}

bool PlanChat::handEdit(PlanGraph plan, const std::string& what, std::string* why) {
    if (busy()) {
        if (why) *why = "a message is still running: wait for it or stop it first";
        return false;
    }
    if (pendingReview()) {
        if (why) *why = "a proposed change waits for review: accept or reject it first";
        return false;
    }
    PlanTurn turn;
    turn.text = what;
    turn.byHand = true;
    turn.before = plan_;
    turn.after = plan;
    turn.diff = diffPlans(turn.before, turn.after);
    turn.end = TurnEnd::Answered;
    if (turn.diff.empty() && turn.before == turn.after) {
        if (why) *why = "nothing changed";
        return false;
    }
    turns_.push_back(std::move(turn));
    redo_.clear();
    editPlan(std::move(plan), what + " by hand");
    return true;
}

std::string PlanChat::toJson() const {
    json doc = json::object();
    doc["version"] = kChatJsonVersion;
    doc["model"] = config_.model;
    doc["plan"] = planText(plan_);
    json turns = json::array();
    for (const PlanTurn& t : turns_) {
        json calls = json::array();
        for (const PlanToolCall& c : t.calls)
            calls.push_back(json{{"round", c.round},
                                 {"name", c.name},
                                 {"arguments", c.arguments},
                                 {"card", json{{"tool", c.card.tool},
                                               {"target", c.card.target},
                                               {"before", c.card.before},
                                               {"after", c.card.after}}},
                                 {"isError", c.isError},
                                 {"result", c.result}});
        turns.push_back(json{{"text", t.text},
                             {"byHand", t.byHand},
                             {"reply", t.reply},
                             {"calls", calls},
                             {"before", planText(t.before)},
                             {"after", planText(t.after)},
                             {"end", turnEndName(t.end)},
                             {"error", t.error},
                             {"rounds", t.rounds},
                             {"costUsd", t.costUsd},
                             {"inputTokens", t.inputTokens},
                             {"undone", t.undone},
                             {"review", reviewName(t.review)},
                             {"reviewNote", t.reviewNote}});
    }
    doc["turns"] = turns;
    json history = json::array();
    for (const llm::ChatMessage& m : history_) {
        json calls = json::array();
        for (const llm::ToolCall& c : m.toolCalls)
            calls.push_back(json{{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
        history.push_back(json{{"role", llm::roleName(m.role)},
                               {"content", m.content},
                               {"toolCalls", calls},
                               {"toolCallId", m.toolCallId},
                               {"reasoningDetails", m.reasoningDetailsJson}});
    }
    doc["history"] = history;
    doc["notes"] = pendingNotes_;
    return doc.dump(2, ' ', false, json::error_handler_t::replace);
}

bool PlanChat::loadJson(std::string_view text, std::string* why) {
    auto refuse = [&](std::string reason) {
        if (why) *why = std::move(reason);
        return false;
    };
    if (busy()) return refuse("a message is still running: stop it first");
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return refuse("the saved chat is not JSON");
    if (!doc.contains("version") || !doc["version"].is_number_integer())
        return refuse("the saved chat has no version");
    if (doc["version"].get<int>() > kChatJsonVersion)
        return refuse("the saved chat is from a newer version (" + std::to_string(doc["version"].get<int>()) +
                      ")");
    auto stringAt = [](const json& o, const char* key) {
        auto it = o.find(key);
        return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    Result<PlanGraph> plan = readPlanText(stringAt(doc, "plan"));
    if (!plan.ok()) return refuse("the saved plan: " + plan.error);
    std::vector<PlanTurn> turns;
    for (const json& t : arrayAt(doc, "turns")) {
        if (!t.is_object()) return refuse("a saved message is not an object");
        PlanTurn turn;
        turn.text = stringAt(t, "text");
        turn.reply = stringAt(t, "reply");
        turn.error = stringAt(t, "error");
        Result<PlanGraph> before = readPlanText(stringAt(t, "before"));
        Result<PlanGraph> after = readPlanText(stringAt(t, "after"));
        if (!before.ok() || !after.ok())
            return refuse("a saved message's plan: " + (before.ok() ? after.error : before.error));
        turn.before = std::move(*before.value);
        turn.after = std::move(*after.value);
        turn.diff = diffPlans(turn.before, turn.after);
        const std::string end = stringAt(t, "end");
        turn.end = TurnEnd::Answered;
        for (TurnEnd e : {TurnEnd::Answered, TurnEnd::Capped, TurnEnd::Stopped, TurnEnd::Failed})
            if (end == turnEndName(e)) turn.end = e;
        turn.rounds = intAt(t, "rounds");
        turn.costUsd = numberAt(t, "costUsd");
        turn.inputTokens = static_cast<long long>(numberAt(t, "inputTokens")); // absent before: 0
        turn.undone = boolAt(t, "undone");
        turn.byHand = boolAt(t, "byHand"); // absent before hand edits were steps: a message
        const std::string review = stringAt(t, "review"); // absent before review: none
        for (Review r : {Review::Pending, Review::Accepted, Review::Partial, Review::Rejected})
            if (review == reviewName(r)) turn.review = r;
        turn.reviewNote = stringAt(t, "reviewNote");
        for (const json& c : arrayAt(t, "calls")) {
            if (!c.is_object()) continue;
            PlanToolCall call;
            call.round = intAt(c, "round");
            call.name = stringAt(c, "name");
            call.arguments = stringAt(c, "arguments");
            const json card = c.contains("card") && c["card"].is_object() ? c["card"] : json::object();
            call.card = ToolCard{stringAt(card, "tool"), stringAt(card, "target"), stringAt(card, "before"),
                                 stringAt(card, "after")};
            call.isError = boolAt(c, "isError");
            call.result = stringAt(c, "result");
            turn.calls.push_back(std::move(call));
        }
        turns.push_back(std::move(turn));
    }
    std::vector<llm::ChatMessage> history;
    for (const json& m : arrayAt(doc, "history")) {
        if (!m.is_object()) return refuse("a saved chat message is not an object");
        std::optional<llm::Role> role = parseRole(stringAt(m, "role"));
        if (!role || *role == llm::Role::System) return refuse("a saved chat message has a bad role");
        llm::ChatMessage message;
        message.role = *role;
        message.content = stringAt(m, "content");
        message.toolCallId = stringAt(m, "toolCallId");
        message.reasoningDetailsJson = stringAt(m, "reasoningDetails");
        for (const json& c : arrayAt(m, "toolCalls"))
            if (c.is_object())
                message.toolCalls.push_back(
                    {stringAt(c, "id"), stringAt(c, "name"), stringAt(c, "arguments")});
        history.push_back(std::move(message));
    }
    std::vector<std::string> notes;
    for (const json& n : arrayAt(doc, "notes"))
        if (n.is_string()) notes.push_back(n.get<std::string>());
    // Everything read: only now does the chat change.
    plan_ = std::move(*plan.value);
    turns_ = std::move(turns);
    history_ = std::move(history);
    pendingNotes_ = std::move(notes);
    if (const std::string model = stringAt(doc, "model"); !model.empty() && config_.model.empty())
        config_.model = model;
    if (onPlanChanged) onPlanChanged();
    return true;
}

} // namespace chaiba::planner
