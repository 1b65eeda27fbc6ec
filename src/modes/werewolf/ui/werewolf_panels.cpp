// The Werewolf screen's side panels: the selected player (decisions with reasoning, notes over
// time with a line diff per phase, the strategy document, cost and tokens) and the model-call log.
#include "src/modes/werewolf/ui/werewolf_screen.h"

#include "engine/werewolf/replay.h"
#include "src/modes/werewolf/player_context.h"
#include "src/modes/werewolf/werewolf_prompts.h"
#include "src/ui/fonts.h"
#include "src/ui/platform.h"

#include <imgui.h>

#include <algorithm>
#include <sstream>

namespace chaiba::werewolfmode {

namespace {
std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

// A simple line diff (longest common subsequence): '+' added, '-' removed, ' ' kept.
std::vector<std::pair<char, std::string>> lineDiff(const std::string& before, const std::string& after) {
    const std::vector<std::string> a = lines(before), b = lines(after);
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::vector<std::pair<char, std::string>> out;
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] == b[j]) out.push_back({' ', a[i++]}), ++j;
        else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) out.push_back({'+', b[j++]});
        else out.push_back({'-', a[i++]});
    }
    return out;
}
} // namespace

const std::string& WerewolfScreen::shownContextFor(int seat) {
    const werewolf::Game& g = session_->game();
    const std::vector<werewolf::Event>& events = g.events();
    const std::size_t shown = std::min(shownEvents_, events.size());
    if (shownContext_.seat == seat && shownContext_.events == shown && shownContext_.game == &g &&
        shown < events.size()) // (newGame clears it: a new game may live where the last one did)
        return shownContext_.text;
    shownContext_ = {seat, shown, &g, {}};
    if (shown >= events.size()) {
        shownContext_.text = session_->contextFor(seat);
        return shownContext_.text;
    }
    // The longest shown prefix that replays (one that ends between a decision and what the game
    // derives from it, a dawn or an elimination, does not: step back to before that decision).
    for (std::size_t n = shown; n > 0 && shown - n < 64; --n) {
        werewolf::ReplayResult r = werewolf::replay({events.begin(), events.begin() + std::ptrdiff_t(n)});
        if (!r.ok()) continue;
        shownContext_.text = buildGameState(*r.game, seat, session_->config().seats[static_cast<std::size_t>(seat)].ai.context);
        return shownContext_.text;
    }
    shownContext_.text = "(the table has not shown enough of the game yet)";
    return shownContext_.text;
}

void WerewolfScreen::drawPlayerPanel(float, float) {
    const werewolf::Game& g = session_->game();
    const int seat = std::clamp(selected_, 0, g.seats() - 1);
    const TableSeat& spec = session_->config().seats[static_cast<std::size_t>(seat)];
    const int pov = povSeat();
    const bool mayKnow = pov < 0 || pov == seat || g.isOver();
    ImGui::Text("%s  %s", werewolf::seatName(seat).c_str(),
                spec.kind == SeatKind::Bot ? "rule-based bot" : (spec.kind == SeatKind::Person ? "a person" : spec.ai.model.c_str()));
    if (mayKnow) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", std::string(werewolf::roleName(g.roleOf(seat))).c_str());
    }
    ImGui::TextDisabled("Click a seat to follow another player.");
    const AiSeat* ai = session_->aiSeat(seat);
    if (!mayKnow) {
        ImGui::TextWrapped("Its reasoning and notes are private: switch the view to Spectator (or to this seat).");
        return;
    }
    if (spec.kind == SeatKind::Person) {
        // The header stays short enough for a phone; what it holds is said inside.
        if (ImGui::CollapsingHeader("What this seat knows###seat.knows", ImGuiTreeNodeFlags_DefaultOpen)) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextWrapped("The same context an AI in this seat gets:");
            ImGui::PopStyleColor();
            ImGui::TextWrapped("%s", shownContextFor(seat).c_str());
        }
        return;
    }
    if (!ai) {
        ImGui::TextWrapped("A rule-based bot: it accuses, votes with the most accused, reveals a wolf it found as "
                           "the seer; wolves kill a revealed seer. It has no reasoning to show and costs nothing.");
        if (ImGui::CollapsingHeader("What this seat knows"))
            ImGui::TextWrapped("%s", shownContextFor(seat).c_str());
        return;
    }
    const SeatStats& st = ai->stats();
    ImGui::Text("$%.5f  %lld tokens  %d asks  %d fallbacks", ai->log().totalCostUsd(),
                ai->log().totalUsage().totalTokens, st.asks, st.fallbacks);
    if (ImGui::BeginTabBar("werewolf.player.tabs")) {
        if (ImGui::BeginTabItem("Decisions")) {
            ImGui::BeginChild("decisions");
            const auto& history = ai->history();
            if (history.empty()) ImGui::TextDisabled("No decision yet.");
            for (std::size_t i = history.size(); i-- > 0;) {
                const AskOutcome& a = history[i];
                if (a.kind == AskKind::Notes) continue; // the Notes tab shows them
                std::string what(askKindName(a.kind));
                if (a.target) what += " -> " + werewolf::seatName(*a.target);
                if (isChatAsk(a.kind)) what += a.chat.send ? ": \"" + a.chat.message + "\"" : " (stays silent)";
                ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.3f, 0.45f, 0.75f, 1));
                ImGui::TextWrapped("%s %d  %s", std::string(werewolf::phaseName(a.phase)).c_str(), a.round, what.c_str());
                ImGui::PopStyleColor();
                if (a.fallback != FallbackReason::None)
                    ImGui::TextColored(ImVec4(0.8f, 0.3f, 0.2f, 1), "fallback (%s): %s",
                                       std::string(fallbackReasonName(a.fallback)).c_str(), a.fallbackDetail.c_str());
                if (!a.reasoning.empty() && a.kind != AskKind::Notes) ImGui::TextWrapped("%s", a.reasoning.c_str());
                ImGui::Separator();
            }
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Notes")) {
            ImGui::BeginChild("notes");
            const auto& notes = ai->notesHistory();
            if (notes.empty()) ImGui::TextDisabled("The notes are rewritten after each phase; none yet.");
            for (std::size_t i = notes.size(); i-- > 0;) {
                ImGui::TextColored(ImVec4(0.3f, 0.45f, 0.75f, 1), "after %s %d",
                                   std::string(werewolf::phaseName(notes[i].endedPhase)).c_str(), notes[i].round);
                for (const auto& [mark, text] : lineDiff(i ? notes[i - 1].text : "", notes[i].text)) {
                    if (mark == ' ') ImGui::TextWrapped("  %s", text.c_str());
                    else ImGui::TextColored(mark == '+' ? ImVec4(0.15f, 0.55f, 0.25f, 1) : ImVec4(0.75f, 0.25f, 0.25f, 1),
                                            "%c %s", mark, text.c_str());
                }
                ImGui::Separator();
            }
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Strategy")) {
            ImGui::BeginChild("strategy");
            ImGui::TextWrapped("%s", prompts_.strategy(g.roleOf(seat)).c_str());
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
}

// The shared model-call window, one log per AI seat (bots and people make no calls).
void WerewolfScreen::drawCallLog() {
    if (!callLog_.open) return;
    std::vector<ui::CallSource> sources;
    if (session_ && session_->setupError() == werewolf::SetupError::None)
        for (int s = 0; s < session_->game().seats(); ++s)
            if (const AiSeat* ai = session_->aiSeat(s))
                sources.push_back({werewolf::seatName(s), &ai->log().records()});
    if (!session_)
        callLog_.emptyText = "No game yet. A game with a model in a seat shows each of its calls here.";
    else if (sources.empty())
        callLog_.emptyText = "No seat of this game is a model: the rule-based bots and people play without model "
                             "calls. Put a model in a seat (New game) to see what it is asked and answers.";
    else
        callLog_.emptyText = "No model call yet: the model seats are asked when their turn comes.";
    callLog_.DrawWindow(
        *context_.fonts, "Werewolf model calls###werewolf.calllog", sources, {},
        [](const std::string& text, void* platform) {
            static_cast<Platform*>(platform)->copyToClipboard(text);
        },
        context_.platform);
}

} // namespace chaiba::werewolfmode
