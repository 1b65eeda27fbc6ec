// PlanPanel: the chat's life (create, restore, save), the provider switch, the actions every
// button and automation command shares (say, undo, new plan, import, run), and the panel's frame.
#include "src/modes/planner/ui/plan_panel.h"

#include "src/modes/planner/plan_text.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>

namespace chaiba::planner {

void copyText(char* buffer, size_t size, const std::string& text) {
    const size_t n = std::min(size - 1, text.size());
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
}

// ---- life cycle -----------------------------------------------------------------------------

PlanPanel::PlanPanel(const ui::ScreenContext& context, PlannerServices services)
    : context_(context), services_(std::move(services)),
      provider_(
          [this]() -> llm::ChatService* {
              if (settings_.provider == Provider::Anthropic) return anthropic_.get();
              return context_.chat;
          },
          "no API key for the planner's provider: enter one in the panel or in Settings") {
    settings_ = loadPlannerSettings(*services_.store, &warnings_);
    if (services_.assets) {
        llm::Result<PlanChatAssets> loaded = loadPlanChatAssets(*services_.assets);
        if (loaded.isOk()) assets_ = std::move(*loaded.value);
        else assetsError_ = "The planner's prompts and tools could not be read: " + loaded.error;
    } else {
        assetsError_ = "The planner's prompts and tools are not available in this build.";
    }
    makeAnthropicClient();
    createChat();
    if (chat_) {
        if (auto stored = services_.store->get(kPlanChatStoreKey)) {
            std::string why;
            if (!chat_->loadJson(*stored, &why)) {
                services_.store->set(std::string(kPlanChatStoreKey) + ".corrupt", *stored);
                warnings_.push_back("The saved plan could not be restored (" + why +
                                    "); it is kept under " + kPlanChatStoreKey + ".corrupt.");
            }
        }
    }
    if (auto stored = services_.store->get(kPlanResultsStoreKey)) {
        std::string why;
        if (auto results = readStageResults(*stored, &why)) {
            runner_.restore(std::move(*results));
        } else {
            services_.store->set(std::string(kPlanResultsStoreKey) + ".corrupt", *stored);
            warnings_.push_back("The results of the plan's earlier run could not be read (" + why + "); they are kept under " +
                                kPlanResultsStoreKey + ".corrupt.");
        }
    }
    if (!warnings_.empty()) {
        notice_.clear();
        for (const std::string& w : warnings_) notice_ += (notice_.empty() ? "" : "\n") + w;
        noticeIsError_ = true;
    }
}

PlanPanel::~PlanPanel() { chat_.reset(); }

void PlanPanel::createChat() {
    if (!assets_) return;
    PlanChatConfig config;
    config.model = settings_.model();
    config.review = settings_.review;
    config.context.isKnownModel = [this](std::string_view id) {
        if (context_.catalog->empty()) return true; // no catalog yet: the provider will say
        return context_.modelInfo(id).has_value();
    };
    config.context.models = [this] { return *context_.catalog; }; // list_models, suggestions
    chat_ = std::make_unique<PlanChat>(provider_, *assets_, config);
    chat_->onPlanChanged = [this] { changed(); };
    chat_->onToolCall = [this](const PlanToolCall&) { changed(); };
    chat_->onText = [this](const std::string&) { changed(); };
    chat_->onTurnEnd = [this](const PlanTurn&) {
        changed();
        save();
    };
}

void PlanPanel::saveResults() {
    savedResults_ = runner_.resultChanges();
    if (auto error = services_.store->set(kPlanResultsStoreKey, stageResultsJson(runner_.results()))) {
        notice_ = "The stage results could not be saved in this browser: " + *error;
        noticeIsError_ = true;
    }
}

void PlanPanel::save() {
    if (!chat_) return;
    if (auto error = services_.store->set(kPlanChatStoreKey, chat_->toJson())) {
        notice_ = "The plan could not be saved in this browser: " + *error;
        noticeIsError_ = true;
    }
}

// A new key, URL or provider: the Anthropic client is made again (callers make sure no call is in
// flight).
void PlanPanel::makeAnthropicClient() {
    anthropic_.reset();
    if (settings_.provider != Provider::Anthropic || settings_.anthropicKey.empty() || !services_.transport ||
        !services_.clock)
        return;
    llm::AnthropicConfig config;
    config.apiKey = settings_.anthropicKey;
    config.baseUrl = settings_.anthropicBaseUrl;
    anthropic_ = std::make_unique<llm::AnthropicClient>(*services_.transport, *services_.clock, config);
}

void PlanPanel::saveSettings() {
    if (auto error = savePlannerSettings(*services_.store, settings_)) {
        settingsError_ = "Not saved: " + *error;
    }
    makeAnthropicClient();
    if (chat_) {
        chat_->setModel(settings_.model());
        chat_->setReview(settings_.review);
    }
    changed();
}

bool PlanPanel::providerReady() const {
    return settings_.provider == Provider::Anthropic ? anthropic_ != nullptr : context_.chat != nullptr;
}

void PlanPanel::tick(double) {
    if (commands_.run()) changed();
    if (anthropic_) anthropic_->poll();
    provider_.poll();
    if (chat_ && runner_.running() && services_.host) {
        const std::string before = runner_.status();
        if (std::optional<PlanGraph> next = runner_.tick(chat_->plan(), *services_.host)) {
            // A finished stage's result is stored before its status: a run stopped after it
            // resumes from it.
            if (runner_.resultChanges() != savedResults_) saveResults();
            chat_->editPlan(std::move(*next), "ran the plan (" + runner_.status() + ")");
            save();
        }
        if (runner_.status() != before) changed();
    }
}

void PlanPanel::openPanel() {
    if (settings_.panelOpen) return;
    settings_.panelOpen = true;
    saveSettings();
}

bool PlanPanel::wantsContinuousFrames() const {
    return (chat_ && chat_->busy()) || runner_.running() ||
           (stickToEnd_ && scrollY_ < scrollMaxY_ - 4 && followFrames_ > 0);
}

double PlanPanel::chatSpentUsd() const {
    double sum = 0;
    if (chat_)
        for (const PlanTurn& t : chat_->turns()) sum += t.costUsd;
    return sum;
}

// What the planner's calls cost in this session: never less after New plan or an undo (the money
// was spent; the header's total used to go down).
double PlanPanel::spentUsd() const { return spentBeforeUsd_ + chatSpentUsd(); }

// ---- actions (buttons and automation commands) -------------------------------------------

std::optional<std::string> PlanPanel::say(const std::string& text) {
    if (!chat_) return assetsError_;
    if (chat_->busy()) return std::string("a message is still running: wait or press Stop");
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return std::string("type a message first");
    if (chat_->pendingReview())
        return std::string("the model's proposed change waits for you: accept or reject it first");
    if (!providerReady())
        return std::string(settings_.provider == Provider::Anthropic ? "no Anthropic API key: enter one first"
                                                                     : "no OpenRouter API key: enter one first");
    chat_->setModel(settings_.model());
    if (!chat_->send(text)) return std::string("the message was not sent");
    scrollToEnd_ = true;
    changed();
    return std::nullopt;
}

std::optional<std::string> PlanPanel::newPlan() {
    if (!chat_) return assetsError_;
    if (chat_->busy()) return std::string("a message is still running: stop it first");
    if (runner_.running()) return std::string("the plan is running: stop the run first");
    spentBeforeUsd_ += chatSpentUsd();
    createChat();
    runner_.clearResults();
    savedResults_ = runner_.resultChanges();
    if (services_.host) services_.host->forgetStages();
    confirmOpen_ = {};
    services_.store->remove(kPlanResultsStoreKey);
    selected_.clear();
    editorOpen_ = false;
    fitRequested_ = true;
    save();
    notice_.clear();
    changed();
    return std::nullopt;
}

std::optional<std::string> PlanPanel::undo(size_t index) {
    if (!chat_) return assetsError_;
    std::string why;
    const double before = chatSpentUsd();
    if (!chat_->undo(index, &why)) return why;
    confirmUndo_.reset();
    spentBeforeUsd_ += std::max(0.0, before - chatSpentUsd()); // the undone messages were paid for
    if (!selected_.empty() && !chat_->plan().find(selected_)) editorOpen_ = false;
    save();
    return std::nullopt;
}

std::optional<std::string> PlanPanel::openStage(const std::string& id, bool replace) {
    if (!services_.host) return std::string("this page has no arena to open the stage in");
    if (runner_.running()) return std::string("the plan is running: open a stage when the run ends");
    // What it would replace there is asked first (the editor shows the question).
    if (const std::string replaced = services_.host->replacedByOpen(id); !replaced.empty() && !replace) {
        confirmOpen_ = {id, replaced};
        return "opening it replaces " + replaced + ": export that first to keep it, then confirm";
    }
    if (std::optional<std::string> why = services_.host->openStage(id, replace)) return why;
    confirmOpen_ = {};
    editorOpen_ = false;
    return std::nullopt;
}

std::optional<std::string> PlanPanel::redo() {
    if (!chat_) return assetsError_;
    std::string why;
    if (!chat_->redo(&why)) return why;
    confirmUndo_.reset();
    save();
    return std::nullopt;
}

std::optional<std::string> PlanPanel::accept(const std::vector<std::string>* only) {
    if (!chat_) return assetsError_;
    if (runner_.running()) return std::string("the plan is running: accept when the run ends");
    std::string why;
    if (!chat_->accept(only, &why)) {
        reviewError_ = why;
        return why;
    }
    reviewError_.clear();
    fitRequested_ = true;
    save();
    return std::nullopt;
}

std::optional<std::string> PlanPanel::reject() {
    if (!chat_) return assetsError_;
    std::string why;
    if (!chat_->reject(&why)) return why;
    reviewError_.clear();
    fitRequested_ = true;
    save();
    return std::nullopt;
}

std::optional<std::string> PlanPanel::importText(const std::string& text) {
    if (!chat_) return assetsError_;
    if (chat_->busy()) return std::string("a message is still running: stop it first");
    if (text.size() > kMaxPlanFileBytes)
        return "the plan was not imported: it is " + std::to_string(text.size() / 1024) + " KiB, over the limit of " +
               std::to_string(kMaxPlanFileBytes / 1024) + " KiB";
    Result<PlanGraph> plan = parsePlan(text, chat_->config().context);
    if (!plan.ok()) return "the plan was not imported: " + plan.error;
    // An undo step like a hand edit: Revert brings back the plan it replaced.
    if (*plan.value != chat_->plan()) {
        std::string why;
        if (!chat_->handEdit(std::move(*plan.value), "imported a plan", &why)) return "the plan was not imported: " + why;
        scrollToEnd_ = true;
    }
    fitRequested_ = true;
    save();
    notice_ = "Plan imported (Revert in the chat brings back the plan it replaced).";
    noticeIsError_ = false;
    return std::nullopt;
}

std::optional<std::string> PlanPanel::runPlan(bool replace) {
    if (!chat_) return assetsError_;
    if (!services_.host) return std::string("this page has no arena to run the plan in");
    if (chat_->busy()) return std::string("a message is still running: wait for it first");
    if (chat_->pendingReview())
        return std::string("the model's proposed change waits for review: accept or reject it before running");
    if (const std::string replaced = services_.host->replacedByRun(chat_->plan()); !replaced.empty() && !replace)
        return "Run plan would replace " + replaced + ": export it from its screen first to keep it, then confirm";
    confirmRun_.clear();
    if (auto why = runner_.start(chat_->plan())) return why;
    changed();
    return std::nullopt;
}

std::optional<std::string> PlanPanel::saveKey(const std::string& raw) {
    std::string key = raw;
    while (!key.empty() && (key.back() == ' ' || key.back() == '\n')) key.pop_back();
    while (!key.empty() && key.front() == ' ') key.erase(key.begin());
    if (auto bad = llm::validateApiKey(key)) return *bad;
    if (settings_.provider == Provider::Anthropic) {
        if (chat_ && chat_->busy()) return std::string("a message is still running: stop it first");
        settings_.anthropicKey = key;
        saveSettings();
        return std::nullopt;
    }
    if (!services_.saveOpenRouterKey) return std::string("the key cannot be stored here: use Settings");
    return services_.saveOpenRouterKey(key);
}

void PlanPanel::applyEdit(const PlanResult& result, const std::string& what) {
    if (!result.ok()) {
        editError_ = result.error;
        changed();
        return;
    }
    std::string why;
    if (!chat_->handEdit(*result.value, what, &why)) {
        editError_ = why;
        changed();
        return;
    }
    editError_.clear();
    scrollToEnd_ = true; // the new step shows at the end of the chat
    save();
}

void PlanPanel::editAfterFrame(std::function<PlanResult(const PlanGraph&, const PlanContext&)> edit, std::string what) {
    commands_.post([this, edit = std::move(edit), what = std::move(what)] {
        if (!chat_) return;
        applyEdit(edit(chat_->plan(), chat_->config().context), what);
    });
}

// ---- drawing --------------------------------------------------------------------------------

float PlanPanel::drawSide(float availWidth, float height) {
    const ui::Fonts& fonts = *context_.fonts;
    if (!settings_.panelOpen) {
        drawClosedTab(height);
        return ImGui::GetItemRectSize().x;
    }
    const float width = std::clamp(availWidth * 0.36f, fonts.uiSize * 22, fonts.uiSize * 34);
    drawPanel(width, height);
    return width;
}

bool PlanPanel::drawNarrow(float availWidth, float height) {
    if (settings_.panelOpen) {
        drawPanel(availWidth, height); // a full-width page of its own; Hide goes back to the arena
        return true;
    }
    // Closed: a bar across the top opens it.
    ImGui::PushFont(context_.fonts->bold);
    if (ImGui::Button("Plan with AI: open the planner", ImVec2(availWidth, 0))) openPanel();
    ImGui::PopFont();
    ui::markItem("planner.open");
    return false;
}

void PlanPanel::drawPanel(float width, float height) {
    const ui::Fonts& fonts = *context_.fonts;
    ImGui::BeginChild("##planPanel", ImVec2(width, height), true);
    ui::markWindow("planner.panel");
    drawHeaderRow();
    if (!assetsError_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().danger);
        ImGui::TextWrapped("%s", assetsError_.c_str());
        ImGui::PopStyleColor();
        ImGui::EndChild();
        return;
    }
    if (!notice_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, noticeIsError_ ? ui::palette().danger : ui::palette().ok);
        ImGui::TextWrapped("%s", notice_.c_str());
        ImGui::PopStyleColor();
        ui::markItem("planner.notice");
    }
    const float inputH = fonts.uiSize * 5.2f;
    const float rest = ImGui::GetContentRegionAvail().y;
    drawGraph(std::max(fonts.uiSize * 9, rest * 0.40f));
    drawRunRow();
    ImGui::Separator();
    const float messagesH = ImGui::GetContentRegionAvail().y - inputH;
    drawMessages(std::max(fonts.uiSize * 4, messagesH));
    if (providerReady()) drawInput();
    else drawKeyEntry();
    ImGui::EndChild();
}

void PlanPanel::drawClosedTab(float height) {
    const ui::Fonts& fonts = *context_.fonts;
    // Measured in the bold font the label is drawn in (the regular one is narrower: "AI" was cut).
    ImGui::PushFont(fonts.bold);
    const float width = ImGui::CalcTextSize("Plan with AI").x + ImGui::GetStyle().FramePadding.x * 2 + 2;
    ImGui::PopFont();
    ImGui::BeginChild("##planTab", ImVec2(width + ImGui::GetStyle().WindowPadding.x * 2, height), false);
    ImGui::PushStyleColor(ImGuiCol_Button, ui::palette().accent);
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 255, 255, 255));
    ImGui::PushFont(fonts.bold);
    if (ImGui::Button("Plan with AI", ImVec2(width, 0))) openPanel();
    ImGui::PopFont();
    ImGui::PopStyleColor(2);
    ui::markItem("planner.open");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Describe what to measure; a model builds the tournament plan with you.");
    ImGui::EndChild();
}

void PlanPanel::drawHeaderRow() {
    const ui::Fonts& fonts = *context_.fonts;
    const ImGuiStyle& style = ImGui::GetStyle();
    ImGui::PushFont(fonts.bold);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Plan with AI");
    ImGui::PopFont();
    const float hideW = ImGui::CalcTextSize("Hide").x + style.FramePadding.x * 2;
    const float newW = ImGui::CalcTextSize("New plan").x + style.FramePadding.x * 2;
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - hideW - newW - style.ItemSpacing.x);
    ImGui::BeginDisabled(chat_ && (chat_->busy() || runner_.running()));
    if (ImGui::Button("New plan")) ImGui::OpenPopup("Start a new plan?");
    ImGui::EndDisabled();
    ui::markItem("planner.new");
    ImGui::SameLine();
    if (ImGui::Button("Hide")) {
        settings_.panelOpen = false;
        saveSettings();
    }
    ui::markItem("planner.close");
    if (ImGui::BeginPopupModal("Start a new plan?", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::TextUnformatted("The current plan and its chat are cleared (export the plan first to keep it).");
        if (ImGui::Button("Start from scratch")) {
            if (auto why = newPlan()) {
                notice_ = *why;
                noticeIsError_ = true;
            }
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().muted);
    const std::string who = std::string(settings_.provider == Provider::Anthropic ? "Anthropic" : "OpenRouter") +
                            " \xC2\xB7 " + settings_.model();
    ImGui::TextWrapped("%s", who.c_str());
    ImGui::PopStyleColor();
    ui::markItem("planner.provider");
}

void PlanPanel::drawKeyEntry() {
    const bool anthropic = settings_.provider == Provider::Anthropic;
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().warning);
    ImGui::TextWrapped("%s", anthropic ? "The planner talks to Anthropic: paste an Anthropic API key (kept only in "
                                         "this browser, sent only to the Anthropic base URL)."
                                       : "The planner needs an OpenRouter API key (kept only in this browser, sent "
                                         "only to the base URL in Settings).");
    ImGui::PopStyleColor();
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Save key").x - ImGui::GetStyle().FramePadding.x * 2 -
                            ImGui::GetStyle().ItemSpacing.x);
    ImGui::PushFont(context_.fonts->mono);
    const bool entered = ImGui::InputTextWithHint("##plannerKey", anthropic ? "sk-ant-\xE2\x80\xA6" : "sk-or-v1-\xE2\x80\xA6",
                                                  keyInput_, sizeof keyInput_,
                                                  ImGuiInputTextFlags_Password | ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::PopFont();
    ui::markItem("planner.keyInput");
    ImGui::SameLine();
    const bool pressed = ImGui::Button("Save key");
    ui::markItem("planner.saveKey");
    if (entered || pressed) {
        if (auto error = saveKey(keyInput_)) {
            notice_ = *error;
            noticeIsError_ = true;
        } else {
            std::fill(std::begin(keyInput_), std::end(keyInput_), '\0');
            notice_ = "Key saved.";
            noticeIsError_ = false;
        }
    }
}

void PlanPanel::drawRunRow() {
    const bool running = runner_.running();
    ImGui::BeginDisabled(!chat_ || chat_->plan().tasks.empty() || (!running && chat_->busy()));
    if (ImGui::Button(running ? "Stop run" : "Run plan")) {
        if (running) {
            if (services_.host) runner_.stop(*services_.host);
        } else if (std::string replaced = services_.host ? services_.host->replacedByRun(chat_->plan()) : "";
                   !replaced.empty()) {
            confirmRun_ = std::move(replaced); // asked below
        } else if (auto why = runPlan(false)) {
            notice_ = *why;
            noticeIsError_ = true;
        }
    }
    ImGui::EndDisabled();
    ui::markItem("planner.run");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Plays the plan's stages in dependency order: chess in the arena, werewolf in the "
                          "Werewolf Arena (each replaces the finished tournament there).");
    ImGui::SameLine();
    ImGui::BeginDisabled(!chat_ || chat_->plan().tasks.empty());
    if (ImGui::Button("Export")) {
        context_.platform->downloadTextFile("plan.txt", "text/plain", serializePlan(chat_->plan()));
        notice_ = "Plan exported as plan.txt.";
        noticeIsError_ = false;
    }
    ImGui::EndDisabled();
    ui::markItem("planner.export");
    ImGui::SameLine();
    if (ImGui::Button("Import")) {
        importOpen_ = true;
        importError_.clear();
    }
    ui::markItem("planner.import");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A plan file, pasted text, or the sample plan; the format's help is there.");
    ImGui::SameLine();
    ImGui::BeginDisabled(!chat_ || chat_->busy() || running);
    if (ImGui::Button("Add task")) openNewTask();
    ImGui::EndDisabled();
    ui::markItem("planner.addTask");
    // Run plan would replace a tournament the person has: asked, never done silently.
    if (!confirmRun_.empty() && !running) {
        ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().warning);
        ImGui::TextWrapped("Run plan replaces %s. Export it from its screen first to keep it.", confirmRun_.c_str());
        ImGui::PopStyleColor();
        ui::markItem("planner.run.question");
        if (ImGui::Button("Replace and run###planner.run.confirm")) {
            if (auto why = runPlan(true)) {
                notice_ = *why;
                noticeIsError_ = true;
            }
        }
        ui::markItem("planner.run.confirm");
        ImGui::SameLine();
        if (ImGui::Button("Cancel###planner.run.cancel")) confirmRun_.clear();
    }
    // The plan's cap, before Run and while it runs: what its stages may spend together.
    if (chat_ && !chat_->plan().tasks.empty())
        if (const std::optional<double> cap = chat_->plan().root().budgetCapUsd) {
            ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().muted);
            const std::string text =
                running || runner_.spentUsd() > 0
                    ? "Cap " + numberText(*cap) + " USD: " + numberText(runner_.spentUsd()) +
                          " USD spent by this run's stages; no game starts once it is reached."
                    : "Cap " + numberText(*cap) + " USD over every stage: a stage without a budget shares "
                          "what is left, and no game starts once the cap is reached.";
            ImGui::TextWrapped("%s", text.c_str());
            ImGui::PopStyleColor();
            ui::markItem("planner.cap");
        }
    if (!runner_.status().empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, runner_.failed() ? ui::palette().danger
                                             : running       ? ui::palette().accent
                                                             : ui::palette().ok);
        ImGui::TextWrapped("%s", runner_.status().c_str());
        ImGui::PopStyleColor();
        ui::markItem("planner.runStatus");
    }
}

} // namespace chaiba::planner
