// The Story screen's state and actions: worlds, conversations, the turn in flight, undo, branch,
// export/import, replay (see story_screen.h; the automation API is in story_screen_api.cpp).
#include "src/modes/story/ui/story_screen.h"

#include "src/modes/story/world_library.h"
#include "src/ui/image_textures.h"

#include <nlohmann/json.hpp>

#include <chrono>

namespace chaiba::story {

using nlohmann::json;

namespace {

constexpr const char* kCurrentKey = "story.v1.current"; // {"world","conversation"}
constexpr std::size_t kSessionLogsKept = 4;           // this session's latest turn logs kept in memory
constexpr std::size_t kSessionCallsKept = 60;         // and its latest model calls (the call window's)

// A conversation an older build stored, written in this build's format: what to tell the person.
std::string migrated(WorldFiles& files, Conversation& conversation) {
    if (conversation.migrationNote.empty()) return {};
    const std::string note = "The " + conversation.migrationNote + ".";
    const WorldError error = migrateConversation(files, conversation);
    return error.ok() ? note : error.message;
}

} // namespace

StoryScreen::StoryScreen(ui::ScreenContext& context, StoryServices services)
    : context_(context), services_(std::move(services)) {
    worldStore_ = services_.worldStore ? services_.worldStore : &fallbackStore_;
    if (!services_.settingsStore) services_.settingsStore = &fallbackStore_;
    storySettings_ = loadStorySettings(*services_.settingsStore);
    registerStorySettings(&storySettings_, services_.settingsStore, &context_);
    if (services_.assets) {
        llm::Result<StoryPrompts> prompts = loadStoryPrompts(*services_.assets);
        if (prompts.isOk())
            prompts_ = std::move(*prompts.value);
        else
            promptsError_ = "The game master's prompts did not load: " + prompts.error;
        llm::Result<std::string> recorded = services_.assets->read("story/sample/recording.json");
        llm::Result<StoryDemo> demo = recorded.isOk() ? storyDemoFromJson(*recorded.value)
                                                      : llm::Result<StoryDemo>::fail(recorded.error);
        if (demo.isOk()) {
            recording_ = std::move(*demo.value);
            recordedPictures_ = std::make_unique<MemoryWorldFiles>();
            for (const Conversation& conversation : recording_->conversations)
                for (const TurnRecord& t : conversation.turns)
                    for (const FileChange& c : t.changes.changes()) {
                        const WorldPathCheck check = checkWorldPath(c.path);
                        if (c.afterBytes && check.ok() && check.kind == WorldPathKind::Image)
                            recordedPictures_->write(c.path, *c.afterBytes);
                    }
        } else {
            recordingError_ = "The recorded adventure did not load: " + demo.error;
        }
    } else {
        promptsError_ = "The page has no assets: the game master cannot play.";
    }
    rng_ = std::make_unique<StoryRng>(
        static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()));
    loadWorlds();
}

StoryScreen::~StoryScreen() {
    registerStorySettings(nullptr, nullptr);
    if (turn_) turn_->stop();
}

void StoryScreen::loadWorlds() {
    llm::Result<std::vector<WorldEntry>> list = loadWorldList(*worldStore_);
    if (!list.isOk()) {
        error_ =
            list.error + ": the worlds stay as they are; export what you can, or clear this site's data.";
        return;
    }
    worlds_ = std::move(*list.value);
    // The page loaded every stored record into memory: the agent logs go out again (read when shown).
    for (const WorldEntry& world : worlds_) KvWorldFiles(*worldStore_, world.id).releaseLogs();
    if (worlds_.empty() && services_.assets) {
        // First start: the sample world, so a newcomer can play (or read the recorded adventure) at once.
        WorldEntry sample{"brackwater", "The Lamps of Brackwater"};
        KvWorldFiles files(*worldStore_, sample.id);
        if (WorldError e = installSampleWorld(*services_.assets, files); !e.ok()) {
            error_ = "The sample world could not be installed: " + e.message;
            return;
        }
        worlds_.push_back(sample);
        if (auto e = saveWorldList(*worldStore_, worlds_)) notice_ = "The world list was not saved: " + *e;
    }
    std::string worldId, conversationId = "main";
    if (auto current = services_.settingsStore->get(kCurrentKey)) {
        json doc = json::parse(*current, nullptr, false);
        worldId = argString(doc, "world");
        if (!argString(doc, "conversation").empty()) conversationId = argString(doc, "conversation");
    }
    std::size_t index = 0;
    for (std::size_t i = 0; i < worlds_.size(); ++i)
        if (worlds_[i].id == worldId) index = i;
    if (!worlds_.empty()) {
        openWorld(index);
        // The stored world is already where this conversation left it.
        if (validConversationId(conversationId)) selectConversation(conversationId, false);
    }
}

void StoryScreen::openWorld(std::size_t index) {
    world_ = index;
    files_ = std::make_unique<KvWorldFiles>(*worldStore_, worlds_[index].id);
    config_ = loadWorldConfig(*files_);
    conversations_ = listConversations(*files_);
    conversation_ = Conversation{};
    conversation_.id = "main";
    if (llm::Result<Conversation> c = loadConversation(*files_, "main"); c.isOk()) {
        conversation_ = std::move(*c.value);
        if (std::string note = migrated(*files_, conversation_); !note.empty()) notice_ = note;
    } else
        error_ = c.error;
    openFile_.clear();
    fileEditor_.end();
    reloadFiles();
    saveCurrent();
    scrollToEnd_ = true;
    bump();
}

void StoryScreen::reloadFiles() {
    storedLogPath_.clear(); // the stored agent log is read again
    storedLogPending_ = false;
    fileList_ = files_ ? files_->list() : std::vector<std::string>{};
    if (files_) conversations_ = listConversations(*files_);
    conversationLabels_ = files_ ? conversationLabels(*files_, conversations_) : std::map<std::string, std::string>{};
}

void StoryScreen::saveCurrent() {
    if (worlds_.empty()) return;
    services_.settingsStore->set(
        kCurrentKey, json{{"world", worlds_[world_].id}, {"conversation", conversation_.id}}.dump());
}

void StoryScreen::tick(double) {
    if (commands_.run()) bump();
    if (services_.takeStorageError) {
        if (auto error = services_.takeStorageError()) {
            notice_ = "Not saved in this browser: " + *error;
            bump();
        }
    }
    takePickedFile();
    if (!turn_ || turn_->running()) finishedTurns_.clear();
    if (needsKey_ && context_.chat) {
        // A key arrived (here or in Settings): the "key needed" error is no longer true.
        needsKey_ = false;
        if (error_.find("key is needed") != std::string::npos) error_.clear();
        if (!composer_[0] && !savedDraft_.empty()) std::snprintf(composer_, sizeof composer_, "%s", savedDraft_.c_str());
        notice_ = "Key saved. Press Send to play your turn.";
        bump();
    }
    refreshEstimate();
}

bool StoryScreen::wantsContinuousFrames() const {
    return turn_ && turn_->running();
}

std::optional<std::string> StoryScreen::ensureModels(TurnSettings& settings) const {
    const std::vector<std::string>& models = context_.models();
    settings.models.narrator = !storySettings_.narrator.empty()          ? storySettings_.narrator
                               : !config_.config.models.narrator.empty() ? config_.config.models.narrator
                               : models.empty()                          ? std::string()
                                                                         : models.front();
    if (settings.models.narrator.empty()) return "no narrator model: choose one in Settings (Story)";
    settings.models.orchestrator = !storySettings_.orchestrator.empty() ? storySettings_.orchestrator
                                   : !config_.config.models.orchestrator.empty()
                                       ? config_.config.models.orchestrator
                                       : settings.models.narrator;
    settings.models.orchestratorFallback = storySettings_.orchestratorFallback;
    settings.models.worldAdvance = config_.config.models.world;
    settings.models.factionTurn = config_.config.models.faction;
    settings.models.image = storySettings_.image;
    settings.mode = storySettings_.simple ? TurnMode::Simple : TurnMode::Agentic;
    const std::vector<llm::ModelInfo>* catalog = context_.catalog;
    settings.findModel = [catalog](const std::string& id) -> const llm::ModelInfo* {
        for (const llm::ModelInfo& m : *catalog)
            if (m.id == id) return &m;
        return nullptr;
    };
    return std::nullopt;
}

std::optional<std::string> StoryScreen::runRefusal(const std::string& draft) {
    if (replaying_) return "the recorded adventure is playing: close it first";
    if (turn_ && turn_->running()) return "the game master is still answering: wait, or Stop";
    if (!files_) return "no world is open";
    if (!prompts_) return promptsError_;
    if (!context_.chat || !services_.clock) {
        needsKey_ = true;
        savedDraft_ = draft;
        bump();
        return "an OpenRouter key is needed for the game master: enter one, or open Settings";
    }
    return std::nullopt;
}

std::optional<std::string> StoryScreen::say(const std::string& text) {
    if (text.find_first_not_of(" \t\n") == std::string::npos) return "say something first";
    if (auto why = runRefusal(text)) return why;
    return startRun(conversation_, text, RunKind::Play, {});
}

std::optional<std::string> StoryScreen::startRun(const Conversation& from, const std::string& text, RunKind kind,
                                                 TurnSteer steer) {
    TurnSettings settings;
    if (auto why = ensureModels(settings)) return why;
    error_.clear();
    notice_.clear();
    config_ = loadWorldConfig(*files_); // a person may have edited config.yaml
    if (turn_) finishedTurns_.push_back(std::move(turn_));
    turn_ = std::make_unique<StoryTurn>(*context_.chat, *files_, *prompts_, config_.config,
                                        std::move(settings), *services_.clock, *rng_);
    runKind_ = kind;
    pendingPlayer_ = text;
    streamText_.clear();
    liveEntries_.clear();
    liveNotes_.clear();
    phase_ = TurnPhase::Orchestrator;
    TurnHandlers handlers;
    handlers.onNarratorText = [this](const std::string& delta) {
        streamText_ += delta;
        scrollToEnd_ = true;
        bump();
    };
    handlers.onPhase = [this](TurnPhase phase) {
        phase_ = phase;
        bump();
    };
    handlers.onEntry = [this](const TranscriptEntry& entry) {
        if (entry.kind == EntryKind::Player) return;
        // A finished reply replaces its stream.
        if (entry.kind == EntryKind::Narrator) streamText_.clear();
        liveEntries_.push_back(entry);
        scrollToEnd_ = true;
        bump();
    };
    handlers.onNote = [this](const std::string& note) {
        liveNotes_.push_back(note);
        bump();
    };
    handlers.onDone = [this](const TurnResult& result) { onTurnDone(result); };
    scrollToEnd_ = true;
    bump();
    turn_->start(from, text, std::move(handlers), std::move(steer));
    return std::nullopt;
}

void StoryScreen::onTurnDone(const TurnResult& result) {
    phase_ = TurnPhase::Done;
    streamText_.clear();
    sessionCostUsd_ += result.log.costUsd;
    if (turn_)
        sessionCalls_.insert(sessionCalls_.end(), turn_->calls().records().begin(),
                             turn_->calls().records().end());
    // Each call keeps its request body (the whole prompt): the oldest go, or memory grows every turn.
    if (sessionCalls_.size() > kSessionCallsKept) {
        const std::size_t gone = sessionCalls_.size() - kSessionCallsKept;
        sessionCalls_.erase(sessionCalls_.begin(), sessionCalls_.begin() + static_cast<std::ptrdiff_t>(gone));
        sessionCallsDropped_ += gone;
    }
    if (runKind_ != RunKind::Play) return onSteeredDone(result);
    if (result.status != TurnStatus::Completed) {
        // A Stop is the person's own choice: said plainly, not as an error.
        if (result.status == TurnStatus::Stopped)
            notice_ = "Stopped: the turn was dropped and the world is as it was; your message is back in the box.";
        else
            error_ = "The game master failed: " + result.error +
                     " (the world is unchanged; try again or pick another model in Settings).";
        liveEntries_.clear();
        composer_[0] = '\0';
        std::snprintf(composer_, sizeof composer_, "%s",
                      pendingPlayer_.c_str()); // nothing the player typed is lost
        pendingPlayer_.clear();
        bump();
        return;
    }
    TurnRecord record = result.record;
    if (WorldError e = recordTurn(*files_, conversation_, std::move(record), result.log); !e.ok()) {
        // Not kept: the world is as it was; what the player typed goes back into the box.
        error_ = "The turn could not be saved: " + e.message;
        std::snprintf(composer_, sizeof composer_, "%s", pendingPlayer_.c_str());
        pendingPlayer_.clear();
        liveEntries_.clear();
        reloadFiles();
        bump();
        return;
    }
    // The latest turns' logs stay at hand (the last one feeds state()); older ones are read back when shown.
    sessionLogs_.push_back(result.log);
    if (sessionLogs_.size() > kSessionLogsKept) sessionLogs_.erase(sessionLogs_.begin());
    logTurn_ = conversation_.turns.empty() ? 0 : conversation_.turns.back().number;
    liveEntries_.clear();
    pendingPlayer_.clear();
    reloadFiles();
    saveCurrent();
    scrollToEnd_ = true;
    bump();
}

std::optional<std::string> StoryScreen::stop() {
    if (!turn_ || !turn_->running()) return "no turn is running";
    turn_->stop();
    bump();
    return std::nullopt;
}

std::optional<std::string> StoryScreen::undo() {
    if (turn_ && turn_->running()) return "wait for the turn to finish (or Stop it) before undoing";
    if (!files_) return "no world is open";
    if (conversation_.turns.empty()) return "this conversation has no turn to undo";
    const TurnRecord& last = conversation_.turns.back();
    const int number = last.number;
    const std::vector<std::string> changed = last.changes.touchedPaths();
    const bool edit = last.kind == TurnKind::Edit;
    const std::string player = last.playerText();
    // An edit says what it was: a file's, a reply's or the summary's ("You edited ... (+a −r lines)").
    const std::string what = edit && !last.entries.empty() ? last.entries.front().text : std::string();
    if (WorldError e = undoLastTurn(*files_, conversation_); !e.ok()) return e.message;
    // The player's line goes back into the box (Redo brings the turn back as it was).
    if (!player.empty()) std::snprintf(composer_, sizeof composer_, "%s", player.c_str());
    notice_ = edit ? "Undone: " + what + " (Redo brings it back)."
                   : "Undid turn " + std::to_string(number) + "; " + std::to_string(changed.size()) +
                         " file(s) restored; your line is back in the box (Redo brings the turn back).";
    if (!openFile_.empty() && !files_->exists(openFile_)) openFile_.clear();
    fileEditor_.end();
    forgetPictures();
    reloadFiles();
    bump();
    return std::nullopt;
}

std::optional<std::string> StoryScreen::branch(int turn, bool keepReply) {
    if (turn_ && turn_->running()) return "wait for the turn to finish before branching";
    if (!files_) return "no world is open";
    llm::Result<Conversation> made =
        branchConversation(*files_, conversation_, {turn, keepReply}, newConversationId(*files_));
    if (!made.isOk()) return made.error;
    conversation_ = std::move(*made.value); // (branchConversation saved it)
    notice_ = "Branched \"" + conversation_.id + "\" from turn " + std::to_string(turn) +
              (keepReply ? " (its reply kept)" : " (before its message)") +
              "; the world is back as it was then.";
    forgetPictures();
    reloadFiles();
    saveCurrent();
    bump();
    return std::nullopt;
}

std::optional<std::string> StoryScreen::selectConversation(const std::string& id, bool moveWorld) {
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    if (!files_) return "no world is open";
    if (!validConversationId(id)) return "\"" + id + "\" is not a conversation id";
    llm::Result<Conversation> c = loadConversation(*files_, id);
    if (!c.isOk()) return c.error;
    notice_.clear(); // it spoke of the conversation left
    if (moveWorld && id != conversation_.id) {
        // The world's files go to where the opened conversation left them.
        if (WorldError e = switchWorld(*files_, conversation_, *c.value); !e.ok())
            return "the world could not be taken to conversation \"" + id + "\" (" + e.message +
                   "); export the world to keep a copy";
        notice_ = "Opened \"" + id + "\": the world is as that conversation left it.";
        config_ = loadWorldConfig(*files_);
        forgetPictures();
        reloadFiles();
    }
    conversation_ = std::move(*c.value);
    if (std::string note = migrated(*files_, conversation_); !note.empty()) notice_ = note;
    saveCurrent();
    scrollToEnd_ = true;
    bump();
    return std::nullopt;
}

std::optional<std::string> StoryScreen::selectWorld(const std::string& id) {
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    for (std::size_t i = 0; i < worlds_.size(); ++i) {
        if (worlds_[i].id != id) continue;
        stopReplay();
        openWorld(i);
        return std::nullopt;
    }
    return "no world \"" + id + "\"";
}

std::optional<std::string> StoryScreen::newWorld(const std::string& title, const std::string& pitch) {
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    if (title.find_first_not_of(' ') == std::string::npos) return "give the world a title";
    if (pitch.size() < 10)
        return "give a pitch of a sentence or two (what the world is, where the story starts)";
    WorldEntry entry{newWorldId(worlds_, title), title};
    KvWorldFiles files(*worldStore_, entry.id);
    if (WorldError e = writePitchWorld(files, title, pitch); !e.ok()) return e.message;
    worlds_.push_back(entry);
    if (auto e = saveWorldList(*worldStore_, worlds_)) return "the world list was not saved: " + *e;
    stopReplay();
    openWorld(worlds_.size() - 1);
    notice_ =
        "A new world from your pitch: the game master fills in places and people as the story needs them.";
    return std::nullopt;
}

std::optional<std::string> StoryScreen::editFile(const std::string& path, const std::string& content) {
    if (turn_ && turn_->running()) return "wait for the turn to finish before editing";
    if (!files_) return "no world is open";
    bool recorded = false;
    const WorldError e = recordPersonEdit(*files_, conversation_, path, content, &recorded);
    if (!recorded) return e.ok() ? std::nullopt : std::optional<std::string>(e.message);
    saveCurrent();
    logTurn_ = conversation_.turns.back().number;
    scrollToEnd_ = true;
    if (path == kConfigPath) config_ = loadWorldConfig(*files_);
    notice_ = e.ok() ? "Saved " + path + ": edit " + std::to_string(logTurn_) +
                           " of the story's history (Undo takes it back, Branch starts from before it)."
                     : "Saved " + path + ", but " + e.message;
    forgetPictures();
    reloadFiles();
    bump();
    return std::nullopt;
}

std::optional<std::string> StoryScreen::startReplay() {
    if (!recording_) return "no recorded adventure shipped with this page";
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    replaying_ = true;
    replayEntries_ = 0;
    scrollToEnd_ = true;
    bump();
    return replayStep();
}

std::optional<std::string> StoryScreen::replayStep() {
    if (!replaying_) return "the recorded adventure is not open (replayStart)";
    if (replayEntries_ >= demoSteps(*recording_)) return "the recorded adventure has no more steps";
    ++replayEntries_;
    scrollToEnd_ = true;
    bump();
    return std::nullopt;
}

std::vector<const TurnRecord*> StoryScreen::replayTurns() const {
    std::vector<const TurnRecord*> turns;
    if (!recording_) return turns;
    for (const DemoItem& item : demoView(*recording_, replayEntries_).items)
        if (item.kind == DemoItem::Kind::Turn) turns.push_back(item.turn);
    return turns;
}

void StoryScreen::stopReplay() {
    if (!replaying_) return;
    replaying_ = false;
    bump();
}

void StoryScreen::exportWorld(std::function<void(llm::Result<std::string>)> done) {
    if (!files_) return done(llm::Result<std::string>::fail("no world is open"));
    exportWorldLater(*files_, [life = std::weak_ptr<int>(life_), done = std::move(done)](llm::Result<std::string> archive) {
        if (!life.expired()) done(std::move(archive));
    });
}

std::optional<std::string> StoryScreen::importWorld(const std::string& archive) {
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    // Into a scratch world first: nothing of the store changes unless the whole archive is good.
    MemoryWorldFiles scratch;
    if (WorldError e = story::importWorld(archive, scratch); !e.ok()) return e.message;
    const LoadedWorldConfig loaded = loadWorldConfig(scratch);
    const std::string title = loaded.config.title.empty() ? "Imported world" : loaded.config.title;
    if (auto e = addWorld(title, scratch)) return e;
    notice_ =
        "Imported \"" + title + "\" with " + std::to_string(conversations_.size()) + " conversation(s).";
    return std::nullopt;
}

void StoryScreen::forgetPictures() {
    ui::ImageTextures* textures = context_.platform ? context_.platform->imageTextures() : nullptr;
    if (textures && !worlds_.empty()) textures->forget("story/" + worlds_[world_].id + "/");
}

ui::MarkdownImages StoryScreen::pictures(const std::string& itemPrefix) {
    ui::MarkdownImages images;
    images.textures = context_.platform ? context_.platform->imageTextures() : nullptr;
    // A replay's pictures are the recording's own (never a world file of the same name).
    const bool recorded = replaying_ && recordedPictures_ && itemPrefix != "story.file.image."; // not the world's Files
    images.files = recorded ? static_cast<const WorldFiles*>(recordedPictures_.get()) : files_.get();
    images.keyPrefix = recorded ? std::string("story/recording/")
                                : "story/" + (worlds_.empty() ? std::string() : worlds_[world_].id) + "/";
    images.itemPrefix = itemPrefix;
    images.maxHeight = viewHeight_ * 0.4f;
    images.shown = &shownPictures_;
    return images;
}

double StoryScreen::totalCostUsd() const {
    double sum = 0;
    for (const TurnRecord& t : conversation_.turns) sum += t.allAnswersCostUsd(); // every swipe was paid for
    return sum;
}

} // namespace chaiba::story
