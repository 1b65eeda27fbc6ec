// The tournament runner (see tournament_runner.h). Each game's players sit behind a Seat that
// reports every answer to the runner (costs for the budget, forfeits and errors for the record),
// so the MatchRunner stays the only move loop.
#include "src/modes/chess/tournament_runner.h"

#include "src/modes/chess/players.h"

#include "engine/chess/notation.h"

#include <algorithm>
#include <cassert>
#include <cstdio>

namespace chaiba::chessmode {

namespace {

constexpr double kPausedRetry = 1e300; // retryAtMs of a game that waits for resume()

// The player the match drives: forwards to the factory's player and reports each answer.
class Seat final : public Player {
public:
    Seat(Player& inner, std::function<void(const PlayerMove&)> observe)
        : inner_(inner), observe_(std::move(observe)) {}
    std::string id() const override { return inner_.id(); }
    std::string name() const override { return inner_.name(); }
    std::string kind() const override { return inner_.kind(); }
    std::string model() const override { return inner_.model(); }
    void beginMove(const MoveRequest& request) override { inner_.beginMove(request); }
    std::optional<PlayerMove> poll() override {
        std::optional<PlayerMove> answer = inner_.poll();
        if (answer) observe_(*answer);
        return answer;
    }
    void cancel() override { inner_.cancel(); }
    void newGame() override { inner_.newGame(); }
    double totalCostUsd() const override { return inner_.totalCostUsd(); }
    llm::Usage totalUsage() const override { return inner_.totalUsage(); }

private:
    Player& inner_;
    std::function<void(const PlayerMove&)> observe_;
};

bool stoppedOnError(const MatchRunner& match) {
    return match.finished() && match.result() == "*" && match.termination().rfind("error: ", 0) == 0;
}

GameResult gameResultOf(const std::string& text) {
    return parseResultText(text).value_or(GameResult::Unfinished);
}

Termination terminationFromStatus(const chess::Game& game, GameResult result) {
    switch (game.status()) {
    case chess::GameStatus::Checkmate: return Termination::Checkmate;
    case chess::GameStatus::Stalemate: return Termination::Stalemate;
    case chess::GameStatus::InsufficientMaterial: return Termination::InsufficientMaterial;
    case chess::GameStatus::FiftyMoveClaimable: return Termination::FiftyMove;
    case chess::GameStatus::SeventyFiveMove: return Termination::SeventyFiveMove;
    case chess::GameStatus::ThreefoldClaimable: return Termination::Threefold;
    case chess::GameStatus::FivefoldRepetition: return Termination::Fivefold;
    case chess::GameStatus::Ongoing: break;
    }
    return result == GameResult::Draw ? Termination::MoveLimit : Termination::ForfeitOther;
}

std::uint64_t mixSeed(std::uint64_t seed, int gameId) {
    SplitMix64 mix(seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(gameId + 1)));
    return mix.next();
}

// A resumed game's recorded turns as MatchRunner::restore replays them, or why they cannot be:
// another start position than the pairing's, a move that is not legal UCI there (in the
// position's mode: Chess960 castling is king-takes-rook), a SAN that names another move, a move
// after the game was over. The turns' SAN, reasoning, attempts, cost and tokens are kept.
Parsed<std::vector<MoveRecord>> restorableMoves(const GameRecord& record, const MatchConfig& config) {
    using Result = Parsed<std::vector<MoveRecord>>;
    chess::Game replay(matchStartPosition(config));
    if (record.startFen != replay.startPosition().fen())
        return Result::fail("its start position is not the one its pairing starts from");
    std::vector<MoveRecord> moves;
    moves.reserve(record.moves.size());
    for (size_t i = 0; i < record.moves.size(); ++i) {
        const TurnRecord& t = record.moves[i];
        const chess::Position& pos = replay.position();
        const std::string where = "move " + std::to_string(i + 1) + " '" + t.uci.substr(0, 16) + "'";
        const chess::MoveResult parsed = chess::parseUci(pos, t.uci);
        if (!parsed.ok()) return Result::fail(where + " is not a legal move in the recorded game");
        MoveRecord m;
        m.ply = int(i);
        m.move = parsed.move;
        m.san = chess::toSan(pos, parsed.move);
        if (!t.san.empty() && t.san != m.san)
            return Result::fail(where + " is " + m.san + ", but the record says " + t.san.substr(0, 16));
        m.uci = chess::toUci(pos, parsed.move);
        m.playerId = pos.sideToMove() == chess::Color::White ? "white" : "black"; // the slots' ids
        m.reasoning = t.reasoning;
        m.attempts = t.attempts;
        m.costUsd = t.costUsd;
        m.usage.promptTokens = t.promptTokens;
        m.usage.completionTokens = t.completionTokens;
        m.usage.totalTokens = t.promptTokens + t.completionTokens;
        if (!replay.play(parsed.move)) return Result::fail(where + " comes after the end of the game");
        moves.push_back(std::move(m));
    }
    return {std::move(moves), {}};
}

void addUsage(llm::Usage& total, const llm::Usage& more) {
    total.promptTokens += more.promptTokens;
    total.completionTokens += more.completionTokens;
    total.totalTokens += more.totalTokens;
    total.cachedTokens += more.cachedTokens;
    total.cacheWriteTokens += more.cacheWriteTokens;
    total.reasoningTokens += more.reasoningTokens;
}

} // namespace

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

FailureKind failureKindOf(Player& player, const std::string& message) {
    if (auto* llm = dynamic_cast<LlmPlayer*>(&player)) {
        const chessmode::ChessAgent* agent = llm->agent();
        if (agent && !agent->calls().empty() && agent->calls().back().error) {
            const llm::ChatError& e = *agent->calls().back().error;
            switch (e.kind) {
            case llm::ChatErrorKind::Unauthorized: return FailureKind::Unauthorized;
            case llm::ChatErrorKind::InsufficientCredits: return FailureKind::PaymentRequired;
            case llm::ChatErrorKind::RateLimited: return FailureKind::RateLimited;
            case llm::ChatErrorKind::Timeout: return FailureKind::Timeout;
            case llm::ChatErrorKind::MalformedResponse: return FailureKind::MalformedAnswer;
            case llm::ChatErrorKind::Moderation:
            case llm::ChatErrorKind::BadRequest:
            case llm::ChatErrorKind::ServerError:
            case llm::ChatErrorKind::Transport:
            case llm::ChatErrorKind::StreamError: break;
            }
            if (auto kind = failureFromHttpStatus(e.httpStatus)) return *kind;
            return FailureKind::ServerError;
        }
    }
    for (int status : {401, 402, 408, 429})
        if (message.find(std::to_string(status)) != std::string::npos) return *failureFromHttpStatus(status);
    return FailureKind::ServerError;
}

Parsed<std::unique_ptr<TournamentRunner>> TournamentRunner::create(TournamentConfig config,
                                                                   PlayerFactory factory,
                                                                   std::vector<GameRecord> resumed,
                                                                   RunnerOptions options) {
    if (auto bad = validateConfig(config)) return Parsed<std::unique_ptr<TournamentRunner>>::fail(*bad);
    if (!factory) return Parsed<std::unique_ptr<TournamentRunner>>::fail("no player factory");
    std::unique_ptr<TournamentRunner> runner(
        new TournamentRunner(std::move(config), std::move(factory), options));
    if (auto bad = restoreSchedule(runner->scheduler_, resumed))
        return Parsed<std::unique_ptr<TournamentRunner>>::fail("resume: " + *bad);
    for (GameRecord& g : resumed) {
        std::optional<std::vector<MoveRecord>> replay;
        if (!g.finished()) { // a game that was running continues from its recorded moves
            Parsed<std::vector<MoveRecord>> moves = restorableMoves(g, runner->matchConfig(g.pairing));
            if (!moves.ok()) { // its turns are dropped with it (and so are their costs)
                runner->scheduler_.onGameAbandoned(g.pairing.id);
                const bool arena = runner->config_.format == Format::Arena;
                runner->events_.push_back({RunnerEvent::Kind::GameAbandoned, g.pairing.id,
                                           "resumed game #" + std::to_string(g.pairing.id) +
                                               " cannot continue: " + moves.error +
                                               (arena ? "; the arena plays another game in its place"
                                                      : "; it is played again from the start")});
                continue;
            }
            replay = std::move(moves.value);
        }
        for (size_t i = 0; i < g.moves.size(); ++i) runner->budget_.add(g.moverOf(i), g.moves[i].costUsd);
        if (g.openTurn) runner->budget_.add(g.openTurnPlayer(), g.openTurn->costUsd);
        if (replay)
            runner->resuming_.push_back({std::move(g), std::move(*replay)});
        else
            runner->games_.push_back(std::move(g));
    }
    return Parsed<std::unique_ptr<TournamentRunner>>{std::move(runner), {}};
}

TournamentRunner::TournamentRunner(TournamentConfig config, PlayerFactory factory, RunnerOptions options)
    : config_(std::move(config)), factory_(std::move(factory)), options_(options),
      scheduler_(schedulerConfig(config_)), budget_(config_.budgetUsd, int(config_.participants.size())),
      ticker_(config_.tickerSeconds) {}

TournamentRunner::~TournamentRunner() {
    for (auto& g : live_) g->match.reset(); // cancels a thinking player before the players go
}

void TournamentRunner::start(double nowMs) {
    if (state_ != RunnerState::Idle) return;
    state_ = RunnerState::Running;
    ticker_.reset();
    poll(nowMs);
}

MatchConfig TournamentRunner::matchConfig(const Pairing& pairing) const {
    MatchConfig m;
    m.chess960 = config_.chess960;
    m.chess960Number = pairing.seededStart;
    m.seed = mixSeed(config_.seed, pairing.id);
    m.maxPlies = config_.maxPlies;
    if (pairing.opening >= 0 && size_t(pairing.opening) < config_.openings.size()) {
        Parsed<std::string> fen = openingStartFen(config_.openings[size_t(pairing.opening)]);
        if (fen.ok()) m.startFen = *fen.value; // validateConfig checked the suite
    }
    return m;
}

bool TournamentRunner::startGame(const Pairing& pairing, const Resumed* resumed) {
    auto game = std::make_unique<LiveGame>();
    game->pairing = pairing;
    const std::uint64_t seed = mixSeed(config_.seed, pairing.id);
    std::string error;
    for (chess::Color side : {chess::Color::White, chess::Color::Black}) {
        const bool white = side == chess::Color::White;
        PlayerSlot slot;
        slot.participant = white ? pairing.white : pairing.black;
        slot.spec = &config_.participants[size_t(slot.participant)];
        slot.side = side;
        slot.id = white ? "white" : "black";
        slot.opponentName = config_.participants[size_t(white ? pairing.black : pairing.white)].displayName();
        slot.seed = white ? seed : seed ^ 0x5bd1e995ULL;
        std::unique_ptr<Player> player = factory_(slot, error);
        if (!player) {
            if (!resumed) scheduler_.onGameAbandoned(pairing.id); // a resumed game waits for resume()
            pause("cannot create " + slot.spec->displayName() + ": " + error);
            return false;
        }
        LiveGame* g = game.get();
        auto seat =
            std::make_unique<Seat>(*player, [this, g, side](const PlayerMove& m) { onAnswer(*g, side, m); });
        (white ? game->white : game->black) = std::move(player);
        (white ? game->whiteSeat : game->blackSeat) = std::move(seat);
    }
    game->match = std::make_unique<MatchRunner>(*game->whiteSeat, *game->blackSeat, matchConfig(pairing));
    std::string continued;
    if (resumed) {
        if (auto bad = game->match->restore(resumed->moves)) { // checked by create(): not expected
            game->match.reset();
            scheduler_.onGameAbandoned(pairing.id);
            events_.push_back({RunnerEvent::Kind::GameAbandoned, pairing.id,
                               "resumed game #" + std::to_string(pairing.id) + " cannot continue: " + *bad});
            return true;
        }
        game->restoredTurns = resumed->record.moves;
        if (const std::optional<TurnRecord>& open = resumed->record.openTurn) {
            game->openCostUsd = open->costUsd;
            game->openUsage.promptTokens = open->promptTokens;
            game->openUsage.completionTokens = open->completionTokens;
            game->openUsage.totalTokens = open->promptTokens + open->completionTokens;
            game->openAttempts = open->attempts;
        }
        const size_t plies = resumed->moves.size();
        continued = ", continued after " + std::to_string(plies) + (plies == 1 ? " ply" : " plies");
    }
    if (config_.tempo == Tempo::Ticker) game->match->setHold(true);
    events_.push_back({RunnerEvent::Kind::GameStarted, pairing.id,
                       config_.participants[size_t(pairing.white)].displayName() + " - " +
                           config_.participants[size_t(pairing.black)].displayName() + continued});
    live_.push_back(std::move(game));
    live_.back()->match->start();
    return true;
}

void TournamentRunner::startGames(double nowMs) {
    (void)nowMs;
    const int concurrency = std::max(1, config_.concurrency);
    // Step 1. Resumed games were running: they continue first, count toward the concurrency, and
    // like running games are not held back by the budget cap or a stop that lets games finish.
    while ((state_ == RunnerState::Running || state_ == RunnerState::Stopping) && !resuming_.empty() &&
           int(live_.size()) < concurrency) {
        if (!startGame(resuming_.front().record.pairing, &resuming_.front())) return;
        resuming_.erase(resuming_.begin());
    }
    // Step 2. New games from the scheduler.
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
        std::optional<Pairing> pairing = scheduler_.next();
        if (!pairing || !startGame(*pairing)) return;
    }
}

void TournamentRunner::onAnswer(LiveGame& game, chess::Color side, const PlayerMove& answer) {
    const int participant = side == chess::Color::White ? game.pairing.white : game.pairing.black;
    budget_.add(participant, answer.costUsd);
    if (answer.kind == PlayerMove::Kind::Move) {
        game.openCostUsd = 0;
        game.openUsage = {};
        game.openAttempts = 0;
        return;
    }
    game.openCostUsd += answer.costUsd;
    addUsage(game.openUsage, answer.usage);
    game.openAttempts += answer.attempts;
    if (answer.kind == PlayerMove::Kind::Forfeit) {
        game.forfeitMessage = answer.message;
        game.forfeitAs = Termination::ForfeitIllegalMove; // the agent forfeits after rejected answers
    }
}

void TournamentRunner::pause(const std::string& message) {
    state_ = RunnerState::Paused;
    pauseMessage_ = message;
    for (auto& g : live_) g->match->setHold(true); // moves in flight finish; nobody is asked again
    events_.push_back({RunnerEvent::Kind::Paused, -1, message});
}

void TournamentRunner::resume() {
    if (state_ != RunnerState::Paused) return;
    state_ = RunnerState::Running;
    pauseMessage_.clear();
    for (auto& g : live_) {
        g->match->setHold(config_.tempo == Tempo::Ticker);
        if (g->retryAtMs >= kPausedRetry) {
            g->retryAtMs = 0;
            g->failures = 0;
        } else if (config_.tempo != Tempo::Ticker) {
            g->match->requestMove();
        }
    }
}

void TournamentRunner::onStoppedOnError(LiveGame& game, double nowMs) {
    MatchRunner& match = *game.match;
    const chess::Color side = match.game().position().sideToMove();
    Player& player = side == chess::Color::White ? *game.white : *game.black;
    const std::string message = match.termination().substr(7); // after "error: "
    const FailureKind kind = failureKindOf(player, message);
    const int ply = int(match.game().moves().size());
    if (ply != game.turnPly || game.lastFailure != kind) game.failures = 0;
    game.turnPly = ply;
    game.lastFailure = kind;
    ++game.failures;
    const FailureAction action = actionAfterFailure(kind, game.failures);
    const std::string who = player.name();
    switch (action) {
    case FailureAction::PauseTournament:
        game.retryAtMs = kPausedRetry;
        pause("tournament paused: " + who + ": " + message +
              (kind == FailureKind::Unauthorized ? " (check the API key)" : " (add credits)"));
        return;
    case FailureAction::Retry:
    case FailureAction::Backoff: {
        const int shift = std::min(game.failures - 1, 6);
        game.retryAtMs =
            action == FailureAction::Retry ? nowMs : nowMs + double(options_.backoffMs) * (1 << shift);
        events_.push_back({RunnerEvent::Kind::Retrying, game.pairing.id,
                           who + ": " + std::string(failureKindName(kind)) + " (" + message + "), try " +
                               std::to_string(game.failures + 1)});
        return;
    }
    case FailureAction::Forfeit: break;
    }
    game.forfeitAs = failureRule(kind).forfeitAs;
    game.forced = side == chess::Color::White ? GameResult::BlackWins : GameResult::WhiteWins;
    game.forfeitMessage = std::string(failureKindName(kind)) + " after " + std::to_string(game.failures) +
                          (game.failures == 1 ? " try: " : " tries: ") + message;
}

void TournamentRunner::pollGame(LiveGame& game, double nowMs) {
    MatchRunner& match = *game.match;
    if (game.forced) return;
    if (game.retryAtMs >= 0) {
        if (state_ == RunnerState::Paused || nowMs < game.retryAtMs) return;
        game.retryAtMs = -1;
        match.retry();
    }
    if (match.finished()) return;
    match.poll();
    if (stoppedOnError(match)) onStoppedOnError(game, nowMs);
}

GameRecord TournamentRunner::recordOf(const LiveGame& game) const {
    const MatchRunner& match = *game.match;
    GameRecord r;
    r.pairing = game.pairing;
    r.startFen = match.game().startPosition().fen();
    assert(game.restoredTurns.size() <= match.moves().size() && "a started match holds its restored moves");
    r.moves = game.restoredTurns; // a resumed game's turns as they were recorded
    for (size_t i = r.moves.size(); i < match.moves().size(); ++i) {
        const MoveRecord& m = match.moves()[i];
        TurnRecord t;
        t.uci = m.uci;
        t.san = m.san;
        t.reasoning = m.reasoning;
        t.attempts = std::max(1, m.attempts);
        t.illegalAttempts = t.attempts - 1; // every rejected answer of the turn
        t.costUsd = m.costUsd;
        t.promptTokens = m.usage.promptTokens;
        t.completionTokens = m.usage.completionTokens;
        r.moves.push_back(std::move(t));
    }
    const bool forfeit =
        game.forced.has_value() || match.termination().find(" forfeits: ") != std::string::npos;
    if (game.forced) {
        r.result = *game.forced;
        r.termination = game.forfeitAs;
        const bool whiteLost = r.result == GameResult::BlackWins;
        r.detail = std::string(whiteLost ? "White" : "Black") + " forfeits: " + game.forfeitMessage;
    } else if (match.finished() && match.result() != "*") {
        r.result = gameResultOf(match.result());
        r.termination = forfeit ? game.forfeitAs : terminationFromStatus(match.game(), r.result);
        r.detail = match.termination();
    }
    if (forfeit) {
        TurnRecord open;
        open.attempts = std::max(0, game.openAttempts);
        open.illegalAttempts = r.termination == Termination::ForfeitIllegalMove ? open.attempts : 0;
        open.costUsd = game.openCostUsd;
        open.promptTokens = game.openUsage.promptTokens;
        open.completionTokens = game.openUsage.completionTokens;
        r.openTurn = open;
    }
    return r;
}

void TournamentRunner::finishGame(size_t index) {
    LiveGame& game = *live_[index];
    GameRecord record = recordOf(game);
    const std::optional<Outcome> outcome =
        record.result == GameResult::WhiteWins   ? std::optional(Outcome::WhiteWins)
        : record.result == GameResult::BlackWins ? std::optional(Outcome::BlackWins)
                                                 : std::optional(Outcome::Draw);
    scheduler_.onGameFinished(record.pairing.id, *outcome);
    char line[64];
    std::snprintf(line, sizeof line, "%s (%zu %s) ", std::string(resultText(record.result)).c_str(),
                  record.moves.size(), record.moves.size() == 1 ? "move" : "moves");
    const std::string how(terminationName(record.termination));
    events_.push_back({RunnerEvent::Kind::GameFinished, record.pairing.id,
                       config_.participants[size_t(record.pairing.white)].displayName() + " - " +
                           config_.participants[size_t(record.pairing.black)].displayName() + "  " + line +
                           how +
                           (record.detail.empty() || record.detail == how ? "" : ": " + record.detail)});
    games_.push_back(std::move(record));
    live_.erase(live_.begin() + std::ptrdiff_t(index));
}

void TournamentRunner::abandonGame(size_t index, const std::string& why) {
    LiveGame& game = *live_[index];
    game.match->abort(why);
    scheduler_.onGameAbandoned(game.pairing.id);
    events_.push_back({RunnerEvent::Kind::GameAbandoned, game.pairing.id, why});
    live_.erase(live_.begin() + std::ptrdiff_t(index));
}

void TournamentRunner::stop(StopMode mode) {
    if (state_ == RunnerState::Idle || state_ == RunnerState::Finished) {
        state_ = RunnerState::Finished;
        return;
    }
    if (mode == StopMode::AbandonRunning) {
        while (!live_.empty()) abandonGame(live_.size() - 1, "stopped by the user");
        for (const Resumed& g : resuming_) {
            scheduler_.onGameAbandoned(g.record.pairing.id);
            events_.push_back({RunnerEvent::Kind::GameAbandoned, g.record.pairing.id, "stopped by the user"});
        }
        resuming_.clear();
        state_ = RunnerState::Finished;
        return;
    }
    if (state_ != RunnerState::Paused) state_ = RunnerState::Stopping;
    updateState();
}

void TournamentRunner::updateState() {
    const bool running = state_ == RunnerState::Running;
    const bool idle = live_.empty() && resuming_.empty();
    if ((running && scheduler_.finished() && idle) || (state_ == RunnerState::Stopping && idle))
        state_ = RunnerState::Finished;
}

void TournamentRunner::poll(double nowMs) {
    if (state_ == RunnerState::Idle || state_ == RunnerState::Finished) return;
    startGames(nowMs);
    if (config_.tempo == Tempo::Ticker && state_ != RunnerState::Paused && ticker_.advance(nowMs) > 0) {
        for (auto& g : live_) // missed ticks collapse into one: a game advances one move per poll
            if (!g->forced && g->retryAtMs < 0) g->match->requestMove();
    }
    for (auto& g : live_) pollGame(*g, nowMs);
    for (size_t i = 0; i < live_.size();) {
        const LiveGame& g = *live_[i];
        const bool over = g.forced || (g.match->finished() && g.retryAtMs < 0 && !stoppedOnError(*g.match));
        if (over)
            finishGame(i);
        else
            ++i;
    }
    startGames(nowMs);
    updateState();
}

double TournamentRunner::msUntilNextTimer(double nowMs) const {
    double best = -1;
    auto consider = [&](double ms) {
        if (ms < 0) ms = 0;
        if (best < 0 || ms < best) best = ms;
    };
    if (config_.tempo == Tempo::Ticker && (state_ == RunnerState::Running || state_ == RunnerState::Stopping))
        consider(ticker_.msUntilNextTick(nowMs));
    if (state_ != RunnerState::Paused)
        for (const auto& g : live_)
            if (g->retryAtMs >= 0 && g->retryAtMs < kPausedRetry) consider(g->retryAtMs - nowMs);
    return best;
}

std::vector<GameRecord> TournamentRunner::snapshot() const {
    std::vector<GameRecord> all = games_;
    for (const auto& g : live_) {
        GameRecord r = recordOf(*g);
        r.result = GameResult::Unfinished; // not over until the runner records it
        r.termination = Termination::Unfinished;
        r.openTurn.reset();
        all.push_back(std::move(r));
    }
    for (const Resumed& g : resuming_) all.push_back(g.record);
    return all;
}

TournamentBundle TournamentRunner::bundle(const LeaderboardOptions& options) const {
    TournamentBundle b;
    b.config = config_;
    b.ratingOptions = options;
    b.games = snapshot();
    b.leaderboard = computeLeaderboard(config_, b.games, options);
    return b;
}

std::vector<RunnerEvent> TournamentRunner::takeEvents() {
    std::vector<RunnerEvent> out;
    out.swap(events_);
    return out;
}

} // namespace chaiba::chessmode
