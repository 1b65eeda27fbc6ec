// Tournament model: player specs, config validation, openings, termination and result names,
// the failure-rule table.
#include "src/modes/chess/tournament.h"

#include "engine/chess/movegen.h"
#include "engine/chess/position.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

namespace chaiba::chessmode {

namespace {

constexpr int kMaxEngineLevel = 30;
constexpr size_t kMaxTextLength = 200;

std::optional<int> parseSmallInt(std::string_view text) {
    int n = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
    return n;
}

// 'text' for messages, cut to a readable length.
std::string quoted(std::string_view text) {
    std::string out;
    out.reserve(std::min(text.size(), kMaxTextLength) + 2);
    out += '\'';
    out.append(text.substr(0, kMaxTextLength));
    out += '\'';
    return out;
}

bool printableWord(std::string_view text) {
    for (char c : text)
        if (std::isgraph(static_cast<unsigned char>(c)) == 0) return false;
    return true;
}

// UCI of a legal move: castling as king-to-rook in Chess960, king two squares otherwise.
std::string uciOf(const chess::Position& pos, chess::Move m) {
    chess::Square to = m.to();
    if (m.isCastling() && !pos.isChess960())
        to = chess::makeSquare(chess::fileOf(m.to()) > chess::fileOf(m.from()) ? 6 : 2,
                               chess::rankOf(m.from()));
    std::string text = chess::squareName(m.from()) + chess::squareName(to);
    if (m.isPromotion()) text += "nbrq"[int(m.promotion()) - int(chess::PieceType::Knight)];
    return text;
}

struct TerminationEntry {
    Termination value;
    std::string_view name;
};
constexpr std::array<TerminationEntry, 15> kTerminations = {{
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
}};

// The rules of the issue: illegal move: retry with the error up to 3 times; malformed answer:
// one retry; timeout: 3 retries; 429: 5 backoffs; 5xx: 3 backoffs; then forfeit. 401/402 pause
// the whole tournament (nobody forfeits for the user's key or credits).
constexpr std::array<FailureRule, 7> kFailureRules = {{
    {FailureKind::IllegalMove, FailureAction::Retry, 3, Termination::ForfeitIllegalMove,
     "illegal move: retry with the error, up to 3 times, then forfeit"},
    {FailureKind::MalformedAnswer, FailureAction::Retry, 1, Termination::ForfeitMalformedAnswer,
     "malformed answer: retry once, then forfeit"},
    {FailureKind::Timeout, FailureAction::Retry, 3, Termination::ForfeitTimeout,
     "timeout: retry up to 3 times, then forfeit"},
    {FailureKind::RateLimited, FailureAction::Backoff, 5, Termination::ForfeitRateLimited,
     "rate limited (429): back off up to 5 times, then forfeit"},
    {FailureKind::ServerError, FailureAction::Backoff, 3, Termination::ForfeitServerError,
     "server error (5xx): back off up to 3 times, then forfeit"},
    {FailureKind::Unauthorized, FailureAction::PauseTournament, 0, Termination::ForfeitOther,
     "unauthorized (401): pause the tournament (check the API key)"},
    {FailureKind::PaymentRequired, FailureAction::PauseTournament, 0, Termination::ForfeitOther,
     "payment required (402): pause the tournament (add credits)"},
}};

} // namespace

std::string PlayerSpec::text() const {
    switch (kind) {
    case Kind::Llm: return "llm:" + modelId;
    case Kind::Engine: return level < 0 ? "engine" : "engine:" + std::to_string(level);
    case Kind::Random: return "random";
    }
    return "random";
}

Parsed<PlayerSpec> parsePlayerSpec(std::string_view text) {
    PlayerSpec spec;
    if (text == "random") return {spec, {}};
    if (text == "engine") {
        spec.kind = PlayerSpec::Kind::Engine;
        return {spec, {}};
    }
    if (text.substr(0, 7) == "engine:") {
        const auto level = parseSmallInt(text.substr(7));
        if (!level || *level < 0 || *level > kMaxEngineLevel)
            return Parsed<PlayerSpec>::fail(std::string("engine level must be a number from 0 to 30 in ") +
                                            quoted(text));
        spec.kind = PlayerSpec::Kind::Engine;
        spec.level = *level;
        return {spec, {}};
    }
    if (text.substr(0, 4) == "llm:") {
        const std::string_view model = text.substr(4);
        if (model.empty() || model.size() > kMaxTextLength || !printableWord(model))
            return Parsed<PlayerSpec>::fail(quoted(text) + " needs a model id without spaces after llm:");
        spec.kind = PlayerSpec::Kind::Llm;
        spec.modelId = std::string(model);
        return {spec, {}};
    }
    return Parsed<PlayerSpec>::fail(std::string("unknown player spec ") + quoted(text) +
                                    " (expected llm:MODEL_ID, engine:LEVEL, engine or random)");
}

Parsed<std::string> playUciMoves(std::string_view fen, const std::vector<std::string>& moves, bool chess960,
                                 int* badMove) {
    if (badMove) *badMove = -1;
    chess::FenResult parsed = chess::Position::fromFen(fen, chess960);
    if (!parsed.ok()) return Parsed<std::string>::fail("bad FEN: " + parsed.error);
    chess::Position pos = *parsed.position;
    for (size_t i = 0; i < moves.size(); ++i) {
        chess::MoveList legal;
        chess::generateLegal(pos, legal);
        bool found = false;
        for (chess::Move m : legal)
            if (uciOf(pos, m) == moves[i]) {
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

std::string_view tempoName(Tempo tempo) {
    return tempo == Tempo::Ticker ? "ticker" : "max-speed";
}

std::optional<Tempo> parseTempo(std::string_view text) {
    if (text == "max-speed") return Tempo::MaxSpeed;
    if (text == "ticker") return Tempo::Ticker;
    return std::nullopt;
}

bool looksLikeApiKey(std::string_view text) {
    auto keyChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
    };
    for (size_t at = text.find("sk-"); at != std::string_view::npos; at = text.find("sk-", at + 1)) {
        size_t run = 0;
        for (size_t i = at + 3; i < text.size() && keyChar(text[i]); ++i) ++run;
        if (run >= 20) return true;
    }
    for (size_t at = text.find("Bearer "); at != std::string_view::npos; at = text.find("Bearer ", at + 1))
        if (at + 7 < text.size() && keyChar(text[at + 7])) return true;
    return false;
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
    if (c.concurrency < 1 || c.concurrency > 64) return "concurrency must be from 1 to 64";
    if (c.tickerSeconds < 1 || c.tickerSeconds > 3600)
        return "the ticker period must be from 1 to 3600 seconds";
    if (c.maxPlies < 1 || c.maxPlies > 10000) return "the move limit must be from 1 to 10000 plies";
    if (c.chess960 && !c.openings.empty()) return "Chess960 and an opening suite cannot be combined";
    for (size_t i = 0; i < c.openings.size(); ++i) {
        const Parsed<std::string> fen = openingStartFen(c.openings[i]);
        if (!fen.ok()) return "opening " + std::to_string(i + 1) + ": " + fen.error;
    }
    if (c.budgetUsd && (!std::isfinite(*c.budgetUsd) || *c.budgetUsd < 0))
        return "the budget must be a non-negative number of dollars";
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
        if (!spec.ok() || spec.value->kind == PlayerSpec::Kind::Llm) continue;
        const int level = spec.value->kind == PlayerSpec::Kind::Random ? 0 : spec.value->level;
        const std::optional<double> rating = calibrated(level);
        if (rating && std::isfinite(*rating) && *rating >= 0 && *rating <= 5000) p.anchorElo = *rating;
    }
}

std::vector<double> anchorRatings(const TournamentConfig& c) {
    std::vector<double> anchors;
    for (const Participant& p : c.participants) anchors.push_back(p.anchorElo >= 0 ? p.anchorElo : -1.0);
    return anchors;
}

int Ticker::advance(double nowMs) {
    if (!started_) {
        started_ = true;
        startMs_ = nowMs;
        ticks_ = 1;
        return 1;
    }
    const long long due = 1 + static_cast<long long>(std::floor(std::max(0.0, nowMs - startMs_) / periodMs_));
    const long long fired = std::max(0LL, due - ticks_);
    ticks_ += fired;
    return int(std::min<long long>(fired, 1000000));
}

double Ticker::msUntilNextTick(double nowMs) const {
    if (!started_) return 0;
    return std::max(0.0, startMs_ + double(ticks_) * periodMs_ - nowMs);
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
    const size_t space = startFen.find(' ');
    const bool blackStarts =
        space != std::string::npos && space + 1 < startFen.size() && startFen[space + 1] == 'b';
    const bool whiteMoves = (moveIndex % 2 == 0) != blackStarts;
    return whiteMoves ? pairing.white : pairing.black;
}

std::optional<std::string> restoreSchedule(Scheduler& scheduler, const std::vector<GameRecord>& games) {
    // Finished games first (in order), then the running ones: a player's finished games all
    // happened before the game it is still in.
    for (int pass = 0; pass < 2; ++pass)
        for (size_t i = 0; i < games.size(); ++i) {
            const GameRecord& g = games[i];
            if (g.finished() != (pass == 0)) continue;
            std::optional<Outcome> outcome;
            if (g.result == GameResult::WhiteWins) outcome = Outcome::WhiteWins;
            if (g.result == GameResult::Draw) outcome = Outcome::Draw;
            if (g.result == GameResult::BlackWins) outcome = Outcome::BlackWins;
            if (!scheduler.restore(g.pairing, outcome))
                return "game " + std::to_string(i + 1) + " (id " + std::to_string(g.pairing.id) +
                       ") does not fit the tournament's schedule";
        }
    return std::nullopt;
}

std::span<const FailureRule> failureRules() {
    return kFailureRules;
}

const FailureRule& failureRule(FailureKind kind) {
    for (const FailureRule& r : kFailureRules)
        if (r.kind == kind) return r;
    return kFailureRules[0];
}

FailureAction actionAfterFailure(FailureKind kind, int failures) {
    const FailureRule& rule = failureRule(kind);
    if (rule.action == FailureAction::PauseTournament) return FailureAction::PauseTournament;
    return failures <= rule.maxRetries ? rule.action : FailureAction::Forfeit;
}

std::optional<FailureKind> failureFromHttpStatus(int status) {
    if (status == 401) return FailureKind::Unauthorized;
    if (status == 402) return FailureKind::PaymentRequired;
    if (status == 408) return FailureKind::Timeout;
    if (status == 429) return FailureKind::RateLimited;
    if (status >= 500 && status <= 599) return FailureKind::ServerError;
    return std::nullopt;
}

std::string_view failureKindName(FailureKind kind) {
    switch (kind) {
    case FailureKind::IllegalMove: return "illegal_move";
    case FailureKind::MalformedAnswer: return "malformed_answer";
    case FailureKind::Timeout: return "timeout";
    case FailureKind::RateLimited: return "rate_limited";
    case FailureKind::ServerError: return "server_error";
    case FailureKind::Unauthorized: return "unauthorized";
    case FailureKind::PaymentRequired: return "payment_required";
    }
    return "illegal_move";
}

} // namespace chaiba::chessmode
