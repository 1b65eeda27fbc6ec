// Reasoning panel models: see reasoning_model.h.
#include "src/modes/chess/reasoning_model.h"

#include "src/modes/chess/chess_agent.h"
#include "src/ui/format.h"
#include "src/modes/chess/players.h"

#include <nlohmann/json.hpp>

#include <map>

namespace chaiba {

namespace {

// What a rejected call proposed: the tool's move argument, else the start of its text.
std::string proposed(const chessmode::AgentCallRecord& c) {
    if (!c.reply) return c.error ? "error: " + c.error->message : "";
    for (const auto& t : c.reply->toolCalls) {
        nlohmann::json args = nlohmann::json::parse(t.arguments, nullptr, false);
        if (!args.is_discarded() && args.is_object() && args.contains("move") && args["move"].is_string())
            return "make_move(" + args["move"].get<std::string>() + ")";
        return t.name + "(" + t.arguments.substr(0, 80) + ")";
    }
    std::string text = c.reply->content.substr(0, 160);
    if (c.reply->content.size() > 160) text += "\xE2\x80\xA6";
    return text;
}

} // namespace

ui::ReasoningPanelModel reasoningFromMatch(const chessmode::MatchRunner& r, chess::Color side, chessmode::Player* player,
                                           std::string title, bool isLlm, bool isHuman) {
    ui::ReasoningPanelModel m;
    const bool white = side == chess::Color::White;
    m.title = std::move(title);
    if (!isLlm) m.emptyText = isHuman ? "No moves yet." : "The engine's search lines appear here.";
    const std::string id = white ? "white" : "black";
    const chess::Position& start = r.game().startPosition();
    for (const auto& rec : r.moves()) {
        if (rec.ply < 0 || rec.playerId != id) continue;
        ui::ReasoningEntry e;
        e.ply = rec.ply;
        e.label = moveNumberLabel(rec.ply, start.fullmoveNumber(), start.sideToMove() == chess::Color::Black) + " " + rec.san;
        e.reasoning = rec.reasoning;
        m.entries.push_back(std::move(e));
    }
    chessmode::ChessAgent* a = player ? player->agent() : nullptr;
    const bool thinkingNow = r.thinking() && r.game().position().sideToMove() == side;
    if (a) {
        // Calls grouped by turn; the agent's turns are the side's newest moves (a restored game's
        // earlier moves have no calls), aligned from the end.
        std::map<int, std::vector<const chessmode::AgentCallRecord*>> turns;
        for (const auto& c : a->calls()) turns[c.turn].push_back(&c);
        auto it = turns.rbegin();
        if (thinkingNow && it != turns.rend()) {
            // The turn in progress: its rejected answers so far, under the live text.
            for (const auto* c : it->second)
                if (!c->feedback.empty()) m.closing += "\xE2\x9C\x97 " + proposed(*c) + " \xE2\x86\x92 " + c->feedback + "\n";
            ++it;
        }
        for (auto e = m.entries.rbegin(); e != m.entries.rend() && it != turns.rend(); ++e, ++it) {
            for (const auto* c : it->second) {
                if (!c->feedback.empty()) e->failed.push_back({proposed(*c), c->feedback});
                else if (c->reply && !c->reply->reasoning.empty()) e->modelReasoning = c->reply->reasoning;
            }
        }
        m.thinking = thinkingNow;
        m.liveText = a->liveText();
        m.liveReasoning = a->liveReasoning();
        if (!m.closing.empty() && m.closing.back() == '\n') m.closing.pop_back();
    } else {
        m.thinking = thinkingNow && !isHuman;
    }
    if (r.forfeitBy() == (white ? chess::Color::White : chess::Color::Black))
        m.closing += (m.closing.empty() ? "" : "\n") + r.termination();
    return m;
}

ui::ReasoningPanelModel reasoningFromRecord(const chessmode::GameRecord& game, chess::Color side, std::string title) {
    ui::ReasoningPanelModel m;
    m.title = std::move(title);
    auto start = chess::Position::fromFen(game.startFen);
    if (!start.ok()) start = chess::Position::fromFen(game.startFen, true); // Chess960 castling
    const bool blackStarts = start.ok() && start.position->sideToMove() == chess::Color::Black;
    const int fullmove = start.ok() ? start.position->fullmoveNumber() : 1;
    const int first = (side == chess::Color::White) == !blackStarts ? 0 : 1; // this side's first ply
    for (size_t ply = size_t(first); ply < game.moves.size(); ply += 2) {
        const chessmode::TurnRecord& t = game.moves[ply];
        ui::ReasoningEntry e;
        e.ply = int(ply);
        e.label = moveNumberLabel(int(ply), fullmove, blackStarts) + " " + t.san;
        e.reasoning = t.reasoning;
        if (t.attempts > 1)
            e.failed.push_back({std::to_string(t.attempts - 1) + (t.attempts == 2 ? " rejected answer" : " rejected answers"),
                                "details are in the live log only"});
        m.entries.push_back(std::move(e));
    }
    const bool whiteLost = game.result == chessmode::GameResult::BlackWins;
    if (chessmode::isForfeit(game.termination) && whiteLost == (side == chess::Color::White)) m.closing = game.detail;
    return m;
}

std::string moveNumberLabel(int ply, int startFullmove, bool startBlack) {
    const int absolute = ply + (startBlack ? 1 : 0);
    const int number = startFullmove + absolute / 2;
    return std::to_string(number) + (absolute % 2 == 0 ? "." : "...");
}

} // namespace chaiba
