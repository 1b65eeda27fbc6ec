// Werewolf tournaments, shared by `chaiba werewolf` and the page's Werewolf Arena: the setup (a
// pool of seats, games, roles, rules, seed, mirrored deals, games at once, budget), the session
// config of game N (players rotate one seat per game; mirrored: each deal once per rotation), the
// cost estimate, and WerewolfTournament: the games run by play's one tournament runner (concurrency,
// budget cap, stop) on each game's simulated clock, so a run replays the CLI's games exactly.
#pragma once

#include "src/llm/openrouter_json.h"
#include "src/modes/werewolf/game_session.h"
#include "src/modes/werewolf/results.h"
#include "src/play/seat.h"
#include "src/play/tournament_runner.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::werewolfmode {

// The seats a werewolf table takes: models, the rule-based bot and "random" (the same bot), each
// maybe "*N" up to a full table; no engine, and a person only from the page's setup.
play::SeatGrammar werewolfSeatGrammar();
// "bot", "random" (the same bot), "llm:MODEL", each optionally "*N": the seats' players, in order
// ("bot", "llm:MODEL"). Errors name the spec and what a table takes.
llm::Result<std::vector<std::string>> parsePlayers(const std::string& text);
// "werewolf:2,seer,doctor,villager:4" -> the roles to deal.
llm::Result<std::vector<werewolf::Role>> parseRoles(const std::string& text);

// "model=ms,model=ms" (100..3600000 ms each): per-model answer timeouts.
llm::Result<std::map<std::string, int>> parseModelTimeouts(const std::string& text);

// The most games one tournament plays (a headless benchmark run of bots plays a million).
constexpr int kMaxGames = 1000000;

struct TournamentConfig {
    std::vector<std::string> players;  // one per seat: "bot", "llm:MODEL"
    std::vector<werewolf::Role> roles; // empty: the default deal for the table
    werewolf::RulesPreset rules = werewolf::RulesPreset::Balanced; // balanced, plain or kaggle
    int games = 1;
    std::uint64_t seed = 1; // game g (0-based) deals with seed + deal(g)
    bool mirror = false;    // each deal is replayed once per rotation of the players
    int concurrency = 1;    // games at once
    std::optional<double> budgetUsd;
    int timeoutMs = 10000;
    std::map<std::string, int> modelTimeoutMs; // per-model override (reasoning models)
    int pollMs = 5000;
    int maxDayMessages = 24;
    int maxDayMs = 60000;
    int spacingMs = 0;
    int maxRounds = 30;
    bool notes = true;
    bool anyModel() const;
};

// A tournament another part sets up (a plan's stage, on the page or headless): `seats` one player
// each, the deal as parseRoles reads it (empty: the table's default), the rules preset, a
// budget cap when budgetUsd > 0. Checked as validate() checks; the error names what is wrong.
struct StageSetup {
    std::vector<std::string> seats;
    std::string roles;
    werewolf::RulesPreset rules = werewolf::RulesPreset::Balanced;
    int games = 1;
    std::uint64_t seed = 1;
    int concurrency = 4;
    double budgetUsd = 0;
};
llm::Result<TournamentConfig> stageConfig(const StageSetup& stage);

// Why a config cannot run (seat count, roles, ranges), or nothing.
std::optional<std::string> validate(const TournamentConfig& config);
// The setup as JSON ({"players": [...], "roles": "werewolf:2,...", "rules": "balanced", "games",
// "seed", "mirror", "concurrency", "budgetUsd", ...}) and back; unknown keys are refused.
std::string configJson(const TournamentConfig& config);
llm::Result<TournamentConfig> parseConfigJson(std::string_view text);
std::string rolesText(const std::vector<werewolf::Role>& roles); // "werewolf:2,seer,doctor,villager:4"

// A seat of `player` with the catalog's answer channel and price (catalog may be empty).
TableSeat tableSeatFor(const std::string& player, const TournamentConfig& config,
                     const std::vector<llm::ModelInfo>& catalog);
// Game g (0-based): its deal's seed and the players rotated g % seats seats.
SessionConfig sessionConfigFor(const TournamentConfig& config, int game, const std::vector<llm::ModelInfo>& catalog);
int rotationOf(const TournamentConfig& config, int game);
// Why a result read back (a run's log, the browser's store) cannot be game result.index of this
// tournament: a number outside the run, another seed, other players or roles than its deal, a seat
// whose "won" contradicts the winner, counts out of range. Nothing when it can.
std::optional<std::string> impossibleResult(const GameResult& result, const TournamentConfig& config);

// Expected spend of the whole tournament from catalog prices: each model seat of each game is
// assumed to read kEstimatedPromptTokens and write kEstimatedCompletionTokens (the stand-in's full
// 8-model games: 97 000-136 000 tokens, about 15 000 per seat). Models the catalog does not price
// are listed in `unpriced`.
constexpr long long kEstimatedPromptTokens = 14000;
constexpr long long kEstimatedCompletionTokens = 1200;
struct CostEstimate {
    double usd = 0;
    int modelSeatGames = 0;
    std::vector<std::string> unpriced;
};
CostEstimate estimateCost(const TournamentConfig& config, const std::vector<llm::ModelInfo>& catalog);

// A running game as the page shows it.
struct LiveGame {
    int index = 0; // 1-based
    const GameSession* session = nullptr;
};

// The tournament: finished results by 1-based index (those given at construction are skipped),
// the runner's state, the spend. Non-blocking: poll() from a loop; each poll moves every running
// game by one step of its simulated clock.
class WerewolfTournament {
public:
    // `chat` may be null when no seat is a model; `prompts` outlives the tournament.
    WerewolfTournament(TournamentConfig config, const WerewolfPrompts& prompts, llm::ChatService* chat,
                       std::vector<llm::ModelInfo> catalog, std::map<int, GameResult> finished,
                       double spentBeforeUsd);
    ~WerewolfTournament();

    void start(double nowMs);
    void poll(double nowMs);
    // No new games; running games are stopped (not rated) and dealt again on the next start.
    void stop();

    play::RunnerState state() const;
    bool done() const;
    bool budgetReached() const;
    const std::string& pauseMessage() const;
    double spentUsd() const; // never goes down: includes stopped games' calls
    // What the player of the pool's entry `participant` spent (config.players order), as the budget counts it.
    double spentUsdBy(int participant) const;
    // Every finished result (those given at construction too), unless keepResults(false): a
    // headless run of a million games keeps its standings as a tally and lets them go.
    const std::map<int, GameResult>& results() const { return results_; }
    void keepResults(bool keep) { keepResults_ = keep; }
    std::vector<LiveGame> liveGames() const;
    const TournamentConfig& config() const { return config_; }
    // Model requests on their way, over the running games (none: a poll moves every game on).
    int requestsInFlight() const;
    // Called with each finished game (to keep it) and its session (its whole record, its seats).
    std::function<void(const GameResult&, const GameSession&)> onFinished;

private:
    TournamentConfig config_;
    const WerewolfPrompts& prompts_;
    llm::ChatService* chat_;
    std::vector<llm::ModelInfo> catalog_;
    std::map<int, GameResult> results_;
    std::unique_ptr<play::TournamentDriver> driver_;
    double spentFloorUsd_ = 0;
    bool keepResults_ = true;
};

} // namespace chaiba::werewolfmode
