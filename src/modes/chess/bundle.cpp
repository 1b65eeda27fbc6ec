// Bundle JSON: writing (with key redaction) and strict decoding into TournamentBundle. nlohmann is
// used without exceptions: every access is type-checked, the first problem is reported by path.
#include "src/modes/chess/bundle.h"
#include "src/modes/chess/bundle_detail.h"

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "engine/chess/position.h"
#include "engine/search/analysis.h"

#include "src/play/bundle.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <utility>

namespace chaiba::chessmode {

namespace {

using json = play::Json;
using play::JsonDecoder;
using play::redactSecrets;

json turnJson(const TurnRecord& t, std::string_view secret) {
    return json{{"uci", t.uci},
                {"san", redactSecrets(t.san, secret)},
                {"reasoning", redactSecrets(t.reasoning, secret)},
                {"attempts", t.attempts},
                {"illegalAttempts", t.illegalAttempts},
                {"costUsd", t.costUsd},
                {"promptTokens", t.promptTokens},
                {"completionTokens", t.completionTokens},
                {"cachedTokens", t.cachedTokens},
                {"reasoningTokens", t.reasoningTokens},
                {"cpLoss", t.cpLoss},
                {"judgement", t.judgement}};
}

// The named move with the judge's evaluation after it (version 6) once analysed.
json turnNamed(const TurnRecord& t, std::string_view secret) {
    json e = turnJson(t, secret);
    if (t.cpLoss >= 0) {
        e["evalCp"] = t.evalCp;
        e["evalMate"] = t.evalMate;
    }
    return e;
}

// The compact move (TurnLayout::Compact): the fields in this order.
// An analysed move adds the evaluation after it (version 6): 14 fields, else 12.
json turnArray(const TurnRecord& t, std::string_view secret) {
    json e = json::array({t.uci, redactSecrets(t.san, secret), redactSecrets(t.reasoning, secret), t.attempts,
                          t.illegalAttempts, t.costUsd, t.promptTokens, t.completionTokens, t.cachedTokens,
                          t.reasoningTokens, t.cpLoss, t.judgement});
    if (t.cpLoss >= 0) {
        e.push_back(t.evalCp);
        e.push_back(t.evalMate);
    }
    return e;
}

json turnOf(const TurnRecord& t, std::string_view secret, TurnLayout layout) {
    return layout == TurnLayout::Compact ? turnArray(t, secret) : turnNamed(t, secret);
}

json rowJson(const LeaderboardRow& r) {
    return json{{"participant", r.participant},
                {"rank", r.rank},
                {"rating", r.rating},
                {"ratingLow", r.ratingLow},
                {"ratingHigh", r.ratingHigh},
                {"anchored", r.anchored},
                {"elo", r.elo},
                {"games", r.games},
                {"wins", r.wins},
                {"draws", r.draws},
                {"losses", r.losses},
                {"forfeits", r.forfeits},
                {"moves", r.moves},
                {"turns", r.turns},
                {"illegalAttempts", r.illegalAttempts},
                {"illegalPer100Moves", r.illegalPer100Moves},
                {"costUsd", r.costUsd},
                {"avgCostPerGame", r.avgCostPerGame},
                {"tokens", r.tokens},
                {"avgTokensPerMove", r.avgTokensPerMove},
                {"analysedMoves", r.analysedMoves},
                {"avgCpLoss", r.avgCpLoss},
                {"blunders", r.blunders},
                {"blundersPer100Moves", r.blundersPer100Moves},
                {"contextPolicy", r.contextPolicy},
                {"gamesToPlusMinus50", r.gamesToPlusMinus50}};
}

bool finite(const TurnRecord& t) {
    return std::isfinite(t.costUsd);
}

constexpr long long kMaxCount = 1000000000;
constexpr const char* kPolicyNames = "expected \"full\", \"stateless\" or \"windowed\"";

// A compact move (TurnLayout::Compact): the same fields and checks as the named one, by position.
void decodeTurnArray(JsonDecoder& d, const json& j, const std::string& path, TurnRecord& t) {
    // 12 fields, 14 with the evaluation after the move (version 6).
    if (j.size() != 12 && j.size() != 14)
        return d.fail(path, "expected 12 fields, or 14 with the evaluation, got " + std::to_string(j.size()));
    auto at = [&](int i) { return JsonDecoder::At{path, nullptr, i}; };
    d.value(j[0], at(0), t.uci);
    d.value(j[1], at(1), t.san);
    d.value(j[2], at(2), t.reasoning);
    d.value(j[3], at(3), t.attempts, 0, 1000);
    d.value(j[4], at(4), t.illegalAttempts, 0, 1000);
    d.value(j[5], at(5), t.costUsd);
    d.value(j[6], at(6), t.promptTokens, 0, kMaxCount * 1000);
    d.value(j[7], at(7), t.completionTokens, 0, kMaxCount * 1000);
    d.value(j[8], at(8), t.cachedTokens, 0, kMaxCount * 1000);
    d.value(j[9], at(9), t.reasoningTokens, 0, kMaxCount * 1000);
    d.value(j[10], at(10), t.cpLoss, -1, 100000);
    d.value(j[11], at(11), t.judgement, 0, 3);
    if (j.size() == 14) {
        d.value(j[12], at(12), t.evalCp, -kCheckmateEvalCp, kCheckmateEvalCp);
        d.value(j[13], at(13), t.evalMate, -kMaxPlies, kMaxPlies);
    }
    if (!d.failed() && t.costUsd < 0) d.fail(path + "[5]", "a cost cannot be negative");
}

void decodeTurn(JsonDecoder& d, const json& j, const std::string& path, TurnRecord& t) {
    if (j.is_array()) return decodeTurnArray(d, j, path, t);
    if (!j.is_object()) return d.fail(path, "expected an object");
    d.read(j, "uci", path, t.uci);
    d.read(j, "san", path, t.san, false);
    d.read(j, "reasoning", path, t.reasoning, false);
    d.read(j, "attempts", path, t.attempts, 0, 1000);
    d.read(j, "illegalAttempts", path, t.illegalAttempts, 0, 1000);
    d.read(j, "costUsd", path, t.costUsd);
    d.read(j, "promptTokens", path, t.promptTokens, 0, kMaxCount * 1000);
    d.read(j, "completionTokens", path, t.completionTokens, 0, kMaxCount * 1000);
    // Version 2: absent (version 1) reads as 0.
    d.read(j, "cachedTokens", path, t.cachedTokens, 0, kMaxCount * 1000, false);
    d.read(j, "reasoningTokens", path, t.reasoningTokens, 0, kMaxCount * 1000, false);
    // Version 3: absent (versions 1-2) reads as not analysed.
    d.read(j, "cpLoss", path, t.cpLoss, -1, 100000, false);
    d.read(j, "judgement", path, t.judgement, 0, 3, false);
    // Version 6: absent (earlier versions, a move not analysed) reads as 0.
    d.read(j, "evalCp", path, t.evalCp, -kCheckmateEvalCp, kCheckmateEvalCp, false);
    d.read(j, "evalMate", path, t.evalMate, -kMaxPlies, kMaxPlies, false);
    if (!d.failed() && t.costUsd < 0) d.fail(path + ".costUsd", "a cost cannot be negative");
}

std::optional<llm::ReasoningEffort> parseEffort(std::string_view name) {
    for (llm::ReasoningEffort e : {llm::ReasoningEffort::Default, llm::ReasoningEffort::Minimal,
                                   llm::ReasoningEffort::Low, llm::ReasoningEffort::Medium, llm::ReasoningEffort::High})
        if (name == llm::effortName(e)) return e;
    return std::nullopt;
}

// The config's "calls" (version 6): how the models are called. Every member may be left out (a
// config file's choice; the bundle writes them all) and keeps its default.
void decodeCalls(JsonDecoder& d, const json& j, const std::string& path, ModelCalls& m) {
    if (!j.is_object()) return d.fail(path, "expected an object");
    if (d.refuseKeyFields(j, path)) return;
    if (d.member(j, "temperature", path, false)) {
        double t = 0;
        d.read(j, "temperature", path, t);
        if (!d.failed() && !(t >= 0 && t <= 2)) return d.fail(path + ".temperature", "expected 0 to 2 (or null)");
        m.temperature = t;
    }
    if (d.member(j, "maxTokens", path, false)) {
        int n = 0;
        d.read(j, "maxTokens", path, n, 1, kMaxModelTokens);
        m.maxTokens = n;
    }
    std::string effort = llm::effortName(m.reasoningEffort);
    d.read(j, "reasoningEffort", path, effort, false);
    if (d.failed()) return;
    const auto parsed = parseEffort(effort);
    if (!parsed)
        return d.fail(path + ".reasoningEffort", "expected \"default\", \"minimal\", \"low\", \"medium\" or \"high\"");
    m.reasoningEffort = *parsed;
    d.read(j, "legalMoves", path, m.sendLegalMoves, false);
    d.read(j, "retries", path, m.retryAttempts, 0, kMaxRetryAttempts, false);
    d.read(j, "fenOnError", path, m.sendFenOnError, false);
    d.read(j, "contextMessage", path, m.sendContextMessage, false);
    if (const json* prompts = d.object(j, "prompts", path, false)) {
        const std::string p = path + ".prompts";
        if (d.refuseKeyFields(*prompts, p)) return;
        d.read(*prompts, "base", p, m.promptBase, false);
        d.read(*prompts, "white", p, m.promptWhite, false);
        d.read(*prompts, "black", p, m.promptBlack, false);
    }
}

} // namespace

// How the models were called, as the bundle writes it (bundle_detail.h).
json callsObject(const ModelCalls& m) {
    json e{{"reasoningEffort", llm::effortName(m.reasoningEffort)},
           {"legalMoves", m.sendLegalMoves},
           {"retries", m.retryAttempts},
           {"fenOnError", m.sendFenOnError},
           {"contextMessage", m.sendContextMessage},
           {"prompts", {{"base", m.promptBase}, {"white", m.promptWhite}, {"black", m.promptBlack}}}};
    e["temperature"] = m.temperature ? json(*m.temperature) : json(nullptr);
    e["maxTokens"] = m.maxTokens ? json(*m.maxTokens) : json(nullptr);
    return e;
}

namespace {

// The config object. strict (bundles): every field present. Lenient (config files): only
// "participants" is required, the rest defaults, and a participant may be just its spec string.
void decodeConfig(JsonDecoder& d, const json& j, TournamentConfig& c, const std::string& path, bool strict) {
    const bool req = strict;
    if (d.refuseKeyFields(j, path)) return;
    d.read(j, "name", path, c.name, req);
    if (const json* list = d.array(j, "participants", path)) {
        c.participants.clear();
        c.contextOverrides.clear();
        for (size_t i = 0; i < list->size() && !d.failed(); ++i) {
            const std::string p = JsonDecoder::join(path, "participants") + "[" + std::to_string(i) + "]";
            const json& e = (*list)[i];
            Participant part;
            if (!strict && e.is_string()) {
                part.spec = e.get<std::string>();
                c.participants.push_back(part);
                continue;
            }
            if (!e.is_object())
                return d.fail(p, strict ? "expected an object" : "expected a spec or an object");
            d.read(e, "spec", p, part.spec);
            d.read(e, "name", p, part.name, false);
            d.read(e, "anchorElo", p, part.anchorElo, false);
            std::string policy; // bundle v3: an optional per-player context policy
            d.read(e, "contextPolicy", p, policy, false);
            if (!policy.empty()) {
                c.contextOverrides.resize(c.participants.size() + 1);
                const auto parsed = parseContextPolicy(policy);
                if (!parsed) return d.fail(JsonDecoder::join(p, "contextPolicy"), kPolicyNames);
                c.contextOverrides.back() = *parsed;
            }
            c.participants.push_back(part);
        }
    }
    std::string text(formatName(c.format));
    d.read(j, "format", path, text, req);
    if (!d.failed()) {
        const auto f = parseFormat(text);
        if (!f) return d.fail(JsonDecoder::join(path, "format"), "unknown format '" + text.substr(0, 40) + "'");
        c.format = *f;
    }
    d.read(j, "games", path, c.games, 1, kMaxGames, req);
    d.read(j, "concurrency", path, c.concurrency, 1, kMaxConcurrency, req);
    text = std::string(tempoName(c.tempo));
    d.read(j, "tempo", path, text, req);
    if (!d.failed()) {
        const auto t = parseTempo(text);
        if (!t) return d.fail(JsonDecoder::join(path, "tempo"), "expected \"max-speed\" or \"ticker\"");
        c.tempo = *t;
    }
    d.read(j, "tickerSeconds", path, c.tickerSeconds, 1, kMaxTickerSeconds, req);
    d.read(j, "chess960", path, c.chess960, req);
    text = std::string(play::arenaPairingName(c.pairing)); // bundle v3; absent = nearest
    d.read(j, "pairing", path, text, false);
    if (!d.failed()) {
        const auto pairing = play::parseArenaPairing(text);
        if (!pairing) return d.fail(JsonDecoder::join(path, "pairing"), "expected \"nearest\" or \"informative\"");
        c.pairing = *pairing;
    }
    text = contextPolicyName(c.contextPolicy); // bundle v3; absent = full
    d.read(j, "contextPolicy", path, text, false);
    if (!d.failed()) {
        const auto policy = parseContextPolicy(text);
        if (!policy) return d.fail(JsonDecoder::join(path, "contextPolicy"), kPolicyNames);
        c.contextPolicy = *policy;
    }
    // Bundle v5: the windowed policy's N (a bundle with a windowed player says it; a config file
    // may leave it to the default) and the per-game token budget (absent or null: none).
    const bool windowed = c.contextPolicy == ContextPolicy::Windowed ||
                          std::any_of(c.contextOverrides.begin(), c.contextOverrides.end(),
                                      [](const auto& o) { return o == ContextPolicy::Windowed; });
    d.read(j, "contextWindowMoves", path, c.contextWindowMoves, 1, kMaxContextWindowMoves, req && windowed);
    if (d.member(j, "gameTokenBudget", path, false)) {
        long long tokens = 0;
        d.read(j, "gameTokenBudget", path, tokens, 1, kMaxGameTokenBudget);
        c.gameTokenBudget = tokens;
    }
    if (const json* list = d.array(j, "openings", path, false)) {
        for (size_t i = 0; i < list->size() && !d.failed(); ++i) {
            const std::string p = JsonDecoder::join(path, "openings") + "[" + std::to_string(i) + "]";
            const json& e = (*list)[i];
            if (!e.is_object()) return d.fail(p, "expected an object");
            Opening o;
            d.read(e, "name", p, o.name, false);
            d.read(e, "fen", p, o.fen, false);
            if (const json* moves = d.array(e, "moves", p, false))
                for (size_t m = 0; m < moves->size(); ++m) {
                    if (!(*moves)[m].is_string())
                        return d.fail(p + ".moves[" + std::to_string(m) + "]", "expected a string");
                    o.moves.push_back((*moves)[m].get<std::string>());
                }
            c.openings.push_back(o);
        }
    }
    double budget = 0;
    if (d.member(j, "budgetUsd", path, false)) {
        d.read(j, "budgetUsd", path, budget);
        c.budgetUsd = budget;
    }
    d.read(j, "seed", path, c.seed, req);
    d.read(j, "gauntletPlayer", path, c.gauntletPlayer, 0, 1000, req);
    d.read(j, "maxPlies", path, c.maxPlies, 1, kMaxPlies, req);
    // Version 6; absent or null: not said (the settings of whoever runs it).
    if (const json* calls = d.member(j, "calls", path, false)) {
        ModelCalls m;
        decodeCalls(d, *calls, JsonDecoder::join(path, "calls"), m);
        c.calls = m;
    }
    if (d.failed()) return;
    if (auto error = validateConfig(c)) d.fail(path, *error);
}

// Result and termination must tell the same story.
std::optional<std::string> resultMismatch(GameResult r, Termination t) {
    const bool unfinished = t == Termination::Unfinished;
    const bool decisive = t == Termination::Checkmate || isForfeit(t);
    if (unfinished != (r == GameResult::Unfinished) || (decisive && r == GameResult::Draw) ||
        (!decisive && !unfinished && r != GameResult::Draw))
        return "result " + std::string(resultText(r)) + " does not fit termination " +
               std::string(terminationName(t));
    return std::nullopt;
}

void decodeGame(JsonDecoder& d, const json& j, const std::string& path, const TournamentConfig& c,
                GameRecord& g) {
    if (!j.is_object()) return d.fail(path, "expected an object");
    const int last = int(c.participants.size()) - 1;
    d.read(j, "id", path, g.pairing.id, 0, 1000000);
    d.read(j, "white", path, g.pairing.white, 0, last);
    d.read(j, "black", path, g.pairing.black, 0, last);
    d.read(j, "round", path, g.pairing.round, 0, 1000000);
    d.read(j, "chess960Position", path, g.pairing.seededStart, -1, 959);
    d.read(j, "opening", path, g.pairing.opening, -1, int(c.openings.size()) - 1);
    d.read(j, "startFen", path, g.startFen);
    std::string text;
    d.read(j, "result", path, text);
    if (d.failed()) return;
    if (g.pairing.white == g.pairing.black) return d.fail(path, "a player cannot play itself");
    const auto result = parseResultText(text);
    if (!result) return d.fail(path + ".result", "expected \"1-0\", \"0-1\", \"1/2-1/2\" or \"*\"");
    g.result = *result;
    d.read(j, "termination", path, text);
    if (d.failed()) return;
    const auto termination = parseTermination(text);
    if (!termination)
        return d.fail(path + ".termination", "unknown termination '" + text.substr(0, 40) + "'");
    g.termination = *termination;
    if (auto mismatch = resultMismatch(g.result, g.termination)) return d.fail(path, *mismatch);
    d.read(j, "detail", path, g.detail, false);
    // Version 6; absent or null: not known.
    for (auto [key, out] : {std::pair{"startedAt", &g.startedAt}, std::pair{"finishedAt", &g.finishedAt}}) {
        std::string when;
        if (!d.member(j, key, path, false)) continue;
        d.read(j, key, path, when);
        if (d.failed()) return;
        const std::optional<int64_t> t = parseUtcIsoTime(when);
        if (!t || *t <= 0) return d.fail(JsonDecoder::join(path, key), "expected a UTC time like 2025-03-01T12:00:00Z");
        *out = *t;
    }
    if (g.finishedAt > 0 && g.startedAt > g.finishedAt)
        return d.fail(JsonDecoder::join(path, "finishedAt"), "is before startedAt");
    if (const json* moves = d.array(j, "moves", path)) {
        for (size_t m = 0; m < moves->size() && !d.failed(); ++m) {
            TurnRecord t;
            decodeTurn(d, (*moves)[m], path + ".moves[" + std::to_string(m) + "]", t);
            g.moves.push_back(std::move(t));
        }
    }
    if (const json* open = d.member(j, "openTurn", path, false)) {
        TurnRecord t;
        decodeTurn(d, *open, path + ".openTurn", t);
        g.openTurn = t;
    }
    if (d.failed()) return;
    // The moves must be legal from the start position (UCI castling as the game's mode writes it).
    std::vector<std::string> ucis;
    for (const TurnRecord& t : g.moves) ucis.push_back(t.uci);
    int bad = -1;
    const Parsed<std::string> end = playUciMoves(g.startFen, ucis, g.pairing.seededStart >= 0, &bad);
    if (!end.ok() && bad < 0) return d.fail(path + ".startFen", end.error);
    if (!end.ok())
        return d.fail(path + ".moves[" + std::to_string(bad) + "].uci",
                      "'" + g.moves[size_t(bad)].uci.substr(0, 16) + "' is not a legal move");
}

void decodeRow(JsonDecoder& d, const json& j, const std::string& path, int players, LeaderboardRow& r) {
    if (!j.is_object()) return d.fail(path, "expected an object");
    d.read(j, "participant", path, r.participant, 0, players - 1);
    d.read(j, "rank", path, r.rank, 0, players); // 0: no game yet (unranked, listed last)
    d.read(j, "rating", path, r.rating);
    d.read(j, "ratingLow", path, r.ratingLow);
    d.read(j, "ratingHigh", path, r.ratingHigh);
    d.read(j, "anchored", path, r.anchored);
    d.read(j, "elo", path, r.elo);
    d.read(j, "games", path, r.games, 0, kMaxCount);
    d.read(j, "wins", path, r.wins, 0, kMaxCount);
    d.read(j, "draws", path, r.draws, 0, kMaxCount);
    d.read(j, "losses", path, r.losses, 0, kMaxCount);
    d.read(j, "forfeits", path, r.forfeits, 0, kMaxCount);
    d.read(j, "moves", path, r.moves, 0, kMaxCount);
    d.read(j, "turns", path, r.turns, 0, kMaxCount);
    d.read(j, "illegalAttempts", path, r.illegalAttempts, 0, kMaxCount);
    d.read(j, "illegalPer100Moves", path, r.illegalPer100Moves);
    d.read(j, "costUsd", path, r.costUsd);
    d.read(j, "avgCostPerGame", path, r.avgCostPerGame);
    d.read(j, "tokens", path, r.tokens, 0, std::numeric_limits<long long>::max());
    d.read(j, "avgTokensPerMove", path, r.avgTokensPerMove);
    // Version 3 (absent before: no analysed moves).
    d.read(j, "analysedMoves", path, r.analysedMoves, 0, kMaxCount, false);
    d.read(j, "avgCpLoss", path, r.avgCpLoss, false);
    d.read(j, "blunders", path, r.blunders, 0, kMaxCount, false);
    d.read(j, "blundersPer100Moves", path, r.blundersPer100Moves, false);
    d.read(j, "contextPolicy", path, r.contextPolicy, false);
    d.read(j, "gamesToPlusMinus50", path, r.gamesToPlusMinus50, -1, kMaxCount, false);
}

// One game as the bundle stores it; nothing when a cost is not a number.
std::optional<json> gameObject(const GameRecord& g, std::string_view apiKey, TurnLayout layout = TurnLayout::Named) {
    json moves = json::array();
    for (const TurnRecord& t : g.moves) {
        if (!finite(t)) return std::nullopt;
        moves.push_back(turnOf(t, apiKey, layout));
    }
    json e{{"id", g.pairing.id},
           {"white", g.pairing.white},
           {"black", g.pairing.black},
           {"round", g.pairing.round},
           {"chess960Position", g.pairing.seededStart},
           {"opening", g.pairing.opening},
           {"startFen", g.startFen},
           {"result", resultText(g.result)},
           {"termination", terminationName(g.termination)},
           {"detail", redactSecrets(g.detail, apiKey)},
           {"moves", moves}};
    // Version 6, when known (absent: not known; the page's store keeps many games).
    if (g.startedAt > 0) e["startedAt"] = utcIsoTime(g.startedAt);
    if (g.finishedAt > 0) e["finishedAt"] = utcIsoTime(g.finishedAt);
    if (g.openTurn) {
        if (!finite(*g.openTurn)) return std::nullopt;
        e["openTurn"] = turnOf(*g.openTurn, apiKey, layout);
    }
    return e;
}

} // namespace

Parsed<std::string> gameJsonLine(const GameRecord& game, std::string_view apiKey, TurnLayout layout) {
    std::optional<json> e = gameObject(game, apiKey, layout);
    if (!e) return Parsed<std::string>::fail("game #" + std::to_string(game.pairing.id) + ": a cost is not a number");
    std::string text = e->dump(-1, ' ', false, json::error_handler_t::replace);
    if (!apiKey.empty() && text.find(apiKey) != std::string::npos)
        return Parsed<std::string>::fail("the game would contain the API key; not written");
    return {std::move(text), {}};
}

Parsed<std::string> turnJsonLine(const TurnRecord& turn, std::string_view apiKey, TurnLayout layout) {
    if (!finite(turn)) return Parsed<std::string>::fail("a move's cost is not a number");
    std::string text = turnOf(turn, apiKey, layout).dump(-1, ' ', false, json::error_handler_t::replace);
    if (!apiKey.empty() && text.find(apiKey) != std::string::npos)
        return Parsed<std::string>::fail("the move would contain the API key; not written");
    return {std::move(text), {}};
}

Parsed<GameRecord> decodeGameJson(std::string_view text, const TournamentConfig& config,
                                  const std::vector<std::string>& extraMoves) {
    json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded()) return Parsed<GameRecord>::fail("not a JSON document");
    if (!extraMoves.empty()) {
        if (!doc.is_object() || !doc.contains("moves") || !doc["moves"].is_array())
            return Parsed<GameRecord>::fail("game.moves: expected an array");
        for (size_t i = 0; i < extraMoves.size(); ++i) {
            json turn = json::parse(extraMoves[i], nullptr, false);
            if (turn.is_discarded())
                return Parsed<GameRecord>::fail("game.moves[" + std::to_string(doc["moves"].size()) +
                                                "]: not a JSON document");
            doc["moves"].push_back(std::move(turn));
        }
    }
    JsonDecoder d;
    GameRecord g;
    if (!d.refuseKeyFields(doc, "game")) decodeGame(d, doc, "game", config, g);
    if (d.failed()) return Parsed<GameRecord>::fail(d.error());
    return {std::move(g), {}};
}

json configObject(const TournamentConfig& c) {
    json participants = json::array();
    for (const Participant& p : c.participants) {
        json e{{"spec", p.spec}, {"name", p.name}};
        e["anchorElo"] = p.anchorElo >= 0 ? json(p.anchorElo) : json(nullptr);
        const std::size_t index = participants.size();
        if (index < c.contextOverrides.size() && c.contextOverrides[index])
            e["contextPolicy"] = contextPolicyName(*c.contextOverrides[index]);
        participants.push_back(e);
    }
    json openings = json::array();
    for (const Opening& o : c.openings)
        openings.push_back(json{{"name", o.name}, {"fen", o.fen}, {"moves", o.moves}});
    json config{{"name", c.name},
                {"participants", participants},
                {"format", formatName(c.format)},
                {"games", c.games},
                {"concurrency", c.concurrency},
                {"tempo", tempoName(c.tempo)},
                {"tickerSeconds", c.tickerSeconds},
                {"chess960", c.chess960},
                {"openings", openings},
                {"seed", c.seed},
                {"gauntletPlayer", c.gauntletPlayer},
                {"maxPlies", c.maxPlies},
                {"contextPolicy", contextPolicyName(c.contextPolicy)},
                {"contextWindowMoves", c.contextWindowMoves},
                {"pairing", play::arenaPairingName(c.pairing)}};
    config["budgetUsd"] = c.budgetUsd ? json(*c.budgetUsd) : json(nullptr);
    config["gameTokenBudget"] = c.gameTokenBudget ? json(*c.gameTokenBudget) : json(nullptr);
    config["calls"] = c.calls ? callsObject(*c.calls) : json(nullptr);

    return config;
}

// Game i of the bundle whole (bundle_detail.h).
Parsed<const GameRecord*> wholeGame(const TournamentBundle& bundle, size_t i, const WholeRecordSource& whole,
                                    GameRecord& storage) {
    const GameRecord& g = bundle.games[i];
    if (!g.isFolded()) return {&g, {}};
    Parsed<GameRecord> read = readBackWhole(g, whole);
    if (!read.ok())
        return Parsed<const GameRecord*>::fail("games[" + std::to_string(i) + "] (#" + std::to_string(g.pairing.id) +
                                               "): " + read.error);
    storage = std::move(*read.value);
    return {&storage, {}};
}

std::optional<std::string> exportBundlePieces(const TournamentBundle& bundle, std::string_view apiKey,
                                              const std::function<bool(std::string_view)>& write,
                                              const WholeRecordSource& whole) {
    const TournamentConfig& c = bundle.config;
    if (auto error = validateConfig(c)) return "config: " + *error;
    if (auto problem = harnessProblem(bundle.harness))
        return "harness." + std::string(problem->first) + ": " + problem->second;
    const json config = configObject(c);
    const Leaderboard board =
        bundle.leaderboard ? *bundle.leaderboard : computeLeaderboard(c, bundle.games, bundle.ratingOptions);
    json rows = json::array();
    for (const LeaderboardRow& r : board.rows) rows.push_back(rowJson(r));
    const LeaderboardOptions& o = bundle.ratingOptions;
    json doc = play::envelopeJson({std::string(kBundleFormat), kBundleVersion, std::string(kBundleMode)});
    doc.update(json{
        {"config", config},
        {"ratingOptions",
         {{"excludeForfeits", o.excludeForfeits},
          {"bootstrapSamples", o.bootstrapSamples},
          {"seed", o.seed},
          {"virtualDraws", o.virtualDraws}}},
        {"games", json::array()},
        {"leaderboard",
         {{"gamesRated", board.gamesRated}, {"gamesUnfinished", board.gamesUnfinished}, {"rows", rows}}},
        {"harness", harnessObject(bundle.harness, c, bundle.games)}});
    const std::string text = doc.dump(2, ' ', false, json::error_handler_t::replace);
    constexpr std::string_view kSlot = "\n  \"games\": []";
    const size_t at = text.find(kSlot);
    if (at == std::string::npos) return "the bundle has no place for its games";
    constexpr std::string_view kKeyFound = "the bundle would contain the API key; not exported";
    auto hasKey = [&](std::string_view piece) { return !apiKey.empty() && piece.find(apiKey) != std::string_view::npos; };
    if (hasKey(text)) return std::string(kKeyFound);
    auto put = [&](std::string_view piece) -> std::optional<std::string> {
        if (!write(piece)) return std::string("the bundle could not be written");
        return std::nullopt;
    };
    if (auto e = put(std::string_view(text).substr(0, at + kSlot.size() - 2))) return e;
    // The games one at a time (a document of every game at once costs ~10x the text in memory:
    // ~1 GB for 2000 long games), indented as the whole document would be.
    std::string one;
    std::string piece;
    GameRecord readBack;
    for (size_t i = 0; i < bundle.games.size(); ++i) {
        Parsed<const GameRecord*> game = wholeGame(bundle, i, whole, readBack);
        if (!game.ok()) return game.error;
        std::optional<json> e = gameObject(**game.value, apiKey);
        if (!e) return "games[" + std::to_string(i) + "]: a cost is not a number";
        one = e->dump(2, ' ', false, json::error_handler_t::replace);
        piece = i == 0 ? "[\n    " : ",\n    ";
        for (char ch : one) {
            piece.push_back(ch);
            if (ch == '\n') piece += "    ";
        }
        if (hasKey(piece)) return std::string(kKeyFound);
        if (auto error = put(piece)) return error;
    }
    if (auto e = put(bundle.games.empty() ? "[]" : "\n  ]")) return e;
    return put(std::string_view(text).substr(at + kSlot.size()));
}

Parsed<std::string> exportBundle(const TournamentBundle& bundle, std::string_view apiKey) {
    std::string text;
    if (auto error = exportBundlePieces(bundle, apiKey, [&](std::string_view piece) {
            text += piece;
            return true;
        }))
        return Parsed<std::string>::fail(*error);
    return {std::move(text), {}};
}

Parsed<TournamentConfig> parseConfigJson(std::string_view text) {
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded()) return Parsed<TournamentConfig>::fail("not a JSON document");
    if (!doc.is_object()) return Parsed<TournamentConfig>::fail("expected a JSON object at the top");
    JsonDecoder d;
    TournamentConfig config;
    decodeConfig(d, doc, config, "", false);
    if (d.failed()) return Parsed<TournamentConfig>::fail(d.error());
    return {std::move(config), {}};
}

Parsed<std::string> configJson(const TournamentConfig& config, bool oneLine) {
    if (auto error = validateConfig(config)) return Parsed<std::string>::fail(*error);
    return {configObject(config).dump(oneLine ? -1 : 2, ' ', false, json::error_handler_t::replace), {}};
}

Parsed<TournamentBundle> importBundle(std::string_view text) {
    play::EnvelopeRule rule;
    rule.format = kBundleFormat;
    rule.description = "a CHAIBA tournament bundle";
    rule.minVersion = 1;
    rule.maxVersion = kBundleVersion;
    rule.mode = kBundleMode;
    rule.modeSince = 2;
    Parsed<play::OpenedBundle> opened = play::openBundle(text, rule);
    if (!opened.ok()) return Parsed<TournamentBundle>::fail(opened.error);
    const json& doc = opened.value->doc;
    JsonDecoder d;

    TournamentBundle bundle;
    if (const json* config = d.object(doc, "config", ""))
        decodeConfig(d, *config, bundle.config, "config", true);
    if (const json* o = d.object(doc, "ratingOptions", "")) {
        d.read(*o, "excludeForfeits", "ratingOptions", bundle.ratingOptions.excludeForfeits);
        d.read(*o, "bootstrapSamples", "ratingOptions", bundle.ratingOptions.bootstrapSamples, 0, 100000);
        d.read(*o, "seed", "ratingOptions", bundle.ratingOptions.seed);
        d.read(*o, "virtualDraws", "ratingOptions", bundle.ratingOptions.virtualDraws);
        if (!d.failed() && bundle.ratingOptions.virtualDraws < 0)
            d.fail("ratingOptions.virtualDraws", "cannot be negative");
    }
    if (d.failed()) return Parsed<TournamentBundle>::fail(d.error());
    // Version 4 writes how the tournament was run (checked against the config read above); older
    // bundles did not say, and load with it unknown (a "harness" there is not theirs: ignored).
    if (opened.value->envelope.version >= 4)
        if (const json* harness = d.member(doc, "harness", ""))
            decodeHarness(d, *harness, bundle.config, bundle.harness);
    if (d.failed()) return Parsed<TournamentBundle>::fail(d.error());

    std::set<int> ids;
    if (const json* games = d.array(doc, "games", "")) {
        for (size_t i = 0; i < games->size() && !d.failed(); ++i) {
            const std::string path = "games[" + std::to_string(i) + "]";
            GameRecord g;
            decodeGame(d, (*games)[i], path, bundle.config, g);
            if (!d.failed() && !ids.insert(g.pairing.id).second)
                d.fail(path + ".id", "repeats an earlier game's id");
            bundle.games.push_back(std::move(g));
        }
    }
    if (const json* board = d.object(doc, "leaderboard", "", false)) {
        Leaderboard lb;
        const int players = int(bundle.config.participants.size());
        d.read(*board, "gamesRated", "leaderboard", lb.gamesRated, 0, kMaxCount);
        d.read(*board, "gamesUnfinished", "leaderboard", lb.gamesUnfinished, 0, kMaxCount);
        if (const json* rows = d.array(*board, "rows", "leaderboard"))
            for (size_t i = 0; i < rows->size() && !d.failed(); ++i) {
                LeaderboardRow r;
                decodeRow(d, (*rows)[i], "leaderboard.rows[" + std::to_string(i) + "]", players, r);
                lb.rows.push_back(r);
            }
        bundle.leaderboard = lb;
    }
    if (d.failed()) return Parsed<TournamentBundle>::fail(d.error());
    return {std::move(bundle), {}};
}

bool sameLeaderboard(const Leaderboard& a, const Leaderboard& b, double toleranceElo) {
    if (a.gamesRated != b.gamesRated || a.gamesUnfinished != b.gamesUnfinished ||
        a.rows.size() != b.rows.size())
        return false;
    auto close = [&](double x, double y) { return std::abs(x - y) <= toleranceElo; };
    for (size_t i = 0; i < a.rows.size(); ++i) {
        LeaderboardRow x = a.rows[i];
        LeaderboardRow y = b.rows[i];
        if (!close(x.rating, y.rating) || !close(x.ratingLow, y.ratingLow) ||
            !close(x.ratingHigh, y.ratingHigh) || !close(x.elo, y.elo))
            return false;
        x.rating = y.rating;
        x.ratingLow = y.ratingLow;
        x.ratingHigh = y.ratingHigh;
        x.elo = y.elo;
        // Derived from the interval's width, which is compared within the tolerance above: one
        // game more or less at a rounding boundary is the same leaderboard.
        if (std::abs(x.gamesToPlusMinus50 - y.gamesToPlusMinus50) > 1) return false;
        x.gamesToPlusMinus50 = y.gamesToPlusMinus50;
        // Money is summed in an order that changed between versions (turn by turn, now game by
        // game): equal within a billionth of the amount, not to the last bit.
        auto sameMoney = [](double u, double v) { return std::abs(u - v) <= 1e-9 * std::max({1.0, std::abs(u), std::abs(v)}); };
        if (!sameMoney(x.costUsd, y.costUsd) || !sameMoney(x.avgCostPerGame, y.avgCostPerGame)) return false;
        x.costUsd = y.costUsd;
        x.avgCostPerGame = y.avgCostPerGame;
        if (!(x == y)) return false;
    }
    return true;
}

} // namespace chaiba::chessmode
