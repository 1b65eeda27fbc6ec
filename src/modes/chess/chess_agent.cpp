// The chess agent's turn over the LLM core's tool loop: context → request → judge the move →
// accept, or feed back the reason and go another round, or forfeit at the round cap. Tool mode
// answers every tool call with a tool result; text mode reads the move from the answer and
// corrects with [SYSTEM] feedback.
#include "src/modes/chess/chess_agent.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace chaiba::chessmode {

using nlohmann::json;

namespace {
// A non-empty string member of a JSON object, if there is one.
std::string stringArg(const json& obj, const char* name) {
    if (!obj.is_object() || !obj.contains(name)) return {};
    const json& v = obj[name];
    return v.is_string() ? v.get<std::string>() : std::string();
}
} // namespace

DrawLines readDrawLines(const std::string& text) {
    DrawLines out;
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(at, end - at);
        // The line without surrounding blanks, markdown emphasis and a closing full stop.
        std::string word;
        for (char c : line)
            if (c != '*' && c != '`' && c != '_')
                word += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        while (!word.empty() && (word.back() == ' ' || word.back() == '\r' || word.back() == '\t' ||
                                 word.back() == '.' || word.back() == '!'))
            word.pop_back();
        std::size_t first = word.find_first_not_of(" \t");
        word = first == std::string::npos ? std::string() : word.substr(first);
        bool marker = true;
        if (word == "ACCEPT DRAW")
            out.accept = true;
        else if (word == "DECLINE DRAW")
            out.decline = true;
        else if (word == "OFFER DRAW")
            out.offer = true;
        else
            marker = false;
        if (!marker) out.rest += line + (end < text.size() ? "\n" : "");
        at = end + 1;
    }
    return out;
}

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

AgentConfig agentConfigFromSettings(const ChessPlaySettings& settings, std::string id, std::string name,
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
    c.contextPolicy = settings.contextPolicy;
    c.contextWindowMoves = std::clamp(settings.contextWindowMoves, 1, kMaxContextWindowMoves);
    c.sendLegalMoves = settings.sendLegalMoves;
    c.sendFenOnError = settings.sendFenOnError;
    if (settings.temperature >= 0) c.temperature = settings.temperature;
    if (settings.maxTokens > 0) c.maxTokens = settings.maxTokens;
    c.reasoningEffort = settings.reasoningEffort;
    c.timeoutMs = std::clamp(settings.requestTimeoutSeconds, 1, 3600) * 1000;
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
    // A window slides: its prefix after the system prompt never repeats, so a cache write would
    // only cost more (1.25x on Anthropic).
    options.cacheBreakpoint = config_.cacheControl && config_.contextPolicy != ContextPolicy::Windowed;
    GameConversation view;
    if (config_.contextPolicy == ContextPolicy::Stateless) view = statelessView(conversation_, identity_.id);
    if (config_.contextPolicy == ContextPolicy::Windowed)
        view = windowedView(conversation_, identity_.id, config_.contextWindowMoves);
    const bool whole = config_.contextPolicy == ContextPolicy::Full;
    for (ChatMessage& m : convertConversation(whole ? conversation_ : view, identity_, prompts_, options))
        messages.push_back(std::move(m));
    return messages;
}

ChatRequest ChessAgent::buildRequest() const {
    ChatRequest r;
    r.model = config_.model;
    r.messages = buildMessages();
    if (config_.useTools) {
        r.tools.push_back(prompts_.makeMove);
        if (turn_.drawOffered) r.tools.push_back(prompts_.respondToDraw);
        r.toolChoice = ToolChoice::Auto;
    }
    r.temperature = config_.temperature;
    r.maxTokens = config_.maxTokens;
    r.reasoningEffort = config_.reasoningEffort;
    r.stream = config_.stream;
    r.timeoutMs = config_.timeoutMs;
    r.maxRequests = turn_.maxRequests;
    r.maxRequestsByKind = turn_.maxRequestsByKind;
    return r;
}

void ChessAgent::note(std::string text) {
    notes_.push_back(text);
    if (onNote) onNote(notes_.back());
}

void ChessAgent::addEntry(ConversationEntry::Kind kind, std::string text, std::string toolCallId,
                          int fullmoveNumber) {
    ConversationEntry e;
    e.kind = kind;
    e.agentId = config_.id;
    e.agentName = config_.name;
    e.audience = llm::Audience::seat(config_.id); // context, feedback and tool results: this player's
    e.text = std::move(text);
    e.toolCallId = std::move(toolCallId);
    e.fullmoveNumber = fullmoveNumber;
    conversation_.add(std::move(e));
}

void ChessAgent::startTurn(TurnInfo info, MoveJudge judge) {
    cancel();
    turn_ = std::move(info);
    judge_ = std::move(judge);
    ++turnNumber_;
    attempt_ = 1;
    drawOpen_ = turn_.drawOffered;
    pending_ = TurnResult{};
    result_.reset();
    if (config_.sendContextMessage || config_.contextPolicy != ContextPolicy::Full) {
        std::string legal;
        if (config_.sendLegalMoves) {
            legal = "\nLegal moves:";
            for (const std::string& m : turn_.legalMoves) legal += " " + m;
        }
        addEntry(ConversationEntry::Kind::Context,
                 fillTemplate(prompts_.context,
                              {{"move_number", std::to_string(turn_.fullmoveNumber)},
                               {"colour", sideName(config_.side)},
                               {"fen", turn_.fen},
                               {"history", turn_.history.empty() ? "(none yet)" : turn_.history},
                               {"legal_moves", legal}}),
                 {}, turn_.fullmoveNumber);
    }
    if (turn_.drawOffered) // "[SYSTEM] ...", for this agent only
        addEntry(ConversationEntry::Kind::Feedback, config_.useTools ? prompts_.drawOffer : prompts_.drawOfferText);

    llm::ToolLoopHooks hooks;
    hooks.buildRequest = [this] { return buildRequest(); };
    hooks.onReply = [this](const llm::ChatReply& reply) { onReply(reply); };
    hooks.runTool = [this](const llm::ToolCall&) {
        const std::string text = nextResult_ < round_.results.size() ? round_.results[nextResult_] : std::string();
        ++nextResult_;
        return llm::ToolResult::ok(text); // chess judges the whole answer at once (onReply)
    };
    hooks.onToolResult = [this](const llm::ToolCall& call, const llm::ToolResult& result) {
        addEntry(ConversationEntry::Kind::ToolResult, result.content, call.id);
    };
    hooks.afterRound = [this](const llm::ChatReply&, const std::vector<llm::ToolResult>&) {
        retryWait_.reset(); // an answer came
        if (!round_.feedback.empty()) addEntry(ConversationEntry::Kind::Feedback, round_.feedback);
        if (round_.decision.next == llm::RoundDecision::Next::Continue) {
            ++attempt_;
            liveText_.clear();
            liveReasoning_.clear();
        }
        return std::optional<llm::RoundDecision>(round_.decision);
    };
    hooks.onText = [this](const std::string& delta) {
        retryWait_.reset();
        liveText_ += delta;
    };
    hooks.onReasoning = [this](const std::string& delta) {
        retryWait_.reset();
        liveReasoning_ += delta;
    };
    hooks.onRetry = [this](const RetryNotice& n) {
        retryWait_ = n;
        ++retryWaitNumber_;
        // One counter format on every screen: "retry N of M" (M: the retries this kind of error gets).
        note("retry " + std::to_string(n.failedAttempt) + " of " + std::to_string(n.maxAttempts - 1) + " in " +
             std::to_string(n.delayMs) + " ms after: " + n.error.message);
    };
    hooks.onEnd = [this](const llm::ToolLoopOutcome& outcome) {
        retryWait_.reset();
        onEnd(outcome);
    };
    llm::ToolLoopOptions options;
    options.maxRounds = config_.retryAttempts + 1; // the first answer and each retry
    options.pricing = config_.pricing;
    options.turn = turnNumber_;
    ChatRequest base;
    base.model = config_.model;
    loop_ = std::make_unique<llm::ToolLoop>(chat_, std::move(base), std::move(hooks), options, &log_);
    status_ = AgentStatus::Thinking;
    liveText_.clear();
    liveReasoning_.clear();
    loop_->start();
}

void ChessAgent::cancel() {
    if (loop_) loop_->stop(); // no callback of the call in flight runs afterwards
    loop_.reset();
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

std::string ChessAgent::fenSuffix() const {
    return config_.sendFenOnError ? " The position (FEN) is: " + turn_.fen + "." : "";
}

void ChessAgent::onReply(const llm::ChatReply& reply) {
    const double cost = log_.records().empty() ? 0 : log_.records().back().costUsd;
    pending_.costUsd += cost;
    pending_.usage += reply.usage;
    pending_.attempts = attempt_;

    ConversationEntry said;
    said.kind = ConversationEntry::Kind::AgentReply;
    said.agentId = config_.id;
    said.agentName = config_.name;
    said.audience = llm::Audience::everyone(); // its own as the assistant's, the opponent's as "[@name] ..."
    said.text = reply.content;
    said.reasoningDetailsJson = reply.reasoningDetailsJson;
    if (config_.useTools) said.toolCalls = reply.toolCalls;
    conversation_.add(said);

    nextResult_ = 0;
    round_ = config_.useTools ? planToolAnswer(reply) : planTextAnswer(reply);
}

void ChessAgent::onEnd(const llm::ToolLoopOutcome& outcome) {
    switch (outcome.stop) {
    case llm::LoopStop::Terminal: // the plan already holds the result
        status_ = AgentStatus::Idle;
        result_ = pending_;
        return;
    case llm::LoopStop::Failed:
        status_ = AgentStatus::Error;
        lastError_ = outcome.error ? outcome.error->message : std::string("the request failed");
        note("request failed: " + lastError_);
        pending_.kind = TurnResult::Kind::Error;
        pending_.message = lastError_;
        pending_.error = outcome.error;
        pending_.attempts = attempt_;
        result_ = pending_;
        return;
    case llm::LoopStop::RoundCap:
    case llm::LoopStop::CostCap:
    case llm::LoopStop::Repeating: // (the chess agent sets no limit: its retries are its own)
    case llm::LoopStop::NoToolCalls: // (never: every answer gets a decision)
        pending_.kind = TurnResult::Kind::Forfeit;
        pending_.message = config_.name + " made no legal move in " + std::to_string(attempt_) +
                           (attempt_ == 1 ? " attempt" : " attempts");
        status_ = AgentStatus::Idle;
        note("forfeit: " + pending_.message);
        result_ = pending_;
        return;
    case llm::LoopStop::Stopped: return; // cancel(): no result
    }
}

ChessAgent::RoundPlan ChessAgent::finishWith(TurnResult::Kind kind, std::string reasoning,
                                             std::vector<std::string> results) {
    pending_.kind = kind;
    pending_.reasoning = std::move(reasoning);
    return RoundPlan{std::move(results), llm::RoundDecision::finish(), {}};
}

ChessAgent::RoundPlan ChessAgent::rejected(const std::string& feedbackText, bool asToolResult,
                                           std::vector<std::string> results) {
    if (!log_.records().empty()) log_.last()->feedback = feedbackText;
    return RoundPlan{std::move(results), llm::RoundDecision::carryOn(), asToolResult ? std::string() : feedbackText};
}

ChessAgent::RoundPlan ChessAgent::planTextAnswer(const llm::ChatReply& reply) {
    const DrawLines draw = readDrawLines(reply.content);
    const std::string fallbackReasoning = reply.content.empty() ? reply.reasoning : reply.content;
    if (drawOpen_ && draw.accept && draw.decline) {
        const std::string feedback =
            fillTemplate(prompts_.drawAnswerInvalid,
                         {{"reason", "it says both ACCEPT DRAW and DECLINE DRAW"}, {"fen", fenSuffix()}});
        note("draw answer rejected: both ACCEPT DRAW and DECLINE DRAW");
        return rejected(feedback, false);
    }
    if (drawOpen_ && draw.accept) return finishWith(TurnResult::Kind::AcceptDraw, fallbackReasoning);
    if (draw.accept) note("ignored ACCEPT DRAW: no draw offer is open");
    const MoveVerdict v = judge_(draw.rest);
    if (v.legal) {
        pending_.san = v.san;
        pending_.uci = v.uci;
        pending_.offerDraw = draw.offer;
        return finishWith(TurnResult::Kind::Move, fallbackReasoning);
    }
    note("no legal move in the answer: " + v.reason);
    return rejected(fillTemplate(prompts_.invalidMove,
                                 {{"move", reply.content.size() > 80 ? reply.content.substr(0, 80) + "..."
                                                                     : reply.content},
                                  {"reason", v.reason},
                                  {"check", turn_.inCheck ? " You are in check." : ""},
                                  {"fen", fenSuffix()}}),
                    false);
}

ChessAgent::RoundPlan ChessAgent::planToolAnswer(const llm::ChatReply& reply) {
    // Every tool call gets a result, in the order of the calls. A draw accepted with
    // respond_to_draw_offer ends the turn whatever else was called; else the first make_move is
    // the move (and declines an open offer).
    std::vector<std::string> results(reply.toolCalls.size());
    bool acceptDraw = false, declined = false, sawDrawAnswer = false;
    std::string drawReasoning, drawFailure;
    for (std::size_t i = 0; i < reply.toolCalls.size(); ++i) {
        const ToolCall& call = reply.toolCalls[i];
        if (call.name != prompts_.respondToDraw.name) continue;
        if (!drawOpen_ || sawDrawAnswer) {
            results[i] = sawDrawAnswer
                             ? "Ignored: one answer per draw offer."
                             : "Error: there is no open draw offer to answer. Play your move with " +
                                   prompts_.makeMove.name + ".";
            continue;
        }
        sawDrawAnswer = true;
        const json args = json::parse(call.arguments, nullptr, false);
        const bool valid = !args.is_discarded() && args.is_object() && args.contains("accept") &&
                           args["accept"].is_boolean();
        if (!valid) {
            drawFailure = fillTemplate(
                prompts_.drawAnswerInvalid,
                {{"reason",
                  "call " + prompts_.respondToDraw.name +
                      " with {\"accept\": true} or {\"accept\": false}, not " +
                      (call.arguments.size() > 60 ? call.arguments.substr(0, 60) + "..." : call.arguments)},
                 {"fen", fenSuffix()}});
            results[i] = drawFailure;
            continue;
        }
        drawReasoning = stringArg(args, "reasoning");
        if (args["accept"].get<bool>()) {
            acceptDraw = true;
            results[i] = "Draw offer accepted: the game is drawn.";
        } else {
            declined = true;
            drawOpen_ = false;
            results[i] =
                "Draw offer declined: the game goes on. Play your move with " + prompts_.makeMove.name + ".";
        }
    }

    std::optional<MoveVerdict> accepted;
    std::string acceptedReasoning;
    bool offerDraw = false;
    std::string failure; // feedback for the first make_move that failed
    bool sawMakeMove = false;
    for (std::size_t i = 0; i < reply.toolCalls.size(); ++i) {
        const ToolCall& call = reply.toolCalls[i];
        if (call.name == prompts_.respondToDraw.name) continue;
        if (call.name != prompts_.makeMove.name) {
            results[i] = "Error: unknown tool \"" + call.name + "\". Use " + prompts_.makeMove.name + ".";
            continue;
        }
        if (acceptDraw) {
            results[i] = "Ignored: you accepted the draw, so the game is over.";
            continue;
        }
        if (sawMakeMove) {
            results[i] = "Ignored: one move per turn.";
            continue;
        }
        sawMakeMove = true;
        const json args = json::parse(call.arguments, nullptr, false);
        if (args.is_discarded() || !args.is_object()) {
            failure = "Error: the arguments are not a JSON object (" +
                      (call.arguments.size() > 60 ? call.arguments.substr(0, 60) + "..." : call.arguments) +
                      "). Call make_move with {\"move\": \"<SAN>\"}." + feedbackSuffix();
        } else if (stringArg(args, "move").empty()) {
            failure = "Error: the \"move\" argument is missing. Call make_move with {\"move\": \"<SAN>\"}." +
                      feedbackSuffix();
        } else if (args.contains("offer_draw") && !args["offer_draw"].is_boolean()) {
            failure = "Error: \"offer_draw\" must be true or false. Call make_move again." + feedbackSuffix();
        } else {
            const std::string moveText = stringArg(args, "move");
            const MoveVerdict v = judge_(moveText);
            if (v.legal) {
                accepted = v;
                acceptedReasoning = stringArg(args, "reasoning");
                offerDraw = args.contains("offer_draw") && args["offer_draw"].get<bool>();
                results[i] = "Move accepted: " + v.san + "." + (offerDraw ? " Your draw offer is made." : "");
                continue;
            }
            failure =
                fillTemplate(prompts_.invalidMove, {{"move", moveText},
                                                    {"reason", v.reason},
                                                    {"check", turn_.inCheck ? " You are in check." : ""},
                                                    {"fen", fenSuffix()}});
        }
        results[i] = failure;
    }

    const std::string fallbackReasoning = !reply.content.empty() ? reply.content : reply.reasoning;
    if (acceptDraw)
        return finishWith(TurnResult::Kind::AcceptDraw, !drawReasoning.empty() ? drawReasoning : fallbackReasoning,
                          std::move(results));
    if (accepted) {
        pending_.san = accepted->san;
        pending_.uci = accepted->uci;
        pending_.offerDraw = offerDraw;
        return finishWith(TurnResult::Kind::Move, !acceptedReasoning.empty() ? acceptedReasoning : fallbackReasoning,
                          std::move(results));
    }
    if (sawMakeMove) {
        note("move rejected: " + failure);
        return rejected(failure, true, std::move(results));
    }
    if (!drawFailure.empty()) {
        note("draw answer rejected: " + drawFailure);
        return rejected(drawFailure, true, std::move(results));
    }
    if (declined) { // a clean decline without a move: ask for the move, not counted as a failure
        note("declined the draw offer; asking for the move");
        return RoundPlan{std::move(results), llm::RoundDecision::carryOn(false), {}};
    }
    const std::string how = "Call the " + prompts_.makeMove.name + " tool with your move.";
    const std::string noMove = fillTemplate(
        prompts_.noMove, {{"how", how}, {"check", turn_.inCheck ? " You are in check." : ""}, {"fen", fenSuffix()}});
    note("no move in the answer");
    return rejected(noMove, false, std::move(results));
}

void ChessAgent::recordHumanMove(const std::string& san) {
    ++humanMoves_;
    const std::string id = "human_" + config_.id + "_" + std::to_string(humanMoves_);
    ConversationEntry said;
    said.kind = ConversationEntry::Kind::AgentReply;
    said.agentId = config_.id;
    said.agentName = config_.name;
    said.audience = llm::Audience::everyone();
    json args = json::object();
    args["move"] = san;
    said.toolCalls.push_back({id, prompts_.makeMove.name, args.dump()});
    conversation_.add(std::move(said));
    addEntry(ConversationEntry::Kind::ToolResult, "Move accepted: " + san + ".", id);
}

} // namespace chaiba::chessmode
