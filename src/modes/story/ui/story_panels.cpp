// The Story screen's side panel: the scene (current image, the player's character, cost per turn),
// the world's files (viewer with rendered markdown, editor whose saves join the history) and the
// agent log of a turn (orchestrator decision, each pre-step, the narrator: input, output, tools,
// tokens, cost, refused or failed).
#include "src/modes/story/game_context.h"
#include "src/modes/story/ui/markdown_view.h"
#include "src/modes/story/ui/story_screen.h"

#include "src/ui/fonts.h"
#include "src/ui/format.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>

namespace chaiba::story {

namespace {

void heading(const ui::Fonts& fonts, const std::string& text) {
    ImGui::Spacing();
    if (fonts.bold) ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(text.c_str());
    if (fonts.bold) ImGui::PopFont();
}

void muted(const std::string& text) {
    ui::mutedText(text);
}

const char* statusWord(StepStatus status) {
    return status == StepStatus::Ok ? "ok" : status == StepStatus::Refused ? "REFUSED" : "FAILED";
}

} // namespace

StoryScreen::Picture StoryScreen::currentImage() const {
    // The latest turn with a picture: the last one it created, else the last one its text showed.
    // A replay shows the turns it has reached, never a picture of a later one.
    std::vector<const TurnRecord*> turns;
    if (replaying_ && recording_)
        turns = replayTurns();
    else
        for (const TurnRecord& t : conversation_.turns) turns.push_back(&t);
    for (auto it = turns.rbegin(); it != turns.rend(); ++it) {
        const TurnRecord* turn = *it;
        const std::vector<FileChange>& changes = turn->changes.changes();
        for (auto change = changes.rbegin(); change != changes.rend(); ++change) {
            const WorldPathCheck check = checkWorldPath(change->path);
            if (!change->after || !check.ok() || check.kind != WorldPathKind::Image) continue;
            const std::size_t slash = change->path.rfind('/') + 1;
            return {change->path, change->path.substr(slash, change->path.rfind('.') - slash)};
        }
        for (auto entry = turn->entries.rbegin(); entry != turn->entries.rend(); ++entry) {
            if (entry->text.find("![") == std::string::npos) continue;
            const MdDocument doc = parseMarkdown(entry->text);
            for (auto block = doc.blocks.rbegin(); block != doc.blocks.rend(); ++block)
                if (block->kind == MdBlockKind::Image) {
                    std::string alt;
                    for (const MdRun& run : block->runs) alt += run.text;
                    return {block->imageSrc, alt};
                }
        }
    }
    return {};
}

void StoryScreen::drawScene(float width) {
    const ui::Fonts& fonts = *context_.fonts;
    heading(fonts, "The scene");
    const Picture image = currentImage();
    if (image.src.empty()) {
        muted("No image yet: the game master paints one with create_image when an image model is set "
              "(Settings, Story).");
    } else {
        const ui::MarkdownImages scenePictures = pictures("story.scene.image.");
        ui::drawMarkdownImage(image.src, image.alt, fonts, {width, 0.95f, false, &scenePictures});
    }
    heading(fonts, "You play");
    ui::drawMarkdownText("**" + config_.config.player.name + "**  \n" + config_.config.player.description,
                         fonts, {width, 0.95f, false});
    drawMemory(width);
    heading(fonts, "Cost per turn");
    if (conversation_.turns.empty()) muted("No turn played in this conversation yet.");
    for (const TurnRecord& t : conversation_.turns)
        if (t.kind == TurnKind::Play) ImGui::Text("Turn %d   %s", t.number, formatCost(t.allAnswersCostUsd()).c_str());
    if (!conversation_.turns.empty()) ImGui::Text("Total    %s", formatCost(totalCostUsd()).c_str());
    heading(fonts, "Game master");
    muted(storySettings_.simple ? "Simple (v1): the narrator alone."
                                : "Agentic (v2): orchestrator, off-screen agents, narrator.");
    if (!liveNotes_.empty()) {
        heading(fonts, "Notes of the last turn");
        for (const std::string& note : liveNotes_) muted("• " + note);
    }
}

void StoryScreen::drawFiles(float width, float height) {
    const ui::Fonts& fonts = *context_.fonts;
    ImGui::BeginChild("story.files.list", ImVec2(width, height * 0.3f), false);
    for (const std::string& path : fileList_) {
        if (path.rfind("conversations/", 0) == 0 || path.rfind("logs/", 0) == 0) continue;
        if (ImGui::Selectable(path.c_str(), path == openFile_)) {
            openFile_ = path;
            fileEditor_.end();
        }
        if (revealOpenFile_ && path == openFile_) {
            ImGui::SetScrollHereY(0.3f);
            revealOpenFile_ = false;
        }
        ui::markItem("story.file." + path);
        drawFileTag(path);
    }
    ImGui::EndChild();
    ImGui::Separator();
    if (openFile_.empty()) {
        muted("Choose a file to read it. Each edit you save joins the story's history at once: Undo takes "
              "it back, and a branch from before it has the world without it.");
        return;
    }
    // Small beside the file's title on a desk, a finger high on a phone.
    auto tapButton = [&](const char* label) {
        return phone_ ? ImGui::Button(label, ImVec2(fonts.uiSize * 5, fonts.uiSize * 2.2f)) : chaiba::ui::smallButton(label);
    };
    const ReadResult file = files_ ? files_->read(openFile_) : ReadResult{};
    if (!file.ok()) {
        muted(file.error.message);
        return;
    }
    heading(fonts, openFile_);
    // A markdown file of the context that is never sent says why (binary, not UTF-8, too large).
    if (isContextFile(openFile_))
        if (std::optional<std::string> why = contextExclusion(file.content)) {
            ImGui::PushStyleColor(ImGuiCol_Text, chaiba::ui::palette().warning);
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(("Not sent to the game master: " + *why + ".").c_str());
            ImGui::PopTextWrapPos();
            ImGui::PopStyleColor();
        }
    const bool running = turn_ && turn_->running();
    const WorldPathCheck check = checkWorldPath(openFile_);
    const bool picture = check.ok() && check.kind == WorldPathKind::Image;
    if (!fileEditor_.active()) {
        ImGui::BeginDisabled(running || replaying_ || picture); // a picture is not edited as text
        if (tapButton("Edit")) fileEditor_.begin(context_.platform, file.content, "Edit " + openFile_);
        ImGui::EndDisabled();
        ui::markItem("story.editFile");
        ImGui::BeginChild("story.files.view", ImVec2(width, 0), false);
        const ui::MarkdownImages filePictures = pictures("story.file.image.");
        if (check.ok() && check.kind == WorldPathKind::Markdown) {
            ui::drawMarkdownText(file.content, fonts, {width - fonts.uiSize, 0.95f, false, &filePictures});
        } else if (picture) {
            ui::drawMarkdownImage(openFile_, std::to_string(file.content.size() / 1024) + " KiB", fonts,
                                  {width - fonts.uiSize, 0.95f, false, &filePictures});
        } else {
            if (fonts.mono) ImGui::PushFont(fonts.mono);
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(file.content.c_str());
            ImGui::PopTextWrapPos();
            if (fonts.mono) ImGui::PopFont();
        }
        ImGui::EndChild();
        return;
    }
    if (tapButton("Save"))
        unlessRedoLost("Saving your edit of " + openFile_, [this, path = openFile_, text = fileEditor_.text()] {
            if (auto e = editFile(path, text))
                error_ = "Not saved: " + *e;
            else
                fileEditor_.end();
        });
    ui::markItem("story.saveFile");
    ImGui::SameLine();
    if (tapButton("Cancel")) fileEditor_.end();
    ui::markItem("story.cancelEdit");
    fileEditor_.draw(ImVec2(width, -1), fonts);
}

void StoryScreen::drawLog(float width) {
    const ui::Fonts& fonts = *context_.fonts;
    if (ImGui::Button("Model calls###story.calls")) callLog_.open = !callLog_.open;
    ui::markItem("story.calls");
    if (conversation_.turns.empty()) {
        muted(
            "No turn yet: each turn's agent log (the orchestrator's decision, every off-screen step and the "
            "narrator, with tokens and cost) appears here.");
        return;
    }
    if (logTurn_ < 1 || logTurn_ > conversation_.turns.back().number)
        logTurn_ = conversation_.turns.back().number;
    ImGui::SetNextItemWidth(fonts.uiSize * 8);
    ImGui::InputInt("Turn", &logTurn_);
    ui::markItem("story.logTurn");
    // This session's latest turns keep their log in memory; older ones are read from the stored
    // file, which the page reads back from IndexedDB (it keeps agent logs out of memory).
    const TurnLog* log = nullptr;
    for (const TurnLog& l : sessionLogs_)
        if (l.conversationId == conversation_.id && l.turn == logTurn_) log = &l;
    if (!log) {
        // A regenerated turn's log is its shown answer's.
        int variant = 0;
        for (const TurnRecord& t : conversation_.turns)
            if (t.number == logTurn_) variant = t.variant;
        const std::string path = turnLogPath(conversation_.id, logTurn_, variant);
        if (storedLogPath_ != path && files_) {
            storedLogPath_ = path;
            storedLog_.reset();
            storedLogError_.clear();
            storedLogPending_ = true;
            // The answer lands between frames (or in this call, when the log is in memory).
            files_->readLater({path}, [this, life = std::weak_ptr<int>(life_), path, turn = logTurn_](std::vector<ReadResult> read) {
                if (life.expired() || storedLogPath_ != path) return; // the panel moved on
                storedLogPending_ = false;
                const ReadResult stored = read.empty() ? ReadResult{} : std::move(read.front());
                llm::Result<TurnLog> parsed = stored.ok() ? turnLogFromJson(stored.content)
                                                          : llm::Result<TurnLog>::fail(stored.error.message);
                if (parsed.isOk())
                    storedLog_ = std::move(*parsed.value);
                else
                    storedLogError_ = (stored.missing() ? "No agent log for turn " : "Turn ") + std::to_string(turn) +
                                      (stored.missing() ? ": " : "'s log could not be read: ") + parsed.error;
                bump();
            });
        }
        if (storedLogPending_) {
            muted("Loading turn " + std::to_string(logTurn_) + "'s log…");
            return;
        }
        if (!storedLog_) {
            muted(storedLogError_);
            return;
        }
        log = &*storedLog_;
    }
    ImGui::BeginChild("story.log.view", ImVec2(width, 0), false);
    const TurnTiming& t = log->timing;
    auto ms = [](std::int64_t v) { return v < 0 ? std::string("–") : std::to_string(v) + " ms"; };
    const bool byHand = !log->steps.empty() && std::all_of(log->steps.begin(), log->steps.end(), [](const AgentStep& s) {
        return s.agent == AgentKind::Person;
    });
    if (byHand) {
        // A person's edit: no model ran; the step's output is the diff.
        heading(fonts, "Edit " + std::to_string(log->turn) + ": by hand, no model");
    } else {
        heading(fonts, "Turn " + std::to_string(log->turn) + ": " + formatCost(log->costUsd));
        muted("orchestrator " + ms(t.orchestratorMs) + " · pre-steps " + ms(t.preStepsMs) + " · first token " +
              ms(t.narratorFirstTokenMs) + " · total " + ms(t.totalMs));
        muted(std::to_string(log->usage.promptTokens) + " prompt + " +
              std::to_string(log->usage.completionTokens) + " completion tokens · context " +
              std::to_string(log->contextTokens) + " tokens");
    }
    for (const std::string& note : log->notes) muted("note: " + note);
    for (std::size_t i = 0; i < log->steps.size(); ++i) {
        const AgentStep& step = log->steps[i];
        if (step.agent == AgentKind::Person) {
            muted("The change to " + step.label + ":");
            if (fonts.mono) ImGui::PushFont(fonts.mono);
            muted(step.output);
            if (fonts.mono) ImGui::PopFont();
            continue;
        }
        ImGui::PushID(static_cast<int>(i));
        const std::string title = std::string(agentKindName(step.agent)) +
                                  (step.label.empty() ? "" : " (" + step.label + ")") + " · " +
                                  statusWord(step.status) + " · " + formatCost(step.costUsd);
        if (step.status != StepStatus::Ok)
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(ui::palette().danger));
        const bool open = ImGui::TreeNode("step", "%s", title.c_str());
        if (step.status != StepStatus::Ok) ImGui::PopStyleColor();
        if (open) {
            muted("model " + step.model);
            if (!step.error.empty()) muted("why: " + step.error);
            muted(std::to_string(step.usage.promptTokens) + " + " +
                  std::to_string(step.usage.completionTokens) + " tokens · " + std::to_string(step.rounds) +
                  " round(s) · " + std::to_string(step.endMs - step.startMs) + " ms");
            if (ImGui::TreeNode("input", "Input (%zu messages)", step.input.size())) {
                for (const llm::ChatMessage& m : step.input) {
                    ImGui::TextUnformatted(llm::roleName(m.role));
                    muted(m.content.size() > 4000 ? m.content.substr(0, 4000) + "…" : m.content);
                }
                ImGui::TreePop();
            }
            ImGui::TextUnformatted("Output");
            muted(step.output);
            for (const LoggedToolCall& call : step.toolCalls)
                muted((call.isError ? "tool error " : "tool ") + call.name + " " + call.arguments + " → " +
                      call.result);
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    ImGui::EndChild();
}

} // namespace chaiba::story
