// The Werewolf run shared by `chaiba werewolf` and `chaiba plan --run`: reading a run's folder
// back, and the games on WerewolfTournament with each one logged before it is reported.
#include "src/cli/werewolf_run.h"

#include "src/cli/llm_cli.h"
#include "src/cli/progress.h"
#include "src/modes/werewolf/game_export.h"
#include "src/modes/werewolf/game_session.h"
#include "src/modes/werewolf/tournament_store.h"
#include "src/modes/werewolf/werewolf_prompts.h"
#include "src/persist/durable_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace chaiba::cli {

using namespace chaiba::werewolfmode;

namespace {

// Each game file and the summary replace the old one atomically (a kill never leaves half a file).
bool writeFile(const std::string& path, const std::string& text) {
    const std::optional<std::string> bad = persist::writeFileAtomic(path, text);
    if (bad) std::fprintf(stderr, "error: %s\n", bad->c_str());
    return !bad;
}

std::string describeResult(const GameResult& r) {
    std::string winner = r.winner ? std::string(werewolf::teamName(*r.winner)) + " win" : "unfinished";
    std::string wolves;
    for (std::size_t s = 0; s < r.seats.size(); ++s)
        if (werewolf::teamOf(r.seats[s].role) == werewolf::Team::Wolves) // piecewise: GCC 12 -Wrestrict misfires on " " + string&&
            wolves.append(" ").append(werewolf::seatName(static_cast<int>(s))).append("=").append(r.seats[s].player);
    char line[256];
    std::snprintf(line, sizeof line,
                  " in %d rounds (seed %llu); fallbacks: decisions %d/%d, notes %d/%d; %lld tokens; $%.6f; %.1f s",
                  r.rounds, static_cast<unsigned long long>(r.seed), r.decisionFallbacks(), r.decisionAsks(),
                  r.notesFallbacks(), r.notesAsks(), r.tokens(), r.costUsd(), r.wallSeconds);
    return winner + line + "; wolves:" + wolves;
}

} // namespace

std::string werewolfGamePath(const std::string& dir, int index) {
    char name[32];
    std::snprintf(name, sizeof name, "/game-%04d.json", index);
    return dir + name;
}

std::optional<std::string> resumeWerewolfRun(persist::RunFolder& folder, const std::string& dir, TournamentConfig& plan,
                                             std::map<int, GameResult>& results) {
    // The same reader as the page's store (werewolfmode::ResultReader): each result checked
    // against the setup the log's latest manifest gives.
    ResultReader reader(plan, results);
    return folder.resume(dir, kWerewolfRunMode, reader);
}

WerewolfRun runWerewolfGames(const Args& args, const TournamentConfig& plan, std::map<int, GameResult> resumed,
                             const WerewolfRunOptions& options) {
    WerewolfRun out;
    const std::optional<std::string> outDir =
        options.folder ? std::optional<std::string>(options.folder->dir()) : std::nullopt;
    const int seats = static_cast<int>(plan.players.size());
    const long long games = plan.games;
    const bool quiet = options.quiet;
    const bool anyLlm = plan.anyModel();

    // Step 1. The model side: one client (the seats retry themselves, so the client does not),
    // the catalog (answer channel, prices) and the prompts.
    llm::CallSettings settings;
    std::unique_ptr<LlmPlumbing> llmSide = openLlm(args, anyLlm, settings);
    if (!llmSide) {
        out.exitCode = 2;
        return out;
    }
    llm::OpenRouterConfig clientConfig = llmSide->client->config();
    clientConfig.maxRetries = 0;
    llmSide->client =
        std::make_unique<llm::OpenRouterClient>(llmSide->transport, llmSide->clock, clientConfig);
    llm::DirectoryAssetSource assets(assetsDirFrom(args));
    llm::Result<WerewolfPrompts> prompts = loadWerewolfPrompts(assets);
    if (!prompts.isOk()) {
        std::fprintf(stderr, "error: %s (set --assets DIR or CHAIBA_ASSETS_DIR)\n", prompts.error.c_str());
        out.exitCode = 1;
        return out;
    }
    for (const std::string& p : plan.players) {
        if (p == "bot" || llmSide->catalog.empty()) continue;
        const TableSeat s = tableSeatFor(p, plan, llmSide->catalog);
        std::fprintf(stderr, "note: %s answers through %s\n", p.c_str(), llm::answerChannelName(s.ai.channel));
    }

    // Step 2. The games, on play's tournament runner (the page's Werewolf Arena runs the same):
    // seats rotate; a mirrored run repeats each deal once per rotation. A finished game is in the
    // log (fsynced) before its file, and both before its line.
    double spentBefore = 0;
    for (const auto& [index, r] : resumed) spentBefore += r.costUsd();
    std::map<int, GameResult> results = resumed;
    int printed = 0;
    bool writeFailed = false;
    auto printReady = [&] {
        while (results.count(printed + 1)) {
            ++printed;
            const GameResult& r = results[printed];
            if (options.printGames && (!quiet || printed == games))
                std::printf("game %d/%lld: %s%s\n", printed, games,
                            resumed.count(printed) ? "(resumed) " : "", describeResult(r).c_str());
        }
        std::fflush(stdout);
    };
    printReady();
    const auto runStart = std::chrono::steady_clock::now();
    TerminalProgress live("werewolf", static_cast<int>(results.size()), static_cast<int>(games));
    WerewolfTournament tournament(plan, *prompts.value, anyLlm ? llmSide->client.get() : nullptr, llmSide->catalog,
                                  resumed, spentBefore);
    tournament.onFinished = [&](const GameResult& result, const GameSession& s) {
        live.clear(); // the lines of this game (fallbacks, the result) stand alone
        if (!s.finished()) std::fprintf(stderr, "warning: game %d is stuck; stopped\n", result.index);
        if (!quiet)
            for (int seat = 0; seat < seats; ++seat)
                if (const AiSeat* ai = s.aiSeat(seat))
                    for (const AskOutcome& a : ai->history())
                        if (a.fallback != FallbackReason::None)
                            std::fprintf(stderr, "fallback: game %d %s %s, %s round %d (%s): %s\n", result.index,
                                         werewolf::seatName(seat).c_str(),
                                         s.config().seats[std::size_t(seat)].player.c_str(),
                                         std::string(askKindName(a.kind)).c_str(), a.round,
                                         std::string(fallbackReasonName(a.fallback)).c_str(), a.fallbackDetail.c_str());
        if (outDir) {
            if (auto failed = options.folder->appendGame(result.index, gameResultJson(result))) {
                std::fprintf(stderr, "error: cannot log game %d in %s: %s\n", result.index, outDir->c_str(), failed->c_str());
                writeFailed = true;
            } else if (!writeFile(werewolfGamePath(*outDir, result.index), exportGameJson(s, result))) {
                writeFailed = true;
            }
        }
        results[result.index] = result;
        printReady();
    };
    tournament.start(0);
    while (!tournament.done()) {
        tournament.poll(0);
        if (anyLlm) llmSide->client->poll();
        live.update(static_cast<int>(results.size()));
        if (tournament.requestsInFlight() > 0) llmSide->transport.wait(20);
    }
    live.clear();
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
    out.spentUsd = tournament.spentUsd();
    out.budgetReached = tournament.budgetReached();
    std::vector<GameResult> all;
    for (const auto& [index, r] : results) all.push_back(r);
    out.rows = leaderboard(all);
    out.results = std::move(results);
    out.exitCode = writeFailed || int(out.results.size()) < plan.games ? 1 : 0;
    return out;
}

WerewolfTally tallyWerewolfRun(const std::map<int, GameResult>& results) {
    WerewolfTally t;
    for (const auto& [index, r] : results) {
        t.villagerWins += r.winner == werewolf::Team::Villagers;
        t.wolfWins += r.winner == werewolf::Team::Wolves;
        t.unfinished += r.winner ? 0 : 1;
        t.fallbacks += r.fallbacks();
        t.asks += r.asks();
        t.notesFallbacks += r.notesFallbacks();
        t.notesAsks += r.notesAsks();
        t.tokens += r.tokens();
        t.costUsd += r.costUsd();
    }
    return t;
}

std::optional<std::string> writeWerewolfSummary(const std::string& dir, const TournamentConfig& plan,
                                                const WerewolfRun& run, bool withResults) {
    const WerewolfTally t = tallyWerewolfRun(run.results);
    nlohmann::json summary = {{"format", "chaiba-werewolf-summary"},
                              {"games", plan.games},
                              {"villager_wins", t.villagerWins},
                              {"wolf_wins", t.wolfWins},
                              {"unfinished", t.unfinished},
                              {"fallbacks", t.fallbacks},
                              {"asks", t.asks},
                              {"decision_fallbacks", t.fallbacks - t.notesFallbacks},
                              {"decision_asks", t.asks - t.notesAsks},
                              {"notes_fallbacks", t.notesFallbacks},
                              {"notes_asks", t.notesAsks},
                              {"tokens", t.tokens},
                              {"cost_usd", std::max(t.costUsd, run.spentUsd)},
                              {"rules", plan.balanced ? "balanced" : "plain"},
                              {"leaderboard", nlohmann::json::parse(leaderboardJson(run.rows))}};
    if (withResults) {
        nlohmann::json games = nlohmann::json::array();
        for (const auto& [index, r] : run.results) games.push_back(nlohmann::json::parse(gameResultJson(r)));
        summary["results"] = std::move(games);
    }
    if (auto bad = persist::writeFileAtomic(dir + "/summary.json", summary.dump(1)))
        return "cannot write " + dir + "/summary.json: " + *bad;
    return std::nullopt;
}

} // namespace chaiba::cli
