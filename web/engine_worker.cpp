// The built-in engine as a Web Worker (a second, small WASM module built with BUILD_AS_WORKER), so
// the page never freezes while a level thinks. Request (text, one field per line):
//   id, start FEN, "960" or "std", level, seed, UCI moves separated by spaces.
// Reply: "id ok <uci> <score> <depth> <nodes> [<pv uci> ...]" or "id error <message>".
// engine_analyse_position (the arena's move quality) scores one position of a game at a fixed
// budget: id, start FEN, "960" or "std", "maxDepth maxNodes hashMb", UCI moves to the position.
// Reply: "id ok <whiteCp> <mateIn> <terminal 0/1> <depth> <nodes>" or "id error <message>".
// engine_bootstrap_ratings draws the arena's rating intervals: id, then a bootstrap job
// (src/play/rating_job.h). Reply: "id ok" and the job's reply on the next lines, or "id error <why>".
#include "engine/chess/game.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "engine/search/analysis.h"
#include "engine/search/levels.h"
#include "engine/search/player.h"
#include "src/play/rating_job.h"

#include <emscripten.h>

#include <charconv>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::unique_ptr<chaiba::search::Searcher> gSearcher;
// Analysis has its own table (sized by its budget), so a worker lent to an engine later plays
// with the table size the engine expects.
std::unique_ptr<chaiba::search::Searcher> gAnalysisSearcher;

void respond(const std::string& text) {
    emscripten_worker_respond(const_cast<char*>(text.data()), static_cast<int>(text.size()));
}

// " e7e5 g1f3 ..." : the principal variation for the page's thinking line.
std::string pvUci(chaiba::chess::Position position, const std::vector<chaiba::chess::Move>& pv) {
    std::string out;
    for (const chaiba::chess::Move m : pv) {
        out += " " + chaiba::chess::toUci(position, m);
        position.makeMove(m);
    }
    return out;
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

} // namespace

extern "C" EMSCRIPTEN_KEEPALIVE void engine_choose_move(char* data, int size) {
    using namespace chaiba;
    const std::vector<std::string> f = splitLines(std::string(data, static_cast<size_t>(size)));
    const std::string id = f.empty() ? "0" : f[0];
    if (f.size() < 5) return respond(id + " error malformed engine request");
    chess::FenResult start = chess::Position::fromFen(f[1], f[2] == "960");
    if (!start.ok()) return respond(id + " error " + start.error);
    int level = -1;
    std::from_chars(f[3].data(), f[3].data() + f[3].size(), level);
    auto spec = search::levelSpec(level);
    if (!spec) return respond(id + " error unknown engine level " + f[3]);
    uint64_t seed = 0;
    std::from_chars(f[4].data(), f[4].data() + f[4].size(), seed);
    chess::Game game(*start.position);
    std::istringstream moves(f.size() > 5 ? f[5] : "");
    std::string uci;
    while (moves >> uci) {
        chess::MoveResult m = chess::parseUci(game.position(), uci);
        if (!m.ok()) return respond(id + " error " + m.error);
        game.play(m.move);
    }
    if (!gSearcher) gSearcher = std::make_unique<search::Searcher>(16);
    search::MoveChoice choice = search::chooseMove(game, *spec, seed, {}, gSearcher.get());
    if (!choice.hasMove) return respond(id + " error the position has no legal move");
    respond(id + " ok " + chess::toUci(game.position(), choice.move) + " " + std::to_string(choice.score) + " " +
            std::to_string(choice.depth) + " " + std::to_string(choice.nodes) + pvUci(game.position(), choice.pv));
}

extern "C" EMSCRIPTEN_KEEPALIVE void engine_analyse_position(char* data, int size) {
    using namespace chaiba;
    const std::vector<std::string> f = splitLines(std::string(data, static_cast<size_t>(size)));
    const std::string id = f.empty() ? "0" : f[0];
    if (f.size() < 4) return respond(id + " error malformed analysis request");
    chess::FenResult start = chess::Position::fromFen(f[1], f[2] == "960");
    if (!start.ok()) return respond(id + " error " + start.error);
    search::AnalysisBudget budget;
    std::istringstream limits(f[3]);
    unsigned long long nodes = 0;
    unsigned long long hashMb = 0;
    if (!(limits >> budget.maxDepth >> nodes >> hashMb) || budget.maxDepth < 1 || nodes < 1 || hashMb < 1 ||
        hashMb > 256)
        return respond(id + " error malformed analysis budget");
    budget.maxNodes = nodes;
    budget.hashMb = static_cast<std::size_t>(hashMb);
    chess::Position pos = *start.position;
    std::vector<chess::Move> moves;
    std::istringstream list(f.size() > 4 ? f[4] : "");
    std::string uci;
    while (list >> uci) {
        chess::MoveResult m = chess::parseUci(pos, uci);
        if (!m.ok()) return respond(id + " error " + m.error);
        moves.push_back(m.move);
        pos.makeMove(m.move);
    }
    if (!gAnalysisSearcher) gAnalysisSearcher = std::make_unique<search::Searcher>(budget.hashMb);
    const search::PositionEval e = search::evaluateGamePosition(*start.position, moves, budget, *gAnalysisSearcher);
    respond(id + " ok " + std::to_string(e.whiteCp) + " " + std::to_string(e.mateIn) + " " + (e.terminal ? "1" : "0") +
            " " + std::to_string(e.depth) + " " + std::to_string(e.nodes));
}

extern "C" EMSCRIPTEN_KEEPALIVE void engine_bootstrap_ratings(char* data, int size) {
    const std::string_view text(data, static_cast<size_t>(size));
    const size_t newline = text.find('\n');
    const std::string id(text.substr(0, newline == std::string_view::npos ? text.size() : newline));
    if (newline == std::string_view::npos) return respond((id.empty() ? "0" : id) + " error malformed bootstrap request");
    const chaiba::play::BootstrapJobResult result = chaiba::play::runBootstrapJob(text.substr(newline + 1));
    if (!result.error.empty()) return respond(id + " error " + result.error);
    respond(id + " ok\n" + result.reply);
}
