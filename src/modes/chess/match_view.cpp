// The match screen's drawing: board, player cards, controls, result and error banner, move list
// and the two reasoning panels; side by side on wide screens, stacked with tabs on phones.
#include "src/modes/chess/match_screen.h"

#include "engine/chess/notation.h"
#include "src/modes/chess/chess_agent.h"
#include "src/modes/chess/players.h"
#include "src/modes/chess/reasoning_model.h"
#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/modes/chess/ui/eval_graph.h"
#include "src/modes/chess/ui/move_list.h"
#include "src/ui/player_card.h"
#include "src/ui/reasoning_panel.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace chaiba {

namespace {

chessmode::ChessAgent* agentOf(chessmode::Player* p) {
    return p ? p->agent() : nullptr;
}

const char* resultWords(const std::string& result) {
    if (result == "1-0") return "White wins";
    if (result == "0-1") return "Black wins";
    if (result == "1/2-1/2") return "Draw";
    return "Stopped";
}

} // namespace

chess::Position MatchScreen::viewedPosition(chess::Move& lastMove) const {
    const MatchSession* shown = shownSession();
    const chessmode::MatchRunner* r = shown ? shown->runner() : nullptr;
    const MoveNavigator& navigator = shownNavigator();
    lastMove = chess::Move();
    if (!r) return chess::Position::startPosition();
    if (navigator.isLive()) {
        const auto& moves = r->game().moves();
        if (!moves.empty()) lastMove = moves.back();
        return r->game().position();
    }
    chess::Position pos = r->game().startPosition();
    const auto& moves = r->game().moves();
    const int n = std::min<int>(navigator.viewPly(), static_cast<int>(moves.size()));
    for (int i = 0; i < n; ++i) {
        pos.makeMove(moves[static_cast<size_t>(i)]);
        lastMove = moves[static_cast<size_t>(i)];
    }
    return pos;
}

void MatchScreen::draw() {
    if (historyOpen_) {
        drawHistory();
        return;
    }
    const MatchSession* shown = shownSession();
    const chessmode::MatchRunner* r = shown ? shown->runner() : nullptr;
    const double now = context_.platform->nowMs();
    // Animate a newly arrived move when the board follows the game.
    const size_t plies = r ? r->game().moves().size() : 0;
    if (!review_ && r && plies == animatedMoves_ + 1 && navigator_.isLive()) {
        chess::Game before = r->game();
        before.undo();
        board_.animate(before.position(), r->game().moves().back(), now);
    }
    if (!review_) animatedMoves_ = plies; // (a past game under review never animates)
    // Thinking clock: restarts whenever the side to move changes.
    if (r && r->thinking()) {
        if (thinkKey_ != plies) {
            thinkKey_ = plies;
            thinkStartMs_ = now;
        }
    } else {
        thinkKey_ = static_cast<size_t>(-1);
    }

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
    const bool landscape = avail.x > avail.y * 1.15f;
    if (landscape) {
        const float boardSize = std::max(64.0f, std::min(avail.y - 4.0f, avail.x * 0.58f));
        ImGui::BeginGroup();
        drawBoardArea(boardSize);
        ImGui::EndGroup();
        ImGui::SameLine(0, gap);
        drawSidePanel(ImGui::GetContentRegionAvail().x, avail.y, false);
    } else {
        ImGui::BeginChild("##portrait", ImVec2(0, 0), false);
        const ImVec2 a = ImGui::GetContentRegionAvail();
        const float boardSize = std::max(64.0f, std::min(a.x - 4.0f, avail.y * 0.55f));
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + (a.x - boardSize) * 0.5f);
        drawBoardArea(boardSize);
        drawSidePanel(a.x, std::max(avail.y * 0.9f, context_.fonts->uiSize * 30), true);
        ImGui::EndChild();
    }
}

void MatchScreen::drawBoardArea(float size) {
    chess::Move lastMove;
    const chess::Position pos = viewedPosition(lastMove);
    const bool interactive = !review_ && session_ && navigator_.isLive() && session_->humanToMove();
    // The person premoves while the other side is to move (a live view of a game going on).
    const bool going = !review_ && session_ && session_->runner() && !session_->runner()->finished();
    board_.premoveColor = going && navigator_.isLive() ? session_->soleHuman() : std::nullopt;
    // The evaluation bar at the board's left, for the viewed position.
    const float barW = std::max(10.0f, context_.fonts->uiSize * 1.6f);
    const float gapW = ImGui::GetStyle().ItemSpacing.x * 0.5f;
    const int viewed = shownSession() && shownSession()->runner() ? shownNavigator().viewPly() : 0;
    const search::PositionEval* eval = shownAnalyser().eval(static_cast<std::size_t>(viewed));
    const std::string label = eval ? search::formatEval(*eval, pos) : std::string("\xE2\x80\xA6");
    ui::drawEvalBar(*context_.fonts, eval, label, barW, size - barW - gapW, board_.flipped);
    ImGui::SameLine(0, gapW);
    size -= barW + gapW;
    if (auto move = board_.draw(*context_.fonts, pos, lastMove, size, interactive, context_.platform->nowMs())) {
        if (auto error = session_->humanMove(*move)) gameError_ = *error;
        else gameError_.clear();
    }
}

void MatchScreen::drawControls() {
    if (review_) {
        drawReviewControls();
        return;
    }
    const ui::Palette& pal = ui::palette();
    const chessmode::MatchRunner* r = session_ ? session_->runner() : nullptr;
    const SessionPhase phase = session_ ? session_->phase() : SessionPhase::Empty;
    const float big = context_.fonts->uiSize * 2.2f;
    // Takeback, in a game a person plays; when refused, greyed with the reason as its tooltip.
    const bool personPlays = r && (session_->setup().white.kind == PlayerKind::Person ||
                                   session_->setup().black.kind == PlayerKind::Person);
    auto takeback = [&](ui::FlowRow& row, float height) {
        row.place("Takeback");
        const std::optional<std::string> refused = session_->takeBackRefusal();
        ImGui::BeginDisabled(refused.has_value());
        if (ImGui::Button("Takeback", ImVec2(0, height)))
            commands_.post([this] {
                if (auto error = session_->takeBack()) gameError_ = *error;
                navigator_.goLive();
                board_.clearSelection();
            });
        ImGui::EndDisabled();
        ui::markItem("match.takeback");
        if (refused && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("No takeback: %s", refused->c_str());
    };
    if (phase == SessionPhase::Stopped) {
        // Stopped by an API error: the one way on is Retry (the banner says why and what to fix).
        if (ImGui::Button("Retry", ImVec2(context_.fonts->uiSize * 10, big))) commands_.post([this] { start(); });
        ui::markItem("match.retry");
        ImGui::SameLine();
        if (ImGui::Button("New game\xE2\x80\xA6", ImVec2(0, big))) newGame_.show(lastSetup_);
        ui::markItem("match.newGame");
    } else if (phase == SessionPhase::Empty || phase == SessionPhase::Finished) {
        // A fresh page starts the default game; after a game, the same players swap colours.
        const GameSetup next = phase == SessionPhase::Finished ? session_->rematchSetup() : lastSetup_;
        const std::string who = (services_.engineName && next.white.kind == PlayerKind::Engine
                                     ? services_.engineName(next.white.level)
                                     : (next.white.kind == PlayerKind::Model ? next.white.modelId : next.white.text())) +
                                "  vs  " +
                                (services_.engineName && next.black.kind == PlayerKind::Engine
                                     ? services_.engineName(next.black.level)
                                     : (next.black.kind == PlayerKind::Model ? next.black.modelId : next.black.text()));
        if (ImGui::Button(phase == SessionPhase::Empty ? "Start match" : "Rematch", ImVec2(context_.fonts->uiSize * 10, big))) commands_.post([this] { start(); });
        ui::markItem("match.start");
        ImGui::SameLine();
        if (ImGui::Button("New game\xE2\x80\xA6", ImVec2(0, big))) newGame_.show(lastSetup_);
        ui::markItem("match.newGame");
        if (phase == SessionPhase::Finished && personPlays) {
            ui::FlowRow row{false};
            takeback(row, big);
        }
        ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
        ImGui::TextWrapped("%s", who.c_str());
        ImGui::PopStyleColor();
    } else {
        const bool running = phase == SessionPhase::Running;
        ui::FlowRow row;
        const char* toggle = running ? "Pause" : "Resume";
        row.place(toggle, context_.fonts->uiSize * 1.5f);
        if (ImGui::Button(toggle, ImVec2(ImGui::CalcTextSize(toggle).x + ImGui::GetStyle().FramePadding.x * 2 +
                                              context_.fonts->uiSize * 1.5f, 0))) {
            if (running) pause();
            else commands_.post([this] { start(); });
        }
        ui::markItem(running ? "match.pause" : "match.resume");
        row.place("Next move");
        ImGui::BeginDisabled(running || (r && r->thinking()));
        if (ImGui::Button("Next move")) session_->step();
        ui::markItem("match.step");
        ImGui::EndDisabled();
        row.place("Resign");
        if (ImGui::Button("Resign")) session_->resign();
        ui::markItem("match.resign");
        if (personPlays) takeback(row, 0.0f);
        if (session_->drawOfferToHuman()) {
            // The opponent's offer is open for this turn: the person answers it (or just moves).
            row.place("Accept draw");
            if (ImGui::Button("Accept draw")) {
                if (auto error = session_->answerDraw(true)) gameError_ = *error;
            }
            ui::markItem("match.acceptDraw");
            row.place("Decline draw");
            if (ImGui::Button("Decline draw")) {
                if (auto error = session_->answerDraw(false)) gameError_ = *error;
            }
            ui::markItem("match.declineDraw");
        } else if (session_->drawIsOffer()) {
            row.place("Offer draw");
            ImGui::BeginDisabled(session_->pendingDrawOffer().has_value());
            if (ImGui::Button("Offer draw")) {
                if (auto error = session_->offerDraw()) gameError_ = *error;
            }
            ui::markItem("match.draw");
            ImGui::EndDisabled();
        } else {
            row.place("Adjudicate draw");
            if (ImGui::Button("Adjudicate draw")) session_->agreeDraw();
            ui::markItem("match.draw");
        }
        row.place("New game\xE2\x80\xA6");
        if (ImGui::Button("New game\xE2\x80\xA6")) newGame_.show(lastSetup_);
        ui::markItem("match.newGame");
    }
    ui::FlowRow tools;
    // The finished games of this screen, newest first (a row opens one in the review).
    tools.place("History");
    if (chaiba::ui::smallButton("History")) commands_.post([this] { historyOpen_ = true; });
    ui::markItem("match.history");
    tools.place("Flip board");
    if (chaiba::ui::smallButton("Flip board")) board_.flipped = !board_.flipped;
    ui::markItem("match.flip");
    tools.place("Copy FEN");
    const double now = context_.platform->nowMs();
    if (chaiba::ui::smallButton("Copy FEN")) {
        chess::Move m;
        context_.platform->copyToClipboard(viewedPosition(m).fen());
        copied_ = {"FEN copied", now + 1800};
    }
    ui::markItem("match.copyFen");
    if (r) {
        tools.place("Copy PGN");
        if (chaiba::ui::smallButton("Copy PGN")) {
            context_.platform->copyToClipboard(session_->pgn());
            copied_ = {"PGN copied", now + 1800};
        }
        ui::markItem("match.copyPgn");
        tools.place("Download PGN");
        if (chaiba::ui::smallButton("Download PGN")) context_.platform->downloadTextFile("chaiba-game.pgn", "application/x-chess-pgn", session_->pgn());
        ui::markItem("match.downloadPgn");
    }
    // A copy is silent in the browser: say it happened, for a moment.
    if (now < copied_.second) {
        tools.place(copied_.first.c_str());
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.ok), "\xE2\x9C\x93 %s", copied_.first.c_str());
        ui::markItem("match.copied");
    }
}

void MatchScreen::drawBanner() {
    const ui::Palette& pal = ui::palette();
    const chessmode::MatchRunner* r = shownSession() ? shownSession()->runner() : nullptr;
    std::string text;
    ImU32 colour = pal.accent;
    bool settings = false;
    if (!gameError_.empty()) {
        text = gameError_;
        colour = pal.danger;
    } else if (r && !review_ && session_->canRetry()) {
        const std::optional<play::SeatFailure>& failure = r->failure();
        const std::string reason = failure ? failure->message : r->termination();
        text = "Stopped by an error: " + reason;
        colour = pal.danger;
        const bool keyProblem = failure && failure->kind == play::FailureKind::Unauthorized;
        const bool credits = failure && failure->kind == play::FailureKind::PaymentRequired;
        if (keyProblem) text += "\nCheck the API key in Settings, then press Retry.";
        else if (credits) text += "\nAdd credits at openrouter.ai/credits, then press Retry.";
        else text += "\nPress Retry to ask the same player again.";
        settings = keyProblem || credits;
    } else if (r && r->finished()) {
        text = std::string(resultWords(r->result())) + " \xC2\xB7 " + r->result();
        if (!r->termination().empty()) text += " \xC2\xB7 " + r->termination();
    }
    if (text.empty()) return;
    // A bordered group (ImGui 1.86 has no auto-height child windows).
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 topLeft = ImGui::GetCursorScreenPos();
    const float innerW = ImGui::GetContentRegionAvail().x - style.FramePadding.x * 2;
    ImGui::SetCursorScreenPos(ImVec2(topLeft.x + style.FramePadding.x, topLeft.y + style.FramePadding.y));
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + innerW);
    ImGui::PushFont(context_.fonts->bold);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::PopTextWrapPos();
    if (settings) {
        if (ImGui::Button("Open Settings")) context_.openSettings();
        ui::markItem("match.openSettings");
    }
    if (!gameError_.empty()) {
        if (chaiba::ui::smallButton("Dismiss")) gameError_.clear();
    }
    ImGui::EndGroup();
    const ImVec2 groupMax = ImGui::GetItemRectMax();
    const ImVec2 bottomRight(topLeft.x + innerW + style.FramePadding.x * 2, groupMax.y + style.FramePadding.y);
    ImGui::GetWindowDrawList()->AddRect(topLeft, bottomRight, colour, 0.0f, 0, style.FrameBorderSize);
    ImGui::SetCursorScreenPos(ImVec2(topLeft.x, bottomRight.y + style.ItemSpacing.y));
    ImGui::Dummy(ImVec2(0, 0));
    ui::markItemRect("match.banner", topLeft.x, topLeft.y, bottomRight.x - topLeft.x, bottomRight.y - topLeft.y);
}

void MatchScreen::drawSidePanel(float width, float height, bool compact) {
    MatchSession* shown = shownSession();
    chessmode::MatchRunner* r = shown ? shown->runner() : nullptr;
    MoveNavigator& navigator = shownNavigator();
    const chessmode::GameAnalyser& analyser = shownAnalyser();
    const double now = context_.platform->nowMs();
    // Wide screens: a column of its own; phones: inline under the board (the page scrolls).
    if (!compact) ImGui::BeginChild("##side", ImVec2(width, height), false);
    // Player cards.
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const bool twoUp = width > context_.fonts->uiSize * 24;
    const float cardW = twoUp ? (width - spacing) * 0.5f : width;
    // The cards follow the board: the side at the bottom of a flipped board comes first.
    for (int k = 0; k < 2; ++k) {
        const int i = board_.flipped ? 1 - k : k;
        const chess::Color side = i == 0 ? chess::Color::White : chess::Color::Black;
        const PlayerSpec& spec = i == 0 ? (r ? shown->setup().white : lastSetup_.white)
                                        : (r ? shown->setup().black : lastSetup_.black);
        ui::PlayerCardModel m;
        m.white = i == 0;
        m.isLlm = spec.kind == PlayerKind::Model;
        switch (spec.kind) {
        case PlayerKind::Model: m.name = spec.modelId; m.detail = "language model"; break;
        case PlayerKind::Engine:
            m.name = services_.engineName ? services_.engineName(spec.level) : spec.text();
            m.detail = "built-in engine";
            break;
        case PlayerKind::Person: m.name = "You"; m.detail = "person"; break;
        case PlayerKind::Random: m.name = "Random mover"; m.detail = "plays any legal move"; break;
        case PlayerKind::Bot: break; // not a chess seat
        }
        if (r) {
            chessmode::Player* p = review_ ? nullptr : session_->player(side); // (a past game's stand-ins have no agent)
            m.toMove = !r->finished() && r->game().position().sideToMove() == side;
            m.thinking = m.toMove && r->thinking() && spec.kind != PlayerKind::Person;
            m.thinkingMs = m.thinking ? now - thinkStartMs_ : 0;
            m.costUsd = r->costUsd(side);
            const llm::Usage u = r->usage(side);
            m.tokens = u.promptTokens + u.completionTokens;
            if (chessmode::ChessAgent* a = agentOf(p)) {
                m.attempt = a->currentAttempt();
                m.maxAttempts = a->config().retryAttempts + 1;
                if (m.thinking && a->retryWait()) { // a failed request waiting to be sent again
                    const llm::RetryNotice& n = *a->retryWait();
                    if (retrySeen_[i].number != a->retryWaitNumber()) retrySeen_[i] = {a->retryWaitNumber(), now};
                    const double left = std::max(0.0, n.delayMs - (now - retrySeen_[i].sinceMs));
                    const std::string why = n.error.kind == llm::ChatErrorKind::RateLimited ? "rate limited"
                                            : n.error.httpStatus > 0 ? std::string(llm::chatErrorName(n.error.kind)) + " (" +
                                                                           std::to_string(n.error.httpStatus) + ")"
                                                                     : std::string(llm::chatErrorName(n.error.kind));
                    m.retryWait = why + ", again in " + formatElapsed(left) + " (retry " + std::to_string(n.failedAttempt) +
                                  "/" + std::to_string(n.maxAttempts - 1) + ")";
                }
                if (a->status() == chessmode::AgentStatus::Error) {
                    m.error = true;
                    // Stopped: the banner below says why in full; the card says the same state briefly.
                    m.status = shown->phase() == SessionPhase::Stopped ? "stopped by an error (see below)"
                                                                          : a->lastError();
                }
            }
            if (!m.error) {
                if (m.toMove && spec.kind == PlayerKind::Person) m.status = "your move: drag or click a piece";
                else if (m.toMove && !r->thinking()) m.status = "to move (paused)";
                else if (r->finished()) m.status = r->decided() ? "game over" : "stopped";
                else m.status = "waiting";
            }
        } else {
            m.status = "ready";
        }
        if (k == 1 && twoUp) ImGui::SameLine();
        const ui::CardAction action = ui::drawPlayerCard(*context_.fonts, m, cardW, i == 0 ? "card.white" : "card.black");
        if (action == ui::CardAction::ShowDebug) debug_[i].open = true;
        if (action == ui::CardAction::EditInstructions) {
            const std::string& current = i == 0 ? lastSetup_.whiteInstructions : lastSetup_.blackInstructions;
            std::snprintf(instructionsBuffer_[i], sizeof instructionsBuffer_[i], "%s", current.c_str());
            instructionsOpen_[i] = true;
        }
    }
    drawControls();
    drawBanner();
    // Moves and reasoning.
    ui::MoveListModel moves;
    if (r) {
        for (const auto& rec : r->moves())
            if (rec.ply >= 0) moves.sans.push_back(rec.san);
        moves.startFullmove = r->game().startPosition().fullmoveNumber();
        moves.startBlack = r->game().startPosition().sideToMove() == chess::Color::Black;
        if (r->decided()) moves.result = r->result();
        for (const auto& q : analyser.analysis().moves) moves.marks.push_back(q.judgement);
    }
    // The evaluation graph of the game, the accuracies (once every position is scored) in a band
    // along its top: above the curve, not over it (it was a 3-line strip with the text on the curve).
    if (r) {
        const std::string summary = ui::analysisSummary(analyser);
        const float graphH = context_.fonts->uiSize * (compact ? 4.5f : 3.6f);
        const ImVec2 graphAt = ImGui::GetCursorScreenPos();
        if (auto ply = ui::drawEvalGraph(*context_.fonts, analyser, navigator.viewPly(), width, graphH, summary))
            navigator.select(*ply);
        ui::markItemRect("analysis.summary", graphAt.x, graphAt.y, width, ImGui::GetTextLineHeight() + 2);
    }
    const float rest = compact ? context_.fonts->uiSize * 22 : ImGui::GetContentRegionAvail().y;
    if (compact) {
        if (ImGui::BeginTabBar("##tabs")) {
            if (ImGui::BeginTabItem("Moves")) {
                ui::drawMoveList(*context_.fonts, moves, navigator, rest);
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem("White thinking")) {
                drawReasoning(chess::Color::White, width, rest);
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem("Black thinking")) {
                drawReasoning(chess::Color::Black, width, rest);
                ImGui::EndTabItem();
            }
            ImGui::EndTabBar();
        }
    } else {
        // Wide screens: the move list as a tall column (a game's worth of moves in view), the two
        // reasoning panels stacked beside it at a width where a FEN reads as one or two lines.
        const float listW = std::clamp(width * 0.36f, context_.fonts->uiSize * 13, context_.fonts->uiSize * 20);
        ImGui::BeginChild("##movesColumn", ImVec2(listW, rest), false, ImGuiWindowFlags_NoScrollbar);
        // (the row of buttons above the list may take a second line in a narrow column)
        ui::drawMoveList(*context_.fonts, moves, navigator,
                         ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing() -
                             (listW < context_.fonts->uiSize * 17 ? ImGui::GetTextLineHeightWithSpacing() : 0.0f));
        ImGui::EndChild();
        ImGui::SameLine();
        const float panelsW = ImGui::GetContentRegionAvail().x;
        const float half = (rest - ImGui::GetStyle().ItemSpacing.y) * 0.5f;
        ImGui::BeginGroup();
        drawReasoning(chess::Color::White, panelsW, half);
        drawReasoning(chess::Color::Black, panelsW, half);
        ImGui::EndGroup();
    }
    if (!compact) ImGui::EndChild();
}

void MatchScreen::drawReasoning(chess::Color side, float width, float height) {
    MatchSession* shown = shownSession();
    chessmode::MatchRunner* r = shown ? shown->runner() : nullptr;
    const bool white = side == chess::Color::White;
    const PlayerSpec& spec = r ? (white ? shown->setup().white : shown->setup().black)
                               : (white ? lastSetup_.white : lastSetup_.black);
    std::string title = std::string(white ? "White" : "Black") + " \xC2\xB7 " +
                        (spec.kind == PlayerKind::Model ? spec.modelId
                                                      : (spec.kind == PlayerKind::Engine && services_.engineName
                                                             ? services_.engineName(spec.level)
                                                             : spec.text()));
    const bool llm = spec.kind == PlayerKind::Model, human = spec.kind == PlayerKind::Person;
    ui::ReasoningPanelModel m;
    if (r) {
        m = reasoningFromMatch(*r, side, review_ ? nullptr : session_->player(side), std::move(title), llm, human);
    } else {
        m.title = std::move(title);
        if (!llm) m.emptyText = human ? "No moves yet." : "The engine's search lines appear here.";
    }
    ui::drawReasoningPanel(*context_.fonts, m, width, height, white ? "reasoning.white" : "reasoning.black",
                           shownNavigator().viewPly() - 1);
}

void MatchScreen::drawInstructionsEditor() {
    for (int i = 0; i < 2; ++i) {
        if (!instructionsOpen_[i]) continue;
        const char* title = i == 0 ? "White's custom instructions" : "Black's custom instructions";
        ImGui::SetNextWindowSize(ImVec2(context_.fonts->uiSize * 30, 0), ImGuiCond_Appearing);
        if (ImGui::Begin(title, &instructionsOpen_[i], ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
            ImGui::TextWrapped("Added to this side's system prompt from the next game on.");
            ImGui::InputTextMultiline("##text", instructionsBuffer_[i], sizeof instructionsBuffer_[i],
                                      ImVec2(-1, context_.fonts->uiSize * 8));
            if (ImGui::Button("Save")) {
                (i == 0 ? lastSetup_.whiteInstructions : lastSetup_.blackInstructions) = instructionsBuffer_[i];
                instructionsOpen_[i] = false;
            }
        }
        ImGui::End();
    }
}

void MatchScreen::drawDebugWindows() {
    for (int i = 0; i < 2; ++i) {
        if (!debug_[i].open) continue;
        chessmode::ChessAgent* a = session_ ? agentOf(session_->player(i == 0 ? chess::Color::White : chess::Color::Black)) : nullptr;
        static const std::vector<chessmode::AgentCallRecord> none;
        static const std::vector<std::string> noNotes;
        const std::string title = std::string(i == 0 ? "White" : "Black") + " \xC2\xB7 model calls##debug" + std::to_string(i);
        debug_[i].DrawWindow(
            *context_.fonts, title.c_str(), a ? a->calls() : none, a ? a->notes() : noNotes,
            [](const std::string& text, void* platform) { static_cast<Platform*>(platform)->copyToClipboard(text); },
            context_.platform);
    }
}

} // namespace chaiba
