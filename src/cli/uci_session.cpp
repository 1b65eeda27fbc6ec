// UCI protocol handling; see uci_session.h. Unknown commands are ignored (as the protocol asks)
// but reported with `info string` so a person typing at the engine sees why nothing happened.
#include "src/cli/uci_session.h"

#include "engine/search/board_glue.h"
#include "engine/search/levels.h"
#include "engine/search/player.h"
#include "src/cli/args.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <istream>
#include <ostream>
#include <sstream>
#include <vector>

namespace chaiba::cli {

namespace {

std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

std::optional<long long> numberAfter(const std::vector<std::string>& w, const std::string& key) {
    for (std::size_t i = 0; i + 1 < w.size(); ++i)
        if (w[i] == key) return parseInteger(w[i + 1]);
    return std::nullopt;
}

std::string scoreText(int score) {
    if (search::isMateScore(score)) return "mate " + std::to_string(search::mateInMoves(score));
    return "cp " + std::to_string(score);
}

// Prints `info` lines for each finished iteration.
class InfoPrinter : public search::SearchObserver {
public:
    InfoPrinter(std::function<void(const std::string&)> sink, const chess::Position& root, bool chess960)
        : sink_(std::move(sink)), root_(root), chess960_(chess960) {}
    void onIteration(const search::SearchInfo& info) override {
        std::string line =
            "info depth " + std::to_string(info.depth) + " seldepth " + std::to_string(info.selDepth) +
            " score " + scoreText(info.score) + " nodes " + std::to_string(info.nodes) + " nps " +
            std::to_string(info.nodes * 1000 / static_cast<uint64_t>(std::max<int64_t>(info.timeMs, 1))) +
            " time " + std::to_string(info.timeMs) + " pv";
        chess::Position p = root_;
        for (const auto& m : info.pv) {
            line += ' ';
            line += search::glue::moveToUci(p, m, chess960_);
            search::glue::makeMove(p, m);
        }
        sink_(line);
    }

private:
    std::function<void(const std::string&)> sink_;
    chess::Position root_;
    bool chess960_;
};

} // namespace

UciSession::UciSession(std::ostream& out)
    : out_(out), position_(search::glue::startPosition()), level_(search::maxLevel()) {}

UciSession::~UciSession() {
    stopSearch();
}

void UciSession::send(const std::string& text) {
    std::lock_guard<std::mutex> lock(outMutex_);
    out_ << text << '\n';
    out_.flush();
}

void UciSession::stopSearch() {
    stop_ = true;
    if (worker_.joinable()) worker_.join();
}

void UciSession::finishSearch() {
    if (infinite_) stop_ = true;
    if (worker_.joinable()) worker_.join();
}

bool UciSession::handleLine(const std::string& line) {
    const auto w = words(line);
    if (w.empty()) return true;
    const std::string& cmd = w[0];
    if (cmd == "uci") {
        send("id name CHAIBA");
        send("id author the CHAIBA authors");
        send("option name Level type spin default " + std::to_string(search::maxLevel()) + " min 0 max " +
             std::to_string(search::maxLevel()));
        send("option name UCI_Chess960 type check default false");
        send("option name Hash type spin default 16 min 1 max 1024");
        send("uciok");
    } else if (cmd == "isready") {
        send("readyok");
    } else if (cmd == "setoption") {
        stopSearch(); // options never change under a running search
        setOption(line);
    } else if (cmd == "ucinewgame") {
        stopSearch();
        searcher_.clear();
        position_ = search::glue::startPosition();
        position_.setChess960(chess960_);
        history_.clear();
    } else if (cmd == "position") {
        stopSearch();
        setPosition(line);
    } else if (cmd == "go") {
        stopSearch();
        go(line);
    } else if (cmd == "stop") {
        stop_ = true;
        if (worker_.joinable()) worker_.join();
    } else if (cmd == "quit") {
        stopSearch();
        return false;
    } else if (cmd == "ponderhit" || cmd == "debug" || cmd == "register") {
        // Accepted and ignored.
    } else {
        send("info string unknown command: " + cmd);
    }
    return true;
}

void UciSession::setOption(const std::string& line) {
    // setoption name <name...> [value <value...>]
    const auto w = words(line);
    std::string name;
    std::string value;
    bool inValue = false;
    for (std::size_t i = 1; i < w.size(); ++i) {
        if (w[i] == "name" && name.empty() && !inValue) continue;
        if (w[i] == "value" && !inValue) {
            inValue = true;
            continue;
        }
        std::string& target = inValue ? value : name;
        if (!target.empty()) target += ' ';
        target += w[i];
    }
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (lower == "level") {
        const auto n = parseInteger(value);
        if (!n || *n < 0 || *n > search::maxLevel()) {
            send("info string error: Level must be 0.." + std::to_string(search::maxLevel()));
            return;
        }
        level_ = static_cast<int>(*n);
    } else if (lower == "uci_chess960") {
        chess960_ = value == "true";
        position_.setChess960(chess960_);
    } else if (lower == "hash") {
        const auto n = parseInteger(value);
        if (!n || *n < 1 || *n > 1024) {
            send("info string error: Hash must be 1..1024 (MB)");
            return;
        }
        stopSearch();
        hashMb_ = static_cast<std::size_t>(*n);
        searcher_.resizeHash(hashMb_);
    } else {
        send("info string unknown option: " + name);
    }
}

void UciSession::setPosition(const std::string& line) {
    const auto w = words(line);
    std::size_t i = 1;
    std::optional<chess::Position> p;
    if (i < w.size() && w[i] == "startpos") {
        p = search::glue::startPosition();
        p->setChess960(chess960_);
        ++i;
    } else if (i < w.size() && w[i] == "fen") {
        std::string fen;
        for (++i; i < w.size() && w[i] != "moves"; ++i) {
            if (!fen.empty()) fen += ' ';
            fen += w[i];
        }
        std::string error;
        p = search::glue::positionFromFen(fen, chess960_, error);
        if (!p) {
            send("info string error: bad FEN: " + error);
            return;
        }
    } else {
        send("info string error: position needs 'startpos' or 'fen'");
        return;
    }
    std::vector<uint64_t> history;
    if (i < w.size() && w[i] == "moves") {
        for (++i; i < w.size(); ++i) {
            const auto m = search::glue::parseUciMove(*p, w[i], chess960_);
            if (!m) {
                send("info string error: illegal move " + w[i] + "; position left before it");
                break;
            }
            history.push_back(p->hash());
            search::glue::makeMove(*p, *m);
        }
    }
    position_ = *p;
    history_ = std::move(history);
}

void UciSession::go(const std::string& line) {
    const auto w = words(line);
    search::SearchLimits limits;
    const bool white = search::glue::sideIndex(position_) == 0;
    if (auto d = numberAfter(w, "depth"))
        limits.maxDepth = static_cast<int>(std::clamp<long long>(*d, 1, search::kMaxPly - 1));
    if (auto n = numberAfter(w, "nodes")) limits.maxNodes = static_cast<uint64_t>(std::max<long long>(*n, 1));
    if (auto t = numberAfter(w, "movetime")) limits.moveTimeMs = std::max<long long>(*t, 1);
    const auto myTime = numberAfter(w, white ? "wtime" : "btime");
    if (myTime) {
        const long long inc = numberAfter(w, white ? "winc" : "binc").value_or(0);
        const long long movesToGo = std::clamp<long long>(numberAfter(w, "movestogo").value_or(30), 1, 60);
        const long long left = std::max<long long>(*myTime - 50, 1); // keep a safety margin
        const long long budget = std::max<long long>(left / movesToGo + inc * 3 / 4, 1);
        limits.softTimeMs = std::min(budget, left);
        limits.moveTimeMs = std::min(budget * 3, std::max<long long>(left / 3, 1));
    }
    infinite_ = std::find(w.begin(), w.end(), "infinite") != w.end();
    // A bare `go` at full strength plays the strongest level's own recipe (its node budget)
    // instead of searching until `stop`.
    const bool noLimits = !limits.maxNodes && !limits.moveTimeMs && !infinite_ &&
                          !numberAfter(w, "depth").has_value();
    stop_ = false;
    limits.stop = &stop_;
    limits.priorPositionHashes = &history_; // not changed while the search runs

    const int level = level_;
    const uint64_t seed = seed_++;
    worker_ = std::thread([this, limits, level, seed, noLimits]() mutable {
        chess::Position pos = position_;
        InfoPrinter printer([this](const std::string& s) { send(s); }, pos, chess960_);
        search::LevelSpec spec = *search::levelSpec(level);
        std::string best = "0000";
        if (level == search::maxLevel()) {
            // Full strength plays by the GUI's clock with the strongest search and the evaluation
            // network (the judge's): no level node cap, the Hash option's table, kept between moves
            // like any UCI engine's. A bare `go` is the top level's recipe: its search and its
            // node budget.
            if (levelResizedHash_) {
                searcher_.resizeHash(hashMb_);
                levelResizedHash_ = false;
            }
            limits.features = noLimits ? spec.searchFeatures : search::kSearchFullStrength;
            if (noLimits) limits.maxNodes = spec.maxNodes;
            const auto r = searcher_.search(pos, limits, &printer);
            if (r.hasMove) best = search::glue::moveToUci(pos, r.bestMove, chess960_);
        } else {
            const auto c = search::chooseMove(pos, spec, seed, limits, &searcher_); // level's table size
            levelResizedHash_ = true;
            if (c.hasMove) best = search::glue::moveToUci(pos, c.move, chess960_);
        }
        // In infinite mode the answer waits for `stop`.
        while (infinite_ && !stop_) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        send("bestmove " + best);
    });
}

int runUci(std::istream& in, std::ostream& out) {
    UciSession session(out);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!session.handleLine(line)) return 0;
    }
    // End of input is `quit`, as in other engines: a running search stops now and answers with
    // its best move so far (a `go depth 999` piped in must not keep the process alive).
    session.handleLine("quit");
    return 0;
}

} // namespace chaiba::cli
