// ArenaFolder: the tournament's log, its snapshots, the lock, and the migration of old folders.
#include "src/cli/arena_folder.h"

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

std::string headerRecord(const std::string& configLine) {
    return std::string("{\"format\":\"") + kArenaLogFormat + "\",\"version\":" + std::to_string(kArenaLogVersion) +
           ",\"mode\":\"chess\",\"config\":" + configLine + "}";
}

std::optional<std::string> gameRecordLine(const GameRecord& game, const std::string& apiKey, std::string& out) {
    Parsed<std::string> line = chessmode::gameJsonLine(game, apiKey);
    if (!line.ok()) return line.error;
    out = "{\"game\":" + *line.value + "}";
    return std::nullopt;
}

// The config of a header record, or why it is not one.
Parsed<TournamentConfig> decodeHeader(const std::string& record) {
    const persist::Json doc = persist::Json::parse(record, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return Parsed<TournamentConfig>::fail("the header is not JSON");
    const auto format = doc.find("format");
    if (format == doc.end() || *format != kArenaLogFormat)
        return Parsed<TournamentConfig>::fail("the first record is not a tournament log header");
    const auto version = doc.find("version");
    if (version == doc.end() || !version->is_number_integer() || version->get<int>() < 1 ||
        version->get<int>() > kArenaLogVersion)
        return Parsed<TournamentConfig>::fail("log version not supported by this build (expected 1 to " +
                                              std::to_string(kArenaLogVersion) + ")");
    const auto config = doc.find("config");
    if (config == doc.end() || !config->is_object()) return Parsed<TournamentConfig>::fail("the header has no config");
    Parsed<TournamentConfig> parsed = chessmode::parseConfigJson(config->dump());
    if (!parsed.ok()) return Parsed<TournamentConfig>::fail("config: " + parsed.error);
    return parsed;
}

// The game of a game record. A record as gameRecordLine writes it ({"game":...}) hands its inner
// text to the decoder as it is: one parse, not a parse, a dump and a parse again (a resume and
// every read-back at the end of a long run decode each game). Any other object is parsed whole.
Parsed<GameRecord> decodeGameRecord(std::string_view record, const TournamentConfig& config) {
    constexpr std::string_view kOpen = "{\"game\":";
    Parsed<GameRecord> game;
    if (record.size() > kOpen.size() + 1 && record.substr(0, kOpen.size()) == kOpen && record.back() == '}') {
        game = chessmode::decodeGameJson(record.substr(kOpen.size(), record.size() - kOpen.size() - 1), config);
    } else {
        const persist::Json doc = persist::Json::parse(record, nullptr, false);
        if (doc.is_discarded() || !doc.is_object() || !doc.contains("game"))
            return Parsed<GameRecord>::fail("not a game record");
        game = chessmode::decodeGameJson(doc["game"].dump(), config);
    }
    if (game.ok() && !game.value->finished()) return Parsed<GameRecord>::fail("the game is not finished");
    return game;
}

} // namespace

std::optional<std::string> ArenaFolder::startLog(const TournamentConfig& config,
                                                 const std::vector<GameRecord>& finished) {
    Parsed<std::string> configLine = chessmode::configJson(config, true);
    if (!configLine.ok()) return "config: " + configLine.error;
    // The whole first version of the log is written atomically, then opened for appending.
    std::string text;
    auto add = [&](const std::string& payload) {
        char sum[10];
        std::snprintf(sum, sizeof sum, "%08x ", unsigned(persist::crc32(payload)));
        text.append(sum, 9).append(payload).push_back('\n');
    };
    add(headerRecord(*configLine.value));
    logged_.clear();
    config_ = config;
    for (const GameRecord& g : finished) {
        std::string line;
        if (auto bad = gameRecordLine(g, "", line)) return bad;
        logged_[g.pairing.id] = LogPlace{text.size(), line.size()};
        add(line);
    }
    const std::string path = dir_ + "/" + kArenaLogName;
    if (auto bad = persist::writeFileAtomic(path, text)) return bad;
    return log_.open(path, text.size());
}

std::optional<std::string> ArenaFolder::create(const std::string& dir, const TournamentConfig& config,
                                               bool overwrite) {
    dir_ = dir;
    if (auto busy = lock_.acquire(dir)) return busy;
    const std::string log = dir + "/" + kArenaLogName;
    const std::string snapshot = dir + "/" + kArenaSnapshotName;
    const bool exists = ::access(log.c_str(), F_OK) == 0 || ::access(snapshot.c_str(), F_OK) == 0;
    if (exists && !overwrite)
        return dir + " already holds a tournament; continue it with --resume " + dir +
               ", or replace it with --out " + dir + " --overwrite";
    if (exists) {
        ::unlink(snapshot.c_str());
        ::unlink((dir + "/" + kArenaPgnName).c_str());
    }
    return startLog(config, {});
}

std::optional<std::string> ArenaFolder::resume(const std::string& dir, ArenaResume& out, bool foldFinished) {
    dir_ = dir;
    if (::access(dir.c_str(), F_OK) != 0) return "no tournament in " + dir + " (the folder does not exist)";
    if (auto busy = lock_.acquire(dir)) return busy;
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

    // The log is read a record at a time and each game decoded as it comes: a long tournament's
    // log is never held whole (it has no size limit; a record has kMaxDocumentBytes).
    // Step 1. The header (the first intact record: the config). Step 2. The finished games, in
    // log order; a record that does not decode is dropped.
    size_t recordNumber = 0;
    std::optional<Parsed<TournamentConfig>> header;
    std::vector<std::string> gameNotes;
    std::map<int, size_t> gameIndex; // id -> place in out.games
    logged_.clear();
    persist::RecordLogRead log = persist::scanRecordLog(logPath, persist::kMaxDocumentBytes, [&](std::string_view record, std::uint64_t at) {
        ++recordNumber;
        if (!header) {
            header = decodeHeader(std::string(record));
            return;
        }
        if (!header->ok()) return;
        const std::string where = "dropped record " + std::to_string(recordNumber) + " of " + logPath + ": ";
        Parsed<GameRecord> game = decodeGameRecord(record, *header->value);
        if (!game.ok()) {
            gameNotes.push_back(where + game.error);
            return;
        }
        if (foldFinished) chessmode::foldRecord(*game.value);
        const int id = game.value->pairing.id;
        logged_[id] = LogPlace{at, record.size()};
        const auto [known, added] = gameIndex.emplace(id, out.games.size());
        if (added) out.games.push_back(std::move(*game.value));
        else out.games[known->second] = std::move(*game.value); // the game again, analysed: the latest counts
    });
    if (!log.ok() && !log.missing) return log.error;
    if (log.missing) { // a folder from before the log: migrate its snapshot
        if (!snapshot) {
            if (!snapshotError.empty()) return snapshotError;
            return "no tournament in " + dir + " (neither " + kArenaLogName + " nor " + kArenaSnapshotName + ")";
        }
        out.config = snapshot->config;
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

    for (const std::string& d : log.dropped) out.notes.push_back("dropped " + d);
    if (!header) return logPath + " has no intact header record; the tournament cannot be resumed from it";
    if (!header->ok()) return logPath + ": " + header->error;
    out.config = *header->value;
    config_ = out.config;
    if (!snapshotError.empty()) out.notes.push_back("ignored " + snapshotError + " (the log holds the finished games)");
    if (snapshot && !(snapshot->config == out.config)) {
        out.notes.push_back("ignored " + snapshotPath + ": its config is not the log's");
        snapshot.reset();
    }
    out.notes.insert(out.notes.end(), gameNotes.begin(), gameNotes.end());
    if (auto bad = log_.open(logPath, log.intactBytes)) return bad;
    if (log.intactBytes < log.fileBytes)
        out.notes.push_back("cut " + logPath + " back to its last intact record (" +
                            std::to_string(log.fileBytes - log.intactBytes) + " bytes dropped)");

    // Step 3. The snapshot's games the log does not have: finished ones (a damaged log record)
    // go back into the log; unfinished ones continue from their moves. A game the log has
    // unjudged and the snapshot judged (an older build kept the move quality only there) joins
    // the log judged, so it is not judged again.
    if (snapshot) {
        std::vector<GameRecord> unfinished;
        int judgedKept = 0;
        for (GameRecord& g : snapshot->games) {
            if (logged_.count(g.pairing.id)) {
                const auto known = gameIndex.find(g.pairing.id);
                if (known == gameIndex.end() || !g.finished() || !g.analysed() || out.games[known->second].analysed())
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
    std::string line;
    if (auto bad = gameRecordLine(game, apiKey, line)) return bad;
    const std::uint64_t at = log_.bytes();
    if (auto bad = log_.append(line)) return bad;
    logged_[game.pairing.id] = LogPlace{at, line.size()};
    return std::nullopt;
}

Parsed<GameRecord> ArenaFolder::readGame(const GameRecord& folded) const {
    const int id = folded.pairing.id;
    const auto it = logged_.find(id);
    if (it == logged_.end() || !config_)
        return Parsed<GameRecord>::fail("game #" + std::to_string(id) + " is not in " + kArenaLogName);
    std::string record;
    if (auto bad = persist::readRecordAt(log_.path(), it->second.offset, it->second.bytes, record))
        return Parsed<GameRecord>::fail(*bad);
    Parsed<GameRecord> game = decodeGameRecord(record, *config_);
    if (game.ok() && game.value->pairing.id != id)
        return Parsed<GameRecord>::fail(log_.path() + ": the record of game #" + std::to_string(id) + " holds game #" +
                                        std::to_string(game.value->pairing.id));
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
