// The planner's automation API (window.chaiba.planner.*): its state as JSON (messages, cards,
// graph, run) and its commands, which take the same paths as the panel's buttons; the planner's
// own windows (task editor, import); and its section of the Settings window.
#include "src/modes/planner/ui/plan_panel.h"

#include "src/llm/call_settings.h"
#include "src/modes/planner/plan_diff.h"
#include "src/modes/planner/plan_layout.h"
#include "src/modes/planner/plan_text.h"
#include "src/ui/dialog_place.h"
#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace chaiba::planner {

using nlohmann::json;

namespace {
json cardJson(const ToolCard& c) {
    return {{"tool", c.tool}, {"target", c.target}, {"before", c.before}, {"after", c.after}, {"text", c.text()}};
}
} // namespace

std::string PlanPanel::stateJson() const {
    json doc = json::object();
    doc["open"] = settings_.panelOpen;
    doc["provider"] = providerName(settings_.provider);
    doc["model"] = settings_.model();
    doc["reviewChanges"] = settings_.review;
    doc["keyStored"] = providerReady();
    doc["keyChars"] = std::strlen(keyInput_); // how much of a key is typed, never the key
    doc["notice"] = notice_;
    doc["noticeIsError"] = noticeIsError_;
    doc["error"] = assetsError_;
    doc["selected"] = selected_;
    doc["editorOpen"] = editorOpen_;
    doc["editError"] = editError_;
    doc["editText"] = std::string(editText_.data()); // the task's text in the editor, as typed
    doc["importOpen"] = importOpen_;
    doc["importError"] = importError_;
    doc["importChars"] = std::strlen(importBuffer_.data()); // what the import box holds
    doc["inputChars"] = std::strlen(input_);                  // what the chat's input holds
    doc["scroll"] = {{"y", scrollY_}, {"max", scrollMaxY_}};
    doc["run"] = {{"running", runner_.running()}, {"status", runner_.status()}, {"failed", runner_.failed()},
                  {"current", runner_.currentTask()}};
    doc["spentUsd"] = spentUsd();
    json results = json::object();
    for (const auto& [id, r] : runner_.results()) {
        json table = json::array();
        for (const StageStanding& s : r.standings)
            table.push_back({{"seat", s.seat}, {"rating", s.rating}, {"games", s.games}, {"score", s.score}});
        json advanced = json::object();
        if (chat_)
            for (const Task& t : chat_->plan().tasks)
                if (t.stage)
                    for (const Entrant& e : t.stage->entrants)
                        if (e.isTop() && e.fromTask == id) {
                            const Advance a = advanceFrom(r, e.topK);
                            advanced[t.id] = {{"seats", a.seats}, {"tieNote", a.tieNote}};
                        }
        results[id] = {{"ranking", r.ranking}, {"standings", table}, {"tieRule", r.tieRule}, {"games", r.games},
                       {"spentUsd", r.spentUsd}, {"advanced", advanced},
                       {"kept", services_.host && services_.host->keptStage(id)}};
    }
    doc["results"] = results;
    if (!chat_) return doc.dump();
    doc["busy"] = chat_->busy();
    doc["streaming"] = chat_->streamingText();
    json streamingCalls = json::array();
    for (const llm::ToolCall& c : chat_->streamingCalls())
        streamingCalls.push_back({{"name", c.name}, {"argumentChars", c.arguments.size()}});
    doc["streamingCalls"] = streamingCalls;
    const PlanGraph& plan = chat_->plan();
    doc["plan"] = plan.tasks.empty() ? std::string() : serializePlan(plan);
    doc["redo"] = chat_->redoText();
    doc["confirmUndo"] = confirmUndo_ ? json(*confirmUndo_) : json();
    doc["addingTask"] = addingTask_;
    // A proposal waiting for review: its message and its changes, task by task.
    const std::optional<size_t> pending = chat_->pendingReview();
    doc["pendingReview"] = pending ? json(*pending) : json();
    json changes = json::array();
    if (pending)
        for (const TaskChange& c : taskChanges(chat_->turns()[*pending].before, chat_->turns()[*pending].after))
            changes.push_back({{"id", c.id}, {"kind", changeKindName(c.kind)}, {"removed", c.removedLines},
                               {"added", c.addedLines}});
    doc["review"] = {{"changes", changes}, {"error", reviewError_}};
    // The graph as drawn: while a proposal waits, the proposal with its marks.
    ReviewView review;
    if (pending) review = reviewView(chat_->turns()[*pending].before, chat_->turns()[*pending].after);
    const PlanGraph& shown = pending ? review.graph : plan;
    const std::vector<LayoutSlot> slots = layoutPlan(shown);
    json nodes = json::array(), edges = json::array();
    for (size_t i = 0; i < shown.tasks.size(); ++i) {
        const Task& t = shown.tasks[i];
        const auto mark = review.marks.find(t.id);
        nodes.push_back({{"id", t.id}, {"name", t.name}, {"status", std::string(statusName(t.status))},
                         {"layer", slots[i].layer}, {"index", slots[i].index}, {"stage", t.stage.has_value()},
                         {"description", t.description},
                         {"mark", mark == review.marks.end() ? "" : changeKindName(mark->second)}});
        for (const std::string& dep : t.dependsOn) edges.push_back({t.id, dep});
    }
    doc["graph"] = {{"nodes", nodes}, {"edges", edges}, {"zoom", zoom_}, {"vertical", vertical_}};
    json messages = json::array();
    for (const PlanTurn& turn : chat_->turns()) {
        json calls = json::array();
        for (const PlanToolCall& c : turn.calls)
            calls.push_back({{"round", c.round}, {"name", c.name}, {"isError", c.isError}, {"result", c.result},
                             {"card", cardJson(c.card)}});
        messages.push_back({{"text", turn.text}, {"byHand", turn.byHand}, {"reply", turn.reply}, {"end", turnEndName(turn.end)},
                            {"error", turn.error}, {"rounds", turn.rounds}, {"toolErrors", turn.toolErrors()},
                            {"diff", turn.diff.text()}, {"diffEmpty", turn.diff.empty()}, {"undone", turn.undone},
                            {"review", reviewName(turn.review)}, {"reviewNote", turn.reviewNote},
                            {"calls", calls}});
    }
    doc["messages"] = messages;
    return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<std::string> PlanPanel::command(std::string_view name, std::string_view argumentJson,
                                              std::string* resultJson) {
    const json arg = argumentJson.empty() ? json() : json::parse(argumentJson, nullptr, false);
    if (arg.is_discarded()) return "planner " + std::string(name) + ": the argument is not JSON";
    auto text = [&]() { return arg.is_string() ? arg.get<std::string>() : std::string(); };
    if (name == "open" || name == "close") {
        settings_.panelOpen = name == "open";
        saveSettings();
        return std::nullopt;
    }
    if (name == "configure") {
        if (!arg.is_object()) return std::string("configure takes {provider, model, anthropicKey, anthropicBaseUrl}");
        if (chat_ && chat_->busy()) return std::string("a message is still running: stop it first");
        PlannerSettings next = settings_;
        if (arg.contains("provider")) {
            auto p = parseProvider(arg["provider"].is_string() ? arg["provider"].get<std::string>() : "");
            if (!p) return std::string("provider takes 'openrouter' or 'anthropic'");
            next.provider = *p;
        }
        if (arg.contains("model") && arg["model"].is_string()) {
            if (arg["model"].get<std::string>().empty()) return std::string("the model id is empty");
            (next.provider == Provider::Anthropic ? next.anthropicModel : next.openRouterModel) =
                arg["model"].get<std::string>();
        }
        if (arg.contains("anthropicBaseUrl") && arg["anthropicBaseUrl"].is_string()) {
            std::string url = arg["anthropicBaseUrl"].get<std::string>();
            while (!url.empty() && url.back() == '/') url.pop_back();
            if (auto bad = llm::validateBaseUrl(url)) return "the Anthropic base URL: " + *bad;
            next.anthropicBaseUrl = url;
        }
        if (arg.contains("review") && arg["review"].is_boolean()) next.review = arg["review"].get<bool>();
        if (arg.contains("anthropicKey") && arg["anthropicKey"].is_string()) {
            const std::string key = arg["anthropicKey"].get<std::string>();
            if (!key.empty())
                if (auto bad = llm::validateApiKey(key)) return *bad;
            next.anthropicKey = key;
        }
        settings_ = next;
        settingsBuffersLoaded_ = false;
        saveSettings();
        return std::nullopt;
    }
    if (name == "saveKey") return saveKey(text());
    if (name == "say") return say(text());
    if (name == "stop") {
        if (!chat_ || !chat_->busy()) return std::string("no message is running");
        chat_->stop();
        return std::nullopt;
    }
    if (name == "undo") {
        if (!arg.is_number_integer() || arg.get<int>() < 0) return std::string("undo takes a message index");
        return undo(size_t(arg.get<int>()));
    }
    if (name == "newPlan") return newPlan();
    if (name == "accept") {
        // {only: [task ids]} accepts those tasks' changes; no argument, all of them.
        if (arg.is_object() && arg.contains("only")) {
            if (!arg["only"].is_array()) return std::string("accept takes {only: [task ids]}");
            std::vector<std::string> only;
            for (const json& id : arg["only"])
                if (id.is_string()) only.push_back(id.get<std::string>());
            return accept(&only);
        }
        return accept(nullptr);
    }
    if (name == "reject") return reject();
    if (name == "redo") return redo();
    if (!chat_) return assetsError_;
    if (name == "select") {
        if (arg.is_null() || text().empty()) {
            editorOpen_ = false;
            selected_.clear();
            return std::nullopt;
        }
        if (!chat_->plan().find(text())) return missingTaskMessage(chat_->plan(), text());
        selectNode(text());
        return std::nullopt;
    }
    if (name == "edit") {
        // {task, name?, description?, status?, addDependency?, removeDependency?, remove?}: one
        // mutation per call, refused like the editor's buttons (the reason shows in the editor).
        if (!arg.is_object() || !arg.contains("task") || !arg["task"].is_string())
            return std::string("edit takes {task, name | description | status | addDependency | removeDependency | remove}");
        if (chat_->busy() || runner_.running()) return std::string("the plan is changing: edit when it ends");
        const std::string id = arg["task"].get<std::string>();
        const PlanContext& ctx = chat_->config().context;
        auto str = [&](const char* key) { return arg[key].is_string() ? arg[key].get<std::string>() : std::string(); };
        PlanResult result = PlanResult::fail("edit: nothing to change");
        std::string what;
        if (arg.contains("status")) {
            auto status = parseStatus(str("status"));
            if (!status) return "unknown status '" + str("status") + "'";
            result = setStatus(chat_->plan(), id, *status, ctx);
            what = "set the status of '" + id + "' to " + str("status");
        } else if (arg.contains("addDependency")) {
            result = addDependency(chat_->plan(), id, str("addDependency"), ctx);
            what = "added the dependency " + id + " \xE2\x86\x92 " + str("addDependency");
        } else if (arg.contains("removeDependency")) {
            result = removeDependency(chat_->plan(), id, str("removeDependency"), ctx);
            what = "removed the dependency " + id + " \xE2\x86\x92 " + str("removeDependency");
        } else if (arg.contains("remove")) {
            result = removeTask(chat_->plan(), id, ctx);
            what = "removed task '" + id + "'";
        } else if (arg.contains("text")) {
            result = replaceTaskText(chat_->plan(), id, str("text"), ctx);
            what = "edited task '" + id + "' as text";
        } else if (arg.contains("name") || arg.contains("description")) {
            TaskUpdate update;
            if (arg.contains("name")) update.name = str("name");
            if (arg.contains("description")) update.description = str("description");
            result = updateTask(chat_->plan(), id, update, ctx);
            what = "edited task '" + id + "'";
        }
        if (selected_ != id && chat_->plan().find(id)) selectNode(id);
        applyEdit(result, what);
        if (!result.ok()) return result.error;
        if (!editError_.empty()) return editError_;
        if (const Task* t = chat_->plan().find(id)) {
            copyText(editName_, sizeof editName_, t->name);
            copyText(editDescription_, sizeof editDescription_, t->description);
            editStatus_ = int(t->status);
        }
        return std::nullopt;
    }
    if (name == "openStage") {
        // {task, replace?}: the stage's kept tournament on its screen (asks before replacing one).
        if (!arg.is_object() || !arg.contains("task") || !arg["task"].is_string())
            return std::string("openStage takes {task, replace}");
        return openStage(arg["task"].get<std::string>(), arg.contains("replace") && arg["replace"] == true);
    }
    if (name == "addTask") {
        // The text of one task in the plan format, added like the editor's "Add task".
        if (!arg.is_string()) return std::string("addTask takes the task's text");
        if (chat_->busy() || runner_.running()) return std::string("the plan is changing: add when it ends");
        PlanResult result = replaceTaskText(chat_->plan(), "", text(), chat_->config().context);
        applyEdit(result, "added a task");
        if (!result.ok()) return result.error;
        if (!editError_.empty()) return editError_;
        return std::nullopt;
    }
    if (name == "newTask") {
        openNewTask();
        return std::nullopt;
    }
    if (name == "fit") {
        fitRequested_ = true;
        return std::nullopt;
    }
    if (name == "zoom") {
        if (!arg.is_number() || arg.get<double>() <= 0) return std::string("zoom takes a positive factor");
        zoom_ = std::clamp(float(arg.get<double>()), 0.5f, 3.0f);
        return std::nullopt;
    }
    if (name == "run") return runPlan(arg.is_object() && arg.contains("replace") && arg["replace"] == true);
    if (name == "stopRun") {
        if (!runner_.running()) return std::string("the plan is not running");
        if (services_.host) runner_.stop(*services_.host);
        return std::nullopt;
    }
    if (name == "exportText") {
        if (chat_->plan().tasks.empty()) return std::string("the plan is empty: nothing to export");
        if (resultJson) *resultJson = json(serializePlan(chat_->plan())).dump(-1, ' ', false, json::error_handler_t::replace);
        return std::nullopt;
    }
    if (name == "importText") return importText(text());
    return "unknown planner command '" + std::string(name) + "'";
}

void PlanPanel::drawWindows() {
    drawEditor();
    if (!importOpen_) return;
    const ui::Fonts& fonts = *context_.fonts;
    ui::placeDialog(fonts.uiSize, 34, 30, 4);
    if (ImGui::Begin("Import a plan", &importOpen_, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        ui::markWindow("planner.importWindow");
        if (ui::escapeClosesDialog()) importOpen_ = false;
        ImGui::TextWrapped("Choose a plan file or paste a plan in the text format (as Export writes it). It "
                           "replaces the current plan; the chat stays and the model is told. A file that does not "
                           "read changes nothing.");
        if (ImGui::Button("Choose a file\xE2\x80\xA6")) {
            importPicking_ = true;
            importError_.clear();
            context_.platform->pickTextFile(".txt,.plan,text/plain", kMaxPlanFileBytes);
        }
        ui::markItem("planner.import.file");
        // On a phone the limit and the sample's button wrap under the file button.
        ui::FlowRow row;
        row.first = false;
        char limit[48];
        std::snprintf(limit, sizeof limit, "plain text, at most %zu KiB", kMaxPlanFileBytes / 1024);
        row.placeWidth(ImGui::CalcTextSize(limit).x);
        ImGui::TextDisabled("%s", limit);
        if (std::optional<PickedFile> file = importPicking_ ? context_.platform->takePickedFile() : std::nullopt) {
            importPicking_ = false;
            if (!file->error.empty()) {
                importError_ = file->name + ": " + file->error + "; the current plan is unchanged";
            } else if (file->text.size() > kMaxPlanFileBytes) {
                importError_ = file->name + ": over the limit of " + std::to_string(kMaxPlanFileBytes / 1024) +
                               " KiB; the current plan is unchanged";
            } else if (auto why = importText(file->text)) {
                importError_ = file->name + ": " + *why + "; the current plan is unchanged";
            } else {
                notice_ = "Plan imported from " + file->name + " (Revert in the chat brings back the plan it replaced).";
                importOpen_ = false;
            }
        }
        // A first run without a key: the sample (engines only) into the box, to read, change, import.
        row.place("Sample plan");
        if (ImGui::Button("Sample plan") && assets_) {
            copyText(importBuffer_.data(), importBuffer_.size(), assets_->samplePlan);
            importError_.clear();
        }
        ui::markItem("planner.import.sample");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("A qualifier of engines and a final: it runs without a key. Import it, then Run plan.");
        // The format's help beside the box.
        if (ImGui::CollapsingHeader("The plan format###planFormatHelp") && assets_) {
            ImGui::BeginChild("##planFormat", ImVec2(0, fonts.uiSize * 9), true);
            ImGui::PushFont(fonts.mono);
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(assets_->formatSpec.c_str());
            ImGui::PopTextWrapPos();
            ImGui::PopFont();
            ImGui::EndChild();
        }
        ui::markItem("planner.import.format");
        ImGui::PushFont(fonts.mono);
        // The rest of the window, at least eight lines (the window scrolls below that).
        const float boxH = ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing() * (importError_.empty() ? 2 : 5);
        ImGui::InputTextMultiline("##planImport", importBuffer_.data(), importBuffer_.size(),
                                  ImVec2(-1, std::max(boxH, fonts.uiSize * 8)));
        ImGui::PopFont();
        ui::markItem("planner.import.text");
        if (ImGui::Button("Import")) {
            if (auto why = importText(importBuffer_.data())) importError_ = *why;
            else importOpen_ = false;
        }
        ui::markItem("planner.import.go");
        if (!importError_.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().danger);
            ImGui::TextWrapped("%s", importError_.c_str());
            ImGui::PopStyleColor();
            ui::markItem("planner.import.error");
        }
    }
    ImGui::End();
}

bool PlanPanel::drawSettingsSection() {
    const ui::Fonts& fonts = *context_.fonts;
    const ui::Palette& pal = ui::palette();
    if (!settingsBuffersLoaded_) {
        copyText(modelBuffer_, sizeof modelBuffer_, settings_.openRouterModel);
        copyText(anthropicModelBuffer_, sizeof anthropicModelBuffer_, settings_.anthropicModel);
        copyText(anthropicUrlBuffer_, sizeof anthropicUrlBuffer_, settings_.anthropicBaseUrl);
        anthropicKeyBuffer_[0] = '\0';
        settingsBuffersLoaded_ = true;
    }
    bool changedNow = false;
    ImGui::Spacing();
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted("Plan with AI");
    ImGui::PopFont();
    ImGui::Separator();
    const bool busy = chat_ && chat_->busy();
    ImGui::BeginDisabled(busy);
    int provider = int(settings_.provider);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Provider");
    ImGui::SameLine();
    changedNow |= ImGui::RadioButton("OpenRouter", &provider, int(Provider::OpenRouter));
    ui::markItem("settings.planner.openrouter");
    ImGui::SameLine();
    changedNow |= ImGui::RadioButton("Anthropic", &provider, int(Provider::Anthropic));
    ui::markItem("settings.planner.anthropic");
    settings_.provider = Provider(provider);
    changedNow |= ImGui::Checkbox("Review the model's changes before they apply", &settings_.review);
    ui::markItem("settings.planner.review");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("On: a message's changes show on the graph and apply on Accept (all, or task by task).\n"
                          "Off: they apply as the model makes them (Undo still takes them back).");
    ImGui::SetNextItemWidth(-fonts.uiSize * 9);
    if (ImGui::InputText("OpenRouter model", modelBuffer_, sizeof modelBuffer_) && modelBuffer_[0] != '\0') {
        settings_.openRouterModel = modelBuffer_;
        changedNow = true;
    }
    ImGui::SetNextItemWidth(-fonts.uiSize * 9);
    if (ImGui::InputText("Anthropic model", anthropicModelBuffer_, sizeof anthropicModelBuffer_) &&
        anthropicModelBuffer_[0] != '\0') {
        settings_.anthropicModel = anthropicModelBuffer_;
        changedNow = true;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    ImGui::TextWrapped("The Anthropic key is kept only in this browser (localStorage) and sent only to the "
                       "Anthropic base URL below, from the page itself (anthropic-dangerous-direct-browser-access).");
    ImGui::PopStyleColor();
    ImGui::SetNextItemWidth(-(ImGui::CalcTextSize("Save Anthropic key").x + ImGui::GetStyle().FramePadding.x * 2 +
                              ImGui::GetStyle().ItemSpacing.x));
    ImGui::PushFont(fonts.mono);
    ImGui::InputTextWithHint("##anthropicKey", "sk-ant-\xE2\x80\xA6", anthropicKeyBuffer_, sizeof anthropicKeyBuffer_,
                             ImGuiInputTextFlags_Password);
    ImGui::PopFont();
    ui::markItem("settings.planner.anthropicKey");
    ImGui::SameLine();
    if (ImGui::Button("Save Anthropic key")) {
        if (auto bad = llm::validateApiKey(anthropicKeyBuffer_)) {
            settingsError_ = *bad;
        } else {
            settings_.anthropicKey = anthropicKeyBuffer_;
            anthropicKeyBuffer_[0] = '\0';
            settingsError_.clear();
            changedNow = true;
        }
    }
    ImGui::BeginDisabled(settings_.anthropicKey.empty());
    if (ImGui::Button("Forget Anthropic key")) {
        settings_.anthropicKey.clear();
        changedNow = true;
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(settings_.anthropicKey.empty() ? pal.muted : pal.ok), "%s",
                       settings_.anthropicKey.empty() ? "No Anthropic key stored" : "\xE2\x9C\x93 Anthropic key stored");
    ImGui::SetNextItemWidth(-fonts.uiSize * 9);
    ImGui::PushFont(fonts.mono);
    const bool urlDone = ImGui::InputText("Anthropic URL", anthropicUrlBuffer_, sizeof anthropicUrlBuffer_,
                                          ImGuiInputTextFlags_EnterReturnsTrue) ||
                         ImGui::IsItemDeactivatedAfterEdit();
    ImGui::PopFont();
    if (urlDone) {
        std::string url = anthropicUrlBuffer_;
        while (!url.empty() && url.back() == '/') url.pop_back();
        if (auto bad = llm::validateBaseUrl(url)) {
            settingsError_ = "Anthropic base URL: " + *bad;
        } else {
            settings_.anthropicBaseUrl = url;
            settingsError_.clear();
            changedNow = true;
        }
    }
    ImGui::EndDisabled();
    if (busy) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.warning), "A planner message is running: wait or Stop.");
    if (!settingsError_.empty())
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.danger), "%s", settingsError_.c_str());
    if (changedNow) saveSettings();
    return changedNow;
}

std::vector<ui::CommandInfo> PlanPanel::commands() const {
    return {{"open"}, {"close"}, {"configure"}, {"saveKey"}, {"say"},  {"stop"},    {"undo"},       {"newPlan"},
            {"select"}, {"edit"}, {"fit"},      {"zoom"},    {"run"}, {"stopRun"}, {"exportText"}, {"importText"},
            {"accept"}, {"reject"}, {"redo"}, {"addTask"}, {"newTask"}, {"openStage"}};
}

} // namespace chaiba::planner
