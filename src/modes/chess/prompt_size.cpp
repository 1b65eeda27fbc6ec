// Prompt sizes measured by playing a scripted game through the real agents (see prompt_size.h).
#include "src/modes/chess/prompt_size.h"

#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "src/llm/openrouter_json.h"
#include "src/modes/chess/chess_agent.h"
#include "src/modes/chess/match.h"
#include "src/modes/chess/players.h"

#include <nlohmann/json.hpp>

#include <map>
#include <algorithm>
#include <numeric>

namespace chaiba::chessmode {

namespace {

// A visible reasoning of a typical length (models write a few sentences beside their move).
constexpr const char* kReasoning =
    "I develop a piece toward the centre and keep my king safe. The opponent's last move leaves a "
    "square weak, so I put pressure on it while keeping my pawn structure intact. Nothing is hanging "
    "after this move and it prepares castling.";

// Answers every request at the next poll with a legal move of the game being measured (one that
// does not end the game, so the measured game has its full length), and counts each request body.
class ScriptedChat final : public llm::ChatService {
public:
    const MatchRunner* runner = nullptr;
    std::vector<long long> promptTokens;

    llm::ChatCallId send(llm::ChatRequest request, llm::ChatHandlers handlers) override {
        const std::string body = llm::buildChatRequestJson(request);
        promptTokens.push_back(static_cast<long long>(double(body.size()) / kCharsPerToken + 0.5));
        const llm::ChatCallId id = next_++;
        pending_[id] = {!request.tools.empty(), std::move(handlers)};
        return id;
    }
    void cancel(llm::ChatCallId id) override { pending_.erase(id); }
    void poll() override {
        auto calls = std::move(pending_);
        pending_.clear();
        for (auto& [id, call] : calls) {
            llm::ChatOutcome outcome;
            outcome.reply = answer(call.tools);
            if (call.handlers.onDone) call.handlers.onDone(std::move(outcome));
        }
    }

private:
    struct Pending {
        bool tools = false;
        llm::ChatHandlers handlers;
    };

    llm::ChatReply answer(bool tools) {
        llm::ChatReply r;
        const std::string san = quietMove();
        if (tools) {
            const nlohmann::json args = {{"move", san}, {"reasoning", kReasoning}};
            r.toolCalls.push_back({"call_" + std::to_string(++made_), "make_move", args.dump()});
            r.finishReason = "tool_calls";
        } else {
            r.content = std::string(kReasoning) + "\nMOVE: " + san;
            r.finishReason = "stop";
        }
        return r;
    }

    // A legal move chosen by a fixed rule, avoiding moves that mate or stalemate.
    std::string quietMove() {
        chess::Position pos = runner->game().position();
        chess::MoveList moves;
        chess::generateLegal(pos, moves);
        for (size_t k = 0; k < moves.size(); ++k) {
            const chess::Move m = moves[(k + made_ * 7) % moves.size()];
            chess::Position after = pos;
            after.makeMove(m);
            chess::MoveList replies;
            chess::generateLegal(after, replies);
            if (!replies.empty()) return chess::toSan(pos, m);
        }
        return chess::toSan(pos, moves[0]);
    }

    std::map<llm::ChatCallId, Pending> pending_;
    llm::ChatCallId next_ = 1;
    int made_ = 0;
};

} // namespace

std::vector<long long> measurePromptTokens(ContextPolicy policy, const AgentPrompts& prompts,
                                           const ChessPlaySettings& settings, int moves) {
    ChessPlaySettings withPolicy = settings;
    withPolicy.contextPolicy = policy; // the agent builds each request as that policy has it
    ScriptedChat chat;
    const std::string model = "estimate/model";
    LlmPlayer white(agentConfigFromSettings(withPolicy, "white", model, model, Side::White), prompts, chat, model);
    LlmPlayer black(agentConfigFromSettings(withPolicy, "black", model, model, Side::Black), prompts, chat, model);
    MatchConfig config;
    config.maxPlies = moves * 2;
    config.claimDraws = false;
    MatchRunner runner(white, black, config);
    chat.runner = &runner;
    runner.start();
    // Each request is answered at the next poll: a ply takes a couple of rounds; the bound only
    // guards against a rule change that would stall the scripted game.
    for (int round = 0; round < moves * 2 * 8 && !runner.finished(); ++round) {
        chat.poll();
        runner.poll();
    }
    return chat.promptTokens;
}

namespace {

// A least-squares line through the measured prompts (ply, tokens) of plies [0, end).
void fitLine(const std::vector<long long>& measured, double& base, double& growth, std::size_t end = std::size_t(-1)) {
    end = std::min(end, measured.size());
    if (end < 4) return;
    const double n = double(end);
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t p = 0; p < end; ++p) {
        sx += double(p);
        sy += double(measured[p]);
        sxx += double(p) * double(p);
        sxy += double(p) * double(measured[p]);
    }
    const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    growth = std::max(0.0, slope);
    base = (sy - growth * sx) / n;
}

// The windowed line from a windowed game's prompts: while the window fills (its first 2N plies,
// and the ply that completes it).
void fitWindowedSizes(TokenExpectation& e, const std::vector<long long>& sizes, int windowMoves) {
    const int window = 2 * std::clamp(windowMoves, 1, kMaxContextWindowMoves);
    e.windowedBaseTokens = e.windowedGrowthPerPly = 0;
    e.windowPlies = 0;
    fitLine(sizes, e.windowedBaseTokens, e.windowedGrowthPerPly, std::size_t(window) + 1);
    if (e.windowedBaseTokens > 0) e.windowPlies = window;
}

} // namespace

void fitWindowed(TokenExpectation& e, const AgentPrompts& prompts, const ChessPlaySettings& settings, int moves) {
    fitWindowedSizes(e, measurePromptTokens(ContextPolicy::Windowed, prompts, settings, moves),
                     settings.contextWindowMoves);
}

TokenExpectation tokenExpectation(ContextPolicy policy, const AgentPrompts& prompts,
                                  const ChessPlaySettings& settings, int moves, bool windowed) {
    TokenExpectation e;
    e.movesPerGame = moves;
    const std::vector<long long> sizes = measurePromptTokens(policy, prompts, settings, moves);
    if (!sizes.empty())
        e.promptTokensPerMove = double(std::accumulate(sizes.begin(), sizes.end(), 0LL)) / double(sizes.size());
    // The growth a ply, each policy: a line through the measured prompts.
    auto measured = [&](ContextPolicy p) {
        return p == policy ? sizes : measurePromptTokens(p, prompts, settings, moves);
    };
    if (policy == ContextPolicy::Full) fitLine(sizes, e.promptBaseTokens, e.promptGrowthPerPly);
    fitLine(measured(ContextPolicy::Stateless), e.statelessBaseTokens, e.statelessGrowthPerPly);
    if (windowed) fitWindowedSizes(e, measured(ContextPolicy::Windowed), settings.contextWindowMoves);
    return e;
}

} // namespace chaiba::chessmode
