// `chaiba plan`: the planner without the page. --say runs one person's message through the same
// chat loop on a plan file and writes it back; --check reads a plan file and names its problems;
// --run plays the plan's stages headless, in dependency order: chess stages through the arena,
// werewolf stages as Werewolf tournaments.
#include "src/cli/arena_folder.h"
#include "src/cli/arena_run.h"
#include "src/persist/bounded_read.h"
#include "src/persist/durable_file.h"
#include "src/cli/llm_cli.h"
#include "src/cli/plan_werewolf_stage.h"
#include "src/persist/run_folder.h"
#include "src/llm/anthropic_client.h"
#include "src/llm/assets.h"
#include "src/modes/planner/plan_chat.h"
#include "src/modes/planner/plan_run.h"
#include "src/modes/planner/plan_text.h"

#include "engine/search/levels.h"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/stat.h>

namespace chaiba::cli {

namespace {

using planner::PlanGraph;

volatile std::sig_atomic_t gInterrupted = 0;
extern "C" void onPlanInterrupt(int) {
    gInterrupted = 1;
    std::signal(SIGINT, SIG_DFL);
}

// A plan or a saved chat: bounded like every file the program reads.
persist::ReadResult readFile(const std::string& path) {
    return persist::readFileBounded(path, persist::kMaxConfigBytes);
}

// Writes through a temporary file, fsync and a rename, so a reader never sees half a plan.
bool writePlan(const std::string& path, const PlanGraph& plan) {
    const auto bad = persist::writeFileAtomic(path, plan.tasks.empty() ? std::string() : planner::serializePlan(plan));
    if (!bad) return true;
    std::fprintf(stderr, "error: %s\n", bad->c_str());
    return false;
}

// Why a file's bytes are not a plan text (a NUL or another control character: a binary file), or
// nothing. The file's bytes are never echoed.
std::optional<std::string> notText(const std::string& text) {
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return "not a plan: byte " + std::to_string(i + 1) + " is a control character (a binary file?)";
    }
    return std::nullopt;
}

// Every problem of a plan text, each once, with its line: after a problem, the least that mends
// it is blanked and the text read again, keeping the line numbers. A dependency problem blanks the
// task's `needs` lines (its task stays, so the tasks that need it are not reported missing);
// another problem of a task line blanks the task's block; another line, that line. A problem of
// the whole plan is reported only when it is the first (blanking made "the plan has no tasks").
std::vector<std::string> planProblems(const std::string& text) {
    if (auto bad = notText(text)) return {*bad};
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::vector<std::string> problems;
    std::set<std::string> seen;
    auto firstWord = [](const std::string& l) {
        const size_t first = l.find_first_not_of(" \t");
        if (first == std::string::npos) return std::string();
        return l.substr(first, l.find_first_of(" \t", first) - first);
    };
    for (int guard = 0; guard < 50; ++guard) {
        std::string joined;
        for (const std::string& l : lines) joined += l + '\n';
        planner::Result<PlanGraph> parsed = planner::parsePlan(joined);
        if (parsed.ok()) break;
        if (!seen.insert(parsed.error).second) break;
        int number = 0;
        const bool onLine = std::sscanf(parsed.error.c_str(), "line %d:", &number) == 1 && number >= 1 &&
                            number <= int(lines.size());
        if (!onLine) { // a problem of the whole plan: nothing to blank
            if (problems.empty()) problems.push_back(parsed.error);
            break;
        }
        problems.push_back(parsed.error);
        size_t i = size_t(number - 1);
        const bool taskLine = firstWord(lines[i]) == "task";
        const bool dependency = parsed.error.find("dependency cycle") != std::string::npos ||
                                parsed.error.find("depends on") != std::string::npos ||
                                parsed.error.find("cannot depend on itself") != std::string::npos;
        if (taskLine && dependency) {
            for (++i; i < lines.size() && firstWord(lines[i]) != "task"; ++i)
                if (firstWord(lines[i]) == "needs") lines[i].clear();
            continue;
        }
        lines[i].clear();
        for (++i; taskLine && i < lines.size() && firstWord(lines[i]) != "task"; ++i) lines[i].clear();
    }
    return problems;
}

int runCheck(const std::string& path) {
    const persist::ReadResult text = readFile(path);
    if (!text.ok()) {
        std::fprintf(stderr, "error: %s\n", text.error.c_str());
        return 2;
    }
    const std::vector<std::string> problems = planProblems(text.text);
    if (problems.empty()) {
        std::printf("ok\n");
        return 0;
    }
    for (const std::string& p : problems) std::printf("%s: %s\n", path.c_str(), p.c_str());
    return 1;
}

// The plan in a file; a missing file is the empty plan (the chat creates it).
std::optional<PlanGraph> loadPlan(const std::string& path, bool missingIsEmpty) {
    const persist::ReadResult read = readFile(path);
    if (!read.ok()) {
        if (missingIsEmpty && read.missing) return PlanGraph{};
        std::fprintf(stderr, "error: %s\n", read.error.c_str());
        return std::nullopt;
    }
    const std::string* text = &read.text;
    if (auto bad = notText(*text)) {
        std::fprintf(stderr, "error: %s: %s\n", path.c_str(), bad->c_str());
        return std::nullopt;
    }
    if (text->find_first_not_of(" \t\r\n") == std::string::npos) return PlanGraph{};
    planner::Result<PlanGraph> parsed = planner::parsePlan(*text);
    if (!parsed.ok()) {
        std::fprintf(stderr, "error: %s: %s\n", path.c_str(), parsed.error.c_str());
        return std::nullopt;
    }
    return *parsed.value;
}

std::optional<std::string> keyFrom(const char* variable) {
    const char* key = std::getenv(variable);
    if (!key || !*key) {
        std::fprintf(stderr,
                     "error: set the API key in the %s environment variable (it is never read from the "
                     "command line)\n",
                     variable);
        return std::nullopt;
    }
    if (auto bad = llm::validateApiKey(key)) {
        std::fprintf(stderr, "error: %s: %s\n", variable, bad->c_str());
        return std::nullopt;
    }
    return std::string(key);
}

void printCall(const planner::PlanToolCall& call) {
    if (call.isError)
        std::printf("  ✗ %s\n", call.result.c_str()); // "Error: add_task: ..."
    else
        std::printf("  ✓ %s\n", call.card.text().c_str());
    std::fflush(stdout);
}

int runSay(Args& args, const std::string& path, const std::string& text) {
    // Step 1. The plan, the provider and its client.
    std::optional<PlanGraph> plan = loadPlan(path, true);
    if (!plan) return 2;
    const std::string provider = args.value("provider").value_or("openrouter");
    if (provider != "openrouter" && provider != "anthropic") {
        std::fprintf(stderr, "error: --provider must be openrouter or anthropic\n");
        return 2;
    }
    const int maxRounds = int(args.integer("max-rounds", 10, 1, 50));
    if (args.error()) {
        std::fprintf(stderr, "error: %s\n", args.error()->c_str());
        return 2;
    }
    planner::PlanChatConfig config;
    std::unique_ptr<LlmPlumbing> plumbing;
    std::unique_ptr<llm::AnthropicClient> anthropic;
    net::CurlTransport anthropicTransport;
    net::SteadyClock clock;
    llm::ChatService* chat = nullptr;
    net::CurlTransport* transport = nullptr;
    if (provider == "openrouter") {
        llm::CallSettings settings;
        plumbing = openLlm(args, true, settings);
        if (!plumbing) return 2;
        config.model = args.value("model").value_or(planner::kDefaultPlannerModel);
        for (const llm::ModelInfo& m : plumbing->catalog)
            if (m.id == config.model) config.pricing = m.pricing;
        if (!plumbing->catalog.empty()) config.context = planner::PlanContext::withCatalog(plumbing->catalog);
        chat = plumbing->client.get();
        transport = &plumbing->transport;
    } else {
        llm::AnthropicConfig ac;
        ac.baseUrl = args.value("base-url").value_or(llm::kAnthropicBaseUrl);
        if (auto bad = llm::validateBaseUrl(ac.baseUrl)) {
            std::fprintf(stderr, "error: --base-url: %s\n", bad->c_str());
            return 2;
        }
        const std::optional<std::string> key = keyFrom("ANTHROPIC_API_KEY");
        if (!key) return 2;
        ac.apiKey = *key;
        anthropic = std::make_unique<llm::AnthropicClient>(anthropicTransport, clock, ac);
        config.model = args.value("model").value_or(planner::kDefaultAnthropicPlannerModel);
        chat = anthropic.get();
        transport = &anthropicTransport;
    }
    config.maxRounds = maxRounds;
    llm::DirectoryAssetSource assetSource(assetsDirFrom(args));
    llm::Result<planner::PlanChatAssets> assets = planner::loadPlanChatAssets(assetSource);
    if (!assets.isOk()) {
        std::fprintf(stderr, "error: %s (set --assets DIR or CHAIBA_ASSETS_DIR)\n", assets.error.c_str());
        return 1;
    }

    // Step 2. The chat: a saved conversation (--chat) continues, else a new one on the plan.
    planner::PlanChat planChat(*chat, std::move(*assets.value), config, *plan);
    const std::optional<std::string> chatPath = args.value("chat");
    if (chatPath) {
        const persist::ReadResult saved = readFile(*chatPath);
        if (!saved.ok() && !saved.missing) {
            std::fprintf(stderr, "error: %s\n", saved.error.c_str());
            return 2;
        }
        if (saved.ok()) {
            std::string why;
            if (!planChat.loadJson(saved.text, &why)) {
                std::fprintf(stderr, "error: %s: %s\n", chatPath->c_str(), why.c_str());
                return 2;
            }
            planChat.importPlan(*plan); // the plan file wins over the saved copy
        }
    }
    planChat.onToolCall = printCall;

    // Step 3. One message, pumped to its end; Ctrl-C is the Stop button.
    std::printf("you: %s\n", text.c_str());
    std::fflush(stdout);
    gInterrupted = 0;
    std::signal(SIGINT, onPlanInterrupt);
    planChat.send(text);
    while (planChat.busy()) {
        if (gInterrupted) planChat.stop();
        chat->poll();
        transport->wait(20);
    }
    std::signal(SIGINT, SIG_DFL);
    const planner::PlanTurn& turn = planChat.turns().back();
    if (!turn.reply.empty()) std::printf("%s: %s\n", config.model.c_str(), turn.reply.c_str());
    std::printf("%s after %d round(s), %d tool call(s), %d error(s); change: %s; cost $%.6f; input %lld tokens\n",
                planner::turnEndName(turn.end), turn.rounds, int(turn.calls.size()), turn.toolErrors(),
                turn.diff.text().c_str(), turn.costUsd, turn.inputTokens);
    if (turn.end == planner::TurnEnd::Failed) std::fprintf(stderr, "error: %s\n", turn.error.c_str());

    // Step 4. Write back (a failed message keeps the changes it made).
    if (!turn.diff.empty() && !writePlan(path, planChat.plan())) return 1;
    if (chatPath)
        if (const std::optional<std::string> bad = persist::writeFileAtomic(*chatPath, planChat.toJson())) {
            std::fprintf(stderr, "error: %s\n", bad->c_str());
            return 1;
        }
    if (turn.end == planner::TurnEnd::Failed) return 1;
    return turn.end == planner::TurnEnd::Stopped ? 130 : 0;
}

// --- --run -------------------------------------------------------------------------------------

std::optional<double> calibratedRating(int level) {
    const std::optional<search::LevelSpec> spec =
        level < 0 ? search::levelSpec(search::maxLevel()) : search::levelSpec(level);
    if (!spec || spec->ratingElo <= 0) return std::nullopt;
    return double(spec->ratingElo);
}

// A werewolf stage: running, played (plan_werewolf_stage), then done or failed, the plan written
// after each move.
int runWerewolfStageOfPlan(Args& args, PlanGraph& plan, const std::string& path, const planner::Task& task,
                           const std::vector<std::string>& seats, std::uint64_t seed, int concurrency,
                           const std::optional<std::string>& outRoot, double budgetUsd,
                           std::vector<std::string>& ranked, double& spentUsd) {
    std::string why;
    const bool wasRunning = task.status == planner::TaskStatus::Running; // a run stopped half-way
    if (!planner::moveStatus(plan, task.id, planner::TaskStatus::Running, why)) {
        std::fprintf(stderr, "error: stage %s cannot start: %s\n", task.id.c_str(), why.c_str());
        return 1;
    }
    if (!writePlan(path, plan)) return 1;
    std::string players;
    for (const std::string& p : seats) players += (players.empty() ? "" : ", ") + p;
    std::printf("stage %s (%s, werewolf, %d games): %s\n", task.id.c_str(), task.name.c_str(), task.stage->games,
                players.c_str());
    std::fflush(stdout);
    const std::optional<std::string> folder =
        outRoot ? std::optional<std::string>(*outRoot + "/" + task.id) : std::nullopt;
    const int code =
        runPlanWerewolfStage(args, *task.stage, seats, seed, concurrency, folder, wasRunning, budgetUsd, ranked, spentUsd);
    if (!planner::moveStatus(plan, task.id, code == 0 ? planner::TaskStatus::Done : planner::TaskStatus::Failed,
                             why)) {
        std::fprintf(stderr, "error: stage %s: %s\n", task.id.c_str(), why.c_str());
        return 1;
    }
    if (!writePlan(path, plan)) return 1;
    if (code != 0) {
        std::fprintf(stderr, "error: stage %s failed (exit %d); the plan marks it failed\n", task.id.c_str(), code);
        return code;
    }
    std::printf("stage %s done: %s first\n", task.id.c_str(), ranked.empty() ? "nobody" : ranked[0].c_str());
    return 0;
}

int runStages(Args& args, const std::string& path) {
    std::optional<PlanGraph> loaded = loadPlan(path, false);
    if (!loaded) return 2;
    PlanGraph plan = std::move(*loaded);
    const int concurrency = int(args.integer("concurrency", 4, 1, chessmode::kMaxConcurrency));
    const long long seed = args.integer("seed", 1, 0, 0x7fffffffffffffffLL);
    if (args.error()) {
        std::fprintf(stderr, "error: %s\n", args.error()->c_str());
        return 2;
    }
    const std::vector<std::string> order = planner::stageOrder(plan);
    // Step 1. Nothing to run is not an error.
    if (order.empty()) {
        std::printf("no stage to run\n");
        return 0;
    }
    std::map<std::string, std::vector<std::string>> ranking; // stage task → specs, best first
    double spentUsd = 0; // by the stages this run played (the plan's cap counts it)
    const std::optional<std::string> outRoot = args.value("out");
    if (const auto cap = plan.root().budgetCapUsd)
        std::printf("the plan's cap: %s USD over its stages (no game starts once it is spent)\n",
                    planner::numberText(*cap).c_str());
    if (outRoot) ::mkdir(outRoot->c_str(), 0755);

    // Step 2. Each stage in dependency order: its players (top K from earlier rankings), the run,
    // the statuses (ready → running → done or failed), the plan written after each.
    for (const std::string& id : order) {
        const planner::Task task = *plan.find(id); // a copy: the plan changes below
        const bool werewolf = task.stage->game == planner::GameKind::Werewolf;
        if (task.status == planner::TaskStatus::Done && werewolf) {
            // A werewolf stage run before: its ranking is the leaderboard of its summary.json.
            if (outRoot) ranking[id] = werewolfStageRanking(*outRoot + "/" + id);
            std::printf(ranking[id].empty()
                            ? "stage %s: already done, skipped (no summary.json in --out DIR: its ranking is unknown)\n"
                            : "stage %s: already done, ranking read from its summary.json\n",
                        id.c_str());
            continue;
        }
        if (task.status == planner::TaskStatus::Done) {
            // A stage run before: its ranking comes from the bundle it left in --out DIR, if any.
            persist::ReadResult saved;
            if (outRoot)
                saved = persist::readFileBounded(*outRoot + "/" + id + "/" + kArenaSnapshotName,
                                                 persist::kMaxDocumentBytes);
            chessmode::Parsed<chessmode::TournamentBundle> bundle =
                outRoot && saved.ok() ? chessmode::importBundle(saved.text) : chessmode::Parsed<chessmode::TournamentBundle>{};
            if (bundle.ok() && bundle.value->leaderboard) {
                for (const chessmode::LeaderboardRow& r : bundle.value->leaderboard->rows)
                    ranking[id].push_back(bundle.value->config.participants[size_t(r.participant)].spec);
                std::printf("stage %s: already done, ranking read from its bundle\n", id.c_str());
            } else {
                std::printf(
                    "stage %s: already done, skipped (no bundle in --out DIR: its ranking is unknown)\n",
                    id.c_str());
            }
            continue;
        }
        for (const std::string& dep : task.dependsOn) {
            const planner::Task* d = plan.find(dep);
            if (d && !planner::statusUnblocks(d->status)) {
                std::fprintf(stderr, "error: stage %s waits for '%s' (%s)\n", id.c_str(), dep.c_str(),
                             std::string(planner::statusName(d->status)).c_str());
                return 1;
            }
        }
        const planner::Stage stage = *task.stage;
        const bool wasRunning = task.status == planner::TaskStatus::Running; // a run stopped half-way
        chessmode::TournamentConfig config;
        planner::Result<std::vector<std::string>> seats = planner::resolveSeats(stage, ranking);
        if (!seats.ok()) {
            std::fprintf(stderr, "error: stage %s %s\n", id.c_str(), seats.error.c_str());
            return 1;
        }
        // The plan's cap: a stage that could spend is not started once it is used up.
        const planner::StageAllowance allowance = planner::stageAllowance(plan, id, spentUsd);
        const bool costs = planner::seatsCostMoney(*seats.value);
        if (allowance.spent && costs) {
            std::fprintf(stderr, "error: the plan's cap of %s USD is spent (%s USD): stage %s was not started\n",
                         planner::numberText(*plan.root().budgetCapUsd).c_str(), planner::numberText(spentUsd).c_str(),
                         id.c_str());
            return 3;
        }
        const double budget = costs ? allowance.usd.value_or(0) : 0;
        if (costs && !allowance.text.empty()) std::printf("stage %s may spend %s\n", id.c_str(), allowance.text.c_str());
        if (werewolf) {
            if (int code = runWerewolfStageOfPlan(args, plan, path, task, *seats.value, std::uint64_t(seed),
                                                  concurrency, outRoot, budget, ranking[id], spentUsd))
                return code;
            continue;
        }
        config = chessmode::stageConfig({task.name, *seats.value, planner::stageFormatName(stage.format), stage.games,
                                         concurrency, stage.chess960, stage.tickerSeconds, budget});
        config.seed = std::uint64_t(seed);
        chessmode::fillEngineAnchors(config, calibratedRating);
        std::string why;
        if (!planner::moveStatus(plan, id, planner::TaskStatus::Running, why)) {
            std::fprintf(stderr, "error: stage %s cannot start: %s\n", id.c_str(), why.c_str());
            return 1;
        }
        if (!writePlan(path, plan)) return 1;
        std::string players;
        for (const chessmode::Participant& p : config.participants)
            players += (players.empty() ? "" : ", ") + p.spec;
        std::printf("stage %s (%s): %s\n", id.c_str(), task.name.c_str(), players.c_str());
        std::fflush(stdout);
        ArenaRunOptions options;
        ArenaFolder folder;
        options.quiet = true;
        ArenaRun run;
        // A stage left running (the plan was stopped) continues the games its folder holds when
        // they were played with these settings; any other run is replaced (the plan records which
        // run counts).
        std::vector<chessmode::GameRecord> resumed;
        bool continued = false;
        if (outRoot && wasRunning && persist::RunFolder::hasLog(*outRoot + "/" + id)) {
            ArenaResume found;
            if (!folder.resume(*outRoot + "/" + id, found, true) && found.config == config) {
                for (const std::string& note : found.notes) std::fprintf(stderr, "note: %s\n", note.c_str());
                int finished = 0;
                for (const chessmode::GameRecord& g : found.games) finished += g.finished() ? 1 : 0;
                std::fprintf(stderr, "note: %d finished game(s) of the stage were played before; the rest follow\n",
                             finished);
                resumed = std::move(found.games);
                continued = true;
            } else {
                folder.close();
            }
        }
        if (auto bad = chessmode::validateConfig(config)) {
            std::fprintf(stderr, "error: stage %s: %s\n", id.c_str(), bad->c_str());
            run.exitCode = 2;
        } else if (auto cannot = outRoot && !continued ? folder.create(*outRoot + "/" + id, config, true) : std::nullopt) {
            std::fprintf(stderr, "error: stage %s: %s\n", id.c_str(), cannot->c_str());
            run.exitCode = 1;
        } else {
            if (outRoot) options.folder = &folder;
            options.resuming = continued;
            run = runTournament(args, config, std::move(resumed), options);
            spentUsd += run.spentUsd;
        }
        const bool ok = run.exitCode == 0 && run.leaderboard;
        if (!planner::moveStatus(plan, id, ok ? planner::TaskStatus::Done : planner::TaskStatus::Failed, why)) {
            std::fprintf(stderr, "error: stage %s: %s\n", id.c_str(), why.c_str());
            return 1;
        }
        if (!writePlan(path, plan)) return 1;
        if (!ok) {
            std::fprintf(stderr, "error: stage %s failed (exit %d); the plan marks it failed\n", id.c_str(),
                         run.exitCode);
            return 1;
        }
        std::vector<std::string>& ranked = ranking[id];
        for (const chessmode::LeaderboardRow& r : run.leaderboard->rows)
            ranked.push_back(config.participants[size_t(r.participant)].spec);
        std::printf("stage %s done: %s first\n", id.c_str(), ranked.empty() ? "nobody" : ranked[0].c_str());
    }

    // Step 3. The root is the plan itself: done once everything it needs is done.
    const planner::Task root = plan.root();
    bool ready = !root.stage && root.status != planner::TaskStatus::Done;
    for (const std::string& dep : root.dependsOn)
        ready = ready && plan.find(dep)->status == planner::TaskStatus::Done;
    std::string why;
    if (ready && planner::moveStatus(plan, root.id, planner::TaskStatus::Done, why) && !writePlan(path, plan))
        return 1;
    std::printf("plan %s: %s", root.id.c_str(), std::string(planner::statusName(plan.root().status)).c_str());
    if (spentUsd > 0 || root.budgetCapUsd)
        std::printf(" · spent %s USD%s", planner::numberText(spentUsd).c_str(),
                    root.budgetCapUsd ? (" of the " + planner::numberText(*root.budgetCapUsd) + " USD cap").c_str() : "");
    std::printf("\n");
    return 0;
}

} // namespace

const Usage& planUsage() {
    static const Usage usage{
        "plan",
        "--plan FILE --say TEXT [--provider openrouter|anthropic] [--model MODEL] [--chat FILE.json] [options]\n"
        "--check FILE\n"
        "--run FILE [--out DIR] [--concurrency N] [--seed S] [--base-url URL]",
        "plan with AI on a plan file; check a plan; run its chess and werewolf stages",
        {{"plan", "FILE", "the plan file the chat edits (a missing file starts an empty plan)"},
         {"say", "TEXT", "the person's message to the planner"},
         {"provider", "NAME", "openrouter or anthropic (default openrouter)"},
         {"model", "MODEL", "the planner's model (default anthropic/claude-sonnet-4.5, as in the page; anthropic: claude-sonnet-4-5)"},
         {"base-url", "URL", std::string("the provider's server (default ") + llm::kDefaultBaseUrl + ", anthropic: " +
                                 llm::kAnthropicBaseUrl + ")"},
         {"chat", "FILE.json", "the saved conversation to continue, and where it is saved"},
         {"max-rounds", "N", "tool rounds per message, 1-50 (default 10)"},
         {"check", "FILE", "read a plan file and name its problems"},
         {"run", "FILE", "play the plan's stages headless, in dependency order"},
         {"out", "DIR", "with --run: a folder per stage (arena folders, werewolf games)"},
         {"concurrency", "N", "with --run: games at once, 1-" + std::to_string(chessmode::kMaxConcurrency) +
                                  " (default 4)"},
         {"seed", "S", "with --run: the stages' seed (default 1)"},
         assetsOption()},
        "Keys: OPENROUTER_API_KEY or ANTHROPIC_API_KEY, from the environment only."};
    return usage;
}

int runPlanCommand(const std::vector<std::string>& argv) {
    Args args(argv, planUsage());
    if (args.error() || !args.positional().empty()) {
        std::fprintf(stderr, "error: %s\n%s",
                     args.error() ? args.error()->c_str() : "unexpected positional argument", usageLines(planUsage()).c_str());
        return 2;
    }
    if (auto file = args.value("check")) return runCheck(*file);
    if (auto file = args.value("run")) return runStages(args, *file);
    const std::optional<std::string> file = args.value("plan");
    const std::optional<std::string> say = args.value("say");
    if (!file || !say) {
        std::fprintf(stderr, "error: give --plan FILE --say TEXT, --check FILE or --run FILE\n%s", usageLines(planUsage()).c_str());
        return 2;
    }
    return runSay(args, *file, *say);
}

} // namespace chaiba::cli
