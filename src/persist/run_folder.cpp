// RunFolder: a run's lock, its manifest and the log of its finished games.
#include "src/persist/run_folder.h"

#include "src/persist/bounded_read.h"
#include "src/persist/json_reader.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace chaiba::persist {

namespace {

constexpr std::string_view kGameOpen = "{\"game\":";
constexpr std::string_view kRecordOpen = "{\"record\":";

std::string headerRecord(const std::string& mode, const std::string& configJson) {
    return std::string("{\"format\":\"") + kRunLogFormat + "\",\"version\":" + std::to_string(kRunLogVersion) +
           ",\"mode\":" + Json(mode).dump() + ",\"config\":" + configJson + "}";
}

std::string gameRecord(std::string_view gameJson) { return std::string(kGameOpen).append(gameJson).append("}"); }

// The config of a header record (and its mode), or why it is not one.
std::optional<std::string> readHeader(std::string_view record, std::string& mode, std::string& configJson) {
    const Json doc = Json::parse(record, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return "the first record is not JSON";
    const auto format = doc.find("format");
    if (format == doc.end() || *format != kRunLogFormat) return "the first record is not a run's manifest";
    const auto version = doc.find("version");
    if (version == doc.end() || !version->is_number_integer() || version->get<int>() < 1 ||
        version->get<int>() > kRunLogVersion)
        return "log version not supported by this build (expected 1 to " + std::to_string(kRunLogVersion) + ")";
    const auto m = doc.find("mode");
    const auto config = doc.find("config");
    if (m == doc.end() || !m->is_string() || config == doc.end() || !config->is_object())
        return "the manifest lacks its mode or config";
    mode = m->get<std::string>();
    configJson = config->dump();
    return std::nullopt;
}

} // namespace

const RunFolder::Place* RunFolder::place(int id) const {
    if (id >= 0 && id < kDenseIds) {
        const bool known = std::size_t(id) < densePlaces_.size() && densePlaces_[std::size_t(id)].bytes > 0;
        return known ? &densePlaces_[std::size_t(id)] : nullptr;
    }
    const auto it = places_.find(id);
    return it == places_.end() ? nullptr : &it->second;
}

void RunFolder::setPlace(int id, Place p) {
    if (id >= 0 && id < kDenseIds) {
        if (std::size_t(id) >= densePlaces_.size()) densePlaces_.resize(std::max(std::size_t(id) + 1, densePlaces_.size() * 2));
        densePlaces_[std::size_t(id)] = p;
    } else {
        places_[id] = p;
    }
}

bool RunFolder::hasLog(const std::string& dir) { return ::access((dir + "/" + kRunLogName).c_str(), F_OK) == 0; }

std::optional<std::string> RunFolder::create(const std::string& dir, const std::string& mode,
                                             const std::string& configJson, bool overwrite,
                                             const std::vector<std::string>& runFiles,
                                             const std::vector<std::pair<int, std::string>>& games) {
    dir_ = dir;
    mode_ = mode;
    notes_.clear();
    places_.clear();
    densePlaces_.clear();
    if (auto busy = lock_.acquire(dir)) return busy;
    const std::string logPath = dir + "/" + kRunLogName;
    std::vector<std::string> present;
    if (hasLog(dir)) present.push_back(kRunLogName);
    for (const std::string& f : runFiles)
        if (::access((dir + "/" + f).c_str(), F_OK) == 0) present.push_back(f);
    if (!present.empty() && !overwrite)
        return dir + " already holds a run (" + present.front() + "); continue it with --resume " + dir +
               ", or replace it with --out " + dir + " --overwrite";
    for (const std::string& f : present)
        if (f != kRunLogName) ::unlink((dir + "/" + f).c_str());
    // The whole first version of the log is written atomically, then opened for appending.
    std::string text;
    auto add = [&](const std::string& payload) {
        char sum[10];
        std::snprintf(sum, sizeof sum, "%08x ", unsigned(crc32(payload)));
        text.append(sum, 9).append(payload).push_back('\n');
    };
    add(headerRecord(mode, configJson));
    for (const auto& [id, json] : games) {
        setPlace(id, Place{text.size(), json.size() + kGameOpen.size() + 1, kGameOpen.size()});
        add(gameRecord(json));
    }
    if (auto bad = writeFileAtomic(logPath, text)) return bad;
    configJson_ = configJson;
    return log_.open(logPath, text.size());
}

std::optional<std::string> RunFolder::resume(const std::string& dir, const std::string& runMode, RecordReader& reader) {
    dir_ = dir;
    mode_ = runMode;
    notes_.clear();
    places_.clear();
    densePlaces_.clear();
    if (::access(dir.c_str(), F_OK) != 0) return "no run in " + dir + " (the folder does not exist)";
    if (auto busy = lock_.acquire(dir)) return busy;
    const std::string logPath = dir + "/" + kRunLogName;
    size_t number = 0;
    std::optional<std::string> headerError;
    bool header = false;
    std::map<size_t, std::string> said; // by record number: what to tell, in log order
    std::map<int, size_t> droppedAt;     // by game: its dropped record, said unless logged again since
    RecordLogRead log = scanRecordLog(logPath, kMaxDocumentBytes, [&](std::string_view record, std::uint64_t at) {
        ++number;
        if (!header) {
            header = true;
            std::string mode;
            headerError = readHeader(record, mode, configJson_);
            if (!headerError && mode != runMode)
                headerError = "it holds a " + mode + " run, not a " + runMode + " one";
            if (!headerError) headerError = reader.readConfig(configJson_);
            return;
        }
        if (headerError) return;
        const std::string where = "record " + std::to_string(number) + " of " + logPath;
        if (record.size() > kGameOpen.size() + 1 && record.substr(0, kGameOpen.size()) == kGameOpen &&
            record.back() == '}') {
            const std::string_view game = record.substr(kGameOpen.size(), record.size() - kGameOpen.size() - 1);
            const RecordReader::Read read = reader.read(game, {});
            if (!read.error.empty() || read.id < 0) {
                const std::string note = "dropped " + where + ": " + (read.error.empty() ? "no game id" : read.error) +
                                         "; the game is played again";
                if (read.id >= 0) { // said unless a later record of the game stands
                    if (auto before = droppedAt.find(read.id); before != droppedAt.end()) said.erase(before->second);
                    droppedAt[read.id] = number;
                }
                said[number] = note;
                return;
            }
            if (auto before = droppedAt.find(read.id); before != droppedAt.end()) {
                said.erase(before->second);
                droppedAt.erase(before);
            }
            setPlace(read.id, Place{at, record.size(), kGameOpen.size()});
            reader.keep();
            return;
        }
        if (record.substr(0, kRecordOpen.size()) == kRecordOpen) return; // a game's whole record, for viewers
        const Json doc = Json::parse(record, nullptr, false);
        const auto manifest = doc.is_object() ? doc.find("manifest") : doc.end();
        if (doc.is_discarded() || !doc.is_object() || manifest == doc.end() || !manifest->is_object()) {
            said[number] = "dropped " + where + ": neither a game nor a manifest";
            return;
        }
        std::string config = manifest->dump();
        if (auto bad = reader.readConfig(config)) { // (the reader keeps the one before)
            said[number] = "ignored " + where + ": its manifest " + *bad;
            return;
        }
        configJson_ = std::move(config);
    });
    if (log.missing) return "no run in " + dir + " (no " + kRunLogName + ")";
    if (!log.ok()) return log.error;
    if (!header) return logPath + " has no intact manifest; the run cannot be resumed from it";
    if (headerError) return logPath + ": " + *headerError;
    for (const auto& [at, note] : said) notes_.push_back(note);
    for (const std::string& d : log.dropped) notes_.push_back("dropped " + d);
    if (auto bad = log_.open(logPath, log.intactBytes)) return bad;
    if (log.intactBytes < log.fileBytes)
        notes_.push_back("cut " + logPath + " back to its last intact record (" +
                         std::to_string(log.fileBytes - log.intactBytes) + " bytes dropped)");
    return std::nullopt;
}

std::optional<std::string> RunFolder::lock(const std::string& dir) {
    dir_ = dir;
    return lock_.acquire(dir);
}

void RunFolder::close() {
    log_ = RecordLog{};
    lock_.release();
    places_.clear();
    densePlaces_.clear();
    notes_.clear();
    configJson_.clear();
}

std::optional<std::string> RunFolder::appendRecord(std::string_view payload, int id, bool stage) {
    const std::uint64_t at = log_.bytes();
    if (auto bad = stage ? log_.stage(payload) : log_.append(payload)) return bad;
    if (id >= 0) setPlace(id, Place{at, payload.size(), kGameOpen.size()});
    return std::nullopt;
}

std::optional<std::string> RunFolder::appendGame(int id, std::string_view gameJson) {
    return appendRecord(gameRecord(gameJson), id);
}

std::optional<std::string> RunFolder::stageGame(int id, std::string_view gameJson) {
    return appendRecord(gameRecord(gameJson), id, true);
}

std::optional<std::string> RunFolder::stageRecord(std::string_view recordJson) {
    return appendRecord(std::string(kRecordOpen).append(recordJson).append("}"), -1, true);
}

std::optional<std::string> RunFolder::appendManifest(const std::string& configJson) {
    if (auto bad = appendRecord("{\"manifest\":" + configJson + "}", -1)) return bad;
    configJson_ = configJson;
    return std::nullopt;
}

std::optional<std::string> RunFolder::readGame(int id, std::string& gameJson) const {
    const Place* at = place(id);
    if (!at) return "game " + std::to_string(id) + " is not in " + log_.path();
    if (at->offset >= log_.durableBytes()) return "game " + std::to_string(id) + " is not flushed to " + log_.path() + " yet";
    std::string record;
    if (auto bad = readRecordAt(log_.path(), at->offset, at->bytes, record)) return bad;
    if (record.size() < at->prefix + 1) return log_.path() + ": the record of game " + std::to_string(id) + " is cut";
    gameJson = record.substr(at->prefix, record.size() - at->prefix - 1);
    return std::nullopt;
}

} // namespace chaiba::persist
