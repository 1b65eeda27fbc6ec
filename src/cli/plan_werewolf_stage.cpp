// A plan's werewolf stage in `chaiba plan --run`: the run of `chaiba werewolf` (werewolf_run.h:
// the page's Werewolf Arena runner, each game logged in the stage's folder as it ends), its
// leaderboard as the stage's ranking.
#include "src/cli/plan_werewolf_stage.h"

#include "src/cli/werewolf_run.h"
#include "src/modes/werewolf/game_export.h"
#include "src/modes/werewolf/results.h"
#include "src/modes/werewolf/tournament.h"
#include "src/modes/werewolf/werewolf_prompts.h"
#include "src/persist/bounded_read.h"
#include "src/persist/durable_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace chaiba::cli {

namespace {
constexpr const char* kSummaryName = "summary.json";
}

int runPlanWerewolfStage(const Args& args, const planner::Stage& stage, const std::vector<std::string>& seats,
                         std::uint64_t seed, int concurrency, const std::optional<std::string>& outDir,
                         bool continueUnfinished, double budgetUsd, std::vector<std::string>& ranked, double& spentUsd) {
    using namespace werewolfmode;
    // Step 1. The tournament's setup from the stage, checked like the page's setup.
    llm::Result<TournamentConfig> made =
        stageConfig({seats, stage.roles, stage.rules, stage.games, seed, concurrency, budgetUsd});
    if (!made.isOk()) {
        std::fprintf(stderr, "error: %s\n", made.error.c_str());
        return 2;
    }
    const TournamentConfig& config = *made.value;

    // Step 2. The stage's folder: the run of a stage left running (the plan was stopped) continues
    // when its settings are these; any other is replaced (the plan records which run counts).
    persist::RunFolder folder;
    std::map<int, GameResult> resumed;
    if (outDir) {
        std::error_code ec;
        std::filesystem::create_directories(*outDir, ec);
        TournamentConfig logged;
        std::map<int, GameResult> kept;
        if (continueUnfinished && persist::RunFolder::hasLog(*outDir) &&
            !resumeWerewolfRun(folder, *outDir, logged, kept) &&
            configJson(logged) == configJson(config)) {
            for (const std::string& note : folder.notes()) std::fprintf(stderr, "note: %s\n", note.c_str());
            if (!kept.empty())
                std::fprintf(stderr, "note: %d of %d games of the stage were played before; the rest follow\n",
                             int(kept.size()), config.games);
            resumed = std::move(kept);
        } else {
            folder.close();
            if (auto bad = folder.create(*outDir, kWerewolfRunMode, configJson(config), true)) {
                std::fprintf(stderr, "error: %s\n", bad->c_str());
                return 1;
            }
        }
    }

    // Step 3. The games, each logged as it ends; the leaderboard as the stage's ranking.
    WerewolfRunOptions options;
    options.folder = outDir ? &folder : nullptr;
    options.printGames = false;
    const WerewolfRun run = runWerewolfGames(args, config, std::move(resumed), options);
    spentUsd += run.spentUsd;
    if (run.exitCode == 2) return 2;
    for (const PlayerStanding& row : run.rows) ranked.push_back(row.player);
    std::printf("%s", formatLeaderboard(run.rows).c_str());
    if (outDir && (!run.results.empty() || int(run.results.size()) == config.games))
        if (auto bad = writeWerewolfSummary(*outDir, config, run, true)) {
            std::fprintf(stderr, "error: %s\n", bad->c_str());
            return 1;
        }
    if (int(run.results.size()) < config.games) {
        std::fprintf(stderr, "error: %d of %d games played%s\n", int(run.results.size()), config.games,
                     run.budgetReached ? " (the stage's budget was reached; the games played are kept)" : "");
        return 1;
    }
    return run.exitCode;
}

std::vector<std::string> werewolfStageRanking(const std::string& outDir) {
    std::vector<std::string> out;
    const persist::ReadResult saved =
        persist::readFileBounded(outDir + "/" + kSummaryName, persist::kMaxDocumentBytes);
    if (!saved.ok()) return out;
    const nlohmann::json doc = nlohmann::json::parse(saved.text, nullptr, false);
    if (!doc.is_object() || !doc.contains("leaderboard") || !doc["leaderboard"].is_array()) return out;
    for (const nlohmann::json& row : doc["leaderboard"])
        if (row.is_object() && row.contains("player") && row["player"].is_string())
            out.push_back(row["player"].get<std::string>());
    return out;
}

} // namespace chaiba::cli
