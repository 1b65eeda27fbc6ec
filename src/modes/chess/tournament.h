// The tournament model: typed config (participants as player specs, format, tempo, Chess960,
// opening suite, budget, seed), what a forfeit under play's failure rules means in chess, and
// GameRecord, the self-contained summary of one game that the match runner fills and the
// leaderboard and bundle read. Seats, tempo and failure rules themselves are play's.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/modes/chess/conversation.h"
#include "src/llm/call_settings.h"
#include "src/play/failure.h"
#include "src/play/scheduler.h"
#include "src/play/seat.h"
#include "src/play/tempo.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::chessmode {

// A player spec as `chaiba play` and the arena take it: "llm:MODEL_ID", "engine:LEVEL", "engine"
// (the strongest level), "random" (the seat grammar of play/seat.h). Engine levels 0..30 here
// (the level table may grow); commands that know their engine pass its range.
using PlayerSpec = play::SeatSpec;
using play::Participant;
using play::Parsed;
constexpr int kMaxEngineLevel = 30;
// The chess grammar: models, engine levels minEngineLevel..maxEngineLevel, random.
play::SeatGrammar chessSeatGrammar(int maxEngineLevel = kMaxEngineLevel);
Parsed<PlayerSpec> parsePlayerSpec(std::string_view text, int maxEngineLevel = kMaxEngineLevel);

// One start of an opening suite: a FEN (empty = standard start) and moves from it in UCI.
struct Opening {
    std::string name;
    std::string fen;
    std::vector<std::string> moves;
    bool operator==(const Opening&) const = default;
};
// The FEN after the opening's moves, or why the opening is invalid (bad FEN, illegal move).
Parsed<std::string> openingStartFen(const Opening& opening);
// Plays UCI moves from a FEN (castling as king-takes-rook when chess960, else king two squares):
// the final FEN, or an error ("bad FEN: ...", "move 3 'e2e5' is not a legal UCI move") with the
// 0-based index of the bad move in *badMove (-1 for a bad FEN).
Parsed<std::string> playUciMoves(std::string_view fen, const std::vector<std::string>& moves, bool chess960,
                                 int* badMove = nullptr);

using play::Tempo;

// The limits of a config, one constant each: validateConfig, the bundle reader and the CLI's flags
// (and their help) all use these.
inline constexpr int kMaxConcurrency = 64;  // games at once
inline constexpr int kMaxPlies = 10000;     // the move limit
inline constexpr int kMaxGames = 1000000;   // games (arena total, or meetings per pair)
inline constexpr int kMaxTickerSeconds = 3600;
inline constexpr long long kMaxGameTokenBudget = 1000000000000LL;
// The spending limits a field with language models starts with (the page's default field,
// `chaiba arena` unless --budget-usd / --game-tokens say otherwise): a cap on the tournament's
// spend, and the tokens (prompt + completion) a model may use in one game.
inline constexpr double kDefaultBudgetUsd = 5.0;
inline constexpr long long kDefaultGameTokenBudget = 1000000;

// How a tournament's language models are called: the settings every model player of it uses,
// taken from the user's settings when it starts and kept with it, so a resumed or imported
// tournament plays on as it began whatever the settings say by then, and its bundle can say how
// the models were asked. The context policy and its window are the config's own fields.
struct ModelCalls {
    std::optional<double> temperature; // none: the model's default
    std::optional<int> maxTokens;      // none: the model's default
    llm::ReasoningEffort reasoningEffort = llm::ReasoningEffort::Default;
    bool sendLegalMoves = false;    // each turn lists the legal moves
    int retryAttempts = 3;          // retries after an invalid or missing move, 0..10
    bool sendFenOnError = true;     // the position again after a rejected move
    bool sendContextMessage = true; // the position and the move list each turn
    // The system prompt's overrides (empty: the shipped prompt of the app that plays).
    std::string promptBase;
    std::string promptWhite;
    std::string promptBlack;
    bool operator==(const ModelCalls&) const = default;
};
inline constexpr int kMaxRetryAttempts = 10;
// A TurnRecord's evalCp for a checkmate on the board (the search's mate score).
inline constexpr int kCheckmateEvalCp = 31000;
inline constexpr int kMaxModelTokens = 200000;

struct TournamentConfig {
    std::string name = "CHAIBA arena";
    std::vector<Participant> participants;
    Format format = Format::Arena;
    int games = 20;      // arena: total; round robins and gauntlet: meetings per pair
    int concurrency = 4; // games at once
    Tempo tempo = Tempo::MaxSpeed;
    int tickerSeconds = 60;
    bool chess960 = false;
    std::vector<Opening> openings;   // optional suite (not with chess960)
    std::optional<double> budgetUsd; // hard spending cap; none = no cap
    uint64_t seed = 1;
    int gauntletPlayer = 0; // index of the gauntlet's player
    int maxPlies = 600;     // longer games are adjudicated drawn
    // What the language models are sent each turn (conversation.h): the tournament's policy, and
    // per participant (by index) an optional override. Bundle v3; absent = full.
    ContextPolicy contextPolicy = ContextPolicy::Full;
    std::vector<std::optional<ContextPolicy>> contextOverrides;
    // The windowed policy's N (the earlier turns a model is sent), for the tournament and every
    // override. Bundle v5; absent = kDefaultContextWindowMoves.
    int contextWindowMoves = kDefaultContextWindowMoves;
    // Tokens (prompt + completion, retries included) a player may use in one game; one that has
    // used them forfeits at its next turn, like a flag fall (Termination::ForfeitTokenBudget).
    // None = no limit. Bundle v5; absent = none.
    std::optional<long long> gameTokenBudget;
    // The continuous arena's pairing rule (play/scheduler.h). Bundle v3; absent = nearest.
    play::ArenaPairing pairing = play::ArenaPairing::NearestRating;
    // How the models are called (bundle v6): set when the tournament starts; none (older
    // bundles, a config file that does not say) = the settings of whoever runs it.
    std::optional<ModelCalls> calls;
    bool operator==(const TournamentConfig&) const = default;
};
// The context policy participant `index` plays with (its override, else the tournament's).
ContextPolicy contextPolicyOf(const TournamentConfig& config, int index);
// A language model takes part.
bool hasModels(const TournamentConfig& config);
// Every problem of a config in one message ("participant 3: unknown spec 'llm:'"), or nothing.
std::optional<std::string> validateConfig(const TournamentConfig& config);
// The scheduler's view of a valid config; initial ratings are the anchors (else 1500).
SchedulerConfig schedulerConfig(const TournamentConfig& config);
// Gives every built-in engine participant without an anchor its calibrated rating:
// calibrated(level) for "engine:LEVEL", calibrated(-1) for "engine" (the strongest level),
// calibrated(0) for "random" (the engine's level 0); nothing = unrated, left unanchored. The
// caller passes the engine's table (search::levelSpec(level)->ratingElo), keeping arena free of it.
void fillEngineAnchors(TournamentConfig& config,
                       const std::function<std::optional<double>(int level)>& calibrated);
// A tournament another part sets up (a plan's stage, on the page or headless): `seats` as seat
// specs, the format by name ("arena", "round-robin", ...; an unknown name keeps the default),
// a ticker when tickerSeconds is given, a budget cap when budgetUsd > 0.
struct StageSetup {
    std::string name;
    std::vector<std::string> seats;
    std::string_view format;
    int games = 1;
    int concurrency = 4;
    bool chess960 = false;
    std::optional<int> tickerSeconds;
    double budgetUsd = 0;
};
TournamentConfig stageConfig(const StageSetup& stage);
// Anchors per participant for the Bradley-Terry fit (-1 = fitted).
std::vector<double> anchorRatings(const TournamentConfig& config);

// How a game ended. Forfeit kinds name the failure that exhausted the player's tries.
enum class Termination : uint8_t {
    Unfinished, // running, or stopped before the end (not rated)
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    FiftyMove,
    SeventyFiveMove,
    Threefold,
    Fivefold,
    MoveLimit, // adjudicated a draw after maxPlies
    ForfeitIllegalMove,
    ForfeitMalformedAnswer,
    ForfeitTimeout,
    ForfeitRateLimited,
    ForfeitServerError,
    ForfeitOther,
    ForfeitTokenBudget // the player had used the config's gameTokenBudget (bundle v5)
};
// Stable snake_case names for the bundle: "checkmate", "forfeit_illegal_move", ...
std::string_view terminationName(Termination t);
std::optional<Termination> parseTermination(std::string_view text);
bool isForfeit(Termination t);

enum class GameResult : uint8_t { Unfinished, WhiteWins, Draw, BlackWins };
std::string_view resultText(GameResult r); // "*", "1-0", "1/2-1/2", "0-1"
std::optional<GameResult> parseResultText(std::string_view text);

// One turn of one player: the move it finally made (uci/san empty for a turn that ended without
// a move: a forfeit or an interrupted request) and what the turn cost.
struct TurnRecord {
    std::string uci;
    std::string san;
    std::string reasoning;
    int attempts = 1;        // model answers this turn (1 = right the first time)
    int illegalAttempts = 0; // answers rejected as illegal moves
    double costUsd = 0;
    long long promptTokens = 0;
    long long completionTokens = 0;
    long long cachedTokens = 0;    // prompt tokens served from the provider's cache (bundle v2)
    long long reasoningTokens = 0; // completion tokens spent reasoning (bundle v2)
    // Move quality from the built-in engine's analysis (bundle v3; analyseRecord): centipawn loss,
    // -1 while not analysed, and the judgement (search::MoveJudgement: 0 good .. 3 blunder).
    int cpLoss = -1;
    int judgement = 0;
    // The judge's evaluation of the position after the move, for White (bundle v6; meaningful
    // when cpLoss >= 0): centipawns, or a mate in evalMate moves (> 0 White mates, < 0 Black);
    // a checkmate on the board is evalMate 0 with evalCp ±kCheckmateEvalCp. Older records: 0, 0.
    int evalCp = 0;
    int evalMate = 0;
    bool operator==(const TurnRecord&) const = default;
};

// What a finished game's record keeps of its turns once the arena folds it (ArenaSession keeps
// its latest finished games whole and the older ones folded; its store holds every game whole and
// gives one back on demand): the figures the leaderboard, the budget and the lists read, summed per
// player. Index 0 is the player of the even moves (moverOf(0)), 1 of the odd ones; the open turn
// counts for its player. Immutable once made: copies of a folded record share it.
struct FoldedTurns {
    std::array<int, 2> movers{};          // participants: movers()
    std::size_t plies = 0;                // moves.size()
    bool openTurn = false;                // openTurn.has_value()
    bool analysed = false;                // the first move carries its analysis (cpLoss >= 0)
    std::array<int, 2> moves{};           // moves made
    std::array<int, 2> turns{};           // moves made and the open turn
    std::array<int, 2> illegalAttempts{}; // over the turns
    std::array<double, 2> costUsd{};      // over the turns, summed in turn order
    std::array<long long, 2> tokens{};    // prompt and completion tokens over the turns
    std::array<int, 2> analysedMoves{};   // moves carrying cpLoss
    std::array<long long, 2> cpLoss{};    // their centipawn losses
    std::array<int, 2> blunders{};        // those judged a blunder (judgement 3)
    bool operator==(const FoldedTurns&) const = default;
};

// A game as the arena keeps it: self-contained (indices into the config's participants, text
// moves), filled by the match runner, read by the leaderboard, the UI and the bundle.
struct GameRecord {
    Pairing pairing;                    // id, white, black, round, Chess960 position, opening
    std::string startFen;               // where the players started (after the opening's moves)
    std::vector<TurnRecord> moves;      // one per move played, White's first if White starts
    std::optional<TurnRecord> openTurn; // the last turn if it ended without a move
    GameResult result = GameResult::Unfinished;
    Termination termination = Termination::Unfinished;
    std::string detail; // human text: "Black forfeits: 4 illegal moves in a row"
    // When the game was played: seconds since 1970 UTC at its start and at its end (bundle v6;
    // 0 = not known: older records, a game still running has no end). Not part of ==: the same
    // game played again at another hour is the same game.
    int64_t startedAt = 0;
    int64_t finishedAt = 0;
    // Set on a folded record (foldRecord): startFen, moves and openTurn are then empty, and these
    // sums stand for them; whole records have none.
    std::shared_ptr<const FoldedTurns> folded;

    bool operator==(const GameRecord& o) const {
        return pairing == o.pairing && startFen == o.startFen && moves == o.moves && openTurn == o.openTurn &&
               result == o.result && termination == o.termination && detail == o.detail &&
               (folded == o.folded || (folded && o.folded && *folded == *o.folded));
    }
    bool finished() const { return result != GameResult::Unfinished; }
    bool isFolded() const { return folded != nullptr; }
    // Moves played, whether whole or folded.
    std::size_t plies() const { return folded ? folded->plies : moves.size(); }
    bool hasOpenTurn() const { return folded ? folded->openTurn : openTurn.has_value(); }
    // The moves carry the engine's analysis (cpLoss), whole or folded; false without moves.
    bool analysed() const { return folded ? folded->analysed : !moves.empty() && moves.front().cpLoss >= 0; }
    // Participant who played move i (by the start position's side to move).
    int moverOf(size_t moveIndex) const;
    // The participants of the even and the odd moves: moverOf(i) == movers()[i % 2], without
    // reading the start FEN again for every move of a loop.
    std::array<int, 2> movers() const { return {moverOf(0), moverOf(1)}; }
    // Participant of the open turn (the side to move after the last move).
    int openTurnPlayer() const { return moverOf(moves.size()); }
};

// The sums of a record's turns (what folding keeps of them).
FoldedTurns foldTurns(const GameRecord& record);
// Folds a finished whole record: its sums replace its start, moves and open turn (their memory is
// released). A folded or unfinished record is left as it is.
void foldRecord(GameRecord& record);
// A folded game's whole record, read back from where the games are kept (the page's store, the
// CLI's log), or why it cannot be: what exports and the analysis use for folded games.
using WholeRecordSource = std::function<Parsed<GameRecord>(const GameRecord& folded)>;
// The folded game read back through `whole`, checked to be that game whole; the error names no
// place (callers put theirs before it).
Parsed<GameRecord> readBackWhole(const GameRecord& folded, const WholeRecordSource& whole);

// Resume: replays a bundle's games (in order) into a fresh scheduler of the same config: finished
// games as played, unfinished ones as running, for the runner to continue (an in-flight move is
// simply asked again) or abandon (Scheduler::onGameAbandoned). An error names the first game that
// does not fit the schedule.
std::optional<std::string> restoreSchedule(Scheduler& scheduler, const std::vector<GameRecord>& games);

// The failure rules are play's (play/failure.h); a forfeit's termination is chess's.
Termination forfeitTermination(FailureKind kind);

} // namespace chaiba::chessmode
