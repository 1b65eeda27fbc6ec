// The arena screen's model, free of ImGui so it is tested natively: the tournament being set up,
// the running TournamentRunner (players made from the page's settings, engines and models), the
// leaderboard and rating history recomputed as games finish, the grid's slots, and persistence of
// the whole tournament in a KeyValueStore (IndexedDB on the web) so a reload resumes it.
#pragma once

#include "src/llm/assets.h"
#include "src/modes/chess/chess_prompts.h"
#include "src/llm/chat.h"
#include "src/llm/openrouter_json.h"
#include "src/persist/key_value_store.h"
#include "src/modes/chess/chess_settings.h"
#include "src/modes/chess/cost_estimate.h"
#include "src/modes/chess/arena_analysis.h"
#include "src/modes/chess/arena_store.h"
#include "src/modes/chess/bundle.h"
#include "src/modes/chess/leaderboard.h"
#include "src/modes/chess/player_factory.h"
#include "src/modes/chess/tournament_runner.h"
#include "src/play/rating_job.h"
#include "src/play/rating_refiner.h"
#include "src/play/tournament_session.h"

#include <deque>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba {

// What the arena needs from outside; the page and the tests fill it differently.
struct ArenaEnvironment {
    KeyValueStore* store = nullptr;                 // the tournament (IndexedDB on the web)
    llm::ChatService* chat = nullptr;             // null: LLM participants are refused (no key)
    const chessmode::AgentPrompts* prompts = nullptr;
    // The built-in engine as a player (native: searches in poll; web: a Web Worker).
    chessmode::EngineMaker makeEngine;
    // Scores positions for the move-quality analysis (web: the engine worker; natively
    // inThreadScorer(), a searcher in poll()). Null: no move is judged, and the arena says why. Not
    // a searcher by default: the page would link the whole search for a scorer it never makes.
    std::function<std::unique_ptr<chessmode::PositionScorer>()> makeScorer;
    std::function<std::string(int level)> engineName; // "Engine · level 4 · ≈1500"
    std::function<std::optional<double>(int level)> engineRating; // calibrated rating; -1 = strongest
    int maxEngineLevel = 7;
    // The catalog's entry of a model (tools, prices), if known.
    std::function<std::optional<llm::ModelInfo>(const std::string& model)> modelInfo;
    // The key, so a bundle can be checked never to contain it (never stored by the arena).
    std::function<std::string()> apiKey;
    // The time of day, seconds since 1970 UTC: when each game starts and ends, when a bundle is
    // exported. Null: the system clock.
    std::function<int64_t()> clock;
    // While games run, each poll refines the rating intervals for this long at most, at least one
    // resample (a resample takes ~0.3 ms in WebAssembly at 10 000 games, 50 players); the samples
    // are the same however they are sliced. 0: one resample per poll (tests).
    double refineBudgetMs = 3.0;
    // Draws the intervals' bootstrap while games run somewhere else (web: the engine worker), so a
    // game end costs this thread only the point estimate; null, or after the runner failed: here,
    // a slice per poll. The intervals are the same either way (rating_job.h).
    std::function<std::unique_ptr<play::BootstrapRunner>()> makeBootstrapRunner;
    // Finished games held whole in memory: the latest this many (and those on the boards); older
    // ones, once their records are committed in the store, are held folded (foldRecord: results
    // and sums, ~0.3 KB instead of ~7 KB with 80 moves) and read back from the store on demand
    // (the game view, the export, the analysis). Without a store every game stays whole.
    size_t keepWholeGames = 64;
    // While games run, the move-quality analysis keeps its scorer busy this share of the time at
    // most (ArenaAnalysisQueue::pace); at rest it runs back to back. The page: 0.25 on a machine
    // with fewer than 4 cores (its engine worker would take the core the page's thread needs to
    // keep its frames), else 1.
    double analysisShareWhileRunning = 1.0;
};

// The setup draft's storage key; the tournament's keys are ArenaStore's (arena_store.h).
inline constexpr const char* kArenaDraftKey = "chaiba.arena.draft";
// Each model's cost per game measured in earlier tournaments of this browser (kept over Reset):
// {"version": 1, "models": [{"model", "context" (contextPolicyLabel), "games", "costUsd"}]}.
inline constexpr const char* kArenaMeasuredKey = "chaiba.arena.measuredCosts";
inline constexpr int kArenaMeasuredVersion = 1;

// What a model's games cost in earlier tournaments, under one context policy.
struct MeasuredCost {
    int games = 0;
    double costUsd = 0;
    bool operator==(const MeasuredCost&) const = default;
};

// Setup (the draft is edited), Running, Stopping (running games play to their end: a stop or the
// budget cap), Paused (401/402: nothing moves until Resume), Stopped (Resume continues every game
// where it stopped), Finished; named by play::hostedPhaseName.
using ArenaPhase = play::HostedPhase;

// One board of the grid: a live game, or a finished one shown until a new game needs its place.
struct ArenaSlot {
    int gameId = -1;
    bool live = false;
};

class ArenaSession {
public:
    explicit ArenaSession(ArenaEnvironment env);
    ~ArenaSession();
    ArenaSession(const ArenaSession&) = delete;
    ArenaSession& operator=(const ArenaSession&) = delete;

    // Loads what the store holds: a tournament (coming back as it was: running ones resume, an
    // in-flight move is asked again) or a draft. Corrupt data is kept under "<key>.corrupt" and
    // reported by error(). `settings` are the page's (model parameters, engine pace).
    void load(const chessmode::ChessPlaySettings& settings, double nowMs);
    // The chat service for new players (the key changed, or was added or forgotten).
    void setChat(llm::ChatService* chat) { env_.chat = chat; }

    // ---- setup (phase Setup) ------------------------------------------------------------------
    chessmode::TournamentConfig& draft() { return draft_; }
    const chessmode::TournamentConfig& draft() const { return draft_; }
    // The draft the page offers first: the selected models (else the shipped flagships) with
    // engine anchors and the random mover when there is a key; engine levels only without one.
    // The opening suite file (assets/chess/openings/*.json: {"openings": [{name, moves: [uci]}]}),
    // every line checked to be legal from the standard start.
    static chessmode::Parsed<std::vector<chessmode::Opening>> parseOpeningSuite(std::string_view json);
    static chessmode::TournamentConfig defaultDraft(const std::vector<std::string>& models, bool haveKey, int maxLevel);
    void saveDraft();
    // Every problem of the draft in one sentence (including LLMs without a key), or nothing.
    std::optional<std::string> checkDraft() const;
    // The cost of the draft (before Start) or of the whole tournament: from the prompt sizes the
    // agents really send under `settings` (measured once per settings), then, for each model that
    // has played, from what its games cost: in this tournament, else in earlier ones (measured()).
    chessmode::BudgetEstimate estimate(const chessmode::ChessPlaySettings& settings) const;
    // Each model's cost per game in the tournaments reset or replaced in this browser, by model id
    // and context policy label ("full", "windowed 8"): kept over Reset, in memory and in the store.
    const std::map<std::pair<std::string, std::string>, MeasuredCost>& measured() const { return measured_; }

    // ---- control --------------------------------------------------------------------------------
    // Starts the draft as a tournament (error sentence, nothing changed, when it cannot start).
    std::optional<std::string> start(const chessmode::ChessPlaySettings& settings, double nowMs);
    // Stop now: running requests are abandoned cleanly, each unfinished game keeps its moves and
    // continues from there on resume(). finishGames = true instead lets running games play out.
    void stop(bool finishGames);
    // Continues a stopped or paused tournament (a paused one asks the failed players again).
    std::optional<std::string> resume(const chessmode::ChessPlaySettings& settings, double nowMs);
    // Clears games and ratings (after the person confirmed): back to Setup with the same config.
    void reset();
    // Advances the tournament; call every frame. Saves after game ends and periodically.
    void poll(double nowMs);

    // ---- what the screen shows -------------------------------------------------------------------
    // Finished only once every finished game is stored: until the store confirms the last ones,
    // the tournament still reads as running (a reported result is already stored).
    ArenaPhase phase() const { return session_.shownPhase(); }
    bool hasTournament() const { return session_.hasTournament(); }
    const chessmode::TournamentConfig& config() const { return config_; }
    const chessmode::TournamentRunner* runner() const { return runner_.get(); }
    chessmode::TournamentRunner* runner() { return runner_.get(); }
    // Finished games (finish order), then running ones as unfinished records. A game finishes
    // here only once the store confirmed its record (until then it reads as unfinished), so a
    // result shown is never lost by a closed tab.
    // Older finished games are folded (ArenaEnvironment::keepWholeGames): results and sums only;
    // game() reads one back.
    const std::vector<chessmode::GameRecord>& games() const { return games_; }
    // The game with this id, whole; null when there is none. A folded game is read back from the
    // store (kept for a few calls): until its record arrives (IndexedDB answers from the event
    // loop; revision() then changes) it comes folded and reading(id) is true; when its record
    // cannot be read it stays folded and readError(id) says why.
    const chessmode::GameRecord* game(int id) const;
    bool reading(int id) const { return unfoldPending_.count(id) != 0; }
    std::string readError(int id) const;
    // Finished games held folded (for the soak and the tests).
    size_t foldedGames() const { return foldedCount_; }
    // The live game with this id, or null.
    chessmode::LiveGame* liveGame(int id);
    const std::vector<ArenaSlot>& slots() const { return slots_; }
    const chessmode::Leaderboard& leaderboard() const { return leaderboard_; }
    // Ratings after each finished game (subsampled), per participant.
    const std::vector<std::vector<double>>& ratingHistory() const { return history_; }
    // True while the intervals of the shown ratings are still being refined (a game just ended);
    // the bootstrap samples drawn so far of those wanted.
    bool ratingsRefining() const { return session_.ratingsRefining(); }
    std::pair<int, int> refineProgress() const { return session_.refineProgress(); }
    // The bootstrap jobs sent elsewhere, their intervals taken, and why the runner was given up
    // (then the intervals are refined here); for the state JSON and the tests.
    using BootstrapStats = play::RatingRefiner::Stats;
    BootstrapStats bootstrapStats() const { return session_.ratingStats(); }
    static constexpr double kBootstrapPatienceMs = play::RatingRefiner::kPatienceMs;
    static constexpr double kBootstrapEveryMs = play::RatingRefiner::kEveryMs;
    bool excludeForfeits() const { return options_.excludeForfeits; }
    const chessmode::LeaderboardOptions& leaderboardOptions() const { return options_; }
    void setExcludeForfeits(bool exclude);
    // What the tournament shown has spent (an imported or reloaded one's recorded costs included).
    double spentUsd() const;
    double spentUsd(int participant) const;
    // What this session paid: the answers its runners received since it was made, over Reset,
    // Import and Resume; never a reloaded or imported tournament's recorded costs (the header's
    // "session" figure).
    double sessionSpentUsd() const;
    long long ticks() const;
    int gamesFinished() const;
    int totalGames() const;
    // Move quality: finished games still waiting for their analysis, and the analysis queue.
    int gamesAwaitingAnalysis() const { return analysis_->waiting(games_); }
    // The share of a core the analysis takes now (ArenaEnvironment::analysisShareWhileRunning while
    // games run, else 1): below 1 the page says so beside the games still to analyse.
    double analysisShare() const {
        return runner_ && session_.phase() == ArenaPhase::Running ? env_.analysisShareWhileRunning : 1.0;
    }
    bool analysing() const { return analysis_->currentGame() >= 0 || analysis_->anyWaiting(games_); }
    const chessmode::ArenaAnalysisQueue& analysis() const { return *analysis_; }
    // A pause (401/402), a storage failure or a corrupt stored tournament, in plain words.
    const std::string& error() const { return session_.error(); }
    void clearError() { session_.clearError(); }
    // The typed failure behind error() when it is a pause for the key (401) or credits (402).
    std::optional<play::FailureKind> errorFailure() const { return session_.errorFailure(); }
    // Changes whenever something visible changes (a move, a result, a phase): for redraws.
    uint64_t revision() const { return session_.revision(); }
    // Milliseconds until timed work (ticker, backoff) is due; -1 when none.
    double msUntilNextTimer(double nowMs) const;
    bool busy() const; // a game is thinking

    // ---- export / import -----------------------------------------------------------------------
    // The bundle (JSON) or all games (PGN) as they are now, folded games read back from the store
    // first: the callback gets the text, or an error sentence (nothing to export, a game that
    // could not be read back). It runs inside the call when the store answers at once, else later.
    void exportLater(bool pgn, std::function<void(chessmode::Parsed<std::string>)> done) const;
    // The same, for a store that answers at once (tests, native); else an error saying the
    // export is still reading.
    chessmode::Parsed<std::string> exportJson() const;
    chessmode::Parsed<std::string> exportPgn() const;
    // Replaces the current tournament with an imported bundle (stopped; Resume continues it).
    // The bundle's stored leaderboard is kept for comparison: importedMatches() tells whether the
    // recomputed one reproduces it.
    std::optional<std::string> importJson(std::string_view json);
    std::optional<bool> importedMatches() const { return importedMatches_; }

    // Boards the grid shows: the concurrency, at most one per pair of participants.
    static int boardCount(const chessmode::TournamentConfig& config);
    // "llm", "engine" or "random" for a participant's spec ("?" if it does not parse).
    static const char* participantKind(const chessmode::Participant& participant);
    // The display name of a participant ("openai/gpt-4o", "Engine · level 4 · ≈1518").
    std::string participantName(int participant) const;

private:
    chessmode::PlayerFactory factory(const chessmode::ChessPlaySettings& settings);
    // The runner's options: the environment's clock for the games' times.
    chessmode::RunnerOptions runnerOptions() const {
        chessmode::RunnerOptions o;
        o.clock = env_.clock;
        return o;
    }
    // Drops the runner (its players cancel their calls), its spend counted into the session's.
    void dropRunner();
    // The shown tournament's per-model costs join measured_ (before a Reset or an Import replaces it).
    void keepMeasuredCosts();
    void loadMeasuredCosts();
    std::map<std::pair<std::string, std::string>, MeasuredCost> measured_;
    double paidBeforeUsd_ = 0; // by runners dropped
    double runnerStartUsd_ = 0; // the current runner's spend when it was made (a resumed tournament's costs)
    std::optional<std::string> createRunner(const chessmode::ChessPlaySettings& settings, std::vector<chessmode::GameRecord> resumed,
                                            double nowMs);
    bool takeRunnerEvents(); // true when a game finished
    void refresh(bool ratings);
    void updateSlots();
    // The bundle of `games` (a copy of games_ taken when asked), folded ones from `whole`.
    chessmode::Parsed<chessmode::TournamentBundle> bundle(const std::vector<chessmode::GameRecord>& games,
                                                          const std::map<int, chessmode::GameRecord>& whole,
                                                          const chessmode::Leaderboard& board) const;
    // Folds the finished games past the latest keepWholeGames whose records the store committed
    // (in every list holding them: games_, the runner's, stoppedGames_).
    void foldOlder();
    size_t foldCursor_ = 0;  // games_[0, foldCursor_) are folded or past the point to look again
    size_t foldedCount_ = 0;
    // Folded games read back whole (game()), the latest few; reads on their way; why a read failed.
    mutable std::deque<chessmode::GameRecord> unfolded_;
    mutable std::set<int> unfoldPending_;
    mutable std::map<int, std::string> unfoldErrors_;
    // Bumped when the list of games is replaced (load, import, reset): a read answered after that
    // is for another tournament and dropped.
    uint64_t listGeneration_ = 0;
    void newList();
    // Outlives nothing: callbacks of reads that answer after the session is gone see it expired.
    std::shared_ptr<int> life_ = std::make_shared<int>(0);
    // Puts a finished game's record (folded again, with its analysis) in every list holding it.
    void replaceFinished(size_t index, const chessmode::GameRecord& record);
    chessmode::GameRecord runningRecord(const chessmode::LiveGame& game) const; // as stored and shown
    // The running games' records (runningRecord), brought up to date move by move: a move costs
    // its own turn, not a copy of every running game, in the store and on screen.
    void updateLiveRecords();
    std::vector<chessmode::GameRecord> liveRecords_;
    uint64_t runnerSerial_ = 0;      // counts the runners made
    uint64_t liveRecordsRunner_ = 0; // the runner liveRecords_ came from (a new one starts over)
    size_t keptPrefix_ = 0;          // games_[0, keptPrefix_) match the runner's finished games
    uint64_t keptRunner_ = 0;        // the runner that prefix was checked against (0: none)
    void save();
    void setPhaseFromRunner();
    bool pollAnalysis(); // true when an analysis landed (records, store and leaderboard updated)
    void applyAnalysis(std::vector<chessmode::GameRecord>& games) const;
    void applyAnalysis(chessmode::GameRecord& game) const; // a finished whole record without it

    ArenaEnvironment env_;
    // The phase, the gate of finished games (a game is shown once the store confirmed its record),
    // the spend floor, the error, the rating refiner and the revision.
    play::TournamentSession session_;
    chessmode::TournamentConfig draft_;
    mutable std::string expectationKey_; // the settings the cached expectation was measured for
    mutable chessmode::TokenExpectation expectation_;
    mutable int expectationWindow_ = 0; // the window its windowed line was measured with (0: none)
    chessmode::TournamentConfig config_;
    chessmode::LeaderboardOptions options_;
    std::unique_ptr<chessmode::TournamentRunner> runner_;
    std::vector<chessmode::GameRecord> stoppedGames_; // the games while no runner exists (stopped, imported)
    std::vector<chessmode::GameRecord> games_;
    std::vector<ArenaSlot> slots_;
    chessmode::Leaderboard leaderboard_;
    std::vector<std::vector<double>> history_;
    // The leaderboard's sums and the plot's grid fits over games_[0, tallyStable_), the finished
    // games the runner keeps (0 without a runner): kept while games only add up, so a game end
    // costs that game, not all of them. Cleared when games_ becomes another list.
    chessmode::LeaderboardTally tally_;
    size_t tallyStable_ = 0;
    double lastPollMs_ = 0;
    void startRatings();
    std::optional<chessmode::Leaderboard> importedBoard_;
    std::optional<bool> importedMatches_;
    size_t seenFinished_ = 0;
    size_t seenMoves_ = 0;
    chessmode::ArenaStore store_;   // the tournament in env_.store, by increments
    // While games run, the rating intervals are drawn elsewhere (env_.makeBootstrapRunner) or here
    // a slice per poll (the point estimates are shown at once with the last intervals around
    // them); at rest the whole fit is made at once.
    void checkImported();
    // A finished game's record is stored and the store confirmed it: it is shown finished.
    bool committed(int id) const { return store_.stored(id) && !session_.commits().waiting(id); }
    std::unique_ptr<chessmode::ArenaAnalysisQueue> analysis_; // finished games' move quality
};

} // namespace chaiba
