// The tournament runner (see tournament_runner.h) and the pairing schedule adapter.
#include "src/play/tournament_runner.h"

#include <algorithm>
#include <cstdio>

namespace chaiba::play {

namespace {

constexpr double kPausedRetry = 1e300; // retryAtMs of a game that waits for resume()

// "45 s", "12 min", "2 h 5 min": a wait for people.
std::string waitText(int ms) {
    const int s = (ms + 999) / 1000;
    if (s < 120) return std::to_string(s) + " s";
    const int min = (s + 59) / 60;
    if (min < 120) return std::to_string(min) + " min";
    return std::to_string(min / 60) + " h " + std::to_string(min % 60) + " min";
}

} // namespace

// ---- PairSchedule ----------------------------------------------------------------------------

Table PairSchedule::tableOf(const Pairing& p) {
    return Table{p.id, {p.white, p.black}, {0, 1}, p.round, p.seededStart, p.opening};
}

Pairing PairSchedule::pairingOf(const Table& t) {
    Pairing p;
    p.id = t.id;
    p.white = t.seats.size() > 0 ? t.seats[0] : 0;
    p.black = t.seats.size() > 1 ? t.seats[1] : 0;
    p.round = t.round;
    p.seededStart = t.seededStart;
    p.opening = t.opening;
    return p;
}

std::optional<Table> PairSchedule::next() {
    std::optional<Pairing> p = scheduler_.next();
    if (!p) return std::nullopt;
    return tableOf(*p);
}

void PairSchedule::onGameFinished(int id, const GameOutcome& outcome) {
    const double score = outcome.encounters.empty() ? 0.5 : outcome.encounters.front().scoreA;
    const Outcome o = score > 0.75 ? Outcome::FirstWins : score < 0.25 ? Outcome::SecondWins : Outcome::Draw;
    scheduler_.onGameFinished(id, o);
}

// ---- TournamentDriver ------------------------------------------------------------------------

std::string_view runnerStateName(RunnerState state) {
    switch (state) {
    case RunnerState::Idle: return "idle";
    case RunnerState::Running: return "running";
    case RunnerState::Stopping: return "stopping";
    case RunnerState::Paused: return "paused";
    case RunnerState::Finished: return "finished";
    }
    return "?";
}

TournamentDriver::TournamentDriver(RunnerConfig config, std::unique_ptr<Schedule> schedule, GameFactory factory)
    : config_(std::move(config)), schedule_(std::move(schedule)), factory_(std::move(factory)),
      budget_(config_.budgetUsd, config_.participants), ticker_(config_.tickerSeconds) {}

TournamentDriver::~TournamentDriver() = default;

void TournamentDriver::start(double nowMs) {
    if (state_ != RunnerState::Idle) return;
    state_ = RunnerState::Running;
    ticker_.reset();
    poll(nowMs);
}

bool TournamentDriver::startGame(const Table& table, bool resumed) {
    GameStart made = factory_ ? factory_(table, resumed) : GameStart{nullptr, "no game factory", false};
    if (!made.game) {
        if (made.abandon) {
            schedule_->onGameAbandoned(table.id);
            events_.push_back({RunnerEvent::Kind::GameAbandoned, table.id, made.error});
            return true;
        }
        if (!resumed) schedule_->onGameAbandoned(table.id); // a resumed game waits for resume()
        pause(made.error);
        return false;
    }
    TournamentGame* game = made.game.get();
    game->table = table;
    game->onCost = [this, game](int seat, double usd) {
        if (seat >= 0 && size_t(seat) < game->table.seats.size()) budget_.add(game->table.seats[size_t(seat)], usd);
    };
    if (config_.tempo == Tempo::Ticker) game->setHold(true);
    events_.push_back({RunnerEvent::Kind::GameStarted, table.id, game->startText()});
    Live live;
    live.game = std::move(made.game);
    live_.push_back(std::move(live));
    game->start();
    return true;
}

void TournamentDriver::startGames() {
    const int concurrency = std::max(1, config_.concurrency);
    // Step 1. Resumed games were running: they continue first, count toward the concurrency, and
    // like running games are not held back by the budget cap or a stop that lets games finish.
    while ((state_ == RunnerState::Running || state_ == RunnerState::Stopping) && !resuming_.empty() &&
           int(live_.size()) < concurrency) {
        if (!startGame(resuming_.front(), true)) return;
        resuming_.erase(resuming_.begin());
    }
    // Step 2. New games from the schedule.
    while (state_ == RunnerState::Running && int(live_.size()) < concurrency) {
        if (budget_.capReached()) {
            state_ = RunnerState::Stopping;
            if (!budgetAnnounced_) {
                char text[96];
                std::snprintf(text, sizeof text, "budget cap of $%.4f reached: no new games",
                              budget_.capUsd().value_or(0));
                events_.push_back({RunnerEvent::Kind::BudgetReached, -1, text});
                budgetAnnounced_ = true;
            }
            return;
        }
        std::optional<Table> table = schedule_->next();
        if (!table || !startGame(*table, false)) return;
    }
}

void TournamentDriver::pause(const std::string& message, std::optional<FailureKind> reason) {
    state_ = RunnerState::Paused;
    pauseMessage_ = message;
    pauseReason_ = reason;
    for (Live& l : live_) l.game->setHold(true); // turns in flight finish; nobody is asked again
    events_.push_back({RunnerEvent::Kind::Paused, -1, message, reason});
}

void TournamentDriver::resume() {
    if (state_ != RunnerState::Paused) return;
    state_ = RunnerState::Running;
    pauseMessage_.clear();
    pauseReason_.reset();
    for (Live& l : live_) {
        l.game->setHold(config_.tempo == Tempo::Ticker);
        if (l.game->retryAtMs_ >= kPausedRetry) {
            l.game->retryAtMs_ = 0;
            l.failures = 0;
        } else if (config_.tempo != Tempo::Ticker) {
            l.game->step();
        }
    }
}

void TournamentDriver::onFailure(Live& live, const TurnFailure& f, double nowMs) {
    const FailureKind kind = f.failure.kind;
    if (f.turn != live.turn || live.lastFailure != kind) live.failures = 0;
    live.turn = f.turn;
    live.lastFailure = kind;
    // Every failed request is a try, the chat client's retries within the call included: a model
    // that always times out forfeits after the rule's 4 requests, not 4 calls of 4 requests each.
    // The retry's calls are capped to the tries left (triesLeft), so the client's own retries do
    // not overshoot the rule either: always 429 is the rule's 6 requests, not 5 and then 5 more.
    live.failures += std::max(1, f.failure.requests);
    const FailureAction action = actionAfterFailure(kind, live.failures);
    const std::string who = live.game->seatName(f.seat);
    const std::string& message = f.failure.message;
    switch (action) {
    case FailureAction::PauseTournament:
        live.game->retryAtMs_ = kPausedRetry;
        pause("tournament paused: " + who + ": " + message +
                  (kind == FailureKind::Unauthorized ? " (check the API key)" : " (add credits)"),
              kind);
        return;
    case FailureAction::Retry:
    case FailureAction::Backoff: {
        const int hintMs = f.failure.retryAfterMs;
        if (hintMs > config_.maxRetryAfterMs) { // waiting it out here would only forfeit the game
            live.game->retryAtMs_ = kPausedRetry;
            pause("tournament paused: " + who + ": " + message + " (the server asks to wait " +
                      waitText(hintMs) + ", longer than the " + waitText(config_.maxRetryAfterMs) +
                      " the tournament waits by itself; resume after that)",
                  kind);
            return;
        }
        const int shift = std::min(live.failures - 1, 6);
        const double backoff = double(config_.backoffMs) * (1 << shift);
        live.game->retryAtMs_ =
            action == FailureAction::Retry ? nowMs + double(hintMs) : nowMs + std::max(backoff, double(hintMs));
        events_.push_back({RunnerEvent::Kind::Retrying, live.game->table.id,
                           who + ": " + std::string(failureKindName(kind)) + " (" + message + "), try " +
                               std::to_string(live.failures + 1)});
        return;
    }
    case FailureAction::Forfeit: break;
    }
    live.game->forfeit(f, live.failures);
}

int TournamentDriver::triesLeft(const Live& live) {
    if (!live.lastFailure || live.failures <= 0) return 0; // nothing counted (a resume starts afresh)
    return std::max(1, failureRule(*live.lastFailure).maxRetries + 1 - live.failures);
}

void TournamentDriver::pollGame(Live& live, double nowMs) {
    TournamentGame& game = *live.game;
    if (game.finished()) return;
    if (live.game->retryAtMs_ >= 0) {
        if (state_ == RunnerState::Paused || nowMs < live.game->retryAtMs_) return;
        live.game->retryAtMs_ = -1;
        game.retry(triesLeft(live));
    }
    if (game.failure()) return; // decided already: waits for its retry or the forfeit
    game.poll(nowMs);
    if (std::optional<TurnFailure> f = game.failure()) onFailure(live, *f, nowMs);
}

void TournamentDriver::finishGame(size_t index) {
    TournamentGame& game = *live_[index].game;
    schedule_->onGameFinished(game.table.id, game.outcome());
    events_.push_back({RunnerEvent::Kind::GameFinished, game.table.id, game.finishText()});
    if (onGameFinished) onGameFinished(game);
    live_.erase(live_.begin() + std::ptrdiff_t(index));
}

void TournamentDriver::abandonGame(size_t index, const std::string& why) {
    TournamentGame& game = *live_[index].game;
    game.abort(why);
    schedule_->onGameAbandoned(game.table.id);
    events_.push_back({RunnerEvent::Kind::GameAbandoned, game.table.id, why});
    live_.erase(live_.begin() + std::ptrdiff_t(index));
}

void TournamentDriver::stop(StopMode mode) {
    if (state_ == RunnerState::Idle || state_ == RunnerState::Finished) {
        state_ = RunnerState::Finished;
        return;
    }
    if (mode == StopMode::AbandonRunning) {
        while (!live_.empty()) abandonGame(live_.size() - 1, "stopped by the user");
        for (const Table& t : resuming_) {
            schedule_->onGameAbandoned(t.id);
            events_.push_back({RunnerEvent::Kind::GameAbandoned, t.id, "stopped by the user"});
        }
        resuming_.clear();
        state_ = RunnerState::Finished;
        return;
    }
    if (state_ != RunnerState::Paused) state_ = RunnerState::Stopping;
    updateState();
}

void TournamentDriver::updateState() {
    const bool running = state_ == RunnerState::Running;
    const bool idle = live_.empty() && resuming_.empty();
    if ((running && schedule_->finished() && idle) || (state_ == RunnerState::Stopping && idle))
        state_ = RunnerState::Finished;
}

void TournamentDriver::poll(double nowMs) {
    if (state_ == RunnerState::Idle || state_ == RunnerState::Finished) return;
    startGames();
    if (config_.tempo == Tempo::Ticker && state_ != RunnerState::Paused && ticker_.advance(nowMs) > 0) {
        for (Live& l : live_) // missed ticks collapse into one: a game advances one turn per poll
            if (!l.game->finished() && l.game->retryAtMs_ < 0) l.game->step();
    }
    for (Live& l : live_) pollGame(l, nowMs);
    for (size_t i = 0; i < live_.size();) {
        if (live_[i].game->finished())
            finishGame(i);
        else
            ++i;
    }
    startGames();
    updateState();
}

double TournamentDriver::msUntilNextTimer(double nowMs) const {
    double best = -1;
    auto consider = [&](double ms) {
        if (ms < 0) ms = 0;
        if (best < 0 || ms < best) best = ms;
    };
    if (config_.tempo == Tempo::Ticker && (state_ == RunnerState::Running || state_ == RunnerState::Stopping))
        consider(ticker_.msUntilNextTick(nowMs));
    if (state_ != RunnerState::Paused)
        for (const Live& l : live_)
            if (l.game->retryAtMs_ >= 0 && l.game->retryAtMs_ < kPausedRetry) consider(l.game->retryAtMs_ - nowMs);
    return best;
}

std::vector<TournamentGame*> TournamentDriver::liveGames() const {
    std::vector<TournamentGame*> out;
    out.reserve(live_.size());
    for (const Live& l : live_) out.push_back(l.game.get());
    return out;
}

std::vector<RunnerEvent> TournamentDriver::takeEvents() {
    std::vector<RunnerEvent> out;
    out.swap(events_);
    return out;
}

} // namespace chaiba::play
