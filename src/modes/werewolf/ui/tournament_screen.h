// The Werewolf Arena screen ("werewolf-arena"): a tournament of Werewolf games among models and
// rule-based bots. Setup (the pool of seats, games, roles, rules, seed, mirrored deals, games at
// once, budget cap, the cost estimate), the running view (games in progress, finished games,
// pause/resume/stop), the leaderboard (results.*, the CLI's rows) and the automation commands.
// The tournament is WerewolfTournament; it is kept per finished game in the store and comes back
// paused after a reload.
#pragma once

#include "src/llm/assets.h"
#include "src/modes/werewolf/tournament.h"
#include "src/modes/werewolf/tournament_store.h"
#include "src/modes/werewolf/werewolf_prompts.h"
#include "src/play/tournament_session.h"
#include "src/ui/screen.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba {

class WerewolfArenaScreen final : public ui::Screen {
public:
    // `store` keeps the tournament (IndexedDB in the page); `assets` has assets/werewolf. Both
    // outlive the screen, like `context`.
    // makeBootstrapRunner: where the ratings' intervals are drawn while games run (the page's
    // worker); empty: here, a slice per tick.
    WerewolfArenaScreen(const ui::ScreenContext& context, KeyValueStore* store, const llm::AssetSource* assets,
                        play::RatingRefiner::RunnerMaker makeBootstrapRunner = {});
    ~WerewolfArenaScreen() override;

    std::string_view id() const override { return "werewolf-arena"; }
    std::string_view title() const override { return "Werewolf Arena"; }
    void tick(double nowMs) override;
    void draw() override;
    bool wantsContinuousFrames() const override { return session_.phase() == Phase::Running; }
    double contentFrameIntervalMs() const override { return 50.0; } // many tables at once, as the chess arena
    uint64_t changeCounter() const override { return session_.revision(); }
    double spentUsd() const override; // this page's spend (the header's share): see the .cpp
    // {screen, phase, gamesFinished, totalGames, spentUsd, budgetUsd, budgetReached, estimate,
    //  config, error, notice, live: [...], games: [...], leaderboard: [rows as summary.json],
    //  ratingsRefining, ratingsWorker: {sent, adopted, error}}
    std::string stateJson() const override;
    // setup <config JSON>, start, pause, resume, stop, reset, exportJson (answers the bundle text),
    // importJson <bundle>, tab "games"|"leaderboard".
    std::optional<std::string> command(std::string_view name, std::string_view argumentJson,
                                       std::string* resultJson) override;
    std::vector<ui::CommandInfo> commands() const override;

    using Phase = play::HostedPhase; // never Stopping: a stop ends the running games at once

    // The Werewolf Arena as the planner's stages drive it: typed, the same paths as the commands.
    play::TournamentProgress tournamentProgress() const;
    // A new tournament of `config` (a finished or stopped one is replaced); refused while one is
    // under way, or with the reason the setup or the start was refused.
    std::optional<std::string> startTournament(const werewolfmode::TournamentConfig& config);
    void stopTournament() { stop(); }
    // The tournament as its bundle (a plan keeps each stage), and a kept bundle shown in its place
    // (refused while one runs).
    std::string exportTournament() const { return werewolfmode::arenaBundleJson(stored_); }
    std::optional<std::string> openTournament(const std::string& bundle) { return importArena(bundle); }
    // Where a finished game's replay opens (the Werewolf screen's viewer): its record (a one-line
    // game file) and a title; an error sentence when it does not open.
    using ReplayOpener = std::function<std::optional<std::string>(const std::string& record, const std::string& title)>;
    void setReplayOpener(ReplayOpener open) { openReplay_ = std::move(open); }

private:
    double tournamentSpentUsd() const; // what the tournament shown spent (an imported one's included)
    double spentBeforeResetUsd_ = 0;   // tournaments reset or replaced in this session
    double importedSpentUsd_ = 0;      // what the imported tournament had spent before
    // tournament_screen.cpp: the lifecycle.
    std::optional<std::string> start();
    std::optional<std::string> pause();
    std::optional<std::string> resume();
    std::optional<std::string> stop();
    void reset();
    // A bundle this page or another exported replaces what is shown (not while one runs).
    std::optional<std::string> importArena(const std::string& text);
    std::optional<std::string> setup(const werewolfmode::TournamentConfig& config); // the draft, for start
    bool budgetSpent() const; // the cap is set and reached: no game can start
    std::optional<std::string> makeTournament(); // from stored_, for start and resume
    void onGameFinished(const werewolfmode::GameResult& result);
    std::optional<std::string> openGameReplay(int index); // game `index` in the replay viewer
    ReplayOpener openReplay_;
    // The records kept for replays are bounded (a bot game's record is ~13 kB: a soak of 10 000
    // games would hold 130 MB): past kMaxRecordBytes the oldest go, counted in recordsDropped_.
    // Each is also kept in the store under its own key (released from its memory mirror once
    // written), so the replays come back after a reload (readKeptRecords).
    static constexpr std::size_t kMaxRecordBytes = std::size_t(16) << 20;
    void keepRecord(int index, std::string record, bool write = true);
    void readKeptRecords(); // the kept tournament's records, read back in the background
    void forgetRecords();   // the shown tournament's records, from memory and the store (it is replaced)
    int recordsGeneration_ = 0; // a reset or import since a read began: its answer is dropped
    std::size_t recordBytes_ = 0;
    int recordsDropped_ = 0;
    std::optional<int> replayWanted_; // a finished game clicked: opened between frames
    // A leaderboard cell clicked: that player's games (in that role, when a role's cell) to pick one.
    struct CellGames {
        std::string player;
        std::optional<werewolf::Role> role;
    };
    std::optional<CellGames> cellGames_;
    bool cellGamesOpen_ = false; // the popup is to be opened this frame
    void drawCellGames();
    void saveMeta();
    std::string storedPhase() const; // the phase the head records
    // The finished games whose records the store confirmed, shown; one it has not confirmed
    // within kCommitPatienceMs is shown anyway, with a warning (a storage that fails silently).
    void commitStored(double nowMs);
    static constexpr double kCommitPatienceMs = 10000;
    int playedCount() const { return int(stored_.results.size() + unshown_.size()); }
    // The counts recounted in game order, the ratings' fits started (while games run their
    // intervals follow; at rest they are whole at once: the CLI's rows exactly).
    void refreshRows();
    void rankRows();     // rows_ from the counts and the fits shown
    // The counts shown and the fits started on them (refreshRows; tally_'s after a game shown).
    void showCounts(std::vector<werewolfmode::PlayerStanding> counts, werewolfmode::RatingRuns runs);
    std::string defaultDraftJson() const;
    const werewolfmode::TournamentConfig& shownConfig() const {
        return session_.phase() == Phase::Setup ? draft_ : stored_.config;
    }
    // tournament_draw.cpp: the page.
    void drawSidebar(float width, float height);
    void drawSetup();
    void drawGames();
    void drawLeaderboard();
    void drawBeliefRounds();

    const ui::ScreenContext& context_;
    KeyValueStore* store_;
    std::optional<werewolfmode::WerewolfPrompts> prompts_;
    std::string promptsError_;

    // The phase, the gate of finished games (shown once the store confirmed them), the error, the
    // two rating fits' refiners and the change counter.
    play::TournamentSession session_;
    werewolfmode::ArenaRecords records_; // the tournament in store_ (the layout every arena shares)
    werewolfmode::TournamentConfig draft_;
    werewolfmode::StoredArena stored_; // stored_.results: the finished games shown (their records committed)
    // Finished games whose records wait in session_'s commit gate (IndexedDB commits in the
    // background): counted as played, shown once committed.
    std::map<int, werewolfmode::GameResult> unshown_;
    std::unique_ptr<werewolfmode::WerewolfTournament> tournament_;
    std::vector<werewolfmode::PlayerStanding> rows_;
    std::string rowsJson_ = "[]";
    // The leaderboard's two fits (overall, by role), their intervals drawn off this thread while
    // games run (a game end costs the counts and two point estimates, not 2 x 1000 resamples).
    std::vector<werewolfmode::PlayerStanding> counts_; // name order, no ratings
    std::unique_ptr<werewolfmode::StandingsTally> tally_; // the shown games' counts, grown game by game
    play::BradleyTerryFit overallShown_, byRoleShown_, perRoleShown_; // session_'s fits 0, 1 and 2
    std::string notice_;     // a result (export, budget reached)
    bool storedDamaged_ = false; // the stored tournament did not read: kept until discarded
    double lastMetaSaveMs_ = 0;
    double savedSpentUsd_ = 0;
    int tab_ = 0; // 0 games, 1 leaderboard
    bool tabRequested_ = false;
    // The setup form's text fields.
    char rolesText_[128] = {};
    char budgetText_[24] = {};
    bool draftTouched_ = false; // false: the default draft follows whether a key is stored
    bool importPicking_ = false;               // "Import JSON…" asked for a file
    std::optional<std::string> pickedImport_;  // its text, imported at the next tick
    bool draftForKey_ = false;
};

} // namespace chaiba
