// The Story screen's memory within its budget: the meter under the input (the next request's
// estimated tokens against memory.context_tokens, and its cost at the catalog's prices), each
// file's place in the context beside its name in the Files panel, and the rolling summary in the
// Scene panel, edited as a recorded change that Undo takes back.
#include "src/llm/openrouter_json.h"
#include "src/modes/story/story_memory.h"
#include "src/modes/story/ui/markdown_view.h"
#include "src/modes/story/ui/story_screen.h"

#include "src/ui/fonts.h"
#include "src/ui/format.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <cstdint>

namespace chaiba::story {

namespace {

// The completion tokens a turn's calls are expected to write (a reply, a decision).
constexpr long long kNarratorCompletionTokens = 600;
constexpr long long kOrchestratorCompletionTokens = 150;

// "binary", "not UTF-8", "too large": the first words of an exclusion's reason.
std::string shortReason(const std::string& why) {
    for (const char* word : {"binary", "not UTF-8", "too large", "cannot be read"})
        if (why.rfind(word, 0) == 0) return word;
    return why.substr(0, why.find(':'));
}

} // namespace

std::string fileTagText(const ContextFileState& state) {
    switch (state.inclusion) {
    case FileInclusion::Always: return state.keys.empty() ? "sent: always" : "sent: always (keyed)";
    case FileInclusion::Named: return "sent: named \"" + state.namedKey + "\"";
    case FileInclusion::NotNamed: return "not sent: not named";
    case FileInclusion::OverBudget: return "not sent: over budget";
    case FileInclusion::NotSent: return "not sent: " + shortReason(state.why);
    }
    return {};
}

void StoryScreen::refreshEstimate() {
    if (!files_ || !prompts_ || (turn_ && turn_->running())) return;
    // Priced again when the catalog changes too: it often arrives after the world is loaded, and
    // an estimate made before it stayed "unpriced" until the next edit (a loaded machine showed it).
    std::string catalog = context_.catalogStatus ? *context_.catalogStatus : std::string();
    if (context_.catalog)
        catalog += "|" + std::to_string(context_.catalog->size()) + "|" +
                   std::to_string(reinterpret_cast<std::uintptr_t>(context_.catalog->data()));
    if (estimate_ && estimateRevision_ == revision_ && estimateLine_ == composer_ &&
        estimateCatalog_ == catalog)
        return;
    estimateRevision_ = revision_;
    estimateLine_ = composer_;
    estimateCatalog_ = std::move(catalog);
    estimate_ = estimateNextTurn(*files_, *prompts_, config_.config, conversation_, estimateLine_);
    // The cost of the turn at the catalog's prices: the narrator's request, and the orchestrator's
    // (the same context) unless the game master plays simple.
    estimateCostUsd_ = 0;
    estimateUnpriced_.clear();
    TurnSettings settings;
    if (ensureModels(settings)) return;
    std::vector<std::pair<std::string, long long>> calls{{settings.models.narrator, kNarratorCompletionTokens}};
    if (!storySettings_.simple) calls.emplace_back(settings.models.orchestrator, kOrchestratorCompletionTokens);
    for (const auto& [model, completion] : calls) {
        const std::optional<llm::ModelInfo> info = context_.catalog ? context_.modelInfo(model) : std::nullopt;
        if (!info) {
            if (estimateUnpriced_.find(model) == std::string::npos)
                estimateUnpriced_ += (estimateUnpriced_.empty() ? "" : ", ") + model;
            continue;
        }
        llm::Usage usage;
        usage.promptTokens = estimate_->promptTokens;
        usage.completionTokens = completion;
        estimateCostUsd_ += llm::estimateCostUsd(usage, info->pricing);
    }
}

void StoryScreen::drawMeter(float width) {
    if (!estimate_) return;
    const ContextEstimate& e = *estimate_;
    const float fraction = e.budgetTokens > 0 ? float(e.promptTokens) / float(e.budgetTokens) : 0.0f;
    const bool over = e.promptTokens > e.budgetTokens;
    const std::string overlay = formatTokens(uint64_t(e.promptTokens)) + " of " +
                                formatTokens(uint64_t(e.budgetTokens)) + " tokens a request";
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, over ? ImGui::ColorConvertU32ToFloat4(ui::palette().warning)
                                                       : ImGui::GetStyleColorVec4(ImGuiCol_PlotHistogram));
    ImGui::ProgressBar(std::min(fraction, 1.0f), ImVec2(std::min(width, context_.fonts->uiSize * 22), 0),
                       overlay.c_str());
    ImGui::PopStyleColor();
    ui::markItem("story.meter");
    // Without a key there is no catalog to price from: say that in a few words (the catalog's own
    // note ran to three lines and was cut at the panel's edge).
    std::string cost = "\xE2\x89\x88 " + formatCost(estimateCostUsd_) + " a turn";
    if (!context_.chat)
        cost = "cost per turn: shown once an API key is set";
    else if (!estimateUnpriced_.empty())
        cost += " (" + context_.unpricedNote(estimateUnpriced_) + ")";
    std::string line = cost;
    if (e.foldDue) line += " \xC2\xB7 sums up older turns first";
    if (over) line += " \xC2\xB7 over the budget (memory.context_tokens in config.yaml): always-on files alone fill it";
    if (!phone_) ImGui::SameLine(); // beside the bar, wrapping at the column's edge (two lines are kept for it)
    ui::mutedText(line);
}

void StoryScreen::drawFileTag(const std::string& path) {
    if (!estimate_) return;
    for (const ContextFileState& state : estimate_->context.files.files) {
        if (state.path != path) continue;
        const std::string tag = fileTagText(state);
        const ImU32 colour = state.inclusion == FileInclusion::NotSent ? ui::palette().warning : ui::palette().muted;
        const float tagWidth = ImGui::CalcTextSize(tag.c_str()).x;
        const float right = ImGui::GetWindowContentRegionMax().x; // from the window's left, less its scrollbar
        const float pathEnd = ImGui::GetItemRectMin().x - ImGui::GetWindowPos().x + ImGui::CalcTextSize(path.c_str()).x;
        // Right-aligned on the name's line when it fits, under the name otherwise (a phone).
        const bool sameLine = pathEnd + tagWidth + context_.fonts->uiSize * 1.5f < right;
        if (sameLine)
            ImGui::SameLine(right - tagWidth);
        else
            ImGui::Indent(context_.fonts->uiSize);
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
        ImGui::TextUnformatted(tag.c_str());
        ImGui::PopStyleColor();
        if (!sameLine) ImGui::Unindent(context_.fonts->uiSize);
        if (state.inclusion == FileInclusion::NotSent && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", state.why.c_str());
        ui::markItem("story.fileTag." + path);
        return;
    }
}

void StoryScreen::drawMemory(float width) {
    const ui::Fonts& fonts = *context_.fonts;
    ImGui::Spacing();
    if (fonts.bold) ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted("The story so far");
    if (fonts.bold) ImGui::PopFont();
    const std::optional<StorySummary> summary = currentSummary(conversation_);
    const MemorySettings& memory = config_.config.memory;
    if (!summary) {
        ui::mutedText("No summary yet: once " + std::to_string(2 * memory.recentTurns) +
                  " turns wait, the game master folds all but the last " + std::to_string(memory.recentTurns) +
                  " into one (memory.recent_turns in config.yaml), and the last turns go whole.");
        return;
    }
    const bool running = turn_ && turn_->running();
    if (!summaryEditor_.active()) {
        ui::mutedText("Turns 1-" + std::to_string(summary->throughTurn) + ", summarised by the game master; the turns after go whole.");
        ImGui::BeginDisabled(running || replaying_);
        if (ui::smallButton("Edit summary")) summaryEditor_.begin(context_.platform, summary->text, "Edit the summary");
        ImGui::EndDisabled();
        ui::markItem("story.editSummary");
        ui::drawMarkdownText(summary->text, fonts, {width, 0.95f, false});
        ui::markItem("story.summary");
        return;
    }
    if (ui::smallButton("Save summary")) {
        const std::string text = summaryEditor_.text();
        unlessRedoLost("Saving your edit of the summary", [this, text] {
            if (auto e = editSummary(text))
                error_ = "Not saved: " + *e;
            else
                summaryEditor_.end();
        });
    }
    ui::markItem("story.saveSummary");
    ImGui::SameLine();
    if (ui::smallButton("Cancel##summary")) summaryEditor_.end();
    ui::markItem("story.cancelSummary");
    summaryEditor_.draw(ImVec2(width, fonts.uiSize * 12), fonts);
}

std::optional<std::string> StoryScreen::editSummary(const std::string& text) {
    if (!files_) return "no world is open";
    if (turn_ && turn_->running()) return "the game master is still answering: wait, or Stop";
    bool recorded = false;
    if (WorldError e = recordSummaryEdit(*files_, conversation_, text, &recorded); !e.ok()) return e.message;
    if (recorded) saveCurrent();
    notice_ = recorded ? "Summary saved: the next turns carry it; Undo last edit takes it back."
                       : "The summary is unchanged.";
    logTurn_ = conversation_.turns.empty() ? 0 : conversation_.turns.back().number;
    scrollToEnd_ = true;
    bump();
    return std::nullopt;
}

} // namespace chaiba::story
