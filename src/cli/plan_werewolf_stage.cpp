// A plan's werewolf stage in `chaiba plan --run`: WerewolfTournament (the page's Werewolf Arena
// runner) pumped natively to its end, its leaderboard as the stage's ranking.
#include "src/cli/plan_werewolf_stage.h"

#include "src/cli/llm_cli.h"
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
                         std::vector<std::string>& ranked) {
    using namespace werewolfmode;
    // Step 1. The tournament's setup from the stage, checked like the page's setup.
    TournamentConfig config;
    config.players = seats;
    if (!stage.roles.empty()) {
        llm::Result<std::vector<werewolf::Role>> roles = parseRoles(stage.roles);
        if (!roles.isOk()) {
            std::fprintf(stderr, "error: roles: %s\n", roles.error.c_str());
            return 2;
        }
        config.roles = *roles.value;
    }
    config.balanced = !stage.plainRules;
    config.games = stage.games;
    config.seed = seed;
    config.concurrency = std::clamp(concurrency, 1, 16);
    if (stage.budgetUsd > 0) config.budgetUsd = stage.budgetUsd;
    if (auto bad = validate(config)) {
        std::fprintf(stderr, "error: %s\n", bad->c_str());
        return 2;
    }
    const bool anyLlm = config.anyModel();
    llm::CallSettings settings;
    std::unique_ptr<LlmPlumbing> llmSide = openLlm(args, anyLlm, settings);
    if (!llmSide) return 2;
    llm::DirectoryAssetSource assets(assetsDirFrom(args));
    llm::Result<WerewolfPrompts> prompts = loadWerewolfPrompts(assets);
    if (!prompts.isOk()) {
        std::fprintf(stderr, "error: %s (set --assets DIR or CHAIBA_ASSETS_DIR)\n", prompts.error.c_str());
        return 1;
    }

    // Step 2. The games, pumped to the end (bots only: no waiting at all).
    WerewolfTournament tournament(config, *prompts.value, anyLlm ? llmSide->client.get() : nullptr,
                                  llmSide->catalog, {}, 0);
    tournament.start(double(llmSide->clock.nowMs()));
    while (!tournament.done()) {
        tournament.poll(double(llmSide->clock.nowMs()));
        if (anyLlm) {
            llmSide->client->poll();
            llmSide->transport.wait(5);
        }
    }
    std::vector<GameResult> all;
    int unfinished = 0;
    for (const auto& [index, r] : tournament.results()) {
        all.push_back(r);
        unfinished += r.winner ? 0 : 1;
    }
    const std::vector<PlayerStanding> rows = leaderboard(all);
    for (const PlayerStanding& row : rows) ranked.push_back(row.player);
    std::printf("%s", formatLeaderboard(rows).c_str());
    if (int(all.size()) < config.games) {
        std::fprintf(stderr, "error: %d of %d games played%s\n", int(all.size()), config.games,
                     tournament.budgetReached() ? " (the stage's budget was reached)" : "");
        return 1;
    }

    // Step 3. The folder: every game's result and the leaderboard (read back by a later run).
    if (outDir) {
        std::error_code ec;
        std::filesystem::create_directories(*outDir, ec);
        nlohmann::json games = nlohmann::json::array();
        for (const GameResult& r : all) games.push_back(nlohmann::json::parse(gameResultJson(r)));
        const nlohmann::json summary = {{"format", "chaiba-werewolf-summary"},
                                        {"games", config.games},
                                        {"unfinished", unfinished},
                                        {"cost_usd", tournament.spentUsd()},
                                        {"rules", config.balanced ? "balanced" : "plain"},
                                        {"results", games},
                                        {"leaderboard", nlohmann::json::parse(leaderboardJson(rows))}};
        if (auto bad = persist::writeFileAtomic(*outDir + "/" + kSummaryName, summary.dump(1))) {
            std::fprintf(stderr, "error: %s\n", bad->c_str());
            return 1;
        }
    }
    return 0;
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
