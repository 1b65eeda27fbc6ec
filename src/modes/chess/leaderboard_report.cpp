// The methods card, the CSV and the standalone HTML report of a leaderboard (leaderboard_report.h).
#include "src/modes/chess/leaderboard_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace chaiba::chessmode {

namespace {

std::string fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

const char* kindOf(const Participant& p) {
    const auto spec = parsePlayerSpec(p.spec);
    if (!spec.ok()) return "unknown";
    switch (spec.value->kind) {
    case PlayerSpec::Kind::Model: return "model";
    case PlayerSpec::Kind::Engine: return "engine";
    default: return "random"; // the chess grammar has no bots or people
    }
}

std::string nameOf(const LeaderboardReport& r, int participant) {
    if (participant >= 0 && size_t(participant) < r.names.size()) return r.names[size_t(participant)];
    return r.config->participants[size_t(participant)].displayName();
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + '"';
}

std::string html(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

// The rating plot's colours, the page's series colours in the same order (src/ui/rating_plot.cpp).
constexpr const char* kColours[12] = {"#1f77d2", "#e67014", "#28a046", "#d6323c", "#965ac8", "#00a0aa",
                                      "#c83ca0", "#966e3c", "#bea000", "#5a7896", "#78aa1e", "#f05a82"};

const char* formatText(Format f) {
    switch (f) {
    case Format::Arena: return "continuous arena";
    case Format::RoundRobin: return "round robin";
    case Format::DoubleRoundRobin: return "double round robin";
    case Format::Gauntlet: return "gauntlet";
    }
    return "";
}

// The rating plot: a line per player over the rated games, anchors dashed, each player's final 95%
// interval as a bar at the right edge.
std::string ratingSvg(const LeaderboardReport& r) {
    const int players = int(r.config->participants.size());
    double lo = 1e9, hi = -1e9;
    for (const auto& point : r.history)
        for (double v : point) lo = std::min(lo, v), hi = std::max(hi, v);
    for (const LeaderboardRow& row : r.board->rows)
        if (row.games > 0) lo = std::min(lo, row.ratingLow), hi = std::max(hi, row.ratingHigh);
    if (r.history.empty() || lo > hi) return "<p>No rated game yet: no rating plot.</p>\n";
    lo = std::floor(lo / 100) * 100;
    hi = std::ceil(hi / 100) * 100;
    if (hi - lo < 200) hi = lo + 200;
    const double W = 760, H = 340, left = 52, right = 40, top = 12, bottom = 30;
    const double n = double(std::max<size_t>(1, r.history.size() - 1));
    auto x = [&](double k) { return left + (W - left - right) * k / n; };
    auto y = [&](double v) { return top + (H - top - bottom) * (hi - v) / (hi - lo); };
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 760 340\" width=\"760\" height=\"340\" "
                    "role=\"img\" aria-label=\"Ratings over the rated games\">\n";
    for (double v = lo; v <= hi + 1e-9; v += 100) {
        s += "<line x1=\"" + fixed(left, 0) + "\" x2=\"" + fixed(W - right, 0) + "\" y1=\"" + fixed(y(v), 1) + "\" y2=\"" +
             fixed(y(v), 1) + "\" stroke=\"#ddd\"/>";
        s += "<text x=\"" + fixed(left - 6, 0) + "\" y=\"" + fixed(y(v) + 4, 1) + "\" text-anchor=\"end\" font-size=\"11\">" +
             fixed(v, 0) + "</text>\n";
    }
    s += "<text x=\"" + fixed(W / 2, 0) + "\" y=\"" + fixed(H - 6, 0) +
         "\" text-anchor=\"middle\" font-size=\"11\">rated games (finish order)</text>\n";
    for (int p = 0; p < players; ++p) {
        const char* colour = kColours[p % 12];
        std::string points;
        for (size_t k = 0; k < r.history.size(); ++k)
            if (size_t(p) < r.history[k].size())
                points += fixed(x(double(k)), 1) + "," + fixed(y(r.history[k][size_t(p)]), 1) + " ";
        const bool anchored = r.config->participants[size_t(p)].anchorElo >= 0;
        s += "<polyline fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"2\"" +
             (anchored ? " stroke-dasharray=\"6 4\"" : "") + " points=\"" + points + "\"><title>" +
             html(nameOf(r, p)) + "</title></polyline>\n";
    }
    for (const LeaderboardRow& row : r.board->rows) {
        if (row.games == 0 || row.anchored) continue;
        const double bx = W - right + 8 + 4 * (row.participant % 6);
        s += "<line x1=\"" + fixed(bx, 1) + "\" x2=\"" + fixed(bx, 1) + "\" y1=\"" + fixed(y(row.ratingHigh), 1) + "\" y2=\"" +
             fixed(y(row.ratingLow), 1) + "\" stroke=\"" + kColours[row.participant % 12] + "\" stroke-width=\"3\"><title>" +
             html(nameOf(r, row.participant)) + ": 95% interval " + fixed(row.ratingLow, 0) + "\xE2\x80\x93" +
             fixed(row.ratingHigh, 0) + "</title></line>\n";
    }
    return s + "</svg>\n";
}

} // namespace

std::vector<std::string> methodsLines(const LeaderboardReport& r) {
    const TournamentConfig& c = *r.config;
    std::vector<std::string> lines;
    lines.push_back("Ratings: a Bradley\xE2\x80\x93Terry maximum-likelihood fit on the Elo scale, P(A beats B) = 1 / (1 + "
                    "10^((R_B \xE2\x88\x92 R_A) / 400)); a draw counts as half a win for each side; no first-move advantage.");
    std::string anchors;
    double anchorSum = 0;
    int anchorCount = 0;
    for (size_t i = 0; i < c.participants.size(); ++i) {
        if (c.participants[i].anchorElo < 0) continue;
        anchors += (anchors.empty() ? "" : ", ") + nameOf(r, int(i)) + " at " + fixed(c.participants[i].anchorElo, 0);
        anchorSum += c.participants[i].anchorElo;
        ++anchorCount;
    }
    const double centre = anchorCount ? anchorSum / anchorCount : 1500;
    const bool whole = r.options.virtualDraws == std::floor(r.options.virtualDraws);
    lines.push_back("Prior: every player also has " + fixed(r.options.virtualDraws, whole ? 0 : 2) +
                    (r.options.virtualDraws == 1 ? " drawn game" : " drawn games") + " against a virtual opponent at the centre of the scale (" + fixed(centre, 0) +
                    "): a perfect or empty record stays finite, and players who never met are tied to the centre.");
    if (anchorCount)
        lines.push_back("Anchors: " + anchors +
                        " (built-in engine levels, fixed at the ratings calibrated against Debian's stockfish at its "
                        "UCI_Elo settings; the README's \"Built-in engine levels\" gives the method). The other players are "
                        "fitted around them, marked * where fixed.");
    else
        lines.push_back("Unanchored: no calibrated engine level played, so the mean rating is 1500 and the ratings compare "
                        "the players of this tournament only.");
    lines.push_back("Intervals: the central 95% of " + std::to_string(r.options.bootstrapSamples) +
                    " bootstrap refits (the games resampled per pair with seed " + std::to_string(r.options.seed) +
                    "), so the same games give the same intervals; \"to \xC2\xB1" "50\" is about how many more games bring "
                    "a player's interval under \xC2\xB1" "50.");
    lines.push_back("Live Elo (its own view, not the ranking): start 1500, K = 32, updated game by game in finish order.");
    if (r.judgeNodes > 0)
        lines.push_back("Move quality: each position scored by the built-in engine at " + std::to_string(r.judgeNodes / 1000) +
                        "k nodes (deterministic); a move is ?! / ? / ?? when the mover's winning chances (lichess's win% of "
                        "the centipawn score) drop by 5 / 10 / 15 points, and one that allows a mate is a blunder unless the "
                        "mover already stood below \xE2\x88\x92" "7 (lichess's rules). ACPL: the mean centipawn loss a move.");
    const bool models = std::any_of(c.participants.begin(), c.participants.end(),
                                    [](const Participant& p) { return std::string_view(kindOf(p)) == "model"; });
    const char* unit = c.format == Format::Arena ? (c.games == 1 ? " game" : " games")
                                                 : (c.games == 1 ? " meeting per pair" : " meetings per pair");
    std::string harness = "Harness: " + std::string(formatText(c.format)) + ", " + std::to_string(c.games) + unit + "; " +
                          (models ? "models sent " + contextPolicyLabel(c.contextPolicy, c.contextWindowMoves) + " context; " : "") +
                          "games over " + std::to_string(c.maxPlies) + " plies adjudicated drawn; forfeit games " +
                          (r.options.excludeForfeits ? "left out of the ratings" : "counted as losses") + "; " +
                          std::to_string(r.board->gamesRated) + (r.board->gamesRated == 1 ? " game" : " games") + " rated.";
    lines.push_back(harness);
    return lines;
}

std::string leaderboardCsv(const LeaderboardReport& r) {
    std::string out = "rank,player,kind,rating,low,high,anchored,games,wins,draws,losses,forfeits,acpl,blunders_per_100,"
                      "illegal_per_100,cost_usd,cost_per_game_usd,tokens_per_move,context\n";
    for (const LeaderboardRow& row : r.board->rows) {
        const Participant& p = r.config->participants[size_t(row.participant)];
        const bool model = std::string_view(kindOf(p)) == "model";
        out += std::to_string(row.rank) + ',' + csvField(nameOf(r, row.participant)) + ',' + kindOf(p) + ',' +
               fixed(row.rating, 1) + ',' + fixed(row.ratingLow, 1) + ',' + fixed(row.ratingHigh, 1) + ',' +
               (row.anchored ? "yes" : "no") + ',' + std::to_string(row.games) + ',' + std::to_string(row.wins) + ',' +
               std::to_string(row.draws) + ',' + std::to_string(row.losses) + ',' + std::to_string(row.forfeits) + ',' +
               (row.analysedMoves > 0 ? fixed(row.avgCpLoss, 1) : "") + ',' +
               (row.analysedMoves > 0 ? fixed(row.blundersPer100Moves, 2) : "") + ',' +
               (model ? fixed(row.illegalPer100Moves, 2) : "") + ',' + (model ? fixed(row.costUsd, 6) : "") + ',' +
               (model ? fixed(row.avgCostPerGame, 6) : "") + ',' + (model ? fixed(row.avgTokensPerMove, 1) : "") + ',' +
               (model ? contextPolicyLabel(contextPolicyOf(*r.config, row.participant), r.config->contextWindowMoves) : "") +
               '\n';
    }
    return out;
}

const char* appVersion() { return CHAIBA_APP_VERSION; }

std::string leaderboardHtml(const LeaderboardReport& r) {
    const TournamentConfig& c = *r.config;
    std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
                    html(c.name) + " \xE2\x80\x94 leaderboard</title>\n<style>\n"
                    "body{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222}\n"
                    "table{border-collapse:collapse;width:100%;font-size:14px}th,td{padding:4px 8px;border-bottom:1px solid #ddd}\n"
                    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}tr:nth-child(even){background:#f6f6f6}\n"
                    ".muted{color:#777}svg{max-width:100%;height:auto}li{margin:.4em 0}\n</style>\n</head>\n<body>\n<h1>" +
                    html(c.name) + "</h1>\n<p class=\"muted\">Chess tournament run with CHAIBA" +
                    (r.appVersion.empty() ? std::string() : " " + html(r.appVersion)) +
                    (r.exportedAt.empty() ? std::string() : "; exported " + html(r.exportedAt)) + "; " +
                    std::to_string(r.board->gamesRated) + " games rated.</p>\n<table>\n<thead><tr><th class=\"n\">#</th>"
                    "<th>Player</th><th class=\"n\">Rating</th><th class=\"n\">95% interval</th><th class=\"n\">Games</th>"
                    "<th class=\"n\">W/D/L</th><th class=\"n\">Forfeits</th><th class=\"n\">ACPL</th>"
                    "<th class=\"n\">Blunders/100</th><th class=\"n\">$/game</th></tr></thead>\n<tbody>\n";
    for (const LeaderboardRow& row : r.board->rows) {
        const Participant& p = r.config->participants[size_t(row.participant)];
        const bool model = std::string_view(kindOf(p)) == "model";
        const bool played = row.games > 0;
        s += "<tr><td class=\"n\">" + (played ? std::to_string(row.rank) : std::string("\xE2\x80\x93")) +
             "</td><td><span style=\"color:" + kColours[row.participant % 12] + "\">&#9632;</span> " +
             html(nameOf(r, row.participant)) + " <span class=\"muted\">" + kindOf(p) + "</span></td><td class=\"n\">" +
             (played ? fixed(row.rating, 0) + (row.anchored ? "*" : "") : "\xE2\x80\x93") + "</td><td class=\"n\">" +
             (played && !row.anchored ? fixed(row.ratingLow, 0) + "\xE2\x80\x93" + fixed(row.ratingHigh, 0) : "") +
             "</td><td class=\"n\">" + std::to_string(row.games) + "</td><td class=\"n\">" + std::to_string(row.wins) + "/" +
             std::to_string(row.draws) + "/" + std::to_string(row.losses) + "</td><td class=\"n\">" +
             std::to_string(row.forfeits) + "</td><td class=\"n\">" +
             (row.analysedMoves > 0 ? fixed(row.avgCpLoss, 0) : "\xE2\x80\x93") + "</td><td class=\"n\">" +
             (row.analysedMoves > 0 ? fixed(row.blundersPer100Moves, 1) : "\xE2\x80\x93") + "</td><td class=\"n\">" +
             (model ? "$" + fixed(row.avgCostPerGame, 4) : "\xE2\x80\x93") + "</td></tr>\n";
    }
    s += "</tbody>\n</table>\n<p class=\"muted\">* anchored: a calibrated engine level, fixed.</p>\n<h2>Ratings over the "
         "tournament</h2>\n" +
         ratingSvg(r) + "<h2>Methods</h2>\n<ul>\n";
    for (const std::string& line : methodsLines(r)) s += "<li>" + html(line) + "</li>\n";
    return s + "</ul>\n</body>\n</html>\n";
}

} // namespace chaiba::chessmode
