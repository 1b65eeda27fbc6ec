// `chaiba werewolf`: headless Werewolf games between rule-based bots and LLMs (OpenRouter or any
// OpenAI-compatible server) with the same session as the page: seats rotate per game (--mirror
// replays each deal with the players rotated through every seat), one JSON file per game and a
// summary in --out DIR, --resume DIR skips the games already written. A line per game and the
// leaderboard. The day runs on a simulated clock, so runs replay. Key: OPENROUTER_API_KEY only.
#include "src/cli/llm_cli.h"
#include "src/cli/progress.h"
#include "src/modes/werewolf/game_export.h"
#include "src/modes/werewolf/game_session.h"
#include "src/modes/werewolf/results.h"
#include "src/modes/werewolf/tournament.h"
#include "src/persist/bounded_read.h"
#include "src/persist/durable_file.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace chaiba::cli {

namespace {

using namespace chaiba::werewolfmode;
using werewolf::Role;

// Each game file and the summary replace the old one atomically (a kill never leaves half a file).
bool writeFile(const std::string& path, const std::string& text) {
    const std::optional<std::string> bad = persist::writeFileAtomic(path, text);
    if (bad) std::fprintf(stderr, "error: %s\n", bad->c_str());
    return !bad;
}

// A game file of --resume: nothing when missing; one that cannot be read (too large) is said so.
std::optional<std::string> readFile(const std::string& path) {
    persist::ReadResult read = persist::readFileBounded(path, persist::kMaxDocumentBytes);
    if (!read.ok() && !read.missing) std::fprintf(stderr, "error: %s; the game is played again\n", read.error.c_str());
    if (!read.ok()) return std::nullopt;
    return std::move(read.text);
}

std::string gamePath(const std::string& dir, int index) {
    char name[32];
    std::snprintf(name, sizeof name, "/game-%04d.json", index);
    return dir + name;
}

std::string describeResult(const GameResult& r) {
    std::string winner = r.winner ? std::string(werewolf::teamName(*r.winner)) + " win" : "unfinished";
    std::string wolves;
    for (std::size_t s = 0; s < r.seats.size(); ++s)
        if (werewolf::teamOf(r.seats[s].role) == werewolf::Team::Wolves) // piecewise: GCC 12 -Wrestrict misfires on " " + string&&
            wolves.append(" ").append(werewolf::seatName(static_cast<int>(s))).append("=").append(r.seats[s].player);
    char line[256];
    std::snprintf(line, sizeof line, " in %d rounds (seed %llu); fallbacks %d/%d; %lld tokens; $%.6f; %.1f s",
                  r.rounds, static_cast<unsigned long long>(r.seed), r.fallbacks(), r.asks(), r.tokens(),
                  r.costUsd(), r.wallSeconds);
    return winner + line + "; wolves:" + wolves;
}

struct Running {
    int index = 0; // 1-based
    std::unique_ptr<GameSession> session;
    std::int64_t nowMs = 0; // the session's simulated clock
    std::chrono::steady_clock::time_point started;
};

} // namespace

const Usage& werewolfUsage() {
    static const Usage usage{
        "werewolf",
        "--players SPEC,SPEC,... [--roles ROLE[:N],...] [--games N] [--mirror] [--out DIR | --resume DIR] [options]",
        "headless Werewolf games between bots and LLMs: a line per game, the leaderboard",
        {{"players", "SPECS", "comma-separated seats (required)"},
         {"roles", "ROLES", "the deal, e.g. werewolf:2,seer,doctor,villager:4 (default: the table's default deal)"},
         {"rules", "RULES", "balanced or plain (default balanced)"},
         {"games", "N", "games, 1-1000000 (default 1)"},
         {"seed", "S", "seed of the first game (default 1)"},
         {"mirror", "", "replay each deal with the players rotated through every seat"},
         {"out", "DIR", "write a JSON file per game and summary.json to DIR"},
         {"resume", "DIR", "as --out, skipping the games already written in DIR"},
         {"concurrency", "N", "games at once, 1-64 (default 1)"},
         {"timeout-ms", "MS", "a model call's timeout in ms, 100-3600000 (default 10000)"},
         {"model-timeout", "MODEL=MS,...", "per-model timeouts (reasoning models)"},
         {"poll-ms", "MS", "the day: each AI is asked whether to speak this often, 1-600000 (default 5000)"},
         {"max-day-messages", "N", "the discussion ends after this many messages, 1-1000 (default 24)"},
         {"max-day-ms", "MS", "... or after this long (simulated), 1-86400000 (default 60000)"},
         {"spacing-ms", "MS", "at least this long between two requests, 0-600000 (default 0)"},
         {"max-rounds", "N", "a game still running after this many rounds stops unfinished, 1-1000 (default 30)"},
         {"no-notes", "", "AI seats do not rewrite their notes after each phase"},
         baseUrlOption(),
         assetsOption(),
         {"quiet", "", "only the last game's line; no fallback lines on stderr"}},
        std::string("SPEC: bot | random (the same rule-based bot) | llm:MODEL_ID, optionally *N for N seats (bot*5).\n") +
            kKeyNote};
    return usage;
}

int runWerewolfCommand(const std::vector<std::string>& argv) {
    Args args(argv, werewolfUsage());
    const long long games = args.integer("games", 1, 1, 1000000);
    const long long seed = args.integer("seed", 1, 0, 0x7fffffffffffffffLL);
    const long long concurrency = args.integer("concurrency", 1, 1, 64);
    const long long timeoutMs = args.integer("timeout-ms", 10000, 100, 3600000);
    const long long pollMs = args.integer("poll-ms", 5000, 1, 600000);
    const long long maxDayMessages = args.integer("max-day-messages", 24, 1, 1000);
    const long long maxDayMs = args.integer("max-day-ms", 60000, 1, 86400000);
    const long long spacingMs = args.integer("spacing-ms", 0, 0, 600000);
    const long long maxRounds = args.integer("max-rounds", 30, 1, 1000);
    if (args.error() || !args.positional().empty() || !args.value("players")) {
        std::fprintf(stderr, "error: %s\n%s", args.error() ? args.error()->c_str() : "--players is required",
                     usageLines(werewolfUsage()).c_str());
        return 2;
    }
    llm::Result<std::vector<std::string>> parsedPlayers = parsePlayers(*args.value("players"));
    llm::Result<std::vector<Role>> parsedRoles = llm::Result<std::vector<Role>>::ok({});
    if (parsedPlayers.isOk() && args.value("roles")) parsedRoles = parseRoles(*args.value("roles"));
    if (!parsedPlayers.isOk() || !parsedRoles.isOk()) {
        std::fprintf(stderr, "error: %s\n", (parsedPlayers.isOk() ? parsedRoles.error : parsedPlayers.error).c_str());
        return 2;
    }
    const std::vector<std::string>* players = &*parsedPlayers.value;
    const std::vector<Role>* roles = &*parsedRoles.value;
    const int seats = static_cast<int>(players->size());
    if (const auto bad =
            werewolf::validateRoles(seats, roles->empty() ? werewolf::defaultRoles(seats) : *roles);
        bad != werewolf::SetupError::None) {
        std::fprintf(stderr, "error: --roles: %s\n", std::string(werewolf::setupErrorText(bad)).c_str());
        return 2;
    }
    const std::string rulesName = args.value("rules").value_or("balanced");
    if (rulesName != "balanced" && rulesName != "plain") {
        std::fprintf(stderr, "error: --rules must be balanced or plain\n");
        return 2;
    }
    llm::Result<std::map<std::string, int>> modelTimeouts =
        parseModelTimeouts(args.value("model-timeout").value_or(""));
    if (!modelTimeouts.isOk()) {
        std::fprintf(stderr, "error: --model-timeout: %s\n", modelTimeouts.error.c_str());
        return 2;
    }
    const std::optional<std::string> outDir = args.value("resume") ? args.value("resume") : args.value("out");
    if (outDir) {
        std::error_code ec;
        std::filesystem::create_directories(*outDir, ec);
        if (ec) {
            std::fprintf(stderr, "error: cannot create %s: %s\n", outDir->c_str(), ec.message().c_str());
            return 1;
        }
    }
    const bool quiet = args.has("quiet");
    bool anyLlm = false;
    for (const std::string& p : *players) anyLlm = anyLlm || p != "bot";

    // Step 1. The model side: one client (the seats retry themselves, so the client does not),
    // the catalog (answer channel, prices) and the prompts.
    llm::CallSettings settings;
    std::unique_ptr<LlmPlumbing> llmSide = openLlm(args, anyLlm, settings);
    if (!llmSide) return 2;
    llm::OpenRouterConfig clientConfig = llmSide->client->config();
    clientConfig.maxRetries = 0;
    llmSide->client =
        std::make_unique<llm::OpenRouterClient>(llmSide->transport, llmSide->clock, clientConfig);
    llm::DirectoryAssetSource assets(assetsDirFrom(args));
    llm::Result<WerewolfPrompts> prompts = loadWerewolfPrompts(assets);
    if (!prompts.isOk()) {
        std::fprintf(stderr, "error: %s (set --assets DIR or CHAIBA_ASSETS_DIR)\n", prompts.error.c_str());
        return 1;
    }
    TournamentConfig plan; // the same game plan as the page's Werewolf Arena
    plan.players = *players;
    plan.roles = *roles;
    plan.balanced = rulesName != "plain";
    plan.games = static_cast<int>(std::min<long long>(games, 1000000));
    plan.seed = static_cast<std::uint64_t>(seed);
    plan.mirror = args.has("mirror");
    plan.timeoutMs = static_cast<int>(timeoutMs);
    plan.modelTimeoutMs = *modelTimeouts.value;
    plan.pollMs = static_cast<int>(pollMs);
    plan.maxDayMessages = static_cast<int>(maxDayMessages);
    plan.maxDayMs = static_cast<int>(maxDayMs);
    plan.spacingMs = static_cast<int>(spacingMs);
    plan.maxRounds = static_cast<int>(maxRounds);
    plan.notes = !args.has("no-notes");
    for (const std::string& p : *players) {
        if (p == "bot" || llmSide->catalog.empty()) continue;
        const TableSeat s = tableSeatFor(p, plan, llmSide->catalog);
        std::fprintf(stderr, "note: %s answers through %s\n", p.c_str(),
                     llm::answerChannelName(s.ai.channel));
    }

    // Step 2. The games: seats rotate; --mirror repeats each deal once per rotation.
    std::map<int, GameResult> results; // by 1-based index
    std::map<int, bool> resumed;
    if (outDir)
        for (int g = 1; g <= games; ++g)
            if (std::optional<std::string> text = readFile(gamePath(*outDir, g)))
                if (llm::Result<GameResult> r = readGameResult(*text); r.isOk()) {
                    results[g] = std::move(*r.value);
                    resumed[g] = true;
                }
    int printed = 0;
    int unfinished = 0;
    bool writeFailed = false;
    auto printReady = [&] {
        while (results.count(printed + 1)) {
            ++printed;
            const GameResult& r = results[printed];
            unfinished += r.winner ? 0 : 1;
            if (!quiet || printed == games)
                std::printf("game %d/%lld: %s%s\n", printed, games,
                            resumed.count(printed) ? "(resumed) " : "", describeResult(r).c_str());
        }
        std::fflush(stdout);
    };
    printReady();
    const auto runStart = std::chrono::steady_clock::now();
    TerminalProgress live("werewolf", static_cast<int>(results.size()), static_cast<int>(games));
    std::vector<Running> running;
    int next = 1;
    while (next <= games || !running.empty()) {
        while (static_cast<long long>(running.size()) < concurrency && next <= games) {
            if (results.count(next)) {
                ++next;
                continue;
            }
            Running r;
            r.index = next++;
            r.session = std::make_unique<GameSession>(sessionConfigFor(plan, r.index - 1, llmSide->catalog), *prompts.value,
                                                      anyLlm ? llmSide->client.get() : nullptr);
            r.started = std::chrono::steady_clock::now();
            running.push_back(std::move(r));
        }
        for (Running& r : running) r.session->poll(r.nowMs);
        if (anyLlm) llmSide->client->poll();
        bool immediate = false;
        for (Running& r : running) {
            GameSession& s = *r.session;
            if (s.finished()) continue;
            const std::optional<std::int64_t> wake = s.nextWakeMs();
            if (s.requestsInFlight() > 0) {
                immediate = immediate || (wake && *wake <= r.nowMs);
                continue;
            }
            if (!wake) { // nothing can move it: a decision without a target
                live.clear();
                std::fprintf(stderr, "warning: game %d is stuck; stopped\n", r.index);
                r.session->poll(r.nowMs);
                immediate = true;
                continue;
            }
            r.nowMs = std::max(r.nowMs, *wake); // the simulated clock jumps to the next event
            immediate = true;
        }
        // Finished games: the file, the line, the fallbacks.
        for (auto it = running.begin(); it != running.end();) {
            GameSession& s = *it->session;
            const bool stuck = !s.finished() && s.requestsInFlight() == 0 && !s.nextWakeMs();
            if (!s.finished() && !stuck) {
                ++it;
                continue;
            }
            live.clear(); // the lines of this game (fallbacks, the result) stand alone
            GameResult result = summarize(s, it->index);
            result.wallSeconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - it->started).count();
            if (!quiet)
                for (int seat = 0; seat < seats; ++seat)
                    if (const AiSeat* ai = s.aiSeat(seat))
                        for (const AskOutcome& a : ai->history())
                            if (a.fallback != FallbackReason::None)
                                std::fprintf(stderr, "fallback: game %d %s %s, %s round %d (%s): %s\n",
                                             it->index, werewolf::seatName(seat).c_str(),
                                             s.config().seats[std::size_t(seat)].player.c_str(),
                                             std::string(askKindName(a.kind)).c_str(), a.round,
                                             std::string(fallbackReasonName(a.fallback)).c_str(),
                                             a.fallbackDetail.c_str());
            if (outDir && !writeFile(gamePath(*outDir, it->index), exportGameJson(s, result))) {
                std::fprintf(stderr, "error: cannot write %s\n", gamePath(*outDir, it->index).c_str());
                writeFailed = true;
            }
            results[it->index] = std::move(result);
            it = running.erase(it);
            printReady();
        }
        live.update(static_cast<int>(results.size()));
        if (!immediate && !running.empty()) llmSide->transport.wait(20);
    }
    live.clear();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();

    // Step 3. The summary and the leaderboard.
    std::vector<GameResult> all;
    int villagers = 0, wolves = 0, fallbacks = 0, asks = 0;
    long long tokens = 0;
    double cost = 0;
    for (auto& [index, r] : results) {
        villagers += r.winner == werewolf::Team::Villagers;
        wolves += r.winner == werewolf::Team::Wolves;
        fallbacks += r.fallbacks();
        asks += r.asks();
        tokens += r.tokens();
        cost += r.costUsd();
        all.push_back(r);
    }
    std::printf(
        "summary: %lld games: villagers %d, wolves %d, unfinished %d; fallbacks %d/%d (%.1f%%); %lld tokens; "
        "$%.6f; %.2f s (%.1f games/s)\n",
        games, villagers, wolves, unfinished, fallbacks, asks, asks ? 100.0 * fallbacks / asks : 0.0, tokens,
        cost, seconds, seconds > 0 ? double(games - static_cast<long long>(resumed.size())) / seconds : 0.0);
    const std::vector<PlayerStanding> rows = leaderboard(all);
    std::printf("%s", formatLeaderboard(rows).c_str());
    if (outDir) {
        const nlohmann::json board = nlohmann::json::parse(leaderboardJson(rows)); // the page's rows too
        const nlohmann::json summary = {{"format", "chaiba-werewolf-summary"},
                                        {"games", games},
                                        {"villager_wins", villagers},
                                        {"wolf_wins", wolves},
                                        {"unfinished", unfinished},
                                        {"fallbacks", fallbacks},
                                        {"asks", asks},
                                        {"tokens", tokens},
                                        {"cost_usd", cost},
                                        {"rules", rulesName},
                                        {"leaderboard", board}};
        if (!writeFile(*outDir + "/summary.json", summary.dump(1))) {
            std::fprintf(stderr, "error: cannot write %s/summary.json\n", outDir->c_str());
            writeFailed = true;
        }
    }
    return unfinished > 0 || writeFailed ? 1 : 0;
}

} // namespace chaiba::cli
