// The chess agent: one model playing one colour. Each turn is one run of the LLM core's tool loop
// over the chess tool set (make_move, and respond_to_draw_offer while a draw offer is open; text
// mode for models without tools): it adds a context message, asks the model, checks the move with
// a judge supplied by the caller, feeds back specific errors, and forfeits when attempts run out.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/llm/call_log.h"
#include "src/llm/chat.h"
#include "src/llm/tool_loop.h"
#include "src/modes/chess/chess_settings.h"
#include "src/modes/chess/conversation.h"
#include "src/llm/openrouter_json.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::chessmode {

struct AgentConfig {
    std::string id;    // unique in the game, e.g. "white"
    std::string name;  // display name, e.g. "gpt-4o"
    std::string model; // provider model id
    Side side = Side::White;
    std::string customInstructions;
    std::string promptBase;    // empty: the shipped prompt
    std::string promptColour;  // empty: the shipped prompt for the side
    bool useTools = true;      // false: text mode
    bool cacheControl = false; // Anthropic prompt caching breakpoint (see defaultCacheControl)
    int retryAttempts = 3;     // retries after an invalid or missing move, 0..10
    bool sendContextMessage = true; // always on for the stateless and windowed policies (it is the state)
    ContextPolicy contextPolicy = ContextPolicy::Full;
    int contextWindowMoves = kDefaultContextWindowMoves; // ContextPolicy::Windowed's N
    bool sendLegalMoves = false;
    bool sendFenOnError = true;
    std::optional<double> temperature;
    std::optional<int> maxTokens;
    ReasoningEffort reasoningEffort = ReasoningEffort::Default;
    bool stream = false;
    int timeoutMs = 300000;              // reasoning models can think for minutes
    std::optional<ModelPricing> pricing; // to estimate a cost the provider did not report
};

// The config from the user's settings (retries, context, FEN on error, temperature, ...).
AgentConfig agentConfigFromSettings(const ChessPlaySettings& settings, std::string id, std::string name,
                                    std::string model, Side side);
// Anthropic models take explicit cache_control breakpoints; others cache automatically.
bool defaultCacheControl(const std::string& model);

// The state of the board at the start of a turn, as the agent needs it.
struct TurnInfo {
    std::string fen;
    int fullmoveNumber = 1;
    std::string history;                 // "1. e4 e5 2. Nf3" or "" at the start
    std::vector<std::string> legalMoves; // SAN
    bool inCheck = false;
    // The opponent offers a draw, open for this turn: the respond_to_draw_offer tool joins the
    // tool list for this turn's requests only (one request whose prefix differs, so a prompt
    // cache misses once; later turns send the usual list again, byte for byte).
    bool drawOffered = false;
    // Each request of the turn carries it as ChatRequest::maxRequests (a retried turn: the tries
    // the failure rules have left); 0: the client's own retry policy.
    int maxRequests = 0;
    llm::RequestCaps maxRequestsByKind{}; // ChatRequest::maxRequestsByKind of each request
};

// The caller's ruling on a move text: the tool's "move" argument, or the whole answer in text mode.
struct MoveVerdict {
    bool legal = false;
    std::string san;    // when legal
    std::string uci;    // when legal
    std::string reason; // when not: the move reader's explanation
};
using MoveJudge = std::function<MoveVerdict(const std::string& text)>;

// Text mode's draw lines: a line that says ACCEPT DRAW, DECLINE DRAW or OFFER DRAW (any case,
// markdown emphasis and a final full stop ignored); `rest` is the text without those lines, for
// the move reader.
struct DrawLines {
    bool accept = false;
    bool decline = false;
    bool offer = false;
    std::string rest;
};
DrawLines readDrawLines(const std::string& text);

enum class AgentStatus { Idle, Thinking, Error };
const char* agentStatusName(AgentStatus status);

struct TurnResult {
    enum class Kind { Move, AcceptDraw, Forfeit, Error } kind = Kind::Error;
    bool offerDraw = false; // with a Move: the model offers a draw (make_move offer_draw, OFFER DRAW)
    std::string san;
    std::string uci;
    std::string reasoning; // the tool's reasoning, else the answer's text, else the model's reasoning
    int attempts = 0;      // model answers this turn
    double costUsd = 0;
    Usage usage;         // summed over the turn
    std::string message; // forfeit or error explanation
    std::optional<llm::ChatError> error; // Error: the chat error that stopped the turn
};

// One model call, for the agent's log (the LLM core's record type).
using AgentCallRecord = llm::CallRecord;

class ChessAgent {
public:
    ChessAgent(AgentConfig config, const AgentPrompts& prompts, ChatService& chat,
               GameConversation& conversation, std::string opponentName);
    ~ChessAgent();
    ChessAgent(const ChessAgent&) = delete;
    ChessAgent& operator=(const ChessAgent&) = delete;

    const AgentConfig& config() const { return config_; }
    AgentStatus status() const { return status_; }
    const std::string& lastError() const { return lastError_; }

    // Starts a turn; the answer arrives through the chat service (poll it), then takeResult().
    void startTurn(TurnInfo info, MoveJudge judge);
    std::optional<TurnResult> takeResult();
    void cancel();

    // A move made for this agent by a person: recorded as its own tool call and result.
    void recordHumanMove(const std::string& san);

    // The system prompt and the full request of the next call (for tests and the UI).
    std::string systemPrompt() const;
    std::vector<ChatMessage> buildMessages() const;
    ChatRequest buildRequest() const;

    const std::vector<AgentCallRecord>& calls() const { return log_.records(); }
    const std::vector<std::string>& notes() const { return notes_; } // retries, feedback, errors
    double totalCostUsd() const { return log_.totalCostUsd(); }
    // Text and reasoning streamed so far by the call in flight (cleared when a call starts).
    const std::string& liveText() const { return liveText_; }
    const std::string& liveReasoning() const { return liveReasoning_; }

    // Model answers so far in the current turn (1 while the first call runs).
    int currentAttempt() const { return attempt_; }
    // The request failed (a 429, a 5xx, a dropped connection) and waits before it is sent again:
    // the notice, numbered so a screen can time the wait from when it first saw it; none once the
    // answer streams or the turn ends.
    const std::optional<llm::RetryNotice>& retryWait() const { return retryWait_; }
    int retryWaitNumber() const { return retryWaitNumber_; }
    const Usage& totalUsage() const { return log_.totalUsage(); }
    // Called with each note as it is added (e.g. the CLI prints them).
    std::function<void(const std::string&)> onNote;

private:
    // One answer's verdict, computed once when the reply arrives: each tool call's result (in the
    // order of the calls) and what the turn does next.
    struct RoundPlan {
        std::vector<std::string> results;
        llm::RoundDecision decision;
        std::string feedback; // [SYSTEM] feedback to add after the tool results, if any
    };
    void onReply(const llm::ChatReply& reply);
    void onEnd(const llm::ToolLoopOutcome& outcome);
    RoundPlan planTextAnswer(const llm::ChatReply& reply);
    RoundPlan planToolAnswer(const llm::ChatReply& reply);
    RoundPlan finishWith(TurnResult::Kind kind, std::string reasoning, std::vector<std::string> results = {});
    // A rejected answer: the feedback goes into the call's record (and, unless it already is a
    // tool result, into the conversation as [SYSTEM] text); the next round counts toward the cap.
    RoundPlan rejected(const std::string& feedbackText, bool asToolResult, std::vector<std::string> results = {});
    void addEntry(ConversationEntry::Kind kind, std::string text, std::string toolCallId = {},
                  int fullmoveNumber = 0);
    std::string fenSuffix() const;
    void note(std::string text);
    std::string feedbackSuffix() const;

    AgentConfig config_;
    const AgentPrompts& prompts_;
    ChatService& chat_;
    GameConversation& conversation_;
    AgentIdentity identity_;
    AgentStatus status_ = AgentStatus::Idle;
    std::string lastError_;
    std::unique_ptr<llm::ToolLoop> loop_; // the turn in progress
    RoundPlan round_;                     // the current answer's plan (tool results are read from it)
    std::size_t nextResult_ = 0;
    TurnInfo turn_;
    MoveJudge judge_;
    int turnNumber_ = 0;
    int attempt_ = 0;
    bool drawOpen_ = false; // the draw offer of this turn is still unanswered
    int humanMoves_ = 0;
    TurnResult pending_;
    std::optional<TurnResult> result_;
    llm::CallLog log_;
    std::vector<std::string> notes_;
    std::string liveText_;
    std::string liveReasoning_;
    std::optional<llm::RetryNotice> retryWait_;
    int retryWaitNumber_ = 0;
};

} // namespace chaiba::chessmode
