// The chess tournament runner (see tournament_runner.h): LiveGame, chess's play::TournamentGame,
// and the records, resume and bundle around play's runner. Each game's players sit behind a Seat
// that reports every answer to the game (costs for the budget, forfeits and errors for the
// record), so the MatchRunner stays the only move loop.
#include "src/modes/chess/tournament_runner.h"

#include <ctime>

#include "src/modes/chess/players.h"

#include "engine/chess/notation.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <utility>

namespace chaiba::chessmode {

namespace {

// The player the match drives: forwards to the factory's player and reports each answer (with
// whether it is a forfeit for a used token budget). `outOfTokens` says why the player may not be
// asked again in this game (it has used the per-game token budget), or nothing: it then forfeits
// at once, no request sent.
class Seat final : public Player {
public:
    Seat(Player& inner, std::function<void(const PlayerMove&, bool flagFall)> observe,
         std::function<std::optional<std::string>()> outOfTokens)
        : inner_(inner), observe_(std::move(observe)), outOfTokens_(std::move(outOfTokens)) {}
    std::string id() const override { return inner_.id(); }
    std::string name() const override { return inner_.name(); }
    play::SeatKind kind() const override { return inner_.kind(); }
    std::string model() const override { return inner_.model(); }
    void beginMove(const MoveRequest& request) override {
        if (std::optional<std::string> why = outOfTokens_ ? outOfTokens_() : std::nullopt) {
            flagFall_ = PlayerMove{};
            flagFall_->kind = PlayerMove::Kind::Forfeit;
            flagFall_->attempts = 0;
            flagFall_->message = std::move(*why);
            return;
        }
        inner_.beginMove(request);
    }
    std::optional<PlayerMove> poll() override {
        const bool flagFall = flagFall_.has_value();
        std::optional<PlayerMove> answer = flagFall ? std::exchange(flagFall_, std::nullopt) : inner_.poll();
        if (answer) observe_(*answer, flagFall);
        return answer;
    }
    void cancel() override { inner_.cancel(); }
    void newGame() override { inner_.newGame(); }
    double totalCostUsd() const override { return inner_.totalCostUsd(); }
    llm::Usage totalUsage() const override { return inner_.totalUsage(); }

private:
    Player& inner_;
    std::function<void(const PlayerMove&, bool)> observe_;
    std::function<std::optional<std::string>()> outOfTokens_;
    std::optional<PlayerMove> flagFall_; // the forfeit answered at the next poll
};

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
        m.usage.cachedTokens = t.cachedTokens;
        m.usage.reasoningTokens = t.reasoningTokens;
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

// ---- LiveGame --------------------------------------------------------------------------------

LiveGame::~LiveGame() {
    match.reset(); // cancels a thinking player before the players go
}

void LiveGame::onAnswer(chess::Color side, const PlayerMove& answer) {
    if (onCost) onCost(side == chess::Color::White ? 0 : 1, answer.costUsd);
    if (answer.kind == PlayerMove::Kind::Move) {
        openCostUsd = 0;
        openUsage = {};
        openAttempts = 0;
        return;
    }
    openCostUsd += answer.costUsd;
    addUsage(openUsage, answer.usage);
    openAttempts += answer.attempts;
    if (answer.kind == PlayerMove::Kind::Forfeit) {
        forfeitMessage = answer.message;
        forfeitAs = Termination::ForfeitIllegalMove; // the agent forfeits after rejected answers
    }
}

void LiveGame::poll(double) {
    if (forced || match->finished()) return;
    match->poll();
}

std::optional<play::TurnFailure> LiveGame::failure() const {
    if (forced || !match->stoppedOnError()) return std::nullopt;
    play::TurnFailure f;
    f.seat = match->game().position().sideToMove() == chess::Color::White ? 0 : 1;
    f.turn = int(match->game().moves().size());
    f.failure = match->failure().value_or(play::SeatFailure{});
    return f;
}

void LiveGame::forfeit(const play::TurnFailure& f, int tries) {
    forfeitAs = forfeitTermination(f.failure.kind);
    forced = f.seat == 0 ? GameResult::BlackWins : GameResult::WhiteWins;
    forfeitMessage = std::string(failureKindName(f.failure.kind)) + " after " + std::to_string(tries) +
                     (tries == 1 ? " try: " : " tries: ") + f.failure.message;
}

bool LiveGame::finished() const {
    return forced.has_value() || (match->finished() && !match->stoppedOnError());
}

play::GameOutcome LiveGame::outcome() const {
    const GameRecord r = record();
    const Outcome o = r.result == GameResult::WhiteWins   ? Outcome::FirstWins
                      : r.result == GameResult::BlackWins ? Outcome::SecondWins
                                                          : Outcome::Draw;
    return play::GameOutcome{{encounterOf(pairing.white, pairing.black, o, isForfeit(r.termination))}};
}

std::string LiveGame::seatName(int seat) const {
    const Player* p = seat == 0 ? white.get() : black.get();
    return p ? p->name() : std::string();
}

std::string LiveGame::startText() const {
    return whiteName + " - " + blackName + continued;
}

std::string LiveGame::finishText() const {
    const GameRecord r = record();
    char line[64];
    std::snprintf(line, sizeof line, "%s (%zu %s) ", std::string(resultText(r.result)).c_str(), r.moves.size(),
                  r.moves.size() == 1 ? "move" : "moves");
    const std::string how(terminationName(r.termination));
    return whiteName + " - " + blackName + "  " + line + how +
           (r.detail.empty() || r.detail == how ? "" : ": " + r.detail);
}

void LiveGame::appendNewTurns(GameRecord& r) const {
    for (size_t i = r.moves.size(); i < match->moves().size(); ++i) {
        const MoveRecord& m = match->moves()[i];
        TurnRecord t;
        t.uci = m.uci;
        t.san = m.san;
        t.reasoning = m.reasoning;
        t.attempts = std::max(1, m.attempts);
        t.illegalAttempts = t.attempts - 1; // every rejected answer of the turn
        t.costUsd = m.costUsd;
        t.promptTokens = m.usage.promptTokens;
        t.completionTokens = m.usage.completionTokens;
        t.cachedTokens = m.usage.cachedTokens;
        t.reasoningTokens = m.usage.reasoningTokens;
        r.moves.push_back(std::move(t));
    }
}

GameRecord LiveGame::record() const {
    GameRecord r;
    r.pairing = pairing;
    r.startFen = match->game().startPosition().fen();
    r.startedAt = startedAt;
    assert(restoredTurns.size() <= match->moves().size() && "a started match holds its restored moves");
    r.moves = restoredTurns; // a resumed game's turns as they were recorded
    appendNewTurns(r);
    const bool forfeit = forced.has_value() || match->end() == MatchEnd::Forfeit;
    if (forced) {
        r.result = *forced;
        r.termination = forfeitAs;
        const bool whiteLost = r.result == GameResult::BlackWins;
        r.detail = std::string(whiteLost ? "White" : "Black") + " forfeits: " + forfeitMessage;
    } else if (const GameResult result = parseResultText(match->result()).value_or(GameResult::Unfinished);
               match->finished() && result != GameResult::Unfinished) {
        r.result = result;
        r.termination = forfeit ? forfeitAs : terminationFromStatus(match->game(), r.result);
        r.detail = match->termination();
    }
    if (forfeit) {
        TurnRecord open;
        open.attempts = std::max(0, openAttempts);
        open.illegalAttempts = r.termination == Termination::ForfeitIllegalMove ? open.attempts : 0;
        open.costUsd = openCostUsd;
        open.promptTokens = openUsage.promptTokens;
        open.completionTokens = openUsage.completionTokens;
        open.cachedTokens = openUsage.cachedTokens;
        open.reasoningTokens = openUsage.reasoningTokens;
        r.openTurn = open;
    }
    return r;
}

// ---- TournamentRunner ------------------------------------------------------------------------

Parsed<std::unique_ptr<TournamentRunner>> TournamentRunner::create(TournamentConfig config,
                                                                   PlayerFactory factory,
                                                                   std::vector<GameRecord> resumed,
                                                                   RunnerOptions options) {
    if (auto bad = validateConfig(config)) return Parsed<std::unique_ptr<TournamentRunner>>::fail(*bad);
    if (!factory) return Parsed<std::unique_ptr<TournamentRunner>>::fail("no player factory");
    std::unique_ptr<TournamentRunner> runner(
        new TournamentRunner(std::move(config), std::move(factory), options));
    if (auto bad = restoreSchedule(runner->schedule_->scheduler(), resumed))
        return Parsed<std::unique_ptr<TournamentRunner>>::fail("resume: " + *bad);
    play::TournamentDriver& core = *runner->core_;
    for (GameRecord& g : resumed) {
        std::optional<std::vector<MoveRecord>> replay;
        if (!g.finished()) { // a game that was running continues from its recorded moves
            Parsed<std::vector<MoveRecord>> moves = restorableMoves(g, runner->matchConfig(g.pairing));
            if (!moves.ok()) { // its turns are dropped with it (and so are their costs)
                runner->schedule_->onGameAbandoned(g.pairing.id);
                const bool arena = runner->config_.format == Format::Arena;
                core.note({RunnerEvent::Kind::GameAbandoned, g.pairing.id,
                           "resumed game #" + std::to_string(g.pairing.id) + " cannot continue: " + moves.error +
                               (arena ? "; the arena plays another game in its place"
                                      : "; it is played again from the start")});
                continue;
            }
            replay = std::move(moves.value);
        }
        if (g.folded) { // a finished game folded by the arena: its costs summed per player
            for (size_t side = 0; side < 2; ++side)
                if (g.folded->turns[side] > 0) core.addCost(g.folded->movers[side], g.folded->costUsd[side]);
        } else {
            const std::array<int, 2> movers = g.movers();
            for (size_t i = 0; i < g.moves.size(); ++i) core.addCost(movers[i % 2], g.moves[i].costUsd);
            if (g.openTurn) core.addCost(g.openTurnPlayer(), g.openTurn->costUsd);
        }
        if (replay) {
            const int id = g.pairing.id;
            core.resumeFirst(play::PairSchedule::tableOf(g.pairing));
            runner->resuming_[id] = Resumed{std::move(g), std::move(*replay)};
        } else {
            runner->games_.push_back(std::move(g));
        }
    }
    return Parsed<std::unique_ptr<TournamentRunner>>{std::move(runner), {}};
}

TournamentRunner::TournamentRunner(TournamentConfig config, PlayerFactory factory, RunnerOptions options)
    : config_(std::move(config)), factory_(std::move(factory)), clock_(std::move(options.clock)) {
    if (!clock_) clock_ = [] { return static_cast<int64_t>(std::time(nullptr)); };
    play::RunnerConfig rc;
    rc.participants = int(config_.participants.size());
    rc.concurrency = config_.concurrency;
    rc.tempo = config_.tempo;
    rc.tickerSeconds = config_.tickerSeconds;
    rc.budgetUsd = config_.budgetUsd;
    rc.backoffMs = options.backoffMs;
    auto schedule = std::make_unique<play::PairSchedule>(schedulerConfig(config_));
    schedule_ = schedule.get();
    core_ = std::make_unique<play::TournamentDriver>(
        rc, std::move(schedule), [this](const play::Table& table, bool resumed) { return makeGame(table, resumed); });
    core_->onGameFinished = [this](play::TournamentGame& game) {
        GameRecord record = static_cast<LiveGame&>(game).record();
        record.finishedAt = std::max(record.startedAt, clock_());
        games_.push_back(std::move(record));
    };
}

TournamentRunner::~TournamentRunner() = default;

MatchConfig TournamentRunner::matchConfig(const Pairing& pairing) const {
    MatchConfig m;
    m.chess960 = config_.chess960;
    m.chess960Number = pairing.seededStart;
    m.seed = mixSeed(config_.seed, pairing.id);
    m.maxPlies = config_.maxPlies;
    m.maxRequestsByKind = play::requestCapsOfRules(); // the first call of a turn keeps to the rules too
    if (pairing.opening >= 0 && size_t(pairing.opening) < config_.openings.size()) {
        Parsed<std::string> fen = openingStartFen(config_.openings[size_t(pairing.opening)]);
        if (fen.ok()) m.startFen = *fen.value; // validateConfig checked the suite
    }
    return m;
}

play::GameStart TournamentRunner::makeGame(const play::Table& table, bool resumedGame) {
    const Pairing pairing = play::PairSchedule::pairingOf(table);
    const auto found = resumedGame ? resuming_.find(pairing.id) : resuming_.end();
    const Resumed* resumed = found != resuming_.end() ? &found->second : nullptr;
    auto game = std::make_unique<LiveGame>();
    game->pairing = pairing;
    game->startedAt = resumed && resumed->record.startedAt > 0 ? resumed->record.startedAt : clock_();
    game->whiteName = config_.participants[size_t(pairing.white)].displayName();
    game->blackName = config_.participants[size_t(pairing.black)].displayName();
    const std::uint64_t seed = mixSeed(config_.seed, pairing.id);
    std::string error;
    for (chess::Color side : {chess::Color::White, chess::Color::Black}) {
        const bool white = side == chess::Color::White;
        PlayerSlot slot;
        slot.participant = white ? pairing.white : pairing.black;
        slot.spec = &config_.participants[size_t(slot.participant)];
        slot.side = side;
        slot.id = white ? "white" : "black";
        slot.opponentName = white ? game->blackName : game->whiteName;
        slot.seed = white ? seed : seed ^ 0x5bd1e995ULL;
        std::unique_ptr<Player> player = factory_(slot, error);
        if (!player) return play::GameStart{nullptr, "cannot create " + slot.spec->displayName() + ": " + error, false};
        LiveGame* g = game.get();
        auto observe = [g, side](const PlayerMove& m, bool flagFall) {
            g->onAnswer(side, m);
            if (flagFall) g->forfeitAs = Termination::ForfeitTokenBudget;
        };
        // The per-game token budget, counted over every answer of this side in the game (a resumed
        // game's recorded turns included), checked before each of its turns.
        std::function<std::optional<std::string>()> outOfTokens;
        if (const std::optional<long long> budget = config_.gameTokenBudget)
            outOfTokens = [g, side, budget = *budget]() -> std::optional<std::string> {
                const llm::Usage used = g->match->usage(side);
                const long long tokens = used.promptTokens + used.completionTokens;
                if (tokens < budget) return std::nullopt;
                return "used " + std::to_string(tokens) + " tokens, its budget for a game is " + std::to_string(budget);
            };
        auto seat = std::make_unique<Seat>(*player, std::move(observe), std::move(outOfTokens));
        (white ? game->white : game->black) = std::move(player);
        (white ? game->whiteSeat : game->blackSeat) = std::move(seat);
    }
    game->match = std::make_unique<MatchRunner>(*game->whiteSeat, *game->blackSeat, matchConfig(pairing));
    if (resumed) {
        if (auto bad = game->match->restore(resumed->moves)) { // checked by create(): not expected
            resuming_.erase(found);
            return play::GameStart{nullptr, "resumed game #" + std::to_string(pairing.id) + " cannot continue: " + *bad,
                                   true};
        }
        game->restoredTurns = resumed->record.moves;
        if (const std::optional<TurnRecord>& open = resumed->record.openTurn) {
            game->openCostUsd = open->costUsd;
            game->openUsage.promptTokens = open->promptTokens;
            game->openUsage.completionTokens = open->completionTokens;
            game->openUsage.totalTokens = open->promptTokens + open->completionTokens;
            game->openUsage.cachedTokens = open->cachedTokens;
            game->openUsage.reasoningTokens = open->reasoningTokens;
            game->openAttempts = open->attempts;
        }
        const size_t plies = resumed->moves.size();
        game->continued = ", continued after " + std::to_string(plies) + (plies == 1 ? " ply" : " plies");
        resuming_.erase(found);
    }
    return play::GameStart{std::move(game), {}, false};
}

std::vector<LiveGame*> TournamentRunner::liveGames() const {
    std::vector<LiveGame*> out;
    for (play::TournamentGame* g : core_->liveGames()) out.push_back(static_cast<LiveGame*>(g));
    return out;
}

bool TournamentRunner::replaceFinished(size_t index, const GameRecord& record) {
    if (index >= games_.size() || games_[index].pairing.id != record.pairing.id || !record.finished()) return false;
    // Moved in, not copied over: a copy-assigned empty vector or string keeps the old buffer (a
    // whole game's moves, ~6 KB for 60) that folding is meant to free.
    GameRecord copy = record;
    games_[index] = std::move(copy);
    return true;
}

std::vector<GameRecord> TournamentRunner::snapshot() const {
    std::vector<GameRecord> all = games_;
    for (const LiveGame* g : liveGames()) {
        GameRecord r = g->record();
        r.result = GameResult::Unfinished; // not over until the runner records it
        r.termination = Termination::Unfinished;
        r.openTurn.reset();
        all.push_back(std::move(r));
    }
    for (const play::Table& t : core_->pendingResumes()) {
        const auto it = resuming_.find(t.id);
        if (it != resuming_.end()) all.push_back(it->second.record);
    }
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

} // namespace chaiba::chessmode
