// `chaiba arena`: a headless tournament (the same scheduler, match runner and ratings as the web
// arena) between LLMs, engine levels and the random mover. Writes the bundle and PGN to --out DIR,
// resumes with --resume DIR, prints a line per game and the leaderboard. Key: OPENROUTER_API_KEY.
#include "src/llm/assets.h"
#include "src/modes/chess/chess_prompts.h"
#include "src/modes/chess/chess_agent.h"
#include "src/llm/openrouter_client.h"
#include "src/modes/chess/engine_player.h"
#include "src/modes/chess/game_analyser.h"
#include "src/modes/chess/players.h"
#include "src/modes/chess/tournament_runner.h"
#include "src/cli/arena_run.h"
#include "src/cli/llm_cli.h"

#include "engine/search/levels.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <thread>

namespace chaiba::cli {

namespace {

using chessmode::PlayerSpec;

// Ctrl-C: the first stops the tournament (the bundle keeps the running games unfinished, for
// --resume to continue), the bundle is written and the leaderboard printed; a second one kills
// the process.
volatile std::sig_atomic_t gInterrupted = 0;
extern "C" void onInterrupt(int) {
    gInterrupted = 1;
    std::signal(SIGINT, SIG_DFL);
}

const char* usage() {
    return "usage: chaiba arena (--config FILE.json | --players SPEC,SPEC,...) [--format "
           "arena|roundrobin|double-roundrobin|gauntlet]\n"
           "                    [--games N] [--concurrency N] [--budget-usd X] [--960] [--seed S] "
           "[--base-url URL]\n"
           "                    [--out DIR] [--resume DIR] [--tempo max-speed|ticker] [--ticker-seconds N]\n"
           "                    [--timeout-ms MS] [--max-plies N] [--assets DIR] [--quiet]\n"
           "                    [--context full|stateless] [--pairing nearest|informative] [--analyse-nodes N]  (move quality after the run; 0 = none; default 30000)\n"
           "SPEC: llm:MODEL_ID | engine:LEVEL | engine | random. The key is read from OPENROUTER_API_KEY.\n";
}

std::optional<std::string> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool writeFile(const std::string& path, const std::string& text) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    return std::fclose(f) == 0 && ok;
}

std::vector<std::string> splitComma(const std::string& text) {
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

std::optional<double> calibratedRating(int level) {
    const std::optional<search::LevelSpec> spec =
        level < 0 ? search::levelSpec(search::maxLevel()) : search::levelSpec(level);
    if (!spec || spec->ratingElo <= 0) return std::nullopt;
    return double(spec->ratingElo);
}

// Writes tournament.json and games.pgn into dir (created if missing); false after printing why.
bool writeBundle(const std::string& dir, const chessmode::TournamentBundle& bundle, const std::string& key) {
    ::mkdir(dir.c_str(), 0755);
    chessmode::Parsed<std::string> json = chessmode::exportBundle(bundle, key);
    chessmode::Parsed<std::string> pgn = json.ok() ? chessmode::bundlePgn(bundle, key) : json;
    if (!json.ok() || !pgn.ok()) {
        std::fprintf(stderr, "error: cannot export the bundle: %s\n", (json.ok() ? pgn : json).error.c_str());
        return false;
    }
    if (!writeFile(dir + "/tournament.json", *json.value) || !writeFile(dir + "/games.pgn", *pgn.value)) {
        std::fprintf(stderr, "error: cannot write into %s\n", dir.c_str());
        return false;
    }
    return true;
}

std::string fixed(double value, int decimals) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

// The leaderboard as an aligned text table.
void printLeaderboard(const chessmode::TournamentConfig& config, const chessmode::Leaderboard& board) {
    std::vector<std::vector<std::string>> rows = {{"#", "player", "rating", "±95%", "games", "W/D/L",
                                                   "forfeits", "illegal/100", "$/game", "tokens/move", "ACPL",
                                                   "blunders/100", "context", "games to ±50"}};
    for (const chessmode::LeaderboardRow& r : board.rows) {
        const double half = (r.ratingHigh - r.ratingLow) / 2;
        rows.push_back(
            {std::to_string(r.rank), config.participants[size_t(r.participant)].displayName(),
             fixed(r.rating, 0) + (r.anchored ? "*" : ""), r.anchored ? "anchor" : fixed(half, 0),
             std::to_string(r.games),
             std::to_string(r.wins) + "/" + std::to_string(r.draws) + "/" + std::to_string(r.losses),
             std::to_string(r.forfeits), fixed(r.illegalPer100Moves, 1), fixed(r.avgCostPerGame, 4),
             fixed(r.avgTokensPerMove, 0), r.analysedMoves > 0 ? fixed(r.avgCpLoss, 0) : "-",
             r.analysedMoves > 0 ? fixed(r.blundersPer100Moves, 1) : "-", r.contextPolicy,
             r.gamesToPlusMinus50 < 0 ? "-" : std::to_string(r.gamesToPlusMinus50)});
    }
    std::vector<size_t> width(rows[0].size(), 0);
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    for (const auto& row : rows) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
            const std::string& cell = row[c];
            const std::string pad(width[c] - cell.size(), ' ');
            line += c == 1 ? cell + pad : pad + cell; // names left, numbers right
            if (c + 1 < row.size()) line += "  ";
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        std::printf("%s\n", line.c_str());
    }
    std::printf("%d games rated, %d unfinished%s\n", board.gamesRated, board.gamesUnfinished,
                board.rows.empty() ? "" : "; * = anchored to the engine's calibrated rating");
}

} // namespace

ArenaRun runTournament(const Args& args, const chessmode::TournamentConfig& config,
                       std::vector<chessmode::GameRecord> resumed, const ArenaRunOptions& options) {
    ArenaRun result;
    const bool quiet = options.quiet;
    const long long timeoutMs = options.timeoutMs;
    const bool resuming = options.resuming;
    const std::optional<std::string>& outDir = options.outDir;
    std::vector<std::optional<PlayerSpec>> specs;
    bool anyLlm = false;
    for (const chessmode::Participant& p : config.participants) {
        chessmode::Parsed<PlayerSpec> spec = chessmode::parsePlayerSpec(p.spec, search::maxLevel());
        if (!spec.ok()) {
            std::fprintf(stderr, "error: %s\n", spec.error.c_str());
            return result.fail(2);
        }
        anyLlm = anyLlm || spec.value->kind == PlayerSpec::Kind::Model;
        specs.push_back(spec.value);
    }

    // Step 2. The LLM plumbing (as in `chaiba play`): key, prompts, client, catalog.
    chessmode::ChessPlaySettings settings;
    std::unique_ptr<LlmPlumbing> llmSide = openLlm(args, anyLlm, settings);
    if (!llmSide) return result.fail(2);
    llm::DirectoryAssetSource assets(assetsDirFrom(args));
    llm::Result<chessmode::AgentPrompts> prompts = chessmode::loadAgentPrompts(assets);
    if (anyLlm && !prompts.isOk()) {
        std::fprintf(stderr, "error: %s (set --assets DIR or CHAIBA_ASSETS_DIR)\n", prompts.error.c_str());
        return result.fail(1);
    }
    net::CurlTransport& transport = llmSide->transport;
    llm::OpenRouterClient& client = *llmSide->client;
    const std::vector<llm::ModelInfo>& catalog = llmSide->catalog;

    // Step 3. The factory: a Player per side per game.
    chessmode::PlayerFactory factory = [&](const chessmode::PlayerSlot& slot,
                                       std::string& error) -> std::unique_ptr<chessmode::Player> {
        const PlayerSpec& spec = *specs[size_t(slot.participant)];
        switch (spec.kind) {
        case PlayerSpec::Kind::Random: return std::make_unique<chessmode::RandomPlayer>(slot.id, slot.seed);
        case PlayerSpec::Kind::Engine: {
            std::optional<search::LevelSpec> level =
                spec.level < 0 ? search::levelSpec(search::maxLevel()) : search::levelSpec(spec.level);
            if (!level) {
                error = "no engine level " + std::to_string(spec.level);
                return nullptr;
            }
            return std::make_unique<chessmode::EnginePlayer>(slot.id, *level, slot.seed);
        }
        case PlayerSpec::Kind::Model: break;
        case PlayerSpec::Kind::Bot:
        case PlayerSpec::Kind::Person: error = "no such player here"; return nullptr;
        }
        const chessmode::Side side = slot.side == chess::Color::White ? chessmode::Side::White : chessmode::Side::Black;
        chessmode::AgentConfig agentConfig =
            chessmode::agentConfigFromSettings(settings, slot.id, spec.modelId, spec.modelId, side);
        agentConfig.timeoutMs = int(timeoutMs);
        agentConfig.contextPolicy = chessmode::contextPolicyOf(config, slot.participant);
        for (const llm::ModelInfo& m : catalog) {
            if (m.id != spec.modelId) continue;
            agentConfig.useTools = m.supportsTools;
            agentConfig.pricing = m.pricing;
        }
        auto player =
            std::make_unique<chessmode::LlmPlayer>(agentConfig, *prompts.value, client, slot.opponentName);
        if (!quiet)
            player->onNote = [](const std::string& note) {
                std::fprintf(stderr, "note: %s\n", note.c_str());
            };
        return player;
    };

    const int resumedGames = int(resumed.size());
    chessmode::Parsed<std::unique_ptr<chessmode::TournamentRunner>> created =
        chessmode::TournamentRunner::create(config, factory, std::move(resumed));
    if (!created.ok()) {
        std::fprintf(stderr, "error: %s\n", created.error.c_str());
        return result.fail(2);
    }
    chessmode::TournamentRunner& runner = **created.value;
    std::printf("arena: %s, %zu players, %d games, concurrency %d%s\n",
                std::string(formatName(config.format)).c_str(), config.participants.size(),
                runner.scheduler().totalGames(), config.concurrency,
                resuming ? (", resuming after " + std::to_string(runner.games().size()) + " of " +
                            std::to_string(resumedGames) + " stored games" +
                            (runner.pendingResumes() > 0
                                 ? " (" + std::to_string(runner.pendingResumes()) + " unfinished continue)"
                                 : std::string()))
                               .c_str()
                         : "");
    std::fflush(stdout);

    // Step 4. The loop: poll, print, save after each finished game.
    auto nowMs = [&] { return double(llmSide->clock.nowMs()); };
    gInterrupted = 0;
    std::signal(SIGINT, onInterrupt);
    runner.start(nowMs());
    int exitCode = 0;
    // Taken before running games are stopped, so the bundle keeps them for --resume to continue.
    std::optional<chessmode::TournamentBundle> kept;
    while (!runner.done()) {
        if (gInterrupted) {
            std::printf("interrupted: %d running game(s) kept unfinished; continue with --resume DIR\n",
                        int(runner.liveGames().size()) + runner.pendingResumes());
            kept = runner.bundle();
            runner.stop(chessmode::StopMode::AbandonRunning);
            exitCode = 130;
            break;
        }
        client.poll(); // the loop's one pump: transport callbacks, due retries
        runner.poll(nowMs());
        bool save = false;
        for (const chessmode::RunnerEvent& e : runner.takeEvents()) {
            switch (e.kind) {
            case chessmode::RunnerEvent::Kind::GameFinished:
                std::printf("game %d/%d #%d: %s\n", int(runner.games().size()),
                            runner.scheduler().totalGames(), e.gameId, e.message.c_str());
                save = true;
                break;
            case chessmode::RunnerEvent::Kind::Retrying:
                if (!quiet) std::fprintf(stderr, "note: game #%d: %s\n", e.gameId, e.message.c_str());
                break;
            case chessmode::RunnerEvent::Kind::BudgetReached:
            case chessmode::RunnerEvent::Kind::Paused: std::printf("%s\n", e.message.c_str()); break;
            case chessmode::RunnerEvent::Kind::GameAbandoned:
                std::printf("abandoned #%d: %s\n", e.gameId, e.message.c_str());
                break;
            case chessmode::RunnerEvent::Kind::GameStarted: break;
            }
        }
        std::fflush(stdout);
        if (save && outDir && !writeBundle(*outDir, runner.bundle(), settings.apiKey)) return result.fail(1);
        if (runner.state() == chessmode::RunnerState::Paused) {
            std::fprintf(stderr, "error: %s; continue later with --resume DIR\n",
                         runner.pauseMessage().c_str());
            kept = runner.bundle();
            runner.stop(chessmode::StopMode::AbandonRunning);
            exitCode = 3;
            break;
        }
        if (transport.activeCount() > 0)
            transport.wait(20);
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::signal(SIGINT, SIG_DFL);
    chessmode::TournamentBundle bundle = kept ? std::move(*kept) : runner.bundle();
    if (options.analyseNodes > 0) { // move quality: centipawn loss and blunders per player
        search::AnalysisBudget budget = chessmode::defaultAnalysisBudget();
        budget.maxNodes = static_cast<uint64_t>(options.analyseNodes);
        int analysed = 0;
        if (auto error = chessmode::analyseFinishedRecords(bundle.games, budget, analysed)) {
            std::fprintf(stderr, "error: move-quality analysis: %s\n", error->c_str());
            return result.fail(1);
        }
        std::printf("analysed %d game(s): %llu nodes per position\n", analysed,
                    static_cast<unsigned long long>(budget.maxNodes));
        bundle.leaderboard = chessmode::computeLeaderboard(bundle.config, bundle.games, bundle.ratingOptions);
    }
    if (outDir) {
        if (!writeBundle(*outDir, bundle, settings.apiKey)) return result.fail(1);
        std::printf("wrote %s/tournament.json and %s/games.pgn\n", outDir->c_str(), outDir->c_str());
    }
    std::printf("spent $%.6f%s\n", runner.budget().spentUsd(),
                runner.budgetReached() ? " (budget cap reached: stopped early)" : "");
    printLeaderboard(config, *bundle.leaderboard);
    result.exitCode = exitCode;
    result.spentUsd = runner.budget().spentUsd();
    result.leaderboard = bundle.leaderboard;
    return result;
}

int runArenaCommand(const std::vector<std::string>& argv) {
    Args args(argv,
              {"config", "players", "format", "games", "concurrency", "budget-usd", "seed", "base-url", "out",
               "resume", "tempo", "ticker-seconds", "timeout-ms", "max-plies", "assets", "analyse-nodes", "context",
               "pairing"},
              {"960", "quiet"});
    const long long timeoutMs = args.integer("timeout-ms", 300000, 100, 3600000);
    const long long analyseNodes = args.integer("analyse-nodes", 30000, 0, 100000000); // many games: lighter than `analyse`
    if (args.error() || !args.positional().empty()) {
        std::fprintf(stderr, "error: %s\n%s",
                     args.error() ? args.error()->c_str() : "unexpected positional argument", usage());
        return 2;
    }
    const bool quiet = args.has("quiet");

    // Step 1. The config: a resumed bundle's, a config file, or flags (flags override the file).
    chessmode::TournamentConfig config;
    std::vector<chessmode::GameRecord> resumed;
    if (auto dir = args.value("resume")) {
        const std::optional<std::string> text = readFile(*dir + "/tournament.json");
        if (!text) {
            std::fprintf(stderr, "error: cannot read %s/tournament.json\n", dir->c_str());
            return 2;
        }
        chessmode::Parsed<chessmode::TournamentBundle> bundle = chessmode::importBundle(*text);
        if (!bundle.ok()) {
            std::fprintf(stderr, "error: %s/tournament.json: %s\n", dir->c_str(), bundle.error.c_str());
            return 2;
        }
        config = bundle.value->config;
        resumed = std::move(bundle.value->games);
    } else if (auto path = args.value("config")) {
        const std::optional<std::string> text = readFile(*path);
        if (!text) {
            std::fprintf(stderr, "error: cannot read %s\n", path->c_str());
            return 2;
        }
        chessmode::Parsed<chessmode::TournamentConfig> parsed = chessmode::parseConfigJson(*text);
        if (!parsed.ok()) {
            std::fprintf(stderr, "error: %s: %s\n", path->c_str(), parsed.error.c_str());
            return 2;
        }
        config = *parsed.value;
    } else if (!args.value("players")) {
        std::fprintf(stderr, "error: --players, --config or --resume is required\n%s", usage());
        return 2;
    }
    const bool resuming = args.value("resume").has_value();
    if (resuming && (args.value("players") || args.value("config"))) {
        std::fprintf(stderr,
                     "error: --resume takes the tournament from its bundle (no --players/--config)\n");
        return 2;
    }
    if (auto players = args.value("players")) {
        config.participants.clear();
        for (const std::string& spec : splitComma(*players)) config.participants.push_back({spec, "", -1});
    }
    if (!resuming) {
        if (auto context = args.value("context")) { // the tournament's context policy
            const std::optional<chessmode::ContextPolicy> policy = chessmode::parseContextPolicy(*context);
            if (!policy) {
                std::fprintf(stderr, "error: --context must be full or stateless\n");
                return 2;
            }
            config.contextPolicy = *policy;
        }
        if (auto pairing = args.value("pairing")) { // the continuous arena's pairing rule
            const std::optional<play::ArenaPairing> rule = play::parseArenaPairing(*pairing);
            if (!rule) {
                std::fprintf(stderr, "error: --pairing must be nearest or informative\n");
                return 2;
            }
            config.pairing = *rule;
        }
        if (auto format = args.value("format")) {
            std::optional<play::Format> f = play::parseFormat(*format);
            if (!f) {
                std::fprintf(stderr,
                             "error: --format must be arena, roundrobin, double-roundrobin or gauntlet\n");
                return 2;
            }
            config.format = *f;
        }
        if (auto tempo = args.value("tempo")) {
            std::optional<chessmode::Tempo> t = chessmode::parseTempo(*tempo);
            if (!t) {
                std::fprintf(stderr, "error: --tempo must be max-speed or ticker\n");
                return 2;
            }
            config.tempo = *t;
        }
        config.games = int(args.integer("games", config.games, 1, 1000000));
        config.concurrency = int(args.integer("concurrency", config.concurrency, 1, 256));
        config.tickerSeconds = int(args.integer("ticker-seconds", config.tickerSeconds, 1, 86400));
        config.seed = std::uint64_t(args.integer(
            "seed", static_cast<long long>(config.seed & 0x7fffffffffffffffULL), 0, 0x7fffffffffffffffLL));
        config.maxPlies = int(args.integer("max-plies", config.maxPlies, 1, 100000));
        if (args.has("960")) config.chess960 = true;
        if (auto budget = args.value("budget-usd")) {
            char* end = nullptr;
            const double usd = std::strtod(budget->c_str(), &end);
            if (end == budget->c_str() || *end != '\0' || !(usd > 0 && usd < 1e9)) {
                std::fprintf(stderr, "error: --budget-usd must be a positive number, got '%s'\n",
                             budget->c_str());
                return 2;
            }
            config.budgetUsd = usd;
        }
        if (args.error()) {
            std::fprintf(stderr, "error: %s\n%s", args.error()->c_str(), usage());
            return 2;
        }
        chessmode::fillEngineAnchors(config, calibratedRating);
    }
    if (auto bad = chessmode::validateConfig(config)) {
        std::fprintf(stderr, "error: %s\n", bad->c_str());
        return 2;
    }
    ArenaRunOptions options;
    options.outDir = args.value("out") ? args.value("out") : args.value("resume");
    options.quiet = quiet;
    options.timeoutMs = int(timeoutMs);
    options.resuming = resuming;
    options.analyseNodes = analyseNodes;
    return runTournament(args, config, std::move(resumed), options).exitCode;
}

} // namespace chaiba::cli
