// `chaiba story`: one Story turn, natively, on a folder of markdown files (the same engine as the
// page): prints the orchestrator's decision, the narrator's stream as it arrives, dice rolls with
// their bands, tool calls and the turn's time split and cost; writes the files and the
// conversation. Also undoes a conversation's last turn, branches, exports and imports a world.
#include "src/cli/llm_cli.h"
#include "src/cli/story_steering_command.h"
#include "src/persist/bounded_read.h"
#include "src/persist/durable_file.h"
#include "src/modes/story/card_import.h"
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/disk_world_files.h"
#include "src/modes/story/story_memory.h"
#include "src/modes/story/story_turn.h"

#include <chrono>
#include <cstdio>
#include <sstream>

namespace chaiba::cli {

namespace {

using namespace chaiba::story;

std::string bandsText(const TwistOfFate& twist) {
    std::string text;
    for (std::size_t i = 0; i < twist.bands.size(); ++i) {
        const StakeBand& band = twist.bands[i];
        text += (i ? " | " : "") + std::to_string(band.low) + "-" + std::to_string(band.high) + ": " +
                band.outcome;
    }
    return text;
}

std::string ms(std::int64_t value) {
    return value < 0 ? "-" : std::to_string(value) + " ms";
}

void printEntry(const TranscriptEntry& entry) {
    switch (entry.kind) {
    case EntryKind::Dice:
        std::printf("\n[dice] %s: %s -> rolled %d: %s\n", agentKindName(entry.agent),
                    bandsText(*entry.twist).c_str(), entry.twist->roll, entry.twist->hit().outcome.c_str());
        break;
    case EntryKind::ToolCall: {
        std::string first = entry.text.substr(0, entry.text.find('\n'));
        std::printf("\n[tool] %s %s%s: %s\n", agentKindName(entry.agent), entry.toolName.c_str(),
                    entry.toolError ? " (error)" : "", first.c_str());
        break;
    }
    case EntryKind::OffScreen: std::printf("[off-screen] %s\n", entry.text.c_str()); break;
    case EntryKind::Edit: std::printf("[edit] %s\n", entry.text.c_str()); break;
    default: break;
    }
    std::fflush(stdout);
}

int fail(const std::string& message) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return 1;
}

// `out`: a steered run (story_steering_command.h) hands its completed result out unrecorded.
int playTurn(Args& args, DiskWorldFiles& world, Conversation& conversation, const std::string& say,
             TurnSteer steer = {}, std::optional<TurnResult>* out = nullptr) {
    const LoadedWorldConfig loaded = loadWorldConfig(world);
    if (!loaded.banner.empty()) std::fprintf(stderr, "warning: %s\n", loaded.banner.c_str());
    for (const std::string& warning : loaded.warnings) std::fprintf(stderr, "warning: %s\n", warning.c_str());
    TurnSettings settings;
    settings.mode = args.has("simple") ? TurnMode::Simple : TurnMode::Agentic;
    settings.streamNarrator = !args.has("no-stream");
    const StoryModels& configured = loaded.config.models;
    settings.models.narrator = args.value("model").value_or(configured.narrator);
    if (settings.models.narrator.empty())
        return fail("no narrator model: give --model or models.narrator in config.yaml");
    settings.models.orchestrator =
        args.value("orchestrator")
            .value_or(configured.orchestrator.empty() ? settings.models.narrator : configured.orchestrator);
    settings.models.orchestratorFallback = args.value("fallback").value_or("");
    settings.models.worldAdvance = args.value("prestep-model").value_or(configured.world);
    settings.models.factionTurn = args.value("prestep-model").value_or(configured.faction);
    settings.models.image = args.value("image-model").value_or("");

    llm::CallSettings call;
    std::unique_ptr<LlmPlumbing> llmSide = openLlm(args, true, call);
    if (!llmSide) return 2;
    llm::DirectoryAssetSource assets(assetsDirFrom(args));
    llm::Result<StoryPrompts> prompts = loadStoryPrompts(assets);
    if (!prompts.isOk()) return fail(prompts.error + " (set --assets DIR or CHAIBA_ASSETS_DIR)");
    const std::vector<llm::ModelInfo>& catalog = llmSide->catalog;
    settings.findModel = [&catalog](const std::string& id) -> const llm::ModelInfo* {
        for (const llm::ModelInfo& info : catalog)
            if (info.id == id) return &info;
        return nullptr;
    };
    const long long seed =
        args.integer("seed", std::chrono::system_clock::now().time_since_epoch().count() & 0xffffffff, 0,
                     0x7fffffffffffffffLL);
    if (args.error()) return fail(*args.error());
    StoryRng rng(static_cast<std::uint64_t>(seed));

    std::optional<TurnResult> result;
    bool midLine = false;
    TurnHandlers handlers;
    handlers.onDecision = [](const OrchestratorDecision& decision) {
        std::printf("[orchestrator] %s\n", describeDecision(decision).c_str());
        if (!decision.reasoning.empty())
            std::printf("[orchestrator] reasoning: %s\n", decision.reasoning.c_str());
        std::fflush(stdout);
    };
    handlers.onPhase = [&](TurnPhase phase) {
        if (phase == TurnPhase::Memory) std::printf("[memory] folding older turns into the summary\n");
        if (phase == TurnPhase::Narrator) std::printf("[narrator]\n");
        std::fflush(stdout);
    };
    handlers.onNarratorText = [&](const std::string& delta) {
        std::fwrite(delta.data(), 1, delta.size(), stdout);
        std::fflush(stdout);
        midLine = !delta.empty() && delta.back() != '\n';
    };
    handlers.onEntry = [&](const TranscriptEntry& entry) {
        if (entry.kind == EntryKind::Narrator && !settings.streamNarrator) {
            std::printf("%s\n", entry.text.c_str());
            return;
        }
        if (midLine && entry.kind != EntryKind::Player) std::printf("\n");
        midLine = false;
        printEntry(entry);
    };
    handlers.onNote = [](const std::string& note) { std::printf("[note] %s\n", note.c_str()); };
    handlers.onDone = [&](const TurnResult& r) { result = r; };

    StoryTurn turn(*llmSide->client, world, *prompts.value, loaded.config, settings, llmSide->clock, rng);
    turn.start(conversation, say, handlers, std::move(steer));
    pumpUntil(
        *llmSide->client, llmSide->transport, [&] { return result.has_value(); }, 30 * 60 * 1000);
    if (!result) {
        turn.stop();
        return fail("the turn did not finish in 30 minutes");
    }
    if (midLine) std::printf("\n");
    const TurnLog& log = result->log;
    std::printf("[turn] orchestrator %s, pre-steps %s, narrator first token %s, total %s; cost $%.6f; "
                "%lld prompt + %lld completion tokens; context %lld tokens\n",
                ms(log.timing.orchestratorMs).c_str(), ms(log.timing.preStepsMs).c_str(),
                ms(log.timing.narratorFirstTokenMs).c_str(), ms(log.timing.totalMs).c_str(), log.costUsd,
                log.usage.promptTokens, log.usage.completionTokens, log.contextTokens);
    if (const std::optional<StorySummary>& summary = result->record.summary)
        std::printf("[memory] the summary now covers turns 1-%d (%zu characters)\n", summary->throughTurn,
                    summary->text.size());
    if (result->status != TurnStatus::Completed) return fail(result->error + " (the world is unchanged)");
    if (out) {
        *out = std::move(result);
        return 0;
    }
    const int dropped = conversation.redoable; // a new turn ends what --redo could bring back
    if (WorldError error = recordTurn(world, conversation, result->record, log); !error.ok())
        return fail(error.message);
    std::printf("[saved] conversation %s, turn %d; files changed: %zu\n", conversation.id.c_str(),
                conversation.turns.back().number, result->record.changes.touchedPaths().size());
    if (dropped > 0)
        std::printf("[history] the %d undone turn(s) --redo could bring back are gone (a new turn was played)\n",
                    dropped);
    return 0;
}

// --import-card / --import-lorebook: the files it wrote and what it could not carry over. Into a
// world with a story (`history`, its files where that conversation left them) the import is an
// edit turn of the conversation (--undo takes it away); a new world is made from the card.
int importIntoWorld(Args& args, const std::string& dir, Conversation* history) {
    const bool card = args.value("import-card").has_value();
    const std::string file = *args.value(card ? "import-card" : "import-lorebook");
    const persist::ReadResult bytes = persist::readFileBounded(file, kMaxCardFileBytes);
    if (!bytes.ok()) return fail(bytes.error);
    if (WorldError error = DiskWorldFiles::create(dir); !error.ok()) return fail(error.message);
    DiskWorldFiles world(dir);
    WorldImport plan;
    if (card) {
        llm::Result<CharacterCard> read = parseCharacterCard(bytes.text);
        if (!read.isOk()) return fail(file + ": " + read.error);
        plan = planCardImport(*read.value, world);
    } else {
        llm::Result<Lorebook> read = parseLorebook(bytes.text);
        if (!read.isOk()) return fail(file + ": " + read.error);
        std::string stem = file.substr(file.find_last_of('/') + 1);
        plan = planLorebookImport(*read.value, stem.substr(0, stem.rfind('.')), world);
    }
    if (WorldError error = applyWorldImport(plan, world); !error.ok()) return fail(error.message);
    if (history) {
        const std::string what = std::string("You imported the ") + (card ? "character card" : "lorebook") + " \"" +
                                 plan.title + "\": " + std::to_string(plan.files.size()) + " file(s)";
        if (WorldError error = recordPersonImport(world, *history, plan.files, what); !error.ok())
            return fail(error.message + " (the world is unchanged)");
    }
    std::printf("%s", importReportText(plan).c_str());
    if (history)
        std::printf("[saved] conversation %s, turn %d (an edit: --undo takes the import away)\n", history->id.c_str(),
                    history->turns.back().number);
    return 0;
}

} // namespace

const Usage& storyUsage() {
    static const Usage usage{
        "story",
        "--world DIR --say TEXT [--conversation ID] [--simple] [--model MODEL] [options]\n"
        "--world DIR --undo [--force] [--conversation ID]\n"
        "--world DIR (--summary | --edit-summary TEXT) [--conversation ID]\n"
        "--world DIR --branch TURN [--before] [--conversation ID]\n"
        "--world DIR (--regenerate [DIRECTION] | --continue | --redo) [--conversation ID] [turn options]\n"
        "--world DIR (--swipe N | --delete-answer N --yes | --edit-reply TURN (--text TEXT | --text-file FILE))\n"
        "--world DIR (--export FILE | --import FILE | --list)\n"
        "--world DIR (--import-card FILE | --import-lorebook FILE)",
        "play one Story turn on a folder of markdown files (key: OPENROUTER_API_KEY)",
        {{"world", "DIR", "the world's folder of markdown files (required)"},
         {"say", "TEXT", "play a turn: what the player says or does"},
         {"conversation", "ID", "the conversation to play, undo or branch (default main)"},
         {"simple", "", "the narrator alone (v1) instead of the orchestrator and its agents"},
         {"model", "MODEL", "the narrator's model (default: config.yaml's models.narrator)"},
         {"orchestrator", "MODEL", "the orchestrator's model (default: config.yaml's, else the narrator's)"},
         {"fallback", "MODEL", "the orchestrator's fallback model (default: none)"},
         {"prestep-model", "MODEL", "the world-advance and faction-turn model (default: config.yaml's)"},
         {"image-model", "MODEL", "the image model (default: none)"},
         {"seed", "N", "the dice's seed (default: from the clock)"},
         {"no-stream", "", "print the narration when it is whole instead of as it streams"},
         {"undo", "", "undo the conversation's last turn and restore its files"},
         {"force", "", "with --undo: undo it over files edited since that turn (refused without it)"},
         {"branch", "TURN", "start a new conversation with this one's turns up to TURN"},
         {"before", "", "with --branch: keep only the turns before TURN"},
         {"regenerate", "", "play the last turn's line again (DIRECTION: for the narrator of this run only); "
                            "its answer so far is kept as a swipe"},
         {"swipe", "N", "show answer N of the last turn (1 = the first); the world's files follow it"},
         {"delete-answer", "N", "delete answer N of the last turn for good (needs --yes)"},
         {"yes", "", "with --delete-answer: yes, delete it"},
         {"continue", "", "ask the narrator to go on with the last reply (added to that turn)"},
         {"edit-reply", "TURN", "replace the text of turn TURN's reply (an edit of its own: --undo takes it back)"},
         {"text", "TEXT", "with --edit-reply: the new reply"},
         {"text-file", "FILE", "with --edit-reply: the new reply, from a file"},
         {"redo", "", "make the turn --undo took back again (until a new turn is played)"},
         {"export", "FILE", "write the world as one archive file"},
         {"import", "FILE", "create the world in --world DIR from an archive file"},
         {"list", "", "list the world's conversations"},
         {"import-card", "FILE", "add a SillyTavern character card (PNG or JSON, V1-V3) to the world (made if new)"},
         {"import-lorebook", "FILE", "add a lorebook / World Info JSON to the world as keyed files"},
         {"summary", "", "print the conversation's rolling summary of its older turns"},
         {"edit-summary", "TEXT", "replace the summary (an edit of its own in the history: --undo takes it back)"},
         baseUrlOption(),
         assetsOption()},
        std::string("Models default to the world's config.yaml (models:). ") + kKeyNote};
    return usage;
}

int runStoryCommand(const std::vector<std::string>& argv) {
    Args args(argv, storyUsage());
    // One word after the flags: --regenerate's direction.
    const bool direction = args.has("regenerate") && args.positional().size() == 1;
    if (args.error() || !args.value("world") || (!args.positional().empty() && !direction)) {
        const std::string why = args.error()              ? *args.error()
                                : !args.value("world") ? "--world DIR is required"
                                                       : "unexpected words: \"" + terminalSafe(args.positional().front()) +
                                                             "\" (a direction for --regenerate goes in quotes)";
        std::fprintf(stderr, "error: %s\n%s", why.c_str(), usageLines(storyUsage()).c_str());
        return 2;
    }
    const std::string dir = *args.value("world");
    if (auto file = args.value("import")) {
        const persist::ReadResult text = persist::readFileBounded(*file, persist::kMaxDocumentBytes);
        if (!text.ok()) return fail(text.error);
        if (WorldError error = DiskWorldFiles::create(dir); !error.ok()) return fail(error.message);
        DiskWorldFiles world(dir);
        if (WorldError error = importWorld(text.text, world); !error.ok()) return fail(error.message);
        std::printf("imported %zu files into %s\n", world.list().size(), dir.c_str());
        return 0;
    }
    const bool importing = args.value("import-card") || args.value("import-lorebook");
    DiskWorldFiles world(dir);
    if (importing && world.list().empty()) return importIntoWorld(args, dir, nullptr); // a new world
    if (world.list().empty()) return fail(dir + " holds no world files");
    if (auto file = args.value("export")) {
        llm::Result<std::string> archive = exportWorld(world);
        if (!archive.isOk()) return fail(archive.error);
        if (auto bad = persist::writeFileAtomic(*file, *archive.value)) return fail(*bad); // never half an archive
        std::printf("exported %zu files (%zu bytes) to %s\n", world.list().size(), archive.value->size(),
                    file->c_str());
        return 0;
    }
    if (args.has("list")) {
        for (const std::string& id : listConversations(world)) {
            llm::Result<Conversation> c = loadConversation(world, id);
            std::printf("%s\t%s\n", id.c_str(),
                        c.isOk()
                            ? (std::to_string(c.value->turns.size()) + " turns\t" + c.value->title).c_str()
                            : c.error.c_str());
        }
        return 0;
    }
    const std::string id = args.value("conversation").value_or("main");
    llm::Result<Conversation> conversation = loadConversation(world, id);
    if (!conversation.isOk()) return fail(conversation.error);
    if (!conversation.value->migrationNote.empty()) {
        std::printf("[note] %s\n", conversation.value->migrationNote.c_str());
        if (WorldError error = migrateConversation(world, *conversation.value); !error.ok()) return fail(error.message);
    }
    // Each conversation is its own timeline of the world: its files go to where this one left them.
    std::string movedFrom;
    if (WorldError error = moveWorldTo(world, *conversation.value, &movedFrom); !error.ok())
        return fail("cannot take the world to conversation " + id + ": " + error.message);
    if (!movedFrom.empty())
        std::printf("[world] the files moved from conversation %s to where %s left them\n", movedFrom.c_str(), id.c_str());
    const StoryRun run = [&](const Conversation& from, const std::string& line, TurnSteer steer,
                             std::optional<TurnResult>& result) {
        Conversation copy = from;
        return playTurn(args, world, copy, line, std::move(steer), &result);
    };
    if (importing) return importIntoWorld(args, dir, &*conversation.value);
    if (std::optional<int> code = runStorySteering(args, world, *conversation.value, run)) return *code;
    if (args.has("undo")) {
        if (conversation.value->turns.empty()) return fail("conversation " + id + " has no turn to undo");
        const std::string line = conversation.value->turns.back().playerText();
        const std::vector<std::string> paths = conversation.value->turns.back().changes.touchedPaths();
        const int number = conversation.value->turns.back().number;
        // Files changed by hand since the turn would lose those edits: said, and refused without --force.
        const std::vector<std::string> edited = changedSince(world, conversation.value->turns.back().changes);
        if (!edited.empty() && !args.has("force")) {
            std::string list;
            for (const std::string& path : edited) list += (list.empty() ? "" : ", ") + path;
            return fail("undoing turn " + std::to_string(number) + " would discard what was changed since in " + list +
                        " (edited after the turn); add --force to undo it anyway");
        }
        if (!edited.empty()) {
            std::printf("[world] --force: undoing turn %d over the edits made since in", number);
            for (const std::string& path : edited) std::printf(" %s", path.c_str());
            std::printf(" (a file the turn created goes with them; in one it edited, edits outside its lines stay)\n");
        }
        if (WorldError error = undoLastTurn(world, *conversation.value); !error.ok())
            return fail(error.message);
        std::printf("undid turn %d of %s; restored %zu files:", number, id.c_str(), paths.size());
        for (const std::string& path : paths) std::printf(" %s", path.c_str());
        std::printf("\n");
        if (!line.empty()) std::printf("your line was: %s\n(--redo makes the turn again)\n", terminalSafe(line).c_str());
        return 0;
    }
    if (args.has("summary")) {
        const std::optional<StorySummary> summary = currentSummary(*conversation.value);
        if (!summary) {
            std::printf("conversation %s has no summary yet (older turns are folded into one once %d wait; "
                        "memory.recent_turns in config.yaml)\n",
                        id.c_str(), 2 * loadWorldConfig(world).config.memory.recentTurns);
            return 0;
        }
        std::printf("[memory] summary of turns 1-%d:\n%s\n", summary->throughTurn, summary->text.c_str());
        return 0;
    }
    if (auto text = args.value("edit-summary")) {
        bool recorded = false;
        if (WorldError error = recordSummaryEdit(world, *conversation.value, *text, &recorded); !error.ok())
            return fail(error.message);
        std::printf(recorded ? "[memory] the summary was edited (turn %d of %s; --undo takes it back)\n"
                             : "[memory] the summary is unchanged (%d turns in %s)\n",
                    conversation.value->turns.back().number, id.c_str());
        return 0;
    }
    if (args.value("branch")) {
        const long long turn = args.integer("branch", 0, 1, 1 << 30);
        if (args.error()) return fail(*args.error());
        llm::Result<Conversation> branch =
            branchConversation(world, *conversation.value, {static_cast<int>(turn), !args.has("before")},
                               newConversationId(world));
        if (!branch.isOk()) return fail(branch.error);
        if (WorldError error = setWorldAt(world, branch.value->id); !error.ok()) return fail(error.message);
        std::printf("branched %s from %s at turn %lld (%zu turns kept)\n", branch.value->id.c_str(),
                    id.c_str(), turn, branch.value->turns.size());
        return 0;
    }
    const std::optional<std::string> say = args.value("say");
    if (!say || say->empty()) {
        std::fprintf(stderr, "error: --say TEXT is required to play a turn\n%s", usageLines(storyUsage()).c_str());
        return 2;
    }
    return playTurn(args, world, *conversation.value, *say);
}

} // namespace chaiba::cli
