// `chaiba play`: headless games between LLMs (OpenRouter or any OpenAI-compatible server), the
// built-in engine and a random mover. The API key comes only from OPENROUTER_API_KEY and appears
// in no output, log or file. One result line per game, a summary, optional PGN.
#include "src/llm/assets.h"
#include "src/modes/chess/chess_prompts.h"
#include "src/modes/chess/chess_agent.h"
#include "src/llm/openrouter_client.h"
#include "src/modes/chess/match.h"
#include "src/modes/chess/player_factory.h"
#include "src/modes/chess/tournament.h"
#include "src/cli/chess_call_flags.h"
#include "src/cli/llm_cli.h"
#include "src/cli/progress.h"
#include "src/persist/durable_file.h"

#include "engine/chess/pgn.h"
#include "engine/search/levels.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <thread>

namespace chaiba::cli {

namespace {

using llm::ModelInfo;

std::string today() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buffer[16];
    std::strftime(buffer, sizeof buffer, "%Y.%m.%d", &tm);
    return buffer;
}

} // namespace

const Usage& playUsage() {
    static const Usage usage = withChessCallOptions(Usage{
        "play",
        "--white SPEC --black SPEC [--games N] [--960] [--seed S] [--pgn FILE] [--base-url URL] [options]",
        "games between llm:MODEL, engine:LEVEL and random players (key: OPENROUTER_API_KEY)",
        {{"white", "SPEC", "the white player (required)"},
         {"black", "SPEC", "the black player (required)"},
         {"games", "N", "games to play, 1-100000 (default 1)"},
         {"960", "", "Chess960 start positions"},
         {"seed", "S", "seed of the first game; game g uses S+g-1 (default 1)"},
         {"pgn", "FILE", "write the games as PGN, replaced after each game"},
         baseUrlOption(),
         chessTimeoutOption(),
         {"max-plies", "N", "plies before a game is adjudicated, 1-100000 (default 600)"},
         contextOption(),
         contextMovesOption(),
         {"stream", "", "stream the model's answers"},
         assetsOption(),
         {"quiet", "", "no notes on stderr"}},
        chessSpecNote()});
    return usage;
}

int runPlayCommand(const std::vector<std::string>& argv) {
    Args args(argv, playUsage());
    const long long games = args.integer("games", 1, 1, 100000);
    const long long seed = args.integer("seed", 1, 0, 0x7fffffffffffffffLL);
    const long long timeoutMs = args.integer("timeout-ms", 300000, 100, 3600000);
    const long long maxPlies = args.integer("max-plies", 600, 1, 100000);
    if (args.error()) {
        std::fprintf(stderr, "error: %s\n%s", args.error()->c_str(), usageLines(playUsage()).c_str());
        return 2;
    }
    if (!args.positional().empty() || !args.value("white") || !args.value("black")) {
        std::fprintf(stderr, "error: --white and --black are required\n%s", usageLines(playUsage()).c_str());
        return 2;
    }
    // The sides as given (named so in the output) and as the one seat parser reads them.
    const std::string whiteText = *args.value("white"), blackText = *args.value("black");
    const play::Parsed<play::SeatSpec> whiteSpec = chessmode::parsePlayerSpec(whiteText, search::maxLevel());
    const play::Parsed<play::SeatSpec> blackSpec =
        whiteSpec.ok() ? chessmode::parsePlayerSpec(blackText, search::maxLevel()) : whiteSpec;
    if (!whiteSpec.ok() || !blackSpec.ok()) {
        std::fprintf(stderr, "error: %s\n", blackSpec.error.c_str());
        return 2;
    }
    const bool anyLlm = whiteSpec.value->kind == play::SeatKind::Model || blackSpec.value->kind == play::SeatKind::Model;
    const bool quiet = args.has("quiet");

    chessmode::ChessPlaySettings settings;
    if (!readChessCallFlags(args, settings)) return 2;
    if (auto context = args.value("context")) { // full (the shared conversation), stateless or windowed
        const std::optional<chessmode::ContextPolicy> policy = chessmode::parseContextPolicy(*context);
        if (!policy) {
            std::fprintf(stderr, "error: --context must be full, stateless or windowed\n");
            return 2;
        }
        settings.contextPolicy = *policy;
    }
    settings.contextWindowMoves = int(args.integer("context-moves", chessmode::kDefaultContextWindowMoves, 1,
                                                   chessmode::kMaxContextWindowMoves));
    if (args.error()) {
        std::fprintf(stderr, "error: %s\n%s", args.error()->c_str(), usageLines(playUsage()).c_str());
        return 2;
    }
    std::unique_ptr<LlmPlumbing> llmSide = openLlm(args, anyLlm, settings);
    if (!llmSide) return 2;
    llm::DirectoryAssetSource assets(assetsDirFrom(args));
    llm::Result<chessmode::AgentPrompts> prompts = chessmode::loadAgentPrompts(assets);
    if (anyLlm && !prompts.isOk()) {
        std::fprintf(stderr, "error: %s (set --assets DIR or CHAIBA_ASSETS_DIR)\n", prompts.error.c_str());
        return 1;
    }
    net::CurlTransport& transport = llmSide->transport;
    llm::OpenRouterClient& client = *llmSide->client;
    const std::vector<ModelInfo>& catalog = llmSide->catalog;

    chessmode::ChessPlayerServices services;
    services.chat = &client;
    services.prompts = prompts.isOk() ? &*prompts.value : nullptr;
    services.makeEngine = chessmode::searchingEngine();
    services.maxEngineLevel = search::maxLevel();
    services.modelInfo = [&catalog](const std::string& model) -> std::optional<ModelInfo> {
        for (const ModelInfo& m : catalog)
            if (m.id == model) return m;
        return std::nullopt;
    };
    if (!quiet) services.onNote = [](const std::string& note) { std::fprintf(stderr, "note: %s\n", note.c_str()); };
    auto makePlayer = [&](const play::SeatSpec& spec, chess::Color side, const std::string& opponent,
                          std::uint64_t gameSeed) -> std::unique_ptr<chessmode::Player> {
        const chessmode::ChessSeat seat{side == chess::Color::White ? "white" : "black", side, gameSeed, opponent};
        play::Parsed<std::unique_ptr<chessmode::Player>> player =
            chessmode::makeChessPlayer(spec, seat, settings, services, [&](chessmode::AgentConfig& config) {
                config.stream = args.has("stream");
                config.timeoutMs = static_cast<int>(timeoutMs);
            });
        return player.ok() ? std::move(*player.value) : nullptr;
    };
    for (const play::SeatSpec* spec : {&*whiteSpec.value, &*blackSpec.value}) {
        if (spec->kind != play::SeatKind::Model || catalog.empty()) continue;
        bool known = false;
        for (const ModelInfo& m : catalog) known = known || m.id == spec->modelId;
        if (!known) std::fprintf(stderr, "warning: %s is not in the model catalog\n", spec->modelId.c_str());
        for (const ModelInfo& m : catalog)
            if (m.id == spec->modelId && !m.supportsTools)
                std::fprintf(stderr, "note: %s has no tool support: text mode\n", spec->modelId.c_str());
    }

    int whiteWins = 0, blackWins = 0, draws = 0, unfinished = 0;
    double totalCost = 0;
    long long totalTokens = 0;
    std::string pgnText;
    const std::string event = "CHAIBA play";
    TerminalProgress live("play", 0, static_cast<int>(games));
    for (long long g = 0; g < games; ++g) {
        const std::uint64_t gameSeed = static_cast<std::uint64_t>(seed) + static_cast<std::uint64_t>(g);
        std::unique_ptr<chessmode::Player> white =
            makePlayer(*whiteSpec.value, chess::Color::White, blackText, gameSeed);
        std::unique_ptr<chessmode::Player> black =
            makePlayer(*blackSpec.value, chess::Color::Black, whiteText, gameSeed ^ 0x5bd1e995u);
        chessmode::MatchConfig config;
        config.chess960 = args.has("960");
        config.seed = gameSeed;
        config.maxPlies = static_cast<int>(maxPlies);
        chessmode::MatchRunner runner(*white, *black, config);
        live.update(static_cast<int>(g));
        runner.start();
        while (!runner.finished()) {
            client.poll(); // the loop's one pump: transport callbacks, due retries
            runner.poll();
            if (runner.finished()) break;
            if (transport.activeCount() > 0)
                transport.wait(20);
            else if (runner.sideToMove().kind() == play::SeatKind::Model)
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        const std::string result = runner.result();
        if (result == "1-0")
            ++whiteWins;
        else if (result == "0-1")
            ++blackWins;
        else if (result == "1/2-1/2")
            ++draws;
        else
            ++unfinished;
        const double cost = runner.costUsd(chess::Color::White) + runner.costUsd(chess::Color::Black);
        const long long tokens =
            runner.usage(chess::Color::White).totalTokens + runner.usage(chess::Color::Black).totalTokens;
        totalCost += cost;
        totalTokens += tokens;
        live.clear();
        std::printf("game %lld/%lld: %s - %s  %s  %s  (%zu plies, $%.6f, %lld tokens)\n", g + 1, games,
                    whiteText.c_str(), blackText.c_str(), result.c_str(),
                    runner.termination().c_str(), runner.game().moves().size(), cost, tokens);
        std::fflush(stdout);
        chess::PgnGame pgn = runner.toPgn(event, static_cast<int>(g + 1));
        pgn.setTag("Date", today());
        pgnText += chess::writePgn(pgn);
        pgnText += "\n";
        // Replaced after each game, atomically: a crash (even mid-write) keeps the finished games.
        if (auto path = args.value("pgn")) {
            if (auto bad = persist::writeFileAtomic(*path, pgnText)) {
                std::fprintf(stderr, "error: %s\n", bad->c_str());
                return 1;
            }
        }
    }
    std::printf("summary: %lld games: white %d, black %d, draws %d, unfinished %d; cost $%.6f, %lld tokens\n",
                games, whiteWins, blackWins, draws, unfinished, totalCost, totalTokens);
    return unfinished > 0 ? 1 : 0;
}

} // namespace chaiba::cli
