// Tournament model: player specs, config validation, openings, termination and result names,
// the failure-rule table.
#include "src/modes/chess/tournament.h"

#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

namespace chaiba::chessmode {

namespace {

constexpr size_t kMaxTextLength = 200;


struct TerminationEntry {
    Termination value;
    std::string_view name;
};
constexpr std::array<TerminationEntry, 16> kTerminations = {{
    {Termination::Unfinished, "unfinished"},
    {Termination::Checkmate, "checkmate"},
    {Termination::Stalemate, "stalemate"},
    {Termination::InsufficientMaterial, "insufficient_material"},
    {Termination::FiftyMove, "fifty_move"},
    {Termination::SeventyFiveMove, "seventy_five_move"},
    {Termination::Threefold, "threefold_repetition"},
    {Termination::Fivefold, "fivefold_repetition"},
    {Termination::MoveLimit, "move_limit"},
    {Termination::ForfeitIllegalMove, "forfeit_illegal_move"},
    {Termination::ForfeitMalformedAnswer, "forfeit_malformed_answer"},
    {Termination::ForfeitTimeout, "forfeit_timeout"},
    {Termination::ForfeitRateLimited, "forfeit_rate_limited"},
    {Termination::ForfeitServerError, "forfeit_server_error"},
    {Termination::ForfeitOther, "forfeit_other"},
    {Termination::ForfeitTokenBudget, "forfeit_token_budget"},
}};

} // namespace

play::SeatGrammar chessSeatGrammar(int maxEngineLevel) {
    play::SeatGrammar g;
    g.maxEngineLevel = maxEngineLevel;
    return g;
}

Parsed<PlayerSpec> parsePlayerSpec(std::string_view text, int maxEngineLevel) {
    return play::parseSeatSpec(text, chessSeatGrammar(maxEngineLevel));
}

Parsed<std::string> playUciMoves(std::string_view fen, const std::vector<std::string>& moves, bool chess960,
                                 int* badMove) {
    if (badMove) *badMove = -1;
    chess::FenResult parsed = chess::Position::fromFen(fen, chess960);
    if (!parsed.ok()) return Parsed<std::string>::fail("bad FEN: " + parsed.error);
    chess::Position pos = *parsed.position;
    chess::MoveList legal;
    for (size_t i = 0; i < moves.size(); ++i) {
        chess::generateLegal(pos, legal);
        // Only the moves from the text's first square are written out and compared (a reload
        // checks every move of every stored game: this is most of its time).
        const chess::Square from = moves[i].size() >= 2 ? chess::parseSquare(std::string_view(moves[i]).substr(0, 2))
                                                        : chess::NoSquare;
        bool found = false;
        for (chess::Move m : legal)
            if (m.from() == from && chess::toUci(pos, m) == moves[i]) {
                pos.makeMove(m);
                found = true;
                break;
            }
        if (!found) {
            if (badMove) *badMove = int(i);
            return Parsed<std::string>::fail("move " + std::to_string(i + 1) + " '" + moves[i].substr(0, 16) +
                                             "' is not a legal UCI move");
        }
    }
    return {pos.fen(), {}};
}

Parsed<std::string> openingStartFen(const Opening& opening) {
    const std::string fen = opening.fen.empty() ? chess::Position::startPosition().fen() : opening.fen;
    return playUciMoves(fen, opening.moves, false);
}

ContextPolicy contextPolicyOf(const TournamentConfig& config, int index) {
    if (index >= 0 && static_cast<std::size_t>(index) < config.contextOverrides.size() &&
        config.contextOverrides[static_cast<std::size_t>(index)])
        return *config.contextOverrides[static_cast<std::size_t>(index)];
    return config.contextPolicy;
}

bool hasModels(const TournamentConfig& config) {
    return std::any_of(config.participants.begin(), config.participants.end(), [](const Participant& p) {
        const Parsed<PlayerSpec> spec = parsePlayerSpec(p.spec);
        return spec.ok() && spec.value->kind == PlayerSpec::Kind::Model;
    });
}

std::optional<std::string> validateConfig(const TournamentConfig& c) {
    if (c.participants.size() < 2) return "a tournament needs at least 2 participants";
    if (c.name.size() > kMaxTextLength) return "the tournament name is too long";
    if (looksLikeApiKey(c.name))
        return "the tournament name looks like an API key; keys never go into a tournament";
    std::set<std::string> names;
    for (size_t i = 0; i < c.participants.size(); ++i) {
        const Participant& p = c.participants[i];
        const std::string where = "participant " + std::to_string(i + 1) + ": ";
        if (looksLikeApiKey(p.spec) || looksLikeApiKey(p.name))
            return where + "looks like an API key; keys never go into a tournament";
        const Parsed<PlayerSpec> spec = parsePlayerSpec(p.spec);
        if (!spec.ok()) return where + spec.error;
        if (p.name.size() > kMaxTextLength) return where + "the name is too long";
        if (!std::isfinite(p.anchorElo) || p.anchorElo > 5000)
            return where + "the anchor rating must be a number up to 5000 (or negative for none)";
        if (!names.insert(p.displayName()).second)
            return where + "'" + p.displayName() + "' appears twice; give one of them another name";
    }
    if (c.concurrency < 1 || c.concurrency > kMaxConcurrency)
        return "concurrency must be from 1 to " + std::to_string(kMaxConcurrency);
    if (c.tickerSeconds < 1 || c.tickerSeconds > kMaxTickerSeconds)
        return "the ticker period must be from 1 to " + std::to_string(kMaxTickerSeconds) + " seconds";
    if (c.maxPlies < 1 || c.maxPlies > kMaxPlies)
        return "the move limit must be from 1 to " + std::to_string(kMaxPlies) + " plies";
    if (c.chess960 && !c.openings.empty()) return "Chess960 and an opening suite cannot be combined";
    for (size_t i = 0; i < c.openings.size(); ++i) {
        const Parsed<std::string> fen = openingStartFen(c.openings[i]);
        if (!fen.ok()) return "opening " + std::to_string(i + 1) + ": " + fen.error;
    }
    if (c.budgetUsd && (!std::isfinite(*c.budgetUsd) || *c.budgetUsd < 0))
        return "the budget must be a non-negative number of dollars";
    if (c.contextWindowMoves < 1 || c.contextWindowMoves > kMaxContextWindowMoves)
        return "the context window must be from 1 to " + std::to_string(kMaxContextWindowMoves) + " moves";
    if (c.gameTokenBudget && (*c.gameTokenBudget < 1 || *c.gameTokenBudget > kMaxGameTokenBudget))
        return "the per-game token budget must be from 1 to " + std::to_string(kMaxGameTokenBudget) + " tokens";
    if (c.calls) {
        const ModelCalls& m = *c.calls;
        if (m.temperature && !(*m.temperature >= 0 && *m.temperature <= 2)) return "the temperature must be from 0 to 2";
        if (m.maxTokens && (*m.maxTokens < 1 || *m.maxTokens > kMaxModelTokens))
            return "the answer token limit must be from 1 to " + std::to_string(kMaxModelTokens);
        if (m.retryAttempts < 0 || m.retryAttempts > kMaxRetryAttempts)
            return "retries must be from 0 to " + std::to_string(kMaxRetryAttempts);
        for (const std::string* prompt : {&m.promptBase, &m.promptWhite, &m.promptBlack})
            if (looksLikeApiKey(*prompt)) return "a prompt looks like an API key; keys never go into a tournament";
    }
    if (auto error = Scheduler::validate(schedulerConfig(c))) return *error;
    return std::nullopt;
}

SchedulerConfig schedulerConfig(const TournamentConfig& c) {
    SchedulerConfig s;
    s.format = c.format;
    s.players = int(c.participants.size());
    s.games = c.games;
    s.maxConcurrent = c.concurrency;
    s.gauntletPlayer = c.gauntletPlayer;
    s.seededStarts = c.chess960 ? 960 : 0; // a Chess960 position (Scharnagl number) per encounter
    s.openingCount = int(c.openings.size());
    s.seed = c.seed;
    s.pairing = c.pairing;
    for (const Participant& p : c.participants)
        s.initialRatings.push_back(p.anchorElo >= 0 && std::isfinite(p.anchorElo) ? p.anchorElo : 1500.0);
    return s;
}

void fillEngineAnchors(TournamentConfig& config,
                       const std::function<std::optional<double>(int level)>& calibrated) {
    if (!calibrated) return;
    for (Participant& p : config.participants) {
        if (p.anchorElo >= 0) continue;
        const Parsed<PlayerSpec> spec = parsePlayerSpec(p.spec);
        if (!spec.ok()) continue;
        if (spec.value->kind != PlayerSpec::Kind::Engine && spec.value->kind != PlayerSpec::Kind::Random) continue;
        const int level = spec.value->kind == PlayerSpec::Kind::Random ? 0 : spec.value->level;
        const std::optional<double> rating = calibrated(level);
        if (rating && std::isfinite(*rating) && *rating >= 0 && *rating <= 5000) p.anchorElo = *rating;
    }
}

TournamentConfig stageConfig(const StageSetup& stage) {
    TournamentConfig config;
    config.name = stage.name;
    for (const std::string& spec : stage.seats) config.participants.push_back({spec, "", -1});
    if (auto format = play::parseFormat(stage.format)) config.format = *format;
    config.games = stage.games;
    config.concurrency = stage.concurrency;
    config.chess960 = stage.chess960;
    if (stage.tickerSeconds) {
        config.tempo = Tempo::Ticker;
        config.tickerSeconds = *stage.tickerSeconds;
    }
    if (stage.budgetUsd > 0) config.budgetUsd = stage.budgetUsd;
    return config;
}

std::vector<double> anchorRatings(const TournamentConfig& c) {
    std::vector<double> anchors;
    for (const Participant& p : c.participants) anchors.push_back(p.anchorElo >= 0 ? p.anchorElo : -1.0);
    return anchors;
}

std::string_view terminationName(Termination t) {
    for (const TerminationEntry& e : kTerminations)
        if (e.value == t) return e.name;
    return "unfinished";
}

std::optional<Termination> parseTermination(std::string_view text) {
    for (const TerminationEntry& e : kTerminations)
        if (e.name == text) return e.value;
    return std::nullopt;
}

bool isForfeit(Termination t) {
    return t >= Termination::ForfeitIllegalMove;
}

std::string_view resultText(GameResult r) {
    switch (r) {
    case GameResult::Unfinished: return "*";
    case GameResult::WhiteWins: return "1-0";
    case GameResult::Draw: return "1/2-1/2";
    case GameResult::BlackWins: return "0-1";
    }
    return "*";
}

std::optional<GameResult> parseResultText(std::string_view text) {
    for (GameResult r :
         {GameResult::Unfinished, GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins})
        if (resultText(r) == text) return r;
    return std::nullopt;
}

int GameRecord::moverOf(size_t moveIndex) const {
    if (folded) return folded->movers[moveIndex % 2];
    const size_t space = startFen.find(' ');
    const bool blackStarts =
        space != std::string::npos && space + 1 < startFen.size() && startFen[space + 1] == 'b';
    const bool whiteMoves = (moveIndex % 2 == 0) != blackStarts;
    return whiteMoves ? pairing.white : pairing.black;
}

FoldedTurns foldTurns(const GameRecord& g) {
    if (g.folded) return *g.folded;
    FoldedTurns f;
    f.movers = g.movers();
    f.plies = g.moves.size();
    f.openTurn = g.openTurn.has_value();
    f.analysed = g.analysed();
    auto add = [&f](size_t side, const TurnRecord& t, bool moved) {
        f.moves[side] += moved ? 1 : 0;
        f.turns[side] += 1;
        f.illegalAttempts[side] += t.illegalAttempts;
        f.costUsd[side] += t.costUsd;
        f.tokens[side] += t.promptTokens + t.completionTokens;
        if (!moved || t.cpLoss < 0) return;
        f.analysedMoves[side] += 1;
        f.cpLoss[side] += t.cpLoss;
        f.blunders[side] += t.judgement == 3 ? 1 : 0;
    };
    for (size_t m = 0; m < g.moves.size(); ++m) add(m % 2, g.moves[m], true);
    if (g.openTurn) add(g.moves.size() % 2, *g.openTurn, false);
    return f;
}

void foldRecord(GameRecord& g) {
    if (g.folded || !g.finished()) return;
    g.folded = std::make_shared<const FoldedTurns>(foldTurns(g));
    std::string().swap(g.startFen);
    std::vector<TurnRecord>().swap(g.moves);
    g.openTurn.reset();
}

Parsed<GameRecord> readBackWhole(const GameRecord& folded, const WholeRecordSource& whole) {
    if (!whole) return Parsed<GameRecord>::fail("held folded, and there is nowhere to read it back from");
    Parsed<GameRecord> read = whole(folded);
    if (read.ok() && (read.value->pairing.id != folded.pairing.id || read.value->isFolded()))
        return Parsed<GameRecord>::fail("what was read back is not this game whole");
    return read;
}

std::optional<std::string> restoreSchedule(Scheduler& scheduler, const std::vector<GameRecord>& games) {
    // Finished games first (in order), then the running ones: a player's finished games all
    // happened before the game it is still in.
    for (int pass = 0; pass < 2; ++pass)
        for (size_t i = 0; i < games.size(); ++i) {
            const GameRecord& g = games[i];
            if (g.finished() != (pass == 0)) continue;
            std::optional<Outcome> outcome;
            if (g.result == GameResult::WhiteWins) outcome = Outcome::FirstWins;
            if (g.result == GameResult::Draw) outcome = Outcome::Draw;
            if (g.result == GameResult::BlackWins) outcome = Outcome::SecondWins;
            if (!scheduler.restore(g.pairing, outcome))
                return "game " + std::to_string(i + 1) + " (id " + std::to_string(g.pairing.id) +
                       ") does not fit the tournament's schedule";
        }
    return std::nullopt;
}

Termination forfeitTermination(FailureKind kind) {
    switch (kind) {
    case FailureKind::IllegalMove: return Termination::ForfeitIllegalMove;
    case FailureKind::MalformedAnswer: return Termination::ForfeitMalformedAnswer;
    case FailureKind::Timeout: return Termination::ForfeitTimeout;
    case FailureKind::RateLimited: return Termination::ForfeitRateLimited;
    case FailureKind::ServerError: return Termination::ForfeitServerError;
    case FailureKind::Unauthorized:
    case FailureKind::PaymentRequired: return Termination::ForfeitOther;
    }
    return Termination::ForfeitOther;
}

} // namespace chaiba::chessmode
