// The planner's automation API (window.chaiba.planner.*): its state as JSON (messages, cards,
// graph, run) and its commands, which take the same paths as the panel's buttons; the planner's
// own windows (task editor, import); and its section of the Settings window.
#include "src/modes/planner/ui/plan_panel.h"

#include "src/llm/call_settings.h"
#include "src/modes/planner/plan_layout.h"
#include "src/modes/planner/plan_text.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
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
    doc["keyStored"] = providerReady();
    doc["notice"] = notice_;
    doc["noticeIsError"] = noticeIsError_;
    doc["error"] = assetsError_;
    doc["selected"] = selected_;
    doc["editorOpen"] = editorOpen_;
    doc["editError"] = editError_;
    doc["importOpen"] = importOpen_;
    doc["importError"] = importError_;
    doc["scroll"] = {{"y", scrollY_}, {"max", scrollMaxY_}};
    doc["run"] = {{"running", runner_.running()}, {"status", runner_.status()}, {"failed", runner_.failed()},
                  {"current", runner_.currentTask()}};
    doc["spentUsd"] = spentUsd();
    if (!chat_) return doc.dump();
    doc["busy"] = chat_->busy();
    doc["streaming"] = chat_->streamingText();
    const PlanGraph& plan = chat_->plan();
    doc["plan"] = plan.tasks.empty() ? std::string() : serializePlan(plan);
    const std::vector<LayoutSlot> slots = layoutPlan(plan);
    json nodes = json::array(), edges = json::array();
    for (size_t i = 0; i < plan.tasks.size(); ++i) {
        const Task& t = plan.tasks[i];
        nodes.push_back({{"id", t.id}, {"name", t.name}, {"status", std::string(statusName(t.status))},
                         {"layer", slots[i].layer}, {"index", slots[i].index}, {"stage", t.stage.has_value()},
                         {"description", t.description}});
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
    if (name == "fit") {
        fitRequested_ = true;
        return std::nullopt;
    }
    if (name == "zoom") {
        if (!arg.is_number() || arg.get<double>() <= 0) return std::string("zoom takes a positive factor");
        zoom_ = std::clamp(float(arg.get<double>()), 0.25f, 3.0f);
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
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowSize(ImVec2(std::min(fonts.uiSize * 34, vp->WorkSize.x - fonts.uiSize),
                                    std::min(fonts.uiSize * 24, vp->WorkSize.y - fonts.uiSize * 5)),
                             ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + fonts.uiSize * 4),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0));
    if (ImGui::Begin("Import a plan", &importOpen_, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        ui::markWindow("planner.importWindow");
        ImGui::TextWrapped("Choose a plan file or paste a plan in the text format (as Export writes it). It "
                           "replaces the current plan; the chat stays and the model is told. A file that does not "
                           "read changes nothing.");
        if (ImGui::Button("Choose a file\xE2\x80\xA6")) {
            importPicking_ = true;
            importError_.clear();
            context_.platform->pickTextFile(".txt,.plan,text/plain", kMaxPlanFileBytes);
        }
        ui::markItem("planner.import.file");
        ImGui::SameLine();
        ImGui::TextDisabled("plain text, at most %zu KiB", kMaxPlanFileBytes / 1024);
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
        ImGui::PushFont(fonts.mono);
        ImGui::InputTextMultiline("##planImport", importBuffer_.data(), importBuffer_.size(),
                                  ImVec2(-1, -ImGui::GetFrameHeightWithSpacing() * (importError_.empty() ? 2 : 5)));
        ImGui::PopFont();
        if (ImGui::Button("Import")) {
            if (auto why = importText(importBuffer_.data())) importError_ = *why;
            else importOpen_ = false;
        }
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
            {"select"}, {"edit"}, {"fit"},      {"zoom"},    {"run"}, {"stopRun"}, {"exportText"}, {"importText"}};
}

} // namespace chaiba::planner
