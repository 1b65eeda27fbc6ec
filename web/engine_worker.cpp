// The built-in engine as a Web Worker (a second, small WASM module built with BUILD_AS_WORKER), so
// the page never freezes while a level thinks. Request (text, one field per line):
//   id, start FEN, "960" or "std", level, seed, UCI moves separated by spaces.
// Reply: "id ok <uci> <score> <depth> <nodes> [<pv uci> ...]" or "id error <message>".
#include "engine/chess/game.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "engine/search/levels.h"
#include "engine/search/player.h"

#include <emscripten.h>

#include <charconv>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::unique_ptr<chaiba::search::Searcher> gSearcher;

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
