// ArenaFolder: the tournament's log, its snapshots, the lock, and the migration of old folders.
#include "src/cli/arena_folder.h"

#include "src/modes/chess/game_analyser.h"
#include "src/persist/bounded_read.h"
#include "src/persist/json_reader.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <unistd.h>

namespace chaiba::cli {

namespace {

using chessmode::GameRecord;
using chessmode::Parsed;
using chessmode::TournamentConfig;

// The game of a game record's JSON, or why it is dropped (an unfinished game is not a record).
Parsed<GameRecord> decodeGame(std::string_view json, const TournamentConfig& config) {
    Parsed<GameRecord> game = chessmode::decodeGameJson(json, config);
    if (game.ok() && !game.value->finished()) return Parsed<GameRecord>::fail("the game is not finished");
    return game;
}

// The log read back (the chess arena's part of persist::RecordReader): the config, then each
// finished game decoded once as it comes; a game logged again (analysed) replaces its earlier one.
class LogReader final : public persist::RecordReader {
public:
    LogReader(ArenaResume& out, bool foldFinished) : out_(out), foldFinished_(foldFinished) {}
    std::optional<TournamentConfig> header;
    std::optional<std::string> readConfig(const std::string& configJson) override {
        Parsed<TournamentConfig> parsed = chessmode::parseConfigJson(configJson);
        if (!parsed.ok()) return "config: " + parsed.error;
        header = std::move(*parsed.value);
        return std::nullopt;
    }
    Read read(std::string_view record, const std::vector<std::string>&) override {
        pending_.reset();
        Parsed<GameRecord> game = decodeGame(record, *header);
        if (!game.ok()) return {-1, false, game.error};
        pending_ = std::move(*game.value);
        return {pending_->pairing.id, true, {}};
    }
    void keep() override {
        if (!pending_) return;
        if (foldFinished_) chessmode::foldRecord(*pending_);
        const auto [known, added] = gameIndex_.emplace(pending_->pairing.id, out_.games.size());
        if (added) out_.games.push_back(std::move(*pending_));
        else out_.games[known->second] = std::move(*pending_); // the game again, analysed: the latest counts
        pending_.reset();
    }
    const std::map<int, size_t>& gameIndex() const { return gameIndex_; }

private:
    ArenaResume& out_;
    bool foldFinished_;
    std::optional<GameRecord> pending_;
    std::map<int, size_t> gameIndex_; // id -> place in out.games
};

// The --analyse-nodes of the run that wrote a snapshot (see ArenaResume::judgeNodes).
std::optional<long long> judgeNodesOf(const chessmode::TournamentBundle& snapshot) {
    if (snapshot.harness.judgeNodes > 0) return snapshot.harness.judgeNodes;
    if (std::any_of(snapshot.games.begin(), snapshot.games.end(), chessmode::awaitsAnalysis)) return 0;
    return std::nullopt;
}

} // namespace

std::optional<std::string> ArenaFolder::startLog(const TournamentConfig& config,
                                                 const std::vector<GameRecord>& finished) {
    Parsed<std::string> configLine = chessmode::configJson(config, true);
    if (!configLine.ok()) return "config: " + configLine.error;
    std::vector<std::pair<int, std::string>> games;
    for (const GameRecord& g : finished) {
        Parsed<std::string> line = chessmode::gameJsonLine(g, "");
        if (!line.ok()) return line.error;
        games.emplace_back(g.pairing.id, std::move(*line.value));
    }
    config_ = config;
    // (the folder holds an older build's snapshot: nothing is removed, the log is new)
    return run_.create(dir_, kArenaLogMode, *configLine.value, true, {}, games);
}

std::optional<std::string> ArenaFolder::create(const std::string& dir, const TournamentConfig& config,
                                               bool overwrite) {
    dir_ = dir;
    Parsed<std::string> configLine = chessmode::configJson(config, true);
    if (!configLine.ok()) return "config: " + configLine.error;
    config_ = config;
    return run_.create(dir, kArenaLogMode, *configLine.value, overwrite, {kArenaSnapshotName, kArenaPgnName});
}

std::optional<std::string> ArenaFolder::resume(const std::string& dir, ArenaResume& out, bool foldFinished) {
    dir_ = dir;
    if (::access(dir.c_str(), F_OK) != 0) return "no tournament in " + dir + " (the folder does not exist)";
    if (auto busy = run_.lock(dir)) return busy;
    const std::string logPath = dir + "/" + kArenaLogName;
    const std::string snapshotPath = dir + "/" + kArenaSnapshotName;

    // The last snapshot: the unfinished games (their moves so far), and the config of an old folder.
    std::optional<chessmode::TournamentBundle> snapshot;
    std::string snapshotError;
    persist::ReadResult snapshotText = persist::readFileBounded(snapshotPath, persist::kMaxDocumentBytes);
    if (snapshotText.ok()) {
        Parsed<chessmode::TournamentBundle> bundle = chessmode::importBundle(snapshotText.text);
        if (bundle.ok())
            snapshot = std::move(*bundle.value);
        else
            snapshotError = snapshotPath + ": " + bundle.error;
    } else if (!snapshotText.missing) {
        snapshotError = snapshotText.error;
    }

    if (!persist::RunFolder::hasLog(dir)) { // a folder from before the log: migrate its snapshot
        if (!snapshot) {
            if (!snapshotError.empty()) return snapshotError;
            return "no tournament in " + dir + " (neither " + kArenaLogName + " nor " + kArenaSnapshotName + ")";
        }
        out.config = snapshot->config;
        out.judgeNodes = judgeNodesOf(*snapshot);
        std::vector<GameRecord> finished;
        for (GameRecord& g : snapshot->games) (g.finished() ? finished : out.games).push_back(std::move(g));
        if (auto bad = startLog(out.config, finished)) return bad;
        out.notes.push_back("migrated " + snapshotPath + " to the log " + logPath + " (" +
                            std::to_string(finished.size()) + " finished games); finished games are now " +
                            "stored there one by one");
        if (foldFinished)
            for (GameRecord& g : finished) chessmode::foldRecord(g);
        out.games.insert(out.games.begin(), std::make_move_iterator(finished.begin()),
                         std::make_move_iterator(finished.end()));
        return std::nullopt;
    }

    // The log (the run folder's: the manifest, then the finished games in log order) is read a
    // record at a time and each game decoded once as it comes: a long tournament's log is never
    // held whole. A record that does not decode is dropped with a note; a game logged again
    // (analysed) replaces its earlier record.
    LogReader reader(out, foldFinished);
    if (auto bad = run_.resume(dir, kArenaLogMode, reader)) return bad;
    out.config = *reader.header;
    config_ = out.config;
    out.notes.insert(out.notes.end(), run_.notes().begin(), run_.notes().end());
    if (!snapshotError.empty()) out.notes.push_back("ignored " + snapshotError + " (the log holds the finished games)");
    if (snapshot && !(snapshot->config == out.config)) {
        out.notes.push_back("ignored " + snapshotPath + ": its config is not the log's");
        snapshot.reset();
    }

    // The snapshot. The snapshot's games the log does not have: finished ones (a damaged log record)
    // go back into the log; unfinished ones continue from their moves. A game the log has
    // unjudged and the snapshot judged (an older build kept the move quality only there) joins
    // the log judged, so it is not judged again.
    if (snapshot) {
        out.judgeNodes = judgeNodesOf(*snapshot);
        std::vector<GameRecord> unfinished;
        int judgedKept = 0;
        for (GameRecord& g : snapshot->games) {
            if (run_.logged(g.pairing.id)) {
                const auto known = reader.gameIndex().find(g.pairing.id);
                if (known == reader.gameIndex().end() || !g.finished() || !g.analysed() || out.games[known->second].analysed())
                    continue;
                Parsed<GameRecord> inLog = readGame(g);
                if (!inLog.ok() || inLog.value->result != g.result || inLog.value->moves.size() != g.moves.size() ||
                    !std::equal(g.moves.begin(), g.moves.end(), inLog.value->moves.begin(),
                                [](const chessmode::TurnRecord& a, const chessmode::TurnRecord& b) { return a.uci == b.uci; }))
                    continue; // not the same game: the log's stands, and is judged again
                if (auto bad = appendFinished(g, "")) return bad;
                if (foldFinished) chessmode::foldRecord(g);
                out.games[known->second] = std::move(g);
                ++judgedKept;
                continue;
            }
            if (g.finished()) {
                if (auto bad = appendFinished(g, "")) return bad;
                out.notes.push_back("restored game #" + std::to_string(g.pairing.id) + " from " + snapshotPath);
                if (foldFinished) chessmode::foldRecord(g);
                out.games.push_back(std::move(g));
            } else {
                unfinished.push_back(std::move(g));
            }
        }
        for (GameRecord& g : unfinished) out.games.push_back(std::move(g));
        if (judgedKept > 0)
            out.notes.push_back("took the move quality of " + std::to_string(judgedKept) + " game(s) from " +
                                snapshotPath + " into the log (judged before the log kept it)");
    }
    return std::nullopt;
}

std::optional<std::string> ArenaFolder::appendFinished(const GameRecord& game, const std::string& apiKey) {
    Parsed<std::string> line = chessmode::gameJsonLine(game, apiKey);
    if (!line.ok()) return line.error;
    return run_.appendGame(game.pairing.id, *line.value);
}

Parsed<GameRecord> ArenaFolder::readGame(const GameRecord& folded) const {
    const int id = folded.pairing.id;
    if (!run_.logged(id) || !config_)
        return Parsed<GameRecord>::fail("game #" + std::to_string(id) + " is not in " + kArenaLogName);
    std::string json;
    if (auto bad = run_.readGame(id, json)) return Parsed<GameRecord>::fail(*bad);
    Parsed<GameRecord> game = decodeGame(json, *config_);
    if (game.ok() && game.value->pairing.id != id)
        return Parsed<GameRecord>::fail(dir_ + "/" + kArenaLogName + ": the record of game #" + std::to_string(id) +
                                        " holds game #" + std::to_string(game.value->pairing.id));
    return game;
}

std::optional<std::string> ArenaFolder::writeSnapshot(const chessmode::TournamentBundle& bundle,
                                                      const std::string& apiKey) {
    // Written a game at a time, folded games read back one at a time: the text of 10 000 long
    // games would take a gigabyte at once, and so would their records.
    const chessmode::WholeRecordSource whole = [this](const GameRecord& g) { return readGame(g); };
    if (auto bad = persist::writeFileAtomicPieces(dir_ + "/" + kArenaSnapshotName, [&](const persist::PieceWriter& write) {
            std::optional<std::string> refused = chessmode::exportBundlePieces(bundle, apiKey, write, whole);
            if (refused) *refused = "cannot export the bundle: " + *refused;
            return refused;
        }))
        return bad;
    return persist::writeFileAtomicPieces(dir_ + "/" + kArenaPgnName, [&](const persist::PieceWriter& write) {
        std::optional<std::string> refused = chessmode::bundlePgnPieces(bundle, apiKey, write, whole);
        if (refused) *refused = "cannot export the games as PGN: " + *refused;
        return refused;
    });
}

} // namespace chaiba::cli
