// A long Story campaign natively, against a scripted game master answering at once (so every
// millisecond measured is the turn's overhead: context, tools, the turn's commit): N turns (1 000
// by default) of the agentic turn engine on a world folder, every fifth turn editing a 20 KB lore
// file. Prints the overhead at turns 10, 100 and 1 000 (the median of the ten turns ending there,
// the commit apart), the largest request of those turns (its body's bytes and the tokens at 4
// bytes a token) under the world's default context budget, the stored sizes, the resident and
// peak memory, and the time to load the conversation back. Run by hand (not a test): chaiba_story_campaign_bench [--turns N] [--dir DIR]
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/turn_steering.h"
#include "src/llm/openrouter_json.h"
#include "src/modes/story/disk_world_files.h"
#include "src/modes/story/story_turn.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <sys/resource.h>
#include <unistd.h>

using namespace chaiba;
using namespace chaiba::story;

namespace {

int currentTurn = 0;
std::vector<std::size_t> largestRequestBytes; // per turn: the largest request body sent
int summaryCalls = 0;

// The scripted game master: the orchestrator decides nothing; the narrator, on every fifth turn,
// first edits the lore file (one line added under its log heading), then narrates.
class ScriptedGameMaster final : public llm::ChatService {
public:
    llm::ChatCallId send(llm::ChatRequest request, llm::ChatHandlers handlers) override {
        const std::size_t bytes = llm::buildChatRequestJson(request).size();
        if (currentTurn < static_cast<int>(largestRequestBytes.size()))
            largestRequestBytes[currentTurn] = std::max(largestRequestBytes[currentTurn], bytes);
        llm::ChatReply reply;
        reply.finishReason = "stop";
        reply.usage.promptTokens = 1000;
        reply.usage.completionTokens = 200;
        const bool folding = !request.messages.empty() &&
                             request.messages.front().content.rfind("You keep the story's memory", 0) == 0;
        if (folding) { // the summary: about 300 words whatever the campaign's length
            ++summaryCalls;
            reply.content = "Through turn " + std::to_string(currentTurn) + " the traveller walked the quay. " +
                            std::string(1700, 's').replace(0, 40, "The tide rose over the quay many times; ");
        } else if (request.model == "bench/orchestrator") {
            reply.content = R"({"preSteps": [], "suggestedTwists": [], "reasoning": "nothing off-screen"})";
        } else if (currentTurn % 5 == 0 && request.messages.back().role != llm::Role::Tool) {
            const std::string args =
                R"({"path": "lore.md", "old_string": "## Tide log\n", "new_string": "## Tide log\n- Turn )" +
                std::to_string(currentTurn) + R"(: the tide rose over the quay.\n"})";
            reply.toolCalls.push_back({"call_" + std::to_string(next_), "edit_file", args});
            reply.finishReason = "tool_calls";
        } else {
            reply.content = "Turn " + std::to_string(currentTurn) + ". " +
                            std::string(600, 'x').replace(0, 40, "The fog lifts over the salt marsh; gulls ");
        }
        llm::ChatOutcome outcome;
        outcome.reply = std::move(reply);
        pending_.push_back({next_, std::move(handlers), std::move(outcome)});
        return next_++;
    }
    void cancel(llm::ChatCallId id) override {
        pending_.erase(
            std::remove_if(pending_.begin(), pending_.end(), [id](const Pending& p) { return p.id == id; }),
            pending_.end());
    }
    void poll() override {
        while (!pending_.empty()) {
            Pending p = std::move(pending_.front());
            pending_.pop_front();
            if (p.handlers.onDone) p.handlers.onDone(std::move(p.outcome));
        }
    }

private:
    struct Pending {
        llm::ChatCallId id;
        llm::ChatHandlers handlers;
        llm::ChatOutcome outcome;
    };
    std::deque<Pending> pending_;
    llm::ChatCallId next_ = 1;
};

std::string loreText() {
    std::string text = "# The salt marsh\n\n## Tide log\n";
    for (int line = 0; text.size() < 20000; ++line)
        text += "The marsh keeps its secret number " + std::to_string(line) + " under the reeds.\n";
    return text;
}

long residentKb() {
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

std::uintmax_t folderBytes(const std::filesystem::path& dir) {
    std::uintmax_t total = 0;
    if (!std::filesystem::exists(dir)) return 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
        if (entry.is_regular_file()) total += entry.file_size();
    return total;
}

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    int turns = 1000;
    std::string dir = (std::filesystem::temp_directory_path() / "chaiba_story_campaign_bench").string();
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--turns")) turns = std::max(10, std::atoi(argv[i + 1]));
        if (!std::strcmp(argv[i], "--dir")) dir = argv[i + 1];
    }
    std::filesystem::remove_all(dir);
    if (WorldError error = DiskWorldFiles::create(dir); !error.ok())
        return std::fprintf(stderr, "%s\n", error.message.c_str()), 1;
    DiskWorldFiles world(dir);
    world.write("lore.md", loreText());
    world.write("NPCs/mira.md", "# Mira Teal, ferrywoman\n\nBlunt.\n");
    llm::DirectoryAssetSource assets(std::string(CHAIBA_SOURCE_DIR) + "/assets");
    llm::Result<StoryPrompts> prompts = loadStoryPrompts(assets);
    if (!prompts.isOk()) return std::fprintf(stderr, "%s\n", prompts.error.c_str()), 1;
    const WorldConfig config = defaultWorldConfig();
    TurnSettings settings;
    settings.models.narrator = "bench/narrator";
    settings.models.orchestrator = "bench/orchestrator";
    settings.streamNarrator = false;
    ScriptedGameMaster chat;
    net::SteadyClock clock;
    StoryRng rng(5);
    Conversation conversation{"campaign", "", "", 0, {}, {}, 0};

    largestRequestBytes.assign(turns + 1, 0);
    std::vector<double> turnMs(turns + 1), commitMs(turns + 1);
    std::vector<long> residentAt(turns + 1);
    int failed = 0;
    for (int t = 1; t <= turns; ++t) {
        currentTurn = t;
        const auto start = std::chrono::steady_clock::now();
        std::optional<TurnResult> result;
        {
            StoryTurn turn(chat, world, *prompts.value, config, settings, clock, rng);
            TurnHandlers handlers;
            handlers.onDone = [&](const TurnResult& r) { result = r; };
            turn.start(conversation, "I walk the quay at turn " + std::to_string(t), handlers);
            for (int i = 0; i < 100 && !result; ++i) chat.poll();
        }
        const auto commit = std::chrono::steady_clock::now();
        const bool ok = result && result->status == TurnStatus::Completed &&
                        recordTurn(world, conversation, result->record, result->log).ok();
        commitMs[t] = msSince(commit);
        turnMs[t] = msSince(start);
        residentAt[t] = residentKb();
        if (!ok) ++failed;
        if (t % 100 == 0) std::fprintf(stderr, "turn %d: %.1f ms\n", t, turnMs[t]);
    }
    std::printf("%d turns played, %d failed; every fifth turn edited lore.md (%zu bytes at the end)\n", turns,
                failed, world.read("lore.md").content.size());
    std::printf(
        "turn | overhead ms (median of the 10 turns ending there) | of which the commit ms | resident KiB\n");
    for (int at : {10, 100, 1000}) {
        if (at > turns) break;
        std::vector<double> all(turnMs.begin() + at - 9, turnMs.begin() + at + 1);
        std::vector<double> saves(commitMs.begin() + at - 9, commitMs.begin() + at + 1);
        std::printf("%4d | %.2f | %.2f | %ld\n", at, median(all), median(saves), residentAt[at]);
    }
    std::printf("largest request of the turn (body bytes, ~tokens at 4 bytes a token), context budget %d tokens, "
                "last %d turns whole, %d summary folds:\n",
                config.memory.contextTokens, config.memory.recentTurns, summaryCalls);
    for (int at : {10, 100, 1000}) {
        if (at > turns) break;
        std::printf("%4d | %zu bytes | ~%zu tokens\n", at, largestRequestBytes[at], largestRequestBytes[at] / 4);
    }
    if (turns >= 10)
        std::printf("turn %d / turn 10: %.2fx\n", turns,
                    double(largestRequestBytes[turns]) / double(std::max<std::size_t>(1, largestRequestBytes[10])));
    const auto loadStart = std::chrono::steady_clock::now();
    llm::Result<Conversation> loaded = loadConversation(world, "campaign");
    const double loadMs = msSince(loadStart);
    std::printf("load back: %s, %zu turns in %.0f ms\n", loaded.isOk() ? "ok" : loaded.error.c_str(),
                loaded.isOk() ? loaded.value->turns.size() : 0, loadMs);
    const std::filesystem::path root(dir);
    std::printf(
        "stored: conversations/ %ju bytes (head %ju, last turn record %ju), logs/ %ju bytes\n",
        folderBytes(root / "conversations"), std::filesystem::file_size(root / "conversations/campaign.json"),
        std::filesystem::file_size(root / ("conversations/campaign/turn-" + std::to_string(turns) + ".json")),
        folderBytes(root / "logs"));
    // Steering at the campaign's end: three regenerates of the last turn (each a scripted run, then
    // its commit), flips between its four answers, an undo and a redo: each rewrites one record.
    std::vector<double> regenerateMs, flipMs, undoRedoMs;
    for (int k = 0; k < 3; ++k) {
        llm::Result<Regeneration> begun = beginRegenerate(world, conversation);
        if (!begun.isOk()) return std::fprintf(stderr, "%s\n", begun.error.c_str()), 1;
        std::optional<TurnResult> result;
        {
            StoryTurn turn(chat, world, *prompts.value, config, settings, clock, rng);
            TurnHandlers handlers;
            handlers.onDone = [&](const TurnResult& r) { result = r; };
            turn.start(begun.value->before, begun.value->playerText, handlers, {"a darker take", false});
            for (int i = 0; i < 100 && !result; ++i) chat.poll();
        }
        const auto commit = std::chrono::steady_clock::now();
        if (!result || result->status != TurnStatus::Completed ||
            !finishRegenerate(world, conversation, result->record, result->log, "a darker take").ok())
            return std::fprintf(stderr, "regenerate failed\n"), 1;
        regenerateMs.push_back(msSince(commit));
    }
    for (int k = 0; k < 12; ++k) {
        const auto start = std::chrono::steady_clock::now();
        if (!selectAnswer(world, conversation, k % 4).ok()) return std::fprintf(stderr, "swipe failed\n"), 1;
        flipMs.push_back(msSince(start));
    }
    for (int k = 0; k < 5; ++k) {
        const auto start = std::chrono::steady_clock::now();
        if (!undoLastTurn(world, conversation).ok() || !redoTurn(world, conversation).ok())
            return std::fprintf(stderr, "undo/redo failed\n"), 1;
        undoRedoMs.push_back(msSince(start));
    }
    std::printf("steering at turn %d: regenerate's commit %.2f ms (median of 3), a swipe %.2f ms (median of 12), "
                "undo + redo %.2f ms (median of 5); the turn's record with 4 answers %ju bytes\n",
                turns, median(regenerateMs), median(flipMs), median(undoRedoMs),
                std::filesystem::file_size(root / ("conversations/campaign/turn-" + std::to_string(turns) + ".json")));
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("peak resident memory: %ld KiB\n", usage.ru_maxrss);
    return failed == 0 ? 0 : 1;
}
