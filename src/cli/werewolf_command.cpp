// `chaiba werewolf`: headless Werewolf games between rule-based bots and LLMs (OpenRouter or any
// OpenAI-compatible server) with the same session and the same tournament runner as the page's
// Werewolf Arena: seats rotate per game (--mirror replays each deal with the players rotated
// through every seat). --out DIR keeps the run in a RunFolder (its settings as a manifest, each
// finished game logged before its line is printed), a JSON file per game and a summary;
// --resume DIR alone continues it. A line per game and the leaderboard. The day runs on a
// simulated clock, so runs replay. Key: OPENROUTER_API_KEY only.
#include "src/cli/llm_cli.h"
#include "src/cli/werewolf_run.h"
#include "src/modes/werewolf/game_export.h"
#include "src/modes/werewolf/game_session.h"
#include "src/modes/werewolf/tournament_store.h"
#include "src/modes/werewolf/results.h"
#include "src/modes/werewolf/tournament.h"
#include "src/persist/bounded_read.h"
#include "src/persist/durable_file.h"
#include "src/persist/run_folder.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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

// The setting flags of a run (everything of TournamentConfig the command line sets), applied to
// `plan` where given. Errors name the flag. `given` collects the flags present.
std::optional<std::string> applyFlags(Args& args, TournamentConfig& plan, std::vector<std::string>& given) {
    auto number = [&](const char* flag, long long lo, long long hi, auto& field) -> bool {
        if (!args.value(flag)) return false;
        given.push_back(flag);
        field = static_cast<std::remove_reference_t<decltype(field)>>(args.integer(flag, 0, lo, hi));
        return true;
    };
    if (auto players = args.value("players")) {
        given.push_back("players");
        llm::Result<std::vector<std::string>> parsed = parsePlayers(*players);
        if (!parsed.isOk()) return parsed.error;
        plan.players = *parsed.value;
    }
    if (auto roles = args.value("roles")) {
        given.push_back("roles");
        llm::Result<std::vector<Role>> parsed = parseRoles(*roles);
        if (!parsed.isOk()) return parsed.error;
        plan.roles = *parsed.value;
    }
    if (auto rules = args.value("rules")) {
        given.push_back("rules");
        const std::optional<werewolf::RulesPreset> preset = werewolf::parseRulesPreset(*rules);
        if (!preset) return "--rules must be " + std::string(werewolf::kRulesPresetChoices);
        plan.rules = *preset;
    }
    if (auto timeouts = args.value("model-timeout")) {
        given.push_back("model-timeout");
        llm::Result<std::map<std::string, int>> parsed = parseModelTimeouts(*timeouts);
        if (!parsed.isOk()) return "--model-timeout: " + parsed.error;
        plan.modelTimeoutMs = *parsed.value;
    }
    number("games", 1, kMaxGames, plan.games);
    number("seed", 0, 0x7fffffffffffffffLL, plan.seed);
    number("concurrency", 1, 16, plan.concurrency);
    number("timeout-ms", 100, 3600000, plan.timeoutMs);
    number("poll-ms", 1, 600000, plan.pollMs);
    number("max-day-messages", 1, 1000, plan.maxDayMessages);
    number("max-day-ms", 1, 86400000, plan.maxDayMs);
    number("spacing-ms", 0, 600000, plan.spacingMs);
    number("max-rounds", 1, 1000, plan.maxRounds);
    if (args.has("mirror")) {
        given.push_back("mirror");
        plan.mirror = true;
    }
    if (args.has("no-notes")) {
        given.push_back("no-notes");
        plan.notes = false;
    }
    if (args.error()) return *args.error();
    if (plan.players.empty()) return std::string("--players is required");
    if (auto bad = validate(plan)) return *bad;
    return std::nullopt;
}

// The files a run of this command writes beside its log (an older build wrote only these).
std::vector<std::string> runFilesIn(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name == "summary.json" || (name.rfind("game-", 0) == 0 && name.size() > 10 &&
                                        name.compare(name.size() - 5, 5, ".json") == 0))
            out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// What the run's folder held: the plan, the finished games, what to tell (dropped, migrated).
struct OpenedRun {
    TournamentConfig plan;
    std::map<int, GameResult> results;
    std::vector<std::string> notes;
};

// --resume DIR: the run's own settings from its manifest; flags may grow it (--games) or change
// how many games run at once, nothing else (a setting that differs is refused, by name).
std::optional<std::string> resumeRun(Args& args, persist::RunFolder& folder, const std::string& dir, OpenedRun& out) {
    TournamentConfig manifest;
    if (auto bad = resumeWerewolfRun(folder, dir, manifest, out.results)) return bad;
    out.notes = folder.notes();
    TournamentConfig asked = manifest;
    std::vector<std::string> given;
    if (auto bad = applyFlags(args, asked, given)) return bad;
    std::vector<std::string> differ;
    const nlohmann::json before = nlohmann::json::parse(configJson(manifest));
    const nlohmann::json after = nlohmann::json::parse(configJson(asked));
    for (auto it = before.begin(); it != before.end(); ++it)
        if (it.key() != "games" && it.key() != "concurrency" && after[it.key()] != it.value())
            differ.push_back(it.key() + " " + after[it.key()].dump() + " (the run's: " + it.value().dump() + ")");
    if (asked.modelTimeoutMs != manifest.modelTimeoutMs) differ.push_back("model-timeout");
    if (!differ.empty()) {
        std::string list;
        for (const std::string& d : differ) list += (list.empty() ? "" : "; ") + d;
        return "--resume " + dir + " continues the run with the settings in its " + persist::kRunLogName +
               "; these flags differ from them: " + list + ". Leave them out, or start another run with --out";
    }
    if (asked.games < manifest.games)
        return "--games " + std::to_string(asked.games) + ": the run has " + std::to_string(manifest.games) +
               " games; --resume can grow a run, not shrink it";
    if (asked.games > manifest.games) {
        if (auto bad = folder.appendManifest(configJson(asked))) return bad;
        out.notes.push_back("the run grows from " + std::to_string(manifest.games) + " to " +
                            std::to_string(asked.games) + " games");
    }
    out.plan = asked;
    return std::nullopt;
}

// --resume DIR of a folder an older build wrote (game files, no log): the flags give the settings
// (they are not in the folder); its games that fit them move into a new log, the others are played again.
std::optional<std::string> migrateRun(Args& args, persist::RunFolder& folder, const std::string& dir, OpenedRun& out) {
    std::vector<std::string> given;
    if (auto bad = applyFlags(args, out.plan, given))
        return dir + " has no " + persist::kRunLogName + " (a run of an older build): give the flags it was started " +
               "with to take its games over (" + *bad + ")";
    std::vector<std::pair<int, std::string>> games;
    for (int g = 1; g <= out.plan.games; ++g) {
        persist::ReadResult read = persist::readFileBounded(werewolfGamePath(dir, g), persist::kMaxDocumentBytes);
        if (read.missing) continue;
        int id = -1;
        llm::Result<GameResult> r = read.ok() ? werewolfmode::readCheckedResult(read.text, out.plan, true, id)
                                              : llm::Result<GameResult>::fail(read.error);
        if (r.isOk() && r.value->index != g) r = llm::Result<GameResult>::fail("it holds game " + std::to_string(r.value->index));
        if (!r.isOk()) {
            out.notes.push_back("dropped " + werewolfGamePath(dir, g) + ": " + r.error + "; the game is played again");
            continue;
        }
        games.emplace_back(g, gameResultJson(*r.value));
        out.results[g] = std::move(*r.value);
    }
    if (auto bad = folder.create(dir, kWerewolfRunMode, configJson(out.plan), true, {}, games)) return bad;
    out.notes.push_back("took " + std::to_string(games.size()) + " game(s) of " + dir + " into its new " +
                        persist::kRunLogName + " (with the run's settings, so --resume " + dir + " alone continues it)");
    return std::nullopt;
}

} // namespace

const Usage& werewolfUsage() {
    static const Usage usage{
        "werewolf",
        "--players SPEC,SPEC,... [--roles ROLE[:N],...] [--games N] [--mirror] [--out DIR [--overwrite]] [options]\n"
        "  or: chaiba werewolf --resume DIR [--games N] [--concurrency N]",
        "headless Werewolf games between bots and LLMs: a line per game, the leaderboard",
        {{"players", "SPECS", "comma-separated seats (required, except with --resume)"},
         {"roles", "ROLES", "the deal, e.g. werewolf:2,seer,doctor,villager:4 (default: the table's default deal)"},
         {"rules", "RULES", "balanced, plain or kaggle (Kaggle's envs/werewolf: the Seer sees the role, votes may "
                            "abstain, ties drawn at random; README: the rules table; default balanced)"},
         {"games", "N", "games, 1-1000000 (default 1; with --resume: grow the run to N games)"},
         {"seed", "S", "seed of the first game (default 1)"},
         {"mirror", "", "replay each deal with the players rotated through every seat"},
         {"out", "DIR", "a new run in DIR: its settings, each game's result and whole record appended to "
                        "DIR/tournament.log (written and fsynced in batches, a batch before its games' lines are "
                        "printed), summary.json at the end"},
         {"overwrite", "", "with --out: replace a run DIR already holds"},
         {"resume", "DIR", "continue the run in DIR with its own settings, playing the games it lacks (a damaged "
                           "or impossible record is named and its game played again)"},
         {"concurrency", "N", "games at once, 1-16 (default 1)"},
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
    if (args.error() || !args.positional().empty()) {
        std::fprintf(stderr, "error: %s\n%s", args.error() ? args.error()->c_str() : "unexpected argument",
                     usageLines(werewolfUsage()).c_str());
        return 2;
    }
    if (args.value("resume") && (args.value("out") || args.has("overwrite"))) {
        std::fprintf(stderr, "error: --resume continues a run; --out (and --overwrite) start one: give one of them\n");
        return 2;
    }

    // Step 1. The run: a new one from the flags, or the one in --resume DIR with its own settings.
    persist::RunFolder folder;
    OpenedRun run;
    std::optional<std::string> outDir = args.value("resume") ? args.value("resume") : args.value("out");
    std::optional<std::string> bad;
    if (args.value("resume")) {
        std::error_code ec;
        if (!std::filesystem::is_directory(*outDir, ec))
            bad = "no run in " + *outDir + " (the folder does not exist)";
        else
            bad = persist::RunFolder::hasLog(*outDir) ? resumeRun(args, folder, *outDir, run)
                                                      : migrateRun(args, folder, *outDir, run);
    } else {
        std::vector<std::string> given;
        bad = applyFlags(args, run.plan, given);
        if (!bad && outDir) {
            std::error_code ec;
            std::filesystem::create_directories(*outDir, ec);
            bad = ec ? std::optional<std::string>("cannot create " + *outDir + ": " + ec.message())
                     : folder.create(*outDir, kWerewolfRunMode, configJson(run.plan), args.has("overwrite"), runFilesIn(*outDir));
        }
    }
    if (bad) {
        std::fprintf(stderr, "error: %s\n", bad->c_str());
        return 2;
    }
    for (const std::string& note : run.notes) std::fprintf(stderr, "note: %s\n", note.c_str());
    const TournamentConfig& plan = run.plan;

    // Step 2. The games (the resumed ones first, as lines), each logged before its line.
    WerewolfRunOptions options;
    options.folder = outDir ? &folder : nullptr;
    options.quiet = args.has("quiet");
    options.keepResults = false; // the tally and the rows are enough: a million games stay small
    const WerewolfRun played = runWerewolfGames(args, plan, run.results, options);
    if (played.exitCode == 2) return 2;

    // Step 3. The summary and the leaderboard.
    const WerewolfTally& tally = played.tally;
    const double seconds = played.seconds;
    const long long fresh = static_cast<long long>(played.finished) - static_cast<long long>(run.results.size());
    const int decisionFallbacks = tally.fallbacks - tally.notesFallbacks, decisionAsks = tally.asks - tally.notesAsks;
    std::printf(
        "summary: %d games: villagers %d, wolves %d, unfinished %d; fallbacks: decisions %d/%d (%.1f%%), notes "
        "%d/%d; %lld tokens; $%.6f; %.2f s (%.1f games/s)\n",
        plan.games, tally.villagerWins, tally.wolfWins, tally.unfinished, decisionFallbacks, decisionAsks,
        decisionAsks ? 100.0 * decisionFallbacks / decisionAsks : 0.0, tally.notesFallbacks, tally.notesAsks,
        tally.tokens, tally.costUsd, seconds,
        seconds > 0 ? double(fresh) / seconds : 0.0);
    std::printf("%s", formatLeaderboard(played.rows).c_str());
    int code = played.exitCode != 0 || tally.unfinished > 0 ? 1 : 0;
    if (outDir)
        if (auto unwritten = writeWerewolfSummary(*outDir, plan, played, false)) {
            std::fprintf(stderr, "error: %s\n", unwritten->c_str());
            code = 1;
        }
    return code;
}

} // namespace chaiba::cli
