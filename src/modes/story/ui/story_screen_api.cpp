// The Story screen's automation API: its state as JSON and its commands (see story_screen.h).
#include "src/modes/story/ui/story_screen.h"

#include "src/ui/image_textures.h"

#include <nlohmann/json.hpp>

namespace chaiba::story {

using nlohmann::json;

namespace {

json twistJson(const TwistOfFate& twist) {
    json bands = json::array();
    for (const StakeBand& band : twist.bands)
        bands.push_back({{"low", band.low}, {"high", band.high}, {"outcome", band.outcome}});
    return {{"bands", bands}, {"roll", twist.roll}, {"outcome", twist.hit().outcome}};
}

json entryJson(const TranscriptEntry& entry) {
    json out = {
        {"kind", entryKindName(entry.kind)}, {"agent", agentKindName(entry.agent)}, {"text", entry.text}};
    if (entry.kind == EntryKind::ToolCall) {
        out["tool"] = entry.toolName;
        out["error"] = entry.toolError;
    }
    if (entry.twist) out["roll"] = twistJson(*entry.twist);
    return out;
}

json turnJson(const TurnRecord& turn) {
    json rolls = json::array(), offScreen = json::array(), entries = json::array();
    for (const TranscriptEntry& entry : turn.entries) {
        entries.push_back(entryJson(entry));
        if (entry.twist) rolls.push_back(twistJson(*entry.twist));
        if (entry.kind == EntryKind::OffScreen) offScreen.push_back(entry.text);
    }
    return {{"number", turn.number},
            {"kind", turn.kind == TurnKind::Edit ? "edit" : "play"},
            {"diff", editTurnDiff(turn)}, // a person's edit, or the game master's file changes
            {"player", turn.playerText()},
            {"narration", turn.narration()},
            {"rolls", rolls},
            {"offScreen", offScreen},
            {"costUsd", turn.costUsd},
            {"answers", turn.answerCount()},
            {"answer", turn.shown + 1},
            {"instruction", turn.instruction},
            {"allAnswersCostUsd", turn.allAnswersCostUsd()},
            {"entries", entries},
            {"filesChanged", turn.changes.touchedPaths()}};
}

} // namespace

std::string argString(const json& args, const char* name) {
    return args.is_object() && args.contains(name) && args[name].is_string() ? args[name].get<std::string>()
                                                                             : "";
}

std::string StoryScreen::stateJson() const {
    json worlds = json::array();
    for (const WorldEntry& w : worlds_) worlds.push_back({{"id", w.id}, {"title", w.title}});
    json turns = json::array(), messages = json::array();
    for (const TurnRecord& t : conversation_.turns) {
        turns.push_back(turnJson(t));
        for (const TranscriptEntry& e : t.entries) messages.push_back(entryJson(e));
    }
    json live = json::array(), rolls = json::array();
    for (const TranscriptEntry& e : liveEntries_) {
        live.push_back(entryJson(e));
        if (e.twist) rolls.push_back(twistJson(*e.twist));
    }
    for (const TurnRecord& t : conversation_.turns)
        for (const TranscriptEntry& e : t.entries)
            if (e.twist) rolls.push_back(twistJson(*e.twist));
    json replay = {{"active", replaying_},
                   {"step", replayEntries_},
                   {"steps", recording_ ? demoSteps(*recording_) : 0},
                   {"error", recordingError_}};
    if (replaying_ && recording_) {
        // The scene, the conversation shown and the banners on screen, for a test to follow the tour.
        const DemoView view = demoView(*recording_, replayEntries_);
        static constexpr const char* kSceneKinds[] = {"play", "undo", "branch"};
        json banners = json::array(), undone = json::array(), shownTurns = json::array();
        for (const DemoItem& item : view.items) {
            if (item.kind == DemoItem::Kind::Banner) banners.push_back(item.text);
            if (item.kind == DemoItem::Kind::Undone) undone.push_back(item.turn->number);
            if (item.kind == DemoItem::Kind::Turn) shownTurns.push_back(item.turn->number);
        }
        replay["sceneKind"] = kSceneKinds[static_cast<int>(view.kind)];
        replay["conversation"] = view.conversation->id;
        replay["showing"] = view.showing;
        replay["turns"] = shownTurns;
        replay["undone"] = undone;
        replay["banners"] = banners;
    }
    // A continue done but waiting for its reply's log to be read is not finished yet (continueReply).
    const bool running = (turn_ && turn_->running()) || (continueLog_ && continueLog_->finished);
    json images = json::object(), shown = json::array();
    for (const ui::ShownPicture& p : shownPictures_)
        shown.push_back({{"item", p.item},
                         {"path", p.path},
                         {"status", p.status == ui::ImageStatus::Ready     ? "ready"
                                    : p.status == ui::ImageStatus::Loading ? "loading"
                                                                           : "failed"},
                         {"width", p.width},
                         {"height", p.height},
                         {"textureWidth", p.textureWidth},
                         {"textureHeight", p.textureHeight},
                         {"error", p.error}});
    images["shown"] = shown;
    if (ui::ImageTextures* textures = context_.platform ? context_.platform->imageTextures() : nullptr) {
        const ui::ImageTextureStats s = textures->stats();
        images["textures"] = s.textures;
        images["megapixels"] = s.megapixels;
        images["decoding"] = s.decoding;
        images["known"] = s.known;
        images["decoded"] = s.decoded;
        images["freed"] = s.freed;
        images["failed"] = s.failed;
        images["maxTextures"] = s.maxTextures;
        images["maxMegapixels"] = s.maxMegapixels;
    }
    json meter = nullptr, contextFiles = json::array(), summary = nullptr;
    if (estimate_) {
        meter = {{"promptTokens", estimate_->promptTokens},
                 {"budgetTokens", estimate_->budgetTokens},
                 {"costUsd", estimateCostUsd_},
                 {"unpriced", estimateUnpriced_},
                 {"foldDue", estimate_->foldDue},
                 {"recentTurns", estimate_->context.recentTurns}};
        for (const ContextFileState& f : estimate_->context.files.files)
            contextFiles.push_back({{"path", f.path},
                                    {"sent", f.sent()},
                                    {"inclusion", fileInclusionName(f.inclusion)},
                                    {"tag", fileTagText(f)},
                                    {"why", f.why}});
    }
    if (const std::optional<StorySummary> s = currentSummary(conversation_))
        summary = {{"text", s->text}, {"throughTurn", s->throughTurn}};
    json lastTurn = nullptr;
    if (!sessionLogs_.empty()) {
        const TurnLog& log = sessionLogs_.back();
        lastTurn = {{"orchestratorMs", log.timing.orchestratorMs},
                    {"preStepsMs", log.timing.preStepsMs},
                    {"narratorFirstTokenMs", log.timing.narratorFirstTokenMs},
                    {"totalMs", log.timing.totalMs},
                    {"costUsd", log.costUsd},
                    {"contextTokens", log.contextTokens},
                    {"steps", log.steps.size()}};
    }
    return json{{"worlds", worlds},
                {"conversationLabels", conversationLabels_},
                {"importReport", importReport_},
                {"askingDelete", deleteAskOpen_ ? deleteAsked_ : std::string()},
                {"configProblems", config_.warnings},
                {"meter", meter},
                {"contextFiles", contextFiles},
                {"summary", summary},
                {"editingSummary", summaryEditor_.active()},
                {"lastTurnLog", lastTurn},
                {"world", worlds_.empty() ? "" : worlds_[world_].id},
                {"configWarning", config_.banner},
                {"conversations", conversations_},
                {"conversation", conversation_.id},
                {"branchedFrom", conversation_.branchedFrom},
                {"turns", turns},
                {"messages", messages},
                {"streaming", running},
                {"phase", running ? turnPhaseName(phase_) : "idle"},
                {"turnsLaidOut", turnsLaidOut_},
                {"storedLog",
                 {{"path", storedLogPath_},
                  {"loading", storedLogPending_},
                  {"turn", storedLog_ ? storedLog_->turn : 0},
                  {"steps", storedLog_ ? storedLog_->steps.size() : 0},
                  {"error", storedLogError_}}},
                {"streamText", streamText_},
                {"pendingPlayer", pendingPlayer_},
                {"redoable", conversation_.redoable},
                {"steering", !running || runKind_ == RunKind::Play ? ""
                             : runKind_ == RunKind::Regenerate     ? "regenerate"
                                                                   : "continue"},
                {"editingReply", editingReply_},
                {"live", live},
                {"rolls", rolls},
                {"notes", liveNotes_},
                {"files", fileList_},
                {"openFile", openFile_},
                {"editing", fileEditor_.active()},
                {"composer", std::string(composer_)},
                {"error", error_},
                {"notice", notice_},
                {"needsKey", needsKey_},
                {"hasKey", context_.chat != nullptr},
                {"costUsd", totalCostUsd()},
                {"images", images},
                {"sessionCostUsd", sessionCostUsd_},
                {"replay", replay},
                {"layout", phone_ ? "phone" : "wide"},
                {"phoneView", phoneView_ == PhoneView::Story    ? "story"
                              : phoneView_ == PhoneView::Worlds ? "worlds"
                                                                : "panel"},
                {"panel", panel_ == StoryPanel::Scene   ? "scene"
                          : panel_ == StoryPanel::Files ? "files"
                                                        : "log"}}
        .dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<std::string> StoryScreen::command(std::string_view name, std::string_view argumentJson,
                                                std::string* resultJson) {
    std::optional<std::string> refused = dispatch(name, argumentJson, resultJson);
    // The meter and the file tags speak of what the command changed at once, not a frame later
    // (a page script reading the state before the next frame saw the files before an edit).
    refreshEstimate();
    return refused;
}

std::optional<std::string> StoryScreen::dispatch(std::string_view name, std::string_view argumentJson,
                                                 std::string* resultJson) {
    const json args = argumentJson.empty() ? json::object() : json::parse(argumentJson, nullptr, false);
    if (args.is_discarded()) return "the argument is not JSON";
    if (auto answer = worldsCommand(name, argumentJson, resultJson)) return *answer;
    if (name == "newWorld") return newWorld(argString(args, "title"), argString(args, "pitch"));
    if (name == "selectWorld") return selectWorld(argString(args, "id"));
    if (name == "selectConversation") return selectConversation(argString(args, "id"));
    if (name == "say") return say(argString(args, "text"));
    if (name == "stop") return stop();
    if (name == "undo") return undo();
    if (name == "branch") {
        if (!args.contains("turn") || !args["turn"].is_number_integer()) return "branch needs {turn: N}";
        const bool keep =
            !args.contains("keepReply") || !args["keepReply"].is_boolean() || args["keepReply"].get<bool>();
        return branch(args["turn"].get<int>(), keep);
    }
    if (name == "editFile") return editFile(argString(args, "path"), argString(args, "content"));
    if (name == "editSummary") return editSummary(argString(args, "text"));
    if (auto steered = steeringCommand(name, args)) return *steered;
    if (name == "readFile") {
        if (!files_) return "no world is open";
        ReadResult r = files_->read(argString(args, "path"));
        if (!r.ok()) return r.error.message;
        *resultJson = json(r.content).dump(-1, ' ', false, json::error_handler_t::replace);
        return std::nullopt;
    }
    if (name == "replayStart") return startReplay();
    if (name == "replayStep") return replayStep();
    if (name == "replayStop") {
        stopReplay();
        return std::nullopt;
    }
    if (name == "exportWorld") {
        // {"pending": true} until the logs are read back (chaiba.story.exportWorld() asks again), then the
        // text.
        if (!apiExport_) {
            apiExport_ = std::make_shared<std::optional<llm::Result<std::string>>>();
            exportWorld([out = apiExport_](llm::Result<std::string> archive) { *out = std::move(archive); });
        }
        if (!*apiExport_) {
            *resultJson = json({{"pending", true}}).dump();
            return std::nullopt;
        }
        const llm::Result<std::string> archive = std::move(**apiExport_);
        apiExport_.reset();
        if (!archive.isOk()) return archive.error;
        *resultJson = json(*archive.value).dump(-1, ' ', false, json::error_handler_t::replace);
        return std::nullopt;
    }
    if (name == "importWorld") return importWorld(argString(args, "text"));
    if (name == "panel") {
        // On a phone "story" and "worlds" are views of their own; the others show the side panel.
        const std::string which = argString(args, "panel");
        phoneView_ = which == "story"    ? PhoneView::Story
                     : which == "worlds" ? PhoneView::Worlds
                                         : PhoneView::Panel;
        if (phoneView_ == PhoneView::Panel)
            panel_ = which == "files" ? StoryPanel::Files
                     : which == "log" ? StoryPanel::Log
                                      : StoryPanel::Scene;
        if (args.contains("file") && args["file"].is_string()) {
            openFile_ = args["file"].get<std::string>();
            revealOpenFile_ = true;
        }
        if (args.contains("turn") && args["turn"].is_number_integer())
            logTurn_ = args["turn"].get<int>(); // the log's
        bump();
        return std::nullopt;
    }
    if (name == "configure") {
        for (auto [key, field] : {std::pair{"narrator", &storySettings_.narrator},
                                  std::pair{"orchestrator", &storySettings_.orchestrator},
                                  std::pair{"fallback", &storySettings_.orchestratorFallback},
                                  std::pair{"image", &storySettings_.image}})
            if (args.contains(key) && args[key].is_string()) *field = args[key].get<std::string>();
        if (args.contains("simple") && args["simple"].is_boolean())
            storySettings_.simple = args["simple"].get<bool>();
        saveStorySettings(*services_.settingsStore, storySettings_);
        return std::nullopt;
    }
    return "unknown story command \"" + std::string(name) + "\"";
}

std::unique_ptr<ui::Screen> makeStoryScreen(ui::ScreenContext& context, StoryServices services) {
    return std::make_unique<StoryScreen>(context, std::move(services));
}

std::vector<ui::CommandInfo> StoryScreen::commands() const {
    return {{"newWorld"},
            {"selectWorld"},
            {"selectConversation"},
            {"say"},
            {"stop"},
            {"undo"},
            {"branch"},
            {"editFile"},
            {"readFile"},
            {"replayStart"},
            {"replayStep"},
            {"replayStop"},
            {"exportWorld", true},
            {"importWorld"},
            {"panel"},
            {"configure"},
            {"editSummary"},
            {"renameWorld"},
            {"duplicateWorld"},
            {"deleteWorld"},
            {"importCard"},
            {"importLorebook"},
            {"regenerate"},
            {"swipe"},
            {"deleteAnswer"},
            {"continueReply"},
            {"editReply"},
            {"redo"}};
}

} // namespace chaiba::story
