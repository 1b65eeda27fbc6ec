// The chess agent's turn loop: context → request → judge the move → accept, or feed back the
// reason and retry, or forfeit. Tool mode answers every tool call with a tool result; text mode
// reads the move from the answer and corrects with [SYSTEM] feedback.
#include "src/agent/chess_agent.h"

#include <nlohmann/json.hpp>

namespace chaiba::agent {

using nlohmann::json;

namespace {
// A non-empty string member of a JSON object, if there is one.
std::string stringArg(const json& obj, const char* name) {
    if (!obj.is_object() || !obj.contains(name)) return {};
    const json& v = obj[name];
    return v.is_string() ? v.get<std::string>() : std::string();
}
} // namespace

const char* agentStatusName(AgentStatus status) {
    switch (status) {
    case AgentStatus::Idle: return "idle";
    case AgentStatus::Thinking: return "thinking";
    case AgentStatus::Error: return "error";
    }
    return "idle";
}

bool defaultCacheControl(const std::string& model) {
    return model.rfind("anthropic/", 0) == 0;
}

AgentConfig agentConfigFromSettings(const Settings& settings, std::string id, std::string name,
                                    std::string model, Side side) {
    AgentConfig c;
    c.id = std::move(id);
    c.name = std::move(name);
    c.model = std::move(model);
    c.side = side;
    c.promptBase = settings.promptBase;
    c.promptColour = side == Side::White ? settings.promptWhite : settings.promptBlack;
    c.cacheControl = defaultCacheControl(c.model);
    c.retryAttempts =
        settings.retryAttempts < 0 ? 0 : (settings.retryAttempts > 10 ? 10 : settings.retryAttempts);
    c.sendContextMessage = settings.sendContextMessage;
    c.sendLegalMoves = settings.sendLegalMoves;
    c.sendFenOnError = settings.sendFenOnError;
    if (settings.temperature >= 0) c.temperature = settings.temperature;
    if (settings.maxTokens > 0) c.maxTokens = settings.maxTokens;
    c.reasoningEffort = settings.reasoningEffort;
    return c;
}

ChessAgent::ChessAgent(AgentConfig config, const AgentPrompts& prompts, ChatService& chat,
                       GameConversation& conversation, std::string opponentName)
    : config_(std::move(config)), prompts_(prompts), chat_(chat), conversation_(conversation) {
    identity_.id = config_.id;
    identity_.name = config_.name;
    identity_.side = config_.side;
    identity_.opponentName = std::move(opponentName);
}

ChessAgent::~ChessAgent() {
    cancel();
}

std::string ChessAgent::systemPrompt() const {
    std::string s = config_.promptBase.empty() ? prompts_.systemBase : config_.promptBase;
    const std::string& colour =
        config_.promptColour.empty()
            ? (config_.side == Side::White ? prompts_.systemWhite : prompts_.systemBlack)
            : config_.promptColour;
    if (!colour.empty()) s += "\n\n" + colour;
    if (!config_.customInstructions.empty()) s += "\n\n" + config_.customInstructions;
    if (!config_.useTools) s += "\n\n" + prompts_.textMode;
    return s;
}

std::vector<ChatMessage> ChessAgent::buildMessages() const {
    std::vector<ChatMessage> messages;
    ChatMessage system;
    system.role = Role::System;
    system.content = systemPrompt();
    messages.push_back(std::move(system));
    ConversionOptions options;
    options.cacheBreakpoint = config_.cacheControl;
    for (ChatMessage& m : convertConversation(conversation_, identity_, prompts_, options))
        messages.push_back(std::move(m));
    return messages;
}

ChatRequest ChessAgent::buildRequest() const {
    ChatRequest r;
    r.model = config_.model;
    r.messages = buildMessages();
    if (config_.useTools) {
        r.tools.push_back(prompts_.makeMove);
        r.toolChoice = ToolChoice::Auto;
    }
    r.temperature = config_.temperature;
    r.maxTokens = config_.maxTokens;
    r.reasoningEffort = config_.reasoningEffort;
    r.stream = config_.stream;
    r.timeoutMs = config_.timeoutMs;
    return r;
}

void ChessAgent::note(std::string text) {
    notes_.push_back(text);
    if (onNote) onNote(notes_.back());
}

void ChessAgent::startTurn(TurnInfo info, MoveJudge judge) {
    cancel();
    turn_ = std::move(info);
    judge_ = std::move(judge);
    ++turnNumber_;
    attempt_ = 0;
    pending_ = TurnResult{};
    result_.reset();
    if (config_.sendContextMessage) {
        std::string legal;
        if (config_.sendLegalMoves) {
            legal = "\nLegal moves:";
            for (const std::string& m : turn_.legalMoves) legal += " " + m;
        }
        ConversationEntry e;
        e.kind = ConversationEntry::Kind::Context;
        e.agentId = config_.id;
        e.agentName = config_.name;
        e.fullmoveNumber = turn_.fullmoveNumber;
        e.text =
            fillTemplate(prompts_.context, {{"move_number", std::to_string(turn_.fullmoveNumber)},
                                            {"colour", sideName(config_.side)},
                                            {"fen", turn_.fen},
                                            {"history", turn_.history.empty() ? "(none yet)" : turn_.history},
                                            {"legal_moves", legal}});
        conversation_.add(std::move(e));
    }
    send();
}

void ChessAgent::send() {
    ++attempt_;
    status_ = AgentStatus::Thinking;
    liveText_.clear();
    liveReasoning_.clear();
    ChatHandlers h;
    h.onText = [this](const std::string& delta) { liveText_ += delta; };
    h.onReasoning = [this](const std::string& delta) { liveReasoning_ += delta; };
    h.onRetry = [this](const RetryNotice& n) {
        note("retry " + std::to_string(n.failedAttempt) + "/" + std::to_string(n.maxAttempts - 1) + " in " +
             std::to_string(n.delayMs) + " ms after: " + n.error.message);
    };
    h.onDone = [this](ChatOutcome outcome) {
        callId_.reset();
        onOutcome(std::move(outcome));
    };
    callId_ = chat_.send(buildRequest(), std::move(h));
}

void ChessAgent::cancel() {
    if (callId_) chat_.cancel(*callId_);
    callId_.reset();
    if (status_ == AgentStatus::Thinking) status_ = AgentStatus::Idle;
}

std::optional<TurnResult> ChessAgent::takeResult() {
    std::optional<TurnResult> r = std::move(result_);
    result_.reset();
    return r;
}

std::string ChessAgent::feedbackSuffix() const {
    std::string s;
    if (turn_.inCheck) s += " You are in check.";
    if (config_.sendFenOnError) s += " The position (FEN) is: " + turn_.fen + ".";
    return s;
}

void ChessAgent::onOutcome(ChatOutcome outcome) {
    AgentCallRecord record;
    record.turn = turnNumber_;
    record.attempt = attempt_;
    record.model = config_.model;
    record.httpAttempts = std::move(outcome.attempts);
    record.error = outcome.error;
    record.reply = outcome.reply;
    if (outcome.error) {
        calls_.push_back(std::move(record));
        status_ = AgentStatus::Error;
        lastError_ = outcome.error->message;
        note("request failed: " + lastError_);
        pending_.kind = TurnResult::Kind::Error;
        pending_.message = lastError_;
        pending_.attempts = attempt_;
        result_ = pending_;
        return;
    }
    const ChatReply& reply = *outcome.reply;
    double cost = 0;
    if (reply.usage.costUsd)
        cost = *reply.usage.costUsd;
    else if (config_.pricing)
        cost = estimateCostUsd(reply.usage, *config_.pricing);
    record.costUsd = cost;
    calls_.push_back(std::move(record));
    totalCostUsd_ += cost;
    pending_.costUsd += cost;
    for (Usage* u : {&totalUsage_, &pending_.usage}) {
        u->promptTokens += reply.usage.promptTokens;
        u->completionTokens += reply.usage.completionTokens;
        u->totalTokens += reply.usage.totalTokens;
        u->cachedTokens += reply.usage.cachedTokens;
        u->cacheWriteTokens += reply.usage.cacheWriteTokens;
        u->reasoningTokens += reply.usage.reasoningTokens;
    }
    pending_.attempts = attempt_;

    ConversationEntry said;
    said.kind = ConversationEntry::Kind::AgentReply;
    said.agentId = config_.id;
    said.agentName = config_.name;
    said.text = reply.content;
    said.reasoningDetailsJson = reply.reasoningDetailsJson;
    if (config_.useTools) said.toolCalls = reply.toolCalls;
    conversation_.add(said);

    auto answerTool = [&](const std::string& id, std::string text) {
        ConversationEntry e;
        e.kind = ConversationEntry::Kind::ToolResult;
        e.agentId = config_.id;
        e.agentName = config_.name;
        e.toolCallId = id;
        e.text = std::move(text);
        conversation_.add(std::move(e));
    };

    if (!config_.useTools) {
        const MoveVerdict v = judge_(reply.content);
        if (v.legal) {
            pending_.kind = TurnResult::Kind::Move;
            pending_.san = v.san;
            pending_.uci = v.uci;
            pending_.reasoning = reply.content.empty() ? reply.reasoning : reply.content;
            status_ = AgentStatus::Idle;
            result_ = pending_;
            return;
        }
        note("no legal move in the answer: " + v.reason);
        return rejected(
            fillTemplate(
                prompts_.invalidMove,
                {{"move", reply.content.size() > 80 ? reply.content.substr(0, 80) + "..." : reply.content},
                 {"reason", v.reason},
                 {"check", turn_.inCheck ? " You are in check." : ""},
                 {"fen", config_.sendFenOnError ? " The position (FEN) is: " + turn_.fen + "." : ""}}),
            false, {});
    }

    // Tool mode: every tool call gets a result; the first make_move call is the move.
    std::optional<MoveVerdict> accepted;
    std::string acceptedReasoning;
    std::string failure; // feedback for the first make_move that failed
    std::string failureCallId;
    bool sawMakeMove = false;
    for (const ToolCall& call : reply.toolCalls) {
        if (call.name != prompts_.makeMove.name) {
            answerTool(call.id,
                       "Error: unknown tool \"" + call.name + "\". Use " + prompts_.makeMove.name + ".");
            continue;
        }
        if (sawMakeMove) {
            answerTool(call.id, "Ignored: one move per turn.");
            continue;
        }
        sawMakeMove = true;
        const json args = json::parse(call.arguments, nullptr, false);
        std::string moveText;
        if (args.is_discarded() || !args.is_object()) {
            failure = "Error: the arguments are not a JSON object (" +
                      (call.arguments.size() > 60 ? call.arguments.substr(0, 60) + "..." : call.arguments) +
                      "). Call make_move with {\"move\": \"<SAN>\"}." + feedbackSuffix();
        } else if (stringArg(args, "move").empty()) {
            failure = "Error: the \"move\" argument is missing. Call make_move with {\"move\": \"<SAN>\"}." +
                      feedbackSuffix();
        } else {
            moveText = stringArg(args, "move");
            const MoveVerdict v = judge_(moveText);
            if (v.legal) {
                accepted = v;
                acceptedReasoning = stringArg(args, "reasoning");
                answerTool(call.id, "Move accepted: " + v.san + ".");
                continue;
            }
            failure = fillTemplate(
                prompts_.invalidMove,
                {{"move", moveText},
                 {"reason", v.reason},
                 {"check", turn_.inCheck ? " You are in check." : ""},
                 {"fen", config_.sendFenOnError ? " The position (FEN) is: " + turn_.fen + "." : ""}});
        }
        failureCallId = call.id;
        answerTool(call.id, failure);
    }
    if (accepted) {
        pending_.kind = TurnResult::Kind::Move;
        pending_.san = accepted->san;
        pending_.uci = accepted->uci;
        pending_.reasoning = !acceptedReasoning.empty()
                                 ? acceptedReasoning
                                 : (!reply.content.empty() ? reply.content : reply.reasoning);
        status_ = AgentStatus::Idle;
        result_ = pending_;
        return;
    }
    if (sawMakeMove) {
        note("move rejected: " + failure);
        return rejected(failure, true, failureCallId);
    }
    std::string how = "Call the " + prompts_.makeMove.name + " tool with your move.";
    const std::string noMove =
        fillTemplate(prompts_.noMove,
                     {{"how", how},
                      {"check", turn_.inCheck ? " You are in check." : ""},
                      {"fen", config_.sendFenOnError ? " The position (FEN) is: " + turn_.fen + "." : ""}});
    note("no move in the answer");
    rejected(noMove, false, {});
}

void ChessAgent::rejected(const std::string& feedbackText, bool asToolResult, const std::string& toolCallId) {
    (void)toolCallId; // the tool result carrying the feedback is already in the conversation
    if (!calls_.empty()) calls_.back().feedback = feedbackText;
    if (!asToolResult) {
        ConversationEntry e;
        e.kind = ConversationEntry::Kind::Feedback;
        e.agentId = config_.id;
        e.agentName = config_.name;
        e.text = feedbackText;
        conversation_.add(std::move(e));
    }
    if (attempt_ > config_.retryAttempts) {
        pending_.kind = TurnResult::Kind::Forfeit;
        pending_.message = config_.name + " made no legal move in " + std::to_string(attempt_) +
                           (attempt_ == 1 ? " attempt" : " attempts");
        status_ = AgentStatus::Idle;
        note("forfeit: " + pending_.message);
        result_ = pending_;
        return;
    }
    send();
}

void ChessAgent::recordHumanMove(const std::string& san) {
    ++humanMoves_;
    const std::string id = "human_" + config_.id + "_" + std::to_string(humanMoves_);
    ConversationEntry said;
    said.kind = ConversationEntry::Kind::AgentReply;
    said.agentId = config_.id;
    said.agentName = config_.name;
    json args = json::object();
    args["move"] = san;
    said.toolCalls.push_back({id, prompts_.makeMove.name, args.dump()});
    conversation_.add(std::move(said));
    ConversationEntry result;
    result.kind = ConversationEntry::Kind::ToolResult;
    result.agentId = config_.id;
    result.agentName = config_.name;
    result.toolCallId = id;
    result.text = "Move accepted: " + san + ".";
    conversation_.add(std::move(result));
}

} // namespace chaiba::agent
