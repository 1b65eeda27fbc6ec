// ArenaSession: see arena_session.h. Setup, control, the runner's events, move quality and what
// the screen shows; saving, loading, folding and the exports are in arena_session_store.cpp.
#include "src/modes/chess/arena_session.h"

#include "src/modes/chess/prompt_size.h"
#include "src/net/section_timer.h"

#include "src/modes/chess/chess_agent.h"
#include "src/modes/chess/player_factory.h"
#include "src/modes/chess/players.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <set>

namespace chaiba {

using nlohmann::json;

namespace {

constexpr int kHistoryPoints = 200;   // rating plot points

chessmode::Parsed<chessmode::PlayerSpec> specOf(const chessmode::Participant& p) { return chessmode::parsePlayerSpec(p.spec); }

} // namespace

ArenaSession::ArenaSession(ArenaEnvironment env)
    : env_(std::move(env)), session_({env_.store, std::nullopt, env_.makeBootstrapRunner}),
      store_(env_.store, env_.apiKey, session_.commits()) {
    session_.addRatings([this](const play::BradleyTerryFit& fit, bool settled) {
        leaderboard_ = chessmode::leaderboardWithFit(config_, games_, options_, fit, &tally_, tallyStable_);
        if (settled) session_.changed();
    });
    std::unique_ptr<chessmode::PositionScorer> scorer;
    if (env_.makeScorer) scorer = env_.makeScorer();
    if (!scorer) scorer = std::make_unique<chessmode::NoScorer>();
    analysis_ = std::make_unique<chessmode::ArenaAnalysisQueue>(std::move(scorer));
    tally_.historyPoints = kHistoryPoints; // the plot's grid fits are kept with the sums
    analysis_->setLoader([this, life = std::weak_ptr<int>(life_)](int id, std::function<void(chessmode::Parsed<chessmode::GameRecord>)> done) {
        store_.readFinished({id}, config_, [life, done = std::move(done)](std::vector<chessmode::Parsed<chessmode::GameRecord>> read) {
            if (life.expired()) return;
            done(std::move(read.front()));
        });
    });
}

ArenaSession::~ArenaSession() {
    runner_.reset(); // players cancel their calls while the environment is still there
}

chessmode::TournamentConfig ArenaSession::defaultDraft(const std::vector<std::string>& models, bool haveKey,
                                                   int maxLevel) {
    chessmode::TournamentConfig c;
    c.format = play::Format::Arena;
    c.concurrency = 6;
    c.seed = 1;
    auto engine = [&](int level) {
        if (level <= maxLevel) c.participants.push_back({"engine:" + std::to_string(level), "", -1});
    };
    if (haveKey) {
        c.name = "Flagships vs engines";
        for (size_t i = 0; i < models.size() && i < 6; ++i) c.participants.push_back({"llm:" + models[i], "", -1});
        // LLMs play weak chess: the low levels make useful anchors, level 5 a ceiling.
        for (int level = 1; level <= 5; ++level) engine(level);
        c.participants.push_back({"random", "", -1});
        c.games = 60;
        // Models cost money: a cap and a per-game token budget from the start (the setup says so).
        c.budgetUsd = chessmode::kDefaultBudgetUsd;
        c.gameTokenBudget = chessmode::kDefaultGameTokenBudget;
    } else {
        c.name = "Engine ladder";
        for (int level = 1; level <= maxLevel; ++level) engine(level);
        c.participants.push_back({"random", "", -1});
        c.games = 40;
    }
    // Every participant busy at once fills the grid (2x3 with a key and twelve players).
    c.concurrency = std::max(1, std::min(6, int(c.participants.size()) / 2));
    return c;
}

chessmode::Parsed<std::vector<chessmode::Opening>> ArenaSession::parseOpeningSuite(std::string_view text) {
    using Result = chessmode::Parsed<std::vector<chessmode::Opening>>;
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return Result::fail("the opening suite is not a JSON object");
    if (!doc.contains("openings") || !doc["openings"].is_array()) return Result::fail("openings: expected a list");
    std::vector<chessmode::Opening> out;
    for (size_t i = 0; i < doc["openings"].size(); ++i) {
        const json& o = doc["openings"][i];
        const std::string at = "openings[" + std::to_string(i) + "]";
        if (!o.is_object() || !o.contains("name") || !o["name"].is_string()) return Result::fail(at + ".name: expected a string");
        if (!o.contains("moves") || !o["moves"].is_array()) return Result::fail(at + ".moves: expected a list");
        chessmode::Opening opening;
        opening.name = o["name"].get<std::string>();
        for (const json& m : o["moves"]) {
            if (!m.is_string()) return Result::fail(at + ".moves: expected UCI strings");
            opening.moves.push_back(m.get<std::string>());
        }
        chessmode::Parsed<std::string> fen = chessmode::openingStartFen(opening);
        if (!fen.ok()) return Result::fail(at + " (" + opening.name + "): " + fen.error);
        out.push_back(std::move(opening));
    }
    if (out.empty()) return Result::fail("the opening suite is empty");
    return Result{std::move(out), {}};
}

const char* ArenaSession::participantKind(const chessmode::Participant& participant) {
    const chessmode::Parsed<chessmode::PlayerSpec> spec = specOf(participant);
    if (!spec.ok()) return "?";
    return chessmode::playerTypeName(spec.value->kind).data(); // the names are literals
}

std::string ArenaSession::participantName(int participant) const {
    const auto& list = hasTournament() ? config_.participants : draft_.participants;
    if (participant < 0 || size_t(participant) >= list.size()) return "?";
    const chessmode::Participant& p = list[size_t(participant)];
    if (!p.name.empty()) return p.name;
    chessmode::Parsed<chessmode::PlayerSpec> spec = specOf(p);
    if (!spec.ok()) return p.spec;
    switch (spec.value->kind) {
    case chessmode::PlayerSpec::Kind::Model: return spec.value->modelId;
    case chessmode::PlayerSpec::Kind::Random: return "Random mover";
    case chessmode::PlayerSpec::Kind::Engine: {
        // Short: the arena shows its own rating next to every name.
        const int level = spec.value->level < 0 ? env_.maxEngineLevel : spec.value->level;
        return "Engine \xC2\xB7 level " + std::to_string(level);
    }
    case chessmode::PlayerSpec::Kind::Bot:
    case chessmode::PlayerSpec::Kind::Person: break; // not in the chess grammar
    }
    return p.spec;
}

// ---- setup ---------------------------------------------------------------------------------------

void ArenaSession::saveDraft() {
    if (!env_.store) return;
    chessmode::Parsed<std::string> text = chessmode::configJson(draft_);
    if (text.ok()) env_.store->set(kArenaDraftKey, *text.value); // an invalid draft is not kept
}

std::optional<std::string> ArenaSession::checkDraft() const {
    if (auto bad = chessmode::validateConfig(draft_)) return bad;
    for (size_t i = 0; i < draft_.participants.size(); ++i) {
        chessmode::Parsed<chessmode::PlayerSpec> spec = specOf(draft_.participants[i]);
        if (!spec.ok()) return "participant " + std::to_string(i + 1) + ": " + spec.error;
        const chessmode::PlayerSpec& s = *spec.value;
        if (s.kind == chessmode::PlayerSpec::Kind::Model && !env_.chat)
            return "language models need an OpenRouter API key: add one in Settings (or play engines only)";
        if (s.kind == chessmode::PlayerSpec::Kind::Model && !env_.prompts) return "the model prompts could not be loaded";
        if (s.kind == chessmode::PlayerSpec::Kind::Engine && s.level > env_.maxEngineLevel)
            return "participant " + std::to_string(i + 1) + ": engine levels go from 0 to " +
                   std::to_string(env_.maxEngineLevel);
    }
    return std::nullopt;
}

chessmode::BudgetEstimate ArenaSession::estimate(const chessmode::ChessPlaySettings& settings) const {
    const chessmode::TournamentConfig& config = hasTournament() ? config_ : draft_;
    if (chessmode::validateConfig(config)) return {};
    if (env_.prompts) {
        const std::string key = settings.promptBase + '\x1f' + settings.promptWhite + '\x1f' + settings.promptBlack +
                                '\x1f' + std::to_string(settings.sendContextMessage) +
                                std::to_string(settings.sendLegalMoves);
        if (key != expectationKey_) {
            expectation_ = chessmode::tokenExpectation(chessmode::ContextPolicy::Full, *env_.prompts, settings, 40, false);
            expectationKey_ = key;
            expectationWindow_ = 0;
        }
        // The windowed line, measured with the tournament's window once a player is windowed (a
        // change of the window measures that one game again).
        bool windowed = false;
        for (size_t i = 0; i < config.participants.size(); ++i)
            windowed = windowed || chessmode::contextPolicyOf(config, int(i)) == chessmode::ContextPolicy::Windowed;
        if (windowed && expectationWindow_ != config.contextWindowMoves) {
            chessmode::ChessPlaySettings measuredWith = settings;
            measuredWith.contextWindowMoves = config.contextWindowMoves;
            chessmode::fitWindowed(expectation_, *env_.prompts, measuredWith);
            expectationWindow_ = config.contextWindowMoves;
        }
    }
    chessmode::BudgetEstimate e = chessmode::estimateBudget(
        config,
        [this](const std::string& model) -> std::optional<play::ModelPrice> {
            if (!env_.modelInfo) return std::nullopt;
            std::optional<llm::ModelInfo> info = env_.modelInfo(model);
            if (!info) return std::nullopt;
            return play::ModelPrice{info->pricing.promptUsdPerToken, info->pricing.completionUsdPerToken};
        },
        expectation_);
    auto measuredShare = [&](size_t i, double costPerGame) {
        e.totalUsd += costPerGame * e.gamesPerParticipant[i] - e.perParticipantUsd[i];
        e.perParticipantUsd[i] = costPerGame * e.gamesPerParticipant[i];
    };
    // Models that played in earlier tournaments under the same policy: what their games cost then
    // (a Reset keeps it: the next estimate is not back at the prompt sizes alone).
    for (size_t i = 0; i < config.participants.size() && i < e.perParticipantUsd.size(); ++i) {
        const chessmode::Parsed<chessmode::PlayerSpec> spec = specOf(config.participants[i]);
        if (!spec.ok() || spec.value->kind != chessmode::PlayerSpec::Kind::Model) continue;
        const auto it = measured_.find({spec.value->modelId, chessmode::contextPolicyLabel(
                                                                 chessmode::contextPolicyOf(config, int(i)),
                                                                 config.contextWindowMoves)});
        if (it == measured_.end() || it->second.games <= 0 || it->second.costUsd <= 0) continue;
        measuredShare(i, it->second.costUsd / it->second.games);
        e.measuredBefore = true;
    }
    // Models that have played here: what their games really cost, per game, times their games.
    if (hasTournament())
        for (const chessmode::LeaderboardRow& r : leaderboard_.rows) {
            const size_t i = size_t(r.participant);
            if (i >= e.perParticipantUsd.size() || r.games == 0 || r.turns == 0 || r.costUsd <= 0) continue;
            measuredShare(i, r.avgCostPerGame);
            e.measured = true;
        }
    e.upToUsd = std::max(e.upToUsd, e.totalUsd);
    e.exceedsCap = config.budgetUsd && e.totalUsd > *config.budgetUsd;
    return e;
}

// ---- players ---------------------------------------------------------------------------------------

chessmode::PlayerFactory ArenaSession::factory(const chessmode::ChessPlaySettings& settings) {
    // Captures copies: the runner outlives neither the session nor the environment's services.
    // The tournament's own model calls (taken when it started) over the page's settings: a resumed
    // or imported tournament asks its models as it began, whatever Settings say by now.
    return [env = env_, settings = chessmode::withModelCalls(settings, config_.calls),
            tournament = config_](const chessmode::PlayerSlot& slot, std::string& error) -> std::unique_ptr<chessmode::Player> {
        chessmode::Parsed<chessmode::PlayerSpec> parsed = chessmode::parsePlayerSpec(slot.spec->spec);
        if (!parsed.ok()) {
            error = parsed.error;
            return nullptr;
        }
        chessmode::ChessPlayerServices services;
        services.chat = env.chat;
        services.prompts = env.prompts;
        services.makeEngine = env.makeEngine;
        services.maxEngineLevel = env.maxEngineLevel;
        services.modelInfo = env.modelInfo;
        const chessmode::ChessSeat seat{slot.id, slot.side, slot.seed, slot.opponentName};
        chessmode::Parsed<std::unique_ptr<chessmode::Player>> player = chessmode::makeChessPlayer(
            *parsed.value, seat, settings, services, [&](chessmode::AgentConfig& config) {
                config.contextPolicy = chessmode::contextPolicyOf(tournament, slot.participant);
                config.contextWindowMoves = tournament.contextWindowMoves;
                config.stream = true;
            });
        if (!player.ok()) error = player.error;
        return player.ok() ? std::move(*player.value) : nullptr;
    };
}

std::optional<std::string> ArenaSession::createRunner(const chessmode::ChessPlaySettings& settings,
                                                      std::vector<chessmode::GameRecord> resumed, double nowMs) {
    chessmode::Parsed<std::unique_ptr<chessmode::TournamentRunner>> created =
        chessmode::TournamentRunner::create(config_, factory(settings), std::move(resumed), runnerOptions());
    if (!created.ok()) return created.error;
    dropRunner();
    runner_ = std::move(*created.value);
    runnerStartUsd_ = runner_->budget().spentUsd(); // a resumed tournament's recorded costs: not paid now
    ++runnerSerial_;
    runner_->start(nowMs);
    stoppedGames_.clear();
    takeRunnerEvents(); // starting polls once: a first answer may already have paused it
    setPhaseFromRunner();
    refresh(true);
    return std::nullopt;
}

// ---- control -----------------------------------------------------------------------------------------

std::optional<std::string> ArenaSession::start(const chessmode::ChessPlaySettings& settings, double nowMs) {
    if (hasTournament()) return std::string("a tournament is already set up: reset it first");
    if (auto bad = checkDraft()) return bad;
    chessmode::TournamentConfig config = draft_;
    chessmode::fillEngineAnchors(config, [this](int level) -> std::optional<double> {
        return env_.engineRating ? env_.engineRating(level) : std::nullopt;
    });
    if (chessmode::hasModels(config)) config.calls = chessmode::modelCallsOf(settings);
    config_ = config;
    tally_.clear(); // another list of games
    importedBoard_.reset();
    importedMatches_.reset();
    slots_.assign(size_t(boardCount(config_)), ArenaSlot{});
    if (auto error = createRunner(settings, {}, nowMs)) {
        config_ = {};
        slots_.clear();
        session_.setPhase(ArenaPhase::Setup);
        return error;
    }
    saveDraft();
    save();
    return std::nullopt;
}

void ArenaSession::stop(bool finishGames) {
    if (!runner_) return;
    if (finishGames) {
        runner_->stop(chessmode::StopMode::FinishRunning);
        setPhaseFromRunner();
    } else {
        // Keep every game as it stands (running ones unfinished, with their moves), then drop the
        // runner: the players cancel their requests; resume() continues from these records.
        // What was spent stays on screen (the games cut short were paid for too).
        session_.noteSpent(runner_->budget().spentUsd());
        stoppedGames_ = runner_->snapshot();
        applyAnalysis(stoppedGames_);
        dropRunner();
        session_.setPhase(ArenaPhase::Stopped);
        refresh(false);
    }
    session_.changed();
    save();
}

std::optional<std::string> ArenaSession::resume(const chessmode::ChessPlaySettings& settings, double nowMs) {
    if (session_.phase() == ArenaPhase::Paused && runner_) {
        runner_->resume();
        session_.clearError();
        setPhaseFromRunner();
        session_.changed();
        save();
        return std::nullopt;
    }
    if (session_.phase() != ArenaPhase::Stopped) return std::string("nothing to resume");
    for (const chessmode::Participant& p : config_.participants) {
        chessmode::Parsed<chessmode::PlayerSpec> spec = specOf(p);
        if (spec.ok() && spec.value->kind == chessmode::PlayerSpec::Kind::Model && !env_.chat)
            return std::string("language models need an OpenRouter API key: add one in Settings, then Resume");
    }
    const std::string before = session_.error();
    session_.clearError(); // a message from starting again (a 401 at once) must stay
    if (auto error = createRunner(settings, stoppedGames_, nowMs)) {
        session_.setError(before);
        return error;
    }
    save();
    return std::nullopt;
}

void ArenaSession::reset() {
    dropRunner();
    keepMeasuredCosts(); // what the models' games cost stays for the next estimate
    if (hasTournament()) draft_ = config_;
    // Anchors filled at start are re-derived from the engine table at the next start.
    for (chessmode::Participant& p : draft_.participants) {
        chessmode::Parsed<chessmode::PlayerSpec> spec = specOf(p);
        if (spec.ok() && spec.value->kind != chessmode::PlayerSpec::Kind::Model) p.anchorElo = -1;
    }
    config_ = {};
    stoppedGames_.clear();
    games_.clear();
    newList();
    keptRunner_ = 0;
    slots_.clear();
    leaderboard_ = {};
    history_.clear();
    tally_.clear();
    importedBoard_.reset();
    importedMatches_.reset();
    session_.reset(); // Setup; the fits, the error and the spend floor forgotten
    analysis_->clear();
    seenFinished_ = seenMoves_ = 0;
    store_.clear();
    saveDraft();
}

void ArenaSession::setPhaseFromRunner() {
    if (runner_) session_.followRunner(runner_->state(), runner_->scheduler().finished());
}

bool ArenaSession::takeRunnerEvents() {
    bool finished = false;
    for (const chessmode::RunnerEvent& e : runner_->takeEvents()) {
        switch (e.kind) {
        case chessmode::RunnerEvent::Kind::Paused:
            session_.setFailure(e.message, e.failure);
            break;
        case chessmode::RunnerEvent::Kind::BudgetReached:
            session_.setError(e.message + ": the running games finish, then the tournament stops");
            break;
        case chessmode::RunnerEvent::Kind::GameFinished: finished = true; break;
        case chessmode::RunnerEvent::Kind::GameStarted:
        case chessmode::RunnerEvent::Kind::GameAbandoned:
        case chessmode::RunnerEvent::Kind::Retrying: break;
        }
    }
    return finished;
}

void ArenaSession::poll(double nowMs) {
    lastPollMs_ = nowMs;
    pollAnalysis();
    {
        net::SectionTimer timer("arena.ratingsRefine");
        session_.pollRatings(nowMs, env_.refineBudgetMs);
    }
    if (runner_) {
        {
            net::SectionTimer timer("arena.runner");
            runner_->poll(nowMs);
        }
        session_.noteSpent(runner_->budget().spentUsd());
        const ArenaPhase before = session_.phase();
        const bool finished = takeRunnerEvents();
        setPhaseFromRunner();
        size_t moves = 0;
        for (const auto& g : runner_->liveGames()) moves += g->match->moves().size();
        const bool moved = moves != seenMoves_;
        seenMoves_ = moves;
        if (session_.phase() == ArenaPhase::Stopped || session_.phase() == ArenaPhase::Finished) {
            // The runner is done (every game played, or wound down): keep the games, drop it.
            stoppedGames_ = runner_->snapshot();
            applyAnalysis(stoppedGames_);
            dropRunner();
        }
        if (finished || moved || session_.phase() != before) {
            // Written first, shown after: only what changed (a finished game's record, the
            // games that moved, the head).
            {
                net::SectionTimer timer("arena.save");
                save();
            }
            refresh(false);
            session_.changed();
            return;
        }
    }
    // A finished game is shown once the store confirmed it (IndexedDB commits in the background).
    if (session_.commits().anyConfirmed()) {
        refresh(false);
        checkImported();
        session_.changed();
    }
}

// ---- move quality ----------------------------------------------------------------------------------

void ArenaSession::applyAnalysis(std::vector<chessmode::GameRecord>& games) const {
    for (chessmode::GameRecord& g : games) applyAnalysis(g);
}

void ArenaSession::applyAnalysis(chessmode::GameRecord& g) const {
    if (g.finished() && !g.isFolded() && !g.moves.empty() && g.moves.front().cpLoss < 0) analysis_->apply(g);
}

bool ArenaSession::pollAnalysis() {
    // An import is compared with its stored leaderboard first, as it came (without new analyses).
    if (importedBoard_ && !importedMatches_) return false;
    net::SectionTimer timer("arena.analysis");
    analysis_->pace(analysisShare(), lastPollMs_);
    const std::vector<int> done = analysis_->poll(games_);
    if (done.empty()) return false;
    for (int id : done) {
        for (size_t i = 0; i < games_.size(); ++i) {
            if (games_[i].pairing.id != id || !games_[i].finished()) continue;
            const bool folded = games_[i].isFolded();
            // The record the analysis was made on, whole (a folded game's was read back for it).
            std::optional<chessmode::GameRecord> whole = analysis_->takeRecord(id);
            if (!whole || whole->plies() != games_[i].plies()) break;
            chessmode::GameRecord g = std::move(*whole);
            if (!analysis_->apply(g)) break;
            // The stored record gains its analysis in one write: a reload neither loses nor redoes it.
            if (auto refused = store_.rewriteFinished(g)) {
                session_.setError(*refused);
                if (folded) break; // the store keeps the game without it; so does memory
            }
            if (folded) chessmode::foldRecord(g);
            // Every list holding the game takes it: the analysis is then forgotten by the queue.
            replaceFinished(i, g);
            games_[i] = std::move(g);
            tally_.analysed(i, games_[i]); // its move quality joins the kept sums
            analysis_->forget(id);
            std::erase_if(unfolded_, [id](const chessmode::GameRecord& u) { return u.pairing.id == id; });
            break;
        }
        for (chessmode::GameRecord& g : stoppedGames_)
            if (g.pairing.id == id && !g.isFolded()) analysis_->apply(g);
        analysis_->takeRecord(id); // (not taken above: a game no longer listed)
    }
    chessmode::fillMoveQuality(leaderboard_, chessmode::sumGames(config_, games_, options_, &tally_, tallyStable_));
    session_.changed();
    return true;
}

// ---- derived state ---------------------------------------------------------------------------------

chessmode::GameRecord ArenaSession::runningRecord(const chessmode::LiveGame& game) const {
    chessmode::GameRecord r = runner_->recordOf(game);
    r.result = chessmode::GameResult::Unfinished;
    r.termination = chessmode::Termination::Unfinished;
    r.openTurn.reset();
    return r;
}

void ArenaSession::updateLiveRecords() {
    const uint64_t serial = runner_ ? runnerSerial_ : 0;
    if (serial != liveRecordsRunner_) {
        liveRecords_.clear();
        liveRecordsRunner_ = serial;
    }
    if (!runner_) return;
    std::vector<chessmode::GameRecord> next;
    for (const chessmode::LiveGame* g : runner_->liveGames()) {
        auto kept = std::find_if(liveRecords_.begin(), liveRecords_.end(),
                                 [g](const chessmode::GameRecord& r) { return r.pairing.id == g->pairing.id; });
        if (kept != liveRecords_.end() && kept->moves.size() <= g->match->moves().size()) {
            next.push_back(std::move(*kept));
            g->appendNewTurns(next.back());
        } else {
            next.push_back(runningRecord(*g));
        }
    }
    liveRecords_ = std::move(next);
}

void ArenaSession::refresh(bool ratings) {
    net::SectionTimer timer("arena.refresh");
    updateLiveRecords();
    // A finished game whose record the store has not confirmed yet reads as unfinished.
    session_.takeCommitted(lastPollMs_);
    auto holdBack = [this](chessmode::GameRecord& g) {
        if (!g.finished() || committed(g.pairing.id)) return;
        g.result = chessmode::GameResult::Unfinished;
        g.termination = chessmode::Termination::Unfinished;
        g.openTurn.reset();
    };
    if (runner_) {
        // Finished games only grow at the end: keep those already copied, re-read the live ones.
        // The prefix checked by the last refresh from this runner holds still (only this function
        // changes games_ while a runner runs), so the check goes on from there: a move costs the
        // same with 10 000 finished games as with none.
        const std::vector<chessmode::GameRecord>& done = runner_->games();
        if (keptRunner_ != runnerSerial_) tally_.clear(); // another runner's list: summed again
        // games_[i] is the runner's finished game i, as copied before.
        auto copied = [&](size_t i) {
            return i < games_.size() && i < done.size() && games_[i].finished() && games_[i].pairing.id == done[i].pairing.id;
        };
        size_t keep = keptRunner_ == runnerSerial_ ? std::min({keptPrefix_, games_.size(), done.size()}) : 0;
        while (copied(keep)) ++keep;
        keptPrefix_ = keep;
        keptRunner_ = runnerSerial_;
        // Most often only moves were played: the running games' records take their new turns.
        bool onlyMoves = keep == done.size() && games_.size() == keep + liveRecords_.size();
        for (size_t k = 0; onlyMoves && k < liveRecords_.size(); ++k)
            onlyMoves = games_[keep + k].pairing.id == liveRecords_[k].pairing.id &&
                        games_[keep + k].moves.size() <= liveRecords_[k].moves.size();
        if (onlyMoves) {
            for (size_t k = 0; k < liveRecords_.size(); ++k) {
                std::vector<chessmode::TurnRecord>& shown = games_[keep + k].moves;
                const std::vector<chessmode::TurnRecord>& now = liveRecords_[k].moves;
                shown.insert(shown.end(), now.begin() + std::ptrdiff_t(shown.size()), now.end());
            }
        } else {
            games_.resize(keep);
            for (size_t i = keep; i < done.size(); ++i) {
                games_.push_back(done[i]);
                holdBack(games_.back());
                applyAnalysis(games_.back()); // the runner's records come without it (the kept ones have theirs)
            }
            games_.insert(games_.end(), liveRecords_.begin(), liveRecords_.end());
        }
        // The finished games the next refresh keeps as they are (the new ones included): the
        // leaderboard's tally may sum them once for all.
        tallyStable_ = keep;
        while (copied(tallyStable_)) ++tallyStable_;
    } else {
        games_ = stoppedGames_;
        for (chessmode::GameRecord& g : games_) holdBack(g);
        keptRunner_ = 0; // no runner: the next one checks its prefix from the start
        // Another list each time (held-back games can come and go anywhere in it): summed whole.
        tally_.clear();
        tallyStable_ = 0;
    }
    // The kept prefix is all finished; the rest is counted.
    size_t finished = runner_ ? keptPrefix_ : 0;
    for (size_t i = runner_ ? keptPrefix_ : 0; i < games_.size(); ++i) finished += games_[i].finished() ? 1 : 0;
    if (ratings || finished != seenFinished_ || leaderboard_.rows.empty()) {
        net::SectionTimer ratingsTimer("arena.ratingsAndHistory");
        startRatings();
        history_ = chessmode::ratingHistory(config_, games_, options_, kHistoryPoints, &tally_, tallyStable_);
        if (!history_.empty()) {
            // The plot starts before the first game: anchors at their ratings, everyone else at
            // the centre of the scale (the mean anchor, else 1500), as the fit places a player
            // without games.
            const std::vector<double> anchors = chessmode::anchorRatings(config_);
            double sum = 0;
            int count = 0;
            for (double a : anchors) {
                if (a < 0) continue;
                sum += a;
                ++count;
            }
            const double centre = count > 0 ? sum / count : 1500.0;
            std::vector<std::vector<double>> points(1);
            for (double a : anchors) points[0].push_back(a >= 0 ? a : centre);
            points.insert(points.end(), std::make_move_iterator(history_.begin()),
                          std::make_move_iterator(history_.end()));
            history_ = std::move(points);
        }
        seenFinished_ = finished;
    } else if (ratingsRefining() && !session_.playing()) {
        session_.finishRatings(); // at rest: no reason to show unfinished intervals
    }
    updateSlots();
    foldOlder();
}

// A new rating fit for the games now shown: the point estimates at once; the bootstrap intervals
// at once too when nothing runs, else a slice per poll (1000 resamples over 10 000 games take
// ~0.2-0.35 s in WebAssembly: one game end must not freeze the page for that long).
void ArenaSession::startRatings() {
    const chessmode::BradleyTerryOptions bt = chessmode::fitOptions(config_, options_);
    const chessmode::LeaderboardSums sums = chessmode::sumGames(config_, games_, options_, &tally_, tallyStable_);
    const int players = int(config_.participants.size());
    session_.startRatings(0, std::make_unique<play::BradleyTerryRun>(players, sums.pairs.pairs(), bt));
}

int ArenaSession::boardCount(const chessmode::TournamentConfig& config) {
    // A game takes two players: more boards than pairs would stay empty.
    return std::max(1, std::min(config.concurrency, int(config.participants.size()) / 2));
}

void ArenaSession::updateSlots() {
    if (slots_.size() < size_t(boardCount(config_))) slots_.resize(size_t(boardCount(config_)));
    std::set<int> live;
    if (runner_)
        for (const auto& g : runner_->liveGames()) live.insert(g->pairing.id);
    for (ArenaSlot& s : slots_) s.live = s.gameId >= 0 && live.count(s.gameId) > 0;
    for (int id : live) {
        const bool shown = std::any_of(slots_.begin(), slots_.end(), [id](const ArenaSlot& s) { return s.gameId == id; });
        if (shown) continue;
        // An empty board first, else the board whose game ended.
        auto free = std::find_if(slots_.begin(), slots_.end(), [](const ArenaSlot& s) { return s.gameId < 0; });
        if (free == slots_.end())
            free = std::find_if(slots_.begin(), slots_.end(), [](const ArenaSlot& s) { return !s.live; });
        if (free == slots_.end()) {
            slots_.push_back({id, true});
        } else {
            free->gameId = id;
            free->live = true;
        }
    }
    // After a reload or an import, show the latest games on the boards.
    if (!runner_ && std::all_of(slots_.begin(), slots_.end(), [](const ArenaSlot& s) { return s.gameId < 0; })) {
        size_t k = 0;
        for (auto it = games_.rbegin(); it != games_.rend() && k < slots_.size(); ++it, ++k) slots_[k].gameId = it->pairing.id;
    }
}

chessmode::LiveGame* ArenaSession::liveGame(int id) {
    if (!runner_) return nullptr;
    for (const auto& g : runner_->liveGames())
        if (g->pairing.id == id) return g;
    return nullptr;
}

void ArenaSession::setExcludeForfeits(bool exclude) {
    if (options_.excludeForfeits == exclude) return;
    options_.excludeForfeits = exclude;
    if (hasTournament()) refresh(true);
    session_.changed();
    save();
}

double ArenaSession::spentUsd() const {
    if (runner_) return session_.spentUsd(runner_->budget().spentUsd());
    double sum = 0;
    for (const auto& r : leaderboard_.rows) sum += r.costUsd;
    return session_.spentUsd(sum);
}

double ArenaSession::sessionSpentUsd() const {
    return paidBeforeUsd_ + (runner_ ? std::max(0.0, runner_->budget().spentUsd() - runnerStartUsd_) : 0.0);
}

void ArenaSession::dropRunner() {
    if (!runner_) return;
    paidBeforeUsd_ = sessionSpentUsd();
    runner_.reset();
    runnerStartUsd_ = 0;
}

double ArenaSession::spentUsd(int participant) const {
    if (runner_) return runner_->budget().spentUsd(participant);
    for (const auto& r : leaderboard_.rows)
        if (r.participant == participant) return r.costUsd;
    return 0;
}

long long ArenaSession::ticks() const { return runner_ ? runner_->ticks() : 0; }

int ArenaSession::gamesFinished() const { return int(seenFinished_); }

int ArenaSession::totalGames() const {
    if (runner_) return runner_->scheduler().totalGames();
    if (!hasTournament()) return 0;
    return play::Scheduler(chessmode::schedulerConfig(config_)).totalGames();
}

double ArenaSession::msUntilNextTimer(double nowMs) const { return runner_ ? runner_->msUntilNextTimer(nowMs) : -1; }

bool ArenaSession::busy() const {
    if (!runner_) return false;
    for (const auto& g : runner_->liveGames())
        if (g->match->thinking()) return true;
    return false;
}

} // namespace chaiba
