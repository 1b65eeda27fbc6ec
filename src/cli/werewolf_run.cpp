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
#include <future>

namespace chaiba::cli {

using namespace chaiba::werewolfmode;

namespace {

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
    // seats rotate; a mirrored run repeats each deal once per rotation. A finished game's result
    // and whole record join the open batch; a closed batch is staged in the log, written and
    // fsynced by a writer thread while the games go on (see kFlushGames), then its games' lines
    // are printed in order. The standings are kept as a tally, so a run's memory does not grow
    // with its games (results are kept only when the caller asks).
    double spentBefore = 0;
    for (const auto& [index, r] : resumed) spentBefore += r.costUsd();
    StandingsTally standings(plan.players);
    std::vector<GameResult> recount; // only if a result names a player outside the pool (then all are kept)
    bool keepAll = options.keepResults;
    auto count = [&](const GameResult& r) {
        out.tally.add(r);
        ++out.finished;
        if (!standings.add(r)) keepAll = true;
        if (keepAll) out.results[r.index] = r;
    };
    std::map<int, GameResult> stored = resumed; // on disk (or no --out), waiting for their line
    std::map<int, GameResult> staged;           // in the open batch, not yet on disk
    std::map<int, GameResult> writing;          // in the batch the writer thread is storing
    int printed = 0;
    bool writeFailed = false;
    auto printReady = [&] {
        for (auto it = stored.begin(); it != stored.end() && it->first == printed + 1; it = stored.erase(it)) {
            ++printed;
            const GameResult& r = it->second;
            if (options.printGames && (!quiet || printed == games))
                std::printf("game %d/%lld: %s%s\n", printed, games, resumed.count(printed) ? "(resumed) " : "",
                            describeResult(r).c_str());
        }
        std::fflush(stdout);
    };
    for (const auto& [index, r] : resumed) count(r);
    printReady();
    const auto runStart = std::chrono::steady_clock::now();
    auto sinceStartMs = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - runStart).count();
    };
    TerminalProgress live("werewolf", out.finished, static_cast<int>(games));
    double batchStartMs = 0;
    // The open batch's texts: a result and a record per game. Only the writer thread touches the
    // run folder while it runs (staging, checksums, one write, one fsync); the loop goes on
    // playing, and reports the batch's games once the writer says they are on disk.
    struct BatchText {
        int index;
        std::string result, record;
    };
    std::vector<BatchText> batch;
    std::size_t batchBytes = 0;
    std::future<std::optional<std::string>> writer;
    // The writer's batch, when it is done: on disk, its games reported; else nothing of it is.
    auto collect = [&](bool wait) {
        if (!writer.valid()) return;
        if (!wait && writer.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
        if (std::optional<std::string> failed = writer.get()) {
            live.clear();
            std::fprintf(stderr, "error: cannot log games in %s: %s\n", outDir->c_str(), failed->c_str());
            writeFailed = true;
            writing.clear(); // not stored: never reported as kept
            return;
        }
        stored.merge(writing);
        printReady();
    };
    // The open batch to the writer (after the one it is storing, if any).
    auto flush = [&](bool wait) {
        collect(true);
        if (!staged.empty() && !writeFailed) {
            writing = std::move(staged);
            staged.clear();
            writer = std::async(std::launch::async, [&folder = *options.folder, texts = std::move(batch)] {
                for (const BatchText& t : texts) {
                    std::optional<std::string> failed = folder.stageGame(t.index, t.result);
                    if (!failed) failed = folder.stageRecord(t.record);
                    if (failed) return std::optional<std::string>("game " + std::to_string(t.index) + ": " + *failed);
                }
                return folder.flush();
            });
        }
        staged.clear(); // after a failed write: never stored, never reported
        batch.clear();
        batchBytes = 0;
        if (wait) collect(true);
    };
    WerewolfTournament tournament(plan, *prompts.value, anyLlm ? llmSide->client.get() : nullptr, llmSide->catalog,
                                  resumed, spentBefore);
    tournament.keepResults(false);
    tournament.onFinished = [&](const GameResult& result, const GameSession& s) {
        if (!s.finished()) {
            live.clear();
            std::fprintf(stderr, "warning: game %d is stuck; stopped\n", result.index);
        }
        if (!quiet)
            for (int seat = 0; seat < seats; ++seat)
                if (const AiSeat* ai = s.aiSeat(seat))
                    for (const AskOutcome& a : ai->history())
                        if (a.fallback != FallbackReason::None) {
                            live.clear(); // the fallback lines stand alone
                            std::fprintf(stderr, "fallback: game %d %s %s, %s round %d (%s): %s\n", result.index,
                                         werewolf::seatName(seat).c_str(),
                                         s.config().seats[std::size_t(seat)].player.c_str(),
                                         std::string(askKindName(a.kind)).c_str(), a.round,
                                         std::string(fallbackReasonName(a.fallback)).c_str(), a.fallbackDetail.c_str());
                        }
        count(result);
        if (!outDir) {
            stored[result.index] = result;
            if (options.printGames && (!quiet || result.index == games)) live.clear();
            printReady();
            return;
        }
        if (staged.empty()) batchStartMs = sinceStartMs();
        std::string resultText = gameResultJson(result);
        std::string record = exportGameJson(s, result, -1, resultText);
        batchBytes += resultText.size() + record.size();
        batch.push_back({result.index, std::move(resultText), std::move(record)});
        staged[result.index] = result;
    };
    tournament.start(0);
    while (!tournament.done()) {
        tournament.poll(0);
        if (anyLlm) llmSide->client->poll();
        const bool waiting = tournament.requestsInFlight() > 0;
        if (outDir) {
            collect(false);
            const bool full = staged.size() >= kFlushGames || batchBytes >= kFlushBytes;
            // A batch closes when full, when due, or when the run waits on a model; it goes to the
            // writer once the writer is free (a second full batch waits for it).
            if (!staged.empty() && (waiting || full || sinceStartMs() - batchStartMs >= kFlushMs) &&
                (!writer.valid() || full)) {
                live.clear();
                flush(false);
            }
        }
        live.update(out.finished);
        if (waiting) llmSide->transport.wait(20);
    }
    live.clear();
    if (outDir) flush(true);
    printReady();
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
    out.spentUsd = tournament.spentUsd();
    out.budgetReached = tournament.budgetReached();
    if (keepAll && !options.keepResults) { // a player outside the pool: count every game again
        std::vector<GameResult> all;
        for (const auto& [index, r] : out.results) all.push_back(r);
        out.rows = leaderboard(all);
    } else {
        RatingRuns runs = standings.runs();
        runs.overall->step(1 << 30);
        runs.byRole->step(1 << 30);
        runs.perRole->step(1 << 30);
        out.rows = rankStandings(standings.counts(), &runs.overall->fit(), &runs.byRole->fit(), &runs.perRole->fit());
    }
    out.exitCode = writeFailed || out.finished < plan.games ? 1 : 0;
    return out;
}

void WerewolfTally::add(const GameResult& r) {
    villagerWins += r.winner == werewolf::Team::Villagers;
    wolfWins += r.winner == werewolf::Team::Wolves;
    unfinished += r.winner ? 0 : 1;
    fallbacks += r.fallbacks();
    asks += r.asks();
    notesFallbacks += r.notesFallbacks();
    notesAsks += r.notesAsks();
    tokens += r.tokens();
    costUsd += r.costUsd();
}

WerewolfTally tallyWerewolfRun(const std::map<int, GameResult>& results) {
    WerewolfTally t;
    for (const auto& [index, r] : results) t.add(r);
    return t;
}

std::optional<std::string> writeWerewolfSummary(const std::string& dir, const TournamentConfig& plan,
                                                const WerewolfRun& run, bool withResults) {
    const WerewolfTally& t = run.tally;
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
                              {"rules", std::string(werewolf::rulesPresetName(plan.rules))},
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
