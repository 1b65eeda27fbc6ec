// `chaiba arena`: a headless tournament (the same scheduler, match runner and ratings as the web
// arena) between LLMs, engine levels and the random mover. Writes the bundle and PGN to --out DIR,
// resumes with --resume DIR, prints a line per game and the leaderboard. Key: OPENROUTER_API_KEY.
#include "src/llm/assets.h"
#include "src/modes/chess/chess_prompts.h"
#include "src/modes/chess/chess_agent.h"
#include "src/llm/openrouter_client.h"
#include "src/modes/chess/engine_player.h"
#include "src/modes/chess/game_analyser.h"
#include "src/modes/chess/player_factory.h"
#include "src/modes/chess/players.h"
#include "src/modes/chess/prompt_size.h"
#include "src/modes/chess/tournament_runner.h"
#include "src/cli/arena_folder.h"
#include "src/cli/arena_run.h"
#include "src/persist/bounded_read.h"
#include "src/cli/chess_call_flags.h"
#include "src/cli/llm_cli.h"
#include "src/cli/progress.h"

#include "engine/search/levels.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <ctime>
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

// The arena's progress lines (games/s, ETA) in its output: one every 10 s.
constexpr double kProgressEveryMs = 10000;

} // namespace

ArenaRun runTournament(const Args& args, const chessmode::TournamentConfig& config,
                       std::vector<chessmode::GameRecord> resumed, const ArenaRunOptions& options) {
    ArenaRun result;
    const bool quiet = options.quiet;
    const long long timeoutMs = options.timeoutMs;
    const bool resuming = options.resuming;
    ArenaFolder* const folder = options.folder;
    std::vector<play::SeatSpec> specs;
    bool anyLlm = false;
    for (const chessmode::Participant& p : config.participants) {
        chessmode::Parsed<PlayerSpec> spec = chessmode::parsePlayerSpec(p.spec, search::maxLevel());
        if (!spec.ok()) {
            std::fprintf(stderr, "error: %s\n", spec.error.c_str());
            return result.fail(2);
        }
        anyLlm = anyLlm || spec.value->kind == play::SeatKind::Model;
        specs.push_back(*spec.value);
    }

    // Step 2. The LLM plumbing (as in `chaiba play`): key, prompts, client, catalog.
    chessmode::ChessPlaySettings settings = chessmode::withModelCalls({}, config.calls);
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
    chessmode::ChessPlayerServices services;
    services.chat = &client;
    services.prompts = prompts.isOk() ? &*prompts.value : nullptr;
    services.makeEngine = chessmode::searchingEngine();
    services.maxEngineLevel = search::maxLevel();
    services.modelInfo = [&catalog](const std::string& model) -> std::optional<llm::ModelInfo> {
        for (const llm::ModelInfo& m : catalog)
            if (m.id == model) return m;
        return std::nullopt;
    };
    if (!quiet) services.onNote = [](const std::string& note) { std::fprintf(stderr, "note: %s\n", note.c_str()); };
    chessmode::PlayerFactory factory = [&](const chessmode::PlayerSlot& slot,
                                           std::string& error) -> std::unique_ptr<chessmode::Player> {
        const chessmode::ChessSeat seat{slot.id, slot.side, slot.seed, slot.opponentName};
        chessmode::Parsed<std::unique_ptr<chessmode::Player>> player = chessmode::makeChessPlayer(
            specs[size_t(slot.participant)], seat, settings, services, [&](chessmode::AgentConfig& agentConfig) {
                agentConfig.timeoutMs = int(timeoutMs);
                agentConfig.contextPolicy = chessmode::contextPolicyOf(config, slot.participant);
                agentConfig.contextWindowMoves = config.contextWindowMoves;
            });
        if (!player.ok()) error = player.error;
        return player.ok() ? std::move(*player.value) : nullptr;
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
    // What the models' games may cost, before the first one: from games of the typical length to
    // every game running to the ply limit (the page's setup states the same range).
    if (anyLlm && prompts.isOk()) {
        chessmode::ChessPlaySettings measuredWith = settings;
        measuredWith.contextWindowMoves = config.contextWindowMoves; // the tournament's window
        const chessmode::TokenExpectation expectation =
            chessmode::tokenExpectation(chessmode::ContextPolicy::Full, *prompts.value, measuredWith);
        const chessmode::BudgetEstimate e = chessmode::estimateBudget(
            config,
            [&catalog](const std::string& model) -> std::optional<play::ModelPrice> {
                for (const llm::ModelInfo& m : catalog)
                    if (m.id == model) return play::ModelPrice{m.pricing.promptUsdPerToken, m.pricing.completionUsdPerToken};
                return std::nullopt;
            },
            expectation);
        std::printf("estimated cost: $%.4f to $%.4f (about $%.4f for games of %d plies; the upper end: every game "
                    "to the %d-ply limit%s)%s\n",
                    e.fromUsd, e.upToUsd, e.totalUsd, e.typicalPlies, e.longestPlies,
                    e.tokenBudgetBounds ? " or a model's per-game token budget" : "",
                    e.unpricedModels.empty() ? "" : "; models without a catalog price count as $0");
    }
    if (anyLlm)
        std::printf("limits: %s; %s; context %s\n",
                    config.budgetUsd ? ("spending cap $" + fixed(*config.budgetUsd, 2)).c_str() : "no spending cap",
                    config.gameTokenBudget ? (std::to_string(*config.gameTokenBudget) +
                                              " tokens a model per game (then it forfeits)")
                                                 .c_str()
                                           : "no per-game token budget",
                    chessmode::contextPolicyLabel(config.contextPolicy, config.contextWindowMoves).c_str());
    std::fflush(stdout);

    // Step 4. The loop: poll; each finished game is logged (fsynced) and then printed.
    auto nowMs = [&] { return double(llmSide->clock.nowMs()); };
    size_t logged = runner.games().size(); // finished games already in the log (resumed ones)
    RunProgress progress("progress", int(logged), runner.scheduler().totalGames());
    TerminalProgress live("arena", int(logged), runner.scheduler().totalGames());
    gInterrupted = 0;
    std::signal(SIGINT, onInterrupt);
    runner.start(nowMs());
    int exitCode = 0;
    // Taken before running games are stopped, so the bundle keeps them for --resume to continue.
    std::optional<chessmode::TournamentBundle> kept;
    while (!runner.done()) {
        if (gInterrupted) {
            live.clear();
            std::printf("interrupted: %d running game(s) kept unfinished; continue with --resume DIR\n",
                        int(runner.liveGames().size()) + runner.pendingResumes());
            kept = runner.bundle();
            runner.stop(chessmode::StopMode::AbandonRunning);
            exitCode = 130;
            break;
        }
        client.poll(); // the loop's one pump: transport callbacks, due retries
        runner.poll(nowMs());
        const std::vector<chessmode::RunnerEvent> events = runner.takeEvents();
        if (!events.empty()) live.clear();
        for (const chessmode::RunnerEvent& e : events) {
            switch (e.kind) {
            case chessmode::RunnerEvent::Kind::GameFinished:
                // The runner records finished games in the order of their events.
                if (folder && logged < runner.games().size()) {
                    if (auto bad = folder->appendFinished(runner.games()[logged], settings.apiKey)) {
                        std::fprintf(stderr, "error: game #%d is not stored: %s\n", e.gameId, bad->c_str());
                        return result.fail(1);
                    }
                    // Stored: the run keeps its result and sums only (the log has it whole), so
                    // memory stays flat however many games the tournament plays.
                    chessmode::GameRecord folded = runner.games()[logged];
                    chessmode::foldRecord(folded);
                    runner.replaceFinished(logged, folded);
                }
                ++logged;
                std::printf("game %d/%d #%d: %s\n", int(logged), runner.scheduler().totalGames(), e.gameId,
                            e.message.c_str());
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
        if (std::optional<std::string> line = progress.due(int(logged), nowMs(), kProgressEveryMs)) {
            live.clear();
            std::printf("%s\n", line->c_str());
        }
        std::fflush(stdout);
        if (runner.state() == chessmode::RunnerState::Paused) {
            live.clear();
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
        live.update(int(logged));
    }
    live.clear();
    std::signal(SIGINT, SIG_DFL);
    chessmode::TournamentBundle bundle = kept ? std::move(*kept) : runner.bundle();
    if (options.analyseNodes > 0) { // move quality: centipawn loss and blunders per player
        search::AnalysisBudget budget = chessmode::arenaAnalysisBudget();
        budget.maxNodes = static_cast<uint64_t>(options.analyseNodes);
        int analysed = 0;
        const int waiting = int(std::count_if(bundle.games.begin(), bundle.games.end(), chessmode::awaitsAnalysis));
        if (waiting > 0)
            std::printf("analysing the move quality of %d game(s), %llu nodes per position (--analyse-nodes 0 skips it)\n",
                        waiting, static_cast<unsigned long long>(budget.maxNodes));
        std::fflush(stdout);
        RunProgress analysing("move quality", 0, waiting);
        TerminalProgress liveAnalysis("move quality", 0, waiting);
        auto onGame = [&](int done) {
            if (std::optional<std::string> line = analysing.due(done, nowMs(), kProgressEveryMs)) {
                liveAnalysis.clear();
                std::printf("%s\n", line->c_str());
                std::fflush(stdout);
            }
            liveAnalysis.update(done);
        };
        onGame(0);
        // A folded game is read back from the log, analysed, appended again with its move
        // quality (a resume then keeps it) and folded again: one whole game in memory at a time.
        chessmode::WholeRecordSource whole;
        chessmode::AnalysedRecordSink store;
        if (folder) {
            whole = [folder](const chessmode::GameRecord& g) { return folder->readGame(g); };
            store = [&](chessmode::GameRecord& game) -> std::optional<std::string> {
                if (auto bad = folder->appendFinished(game, settings.apiKey)) return "not stored: " + *bad;
                chessmode::foldRecord(game);
                return std::nullopt;
            };
        }
        const std::optional<std::string> error =
            chessmode::analyseFinishedRecords(bundle.games, budget, analysed, onGame, whole, store);
        liveAnalysis.clear();
        if (error) {
            std::fprintf(stderr, "error: move-quality analysis: %s\n", error->c_str());
            return result.fail(1);
        }
        std::printf("analysed %d game(s): %llu nodes per position\n", analysed,
                    static_cast<unsigned long long>(budget.maxNodes));
        bundle.leaderboard = chessmode::computeLeaderboard(bundle.config, bundle.games, bundle.ratingOptions);
    }
    std::printf("%s\n", progress.summary(int(logged), nowMs()).c_str());
    // How it was run: this build's version and the moment the bundle is written (its harness).
    bundle.harness = {};
    bundle.harness.appVersion = CHAIBA_VERSION;
    bundle.harness.exportedAt = chessmode::utcIsoTime(static_cast<int64_t>(std::time(nullptr)));
    if (anyLlm && prompts.isOk()) bundle.harness.prompts = chessmode::promptTexts(*prompts.value);
    if (std::any_of(bundle.games.begin(), bundle.games.end(), [](const chessmode::GameRecord& g) { return g.analysed(); }))
        bundle.harness.judgeNodes = options.analyseNodes; // the games this run judged, or a resumed run's
    if (folder) {
        if (auto bad = folder->writeSnapshot(bundle, settings.apiKey)) {
            std::fprintf(stderr, "error: %s (the finished games are safe in %s/%s)\n", bad->c_str(),
                         folder->dir().c_str(), kArenaLogName);
            return result.fail(1);
        }
        std::printf("wrote %s/%s and %s/%s\n", folder->dir().c_str(), kArenaSnapshotName, folder->dir().c_str(),
                    kArenaPgnName);
    }
    std::printf("spent $%.6f%s\n", runner.budget().spentUsd(),
                runner.budgetReached() ? " (budget cap reached: stopped early)" : "");
    printLeaderboard(config, *bundle.leaderboard);
    result.exitCode = exitCode;
    result.spentUsd = runner.budget().spentUsd();
    result.leaderboard = bundle.leaderboard;
    return result;
}

const Usage& arenaUsage() {
    using std::to_string;
    static const Usage usage = withChessCallOptions(Usage{
        "arena",
        "(--config FILE.json | --players SPEC,SPEC,...) [--format F] [--games N] [--out DIR] [options]\n"
        "--resume DIR [options]",
        "a headless tournament: bundle, PGN and leaderboard (key: OPENROUTER_API_KEY)",
        {{"config", "FILE", "the tournament as JSON (only participants required); flags override it"},
         {"players", "SPECS", "comma-separated players"},
         {"resume", "DIR", "continue the tournament stored in DIR (no --players, --config or --out)"},
         {"out", "DIR", "write the log, tournament.json (the bundle) and games.pgn to DIR"},
         {"overwrite", "", "with --out: replace a tournament already in DIR"},
         {"format", "F", "arena, roundrobin, double-roundrobin or gauntlet (default arena)"},
         {"games", "N", "arena: games in all; else meetings per pair, 1-" + to_string(chessmode::kMaxGames) +
                            " (default 20)"},
         {"concurrency", "N", "games at once, 1-" + to_string(chessmode::kMaxConcurrency) + " (default 4)"},
         {"budget-usd", "X", "hard spending cap in USD: no new game starts once reached (default " +
                                 std::to_string(int(chessmode::kDefaultBudgetUsd)) +
                                 " when a model plays; none: no cap)"},
         {"game-tokens", "N", "tokens (prompt + completion) a model may use in one game, then it forfeits "
                              "(forfeit_token_budget) (default " + to_string(chessmode::kDefaultGameTokenBudget) +
                                  " when a model plays; none: no limit)"},
         {"960", "", "Chess960 start positions"},
         {"seed", "S", "the tournament's seed (default 1)"},
         {"tempo", "T", "max-speed (as fast as the players answer) or ticker (each running game advances one "
                        "turn every --ticker-seconds; default max-speed)"},
         {"ticker-seconds", "N", "seconds per turn with --tempo ticker, 1-" +
                                     to_string(chessmode::kMaxTickerSeconds) + " (default 60)"},
         {"max-plies", "N", "plies before a game is adjudicated drawn, 1-" + to_string(chessmode::kMaxPlies) +
                                " (default 600)"},
         chessTimeoutOption(),
         contextOption(),
         contextMovesOption(),
         {"pairing", "RULE", "arena pairing: nearest (rating) or informative (most rating information per "
                             "dollar; default nearest)"},
         {"analyse-nodes", "N", "move quality after the run: nodes per position, 0 (none)-100000000 (default " +
                                    to_string(chessmode::arenaAnalysisBudget().maxNodes) + ")"},
         baseUrlOption(),
         assetsOption(),
         {"quiet", "", "no notes on stderr"}},
        chessSpecNote()});
    return usage;
}

int runArenaCommand(const std::vector<std::string>& argv) {
    Args args(argv, arenaUsage());
    const long long timeoutMs = args.integer("timeout-ms", 300000, 100, 3600000);
    long long analyseNodes = args.integer(
        "analyse-nodes", static_cast<long long>(chessmode::arenaAnalysisBudget().maxNodes), 0, 100000000);
    if (args.error() || !args.positional().empty()) {
        std::fprintf(stderr, "error: %s\n%s",
                     args.error() ? args.error()->c_str() : "unexpected positional argument", usageLines(arenaUsage()).c_str());
        return 2;
    }
    const bool quiet = args.has("quiet");

    // Step 1. The config: a resumed bundle's, a config file, or flags (flags override the file).
    chessmode::TournamentConfig config;
    std::vector<chessmode::GameRecord> resumed;
    ArenaFolder folder; // locked from here to the end of the run
    if (args.value("resume") && args.value("out")) {
        std::fprintf(stderr, "error: --resume DIR continues the tournament in DIR; it takes no --out\n");
        return 2;
    }
    if (auto dir = args.value("resume")) {
        ArenaResume found;
        if (auto bad = folder.resume(*dir, found, true)) {
            std::fprintf(stderr, "error: %s\n", bad->c_str());
            return 2;
        }
        for (const std::string& note : found.notes) std::fprintf(stderr, "note: %s\n", note.c_str());
        // The move quality as the run chose it (--analyse-nodes 0 stays 0), unless said again now.
        if (found.judgeNodes && !args.value("analyse-nodes")) {
            analyseNodes = *found.judgeNodes;
            if (analyseNodes != static_cast<long long>(chessmode::arenaAnalysisBudget().maxNodes))
                std::fprintf(
                    stderr, "note: move quality as the run chose it: %s (--analyse-nodes N changes it)\n",
                    analyseNodes == 0 ? "none"
                                      : (std::to_string(analyseNodes) + " nodes per position").c_str());
        }
        config = std::move(found.config);
        resumed = std::move(found.games);
    } else if (auto path = args.value("config")) {
        const persist::ReadResult text = persist::readFileBounded(*path, persist::kMaxConfigBytes);
        if (!text.ok()) {
            std::fprintf(stderr, "error: %s\n", text.error.c_str());
            return 2;
        }
        chessmode::Parsed<chessmode::TournamentConfig> parsed = chessmode::parseConfigJson(text.text);
        if (!parsed.ok()) {
            std::fprintf(stderr, "error: %s: %s\n", path->c_str(), parsed.error.c_str());
            return 2;
        }
        config = *parsed.value;
    } else if (!args.value("players")) {
        std::fprintf(stderr, "error: --players, --config or --resume is required\n%s", usageLines(arenaUsage()).c_str());
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
                std::fprintf(stderr, "error: --context must be full, stateless or windowed\n");
                return 2;
            }
            config.contextPolicy = *policy;
        }
        config.contextWindowMoves = int(args.integer("context-moves", config.contextWindowMoves, 1,
                                                     chessmode::kMaxContextWindowMoves));
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
        config.games = int(args.integer("games", config.games, 1, chessmode::kMaxGames));
        config.concurrency = int(args.integer("concurrency", config.concurrency, 1, chessmode::kMaxConcurrency));
        config.tickerSeconds =
            int(args.integer("ticker-seconds", config.tickerSeconds, 1, chessmode::kMaxTickerSeconds));
        config.seed = std::uint64_t(args.integer(
            "seed", static_cast<long long>(config.seed & 0x7fffffffffffffffULL), 0, 0x7fffffffffffffffLL));
        config.maxPlies = int(args.integer("max-plies", config.maxPlies, 1, chessmode::kMaxPlies));
        if (args.has("960")) config.chess960 = true;
        // A field with models has a cap and a per-game token budget unless told otherwise.
        const bool models = chessmode::hasModels(config);
        if (auto budget = args.value("budget-usd")) {
            char* end = nullptr;
            const double usd = std::strtod(budget->c_str(), &end);
            if (*budget == "none") {
                config.budgetUsd.reset();
            } else if (end == budget->c_str() || *end != '\0' || !(usd > 0 && usd < 1e9)) {
                std::fprintf(stderr, "error: --budget-usd must be a positive number or none, got '%s'\n",
                             budget->c_str());
                return 2;
            } else {
                config.budgetUsd = usd;
            }
        } else if (models && !config.budgetUsd) {
            config.budgetUsd = chessmode::kDefaultBudgetUsd;
        }
        if (auto tokens = args.value("game-tokens")) {
            char* end = nullptr;
            const long long n = std::strtoll(tokens->c_str(), &end, 10);
            if (*tokens == "none") {
                config.gameTokenBudget.reset();
            } else if (end == tokens->c_str() || *end != '\0' || n < 1 || n > chessmode::kMaxGameTokenBudget) {
                std::fprintf(stderr, "error: --game-tokens must be a number of tokens from 1 to %lld or none, got '%s'\n",
                             chessmode::kMaxGameTokenBudget, tokens->c_str());
                return 2;
            } else {
                config.gameTokenBudget = n;
            }
        } else if (models && !config.gameTokenBudget) {
            config.gameTokenBudget = chessmode::kDefaultGameTokenBudget;
        }
        if (args.error()) {
            std::fprintf(stderr, "error: %s\n%s", args.error()->c_str(), usageLines(arenaUsage()).c_str());
            return 2;
        }
        chessmode::fillEngineAnchors(config, calibratedRating);
    }
    // How the models are asked: the tournament's own (a resumed one, a config file's "calls"),
    // else the flags, kept in the config so a resume asks them the same way.
    chessmode::ChessPlaySettings callFlags;
    if (!readChessCallFlags(args, callFlags)) return 2;
    if (args.error()) {
        std::fprintf(stderr, "error: %s\n%s", args.error()->c_str(), usageLines(arenaUsage()).c_str());
        return 2;
    }
    if (chessmode::hasModels(config)) {
        if (!config.calls)
            config.calls = chessmode::modelCallsOf(callFlags);
        else if (anyChessCallFlag(args))
            std::fprintf(stderr, "note: the tournament says how its models are asked (its \"calls\"); "
                                 "--retries, --temperature and the like are ignored\n");
    }
    if (auto bad = chessmode::validateConfig(config)) {
        std::fprintf(stderr, "error: %s\n", bad->c_str());
        return 2;
    }
    if (auto dir = args.value("out")) {
        if (auto bad = folder.create(*dir, config, args.has("overwrite"))) {
            std::fprintf(stderr, "error: %s\n", bad->c_str());
            return 2;
        }
    } else if (args.has("overwrite") && !resuming) {
        std::fprintf(stderr, "error: --overwrite goes with --out DIR\n");
        return 2;
    }
    ArenaRunOptions options;
    if (args.value("out") || resuming) options.folder = &folder;
    options.quiet = quiet;
    options.timeoutMs = int(timeoutMs);
    options.resuming = resuming;
    options.analyseNodes = analyseNodes;
    return runTournament(args, config, std::move(resumed), options).exitCode;
}

} // namespace chaiba::cli
