// Durable files (src/persist): atomic replace, the checksummed record log (torn and damaged records
// dropped, the rest kept), the folder lock, and bounded reads (/dev/zero is refused, not read).
#include "src/persist/bounded_read.h"
#include "src/persist/durable_file.h"
#include "src/persist/json_reader.h"
#include "src/persist/run_folder.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

using namespace chaiba::persist;

namespace {

// A fresh folder under the system's temporary folder, removed at the end of the test.
struct TempDir {
    std::string path;
    TempDir() {
        char name[] = "/tmp/chaiba_durable_XXXXXX";
        path = ::mkdtemp(name);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

std::string slurp(const std::string& path) {
    return readFileBounded(path, kMaxDocumentBytes).text;
}

// A new log at path with these records.
void writeLog(const std::string& path, const std::vector<std::string>& records) {
    RecordLog log;
    REQUIRE_FALSE(log.open(path, 0));
    for (const std::string& r : records) REQUIRE_FALSE(log.append(r));
}

void appendRaw(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << bytes;
}

} // namespace

TEST_CASE("persist: writeFileAtomic replaces the whole file and leaves no temporary file") {
    TempDir dir;
    const std::string path = dir.path + "/doc.json";
    REQUIRE_FALSE(writeFileAtomic(path, "first version, longer than the second"));
    REQUIRE_FALSE(writeFileAtomic(path, "second"));
    CHECK(slurp(path) == "second");
    CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
    CHECK(writeFileAtomic(dir.path + "/no/such/folder/doc.json", "x").has_value());
}

TEST_CASE("persist: writeFileAtomicPieces writes the pieces as one file, and a refusal mid-way keeps the old one") {
    TempDir dir;
    const std::string path = dir.path + "/doc.json";
    REQUIRE_FALSE(writeFileAtomic(path, "old"));
    int calls = 0;
    REQUIRE_FALSE(writeFileAtomicPieces(path, [&](const PieceWriter& write) -> std::optional<std::string> {
        for (const char* piece : {"[", "1", ",", "2", "]"}) {
            ++calls;
            if (!write(piece)) return "write failed";
        }
        return std::nullopt;
    }));
    CHECK(calls == 5);
    CHECK(slurp(path) == "[1,2]");
    // The producer stops with an error after a piece: the file is the previous one, no temporary.
    const std::optional<std::string> refused = writeFileAtomicPieces(path, [](const PieceWriter& write) -> std::optional<std::string> {
        write("[3,");
        return std::string("game 2: a cost is not a number");
    });
    REQUIRE(refused);
    CHECK(*refused == "game 2: a cost is not a number");
    CHECK(slurp(path) == "[1,2]");
    CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
    CHECK(writeFileAtomicPieces(dir.path + "/no/such/folder/doc.json", [](const PieceWriter&) { return std::optional<std::string>(); }).has_value());
}

TEST_CASE("persist: the record log keeps every record appended, in order, with checksums") {
    TempDir dir;
    const std::string path = dir.path + "/log";
    {
        RecordLog log;
        REQUIRE_FALSE(log.open(path, 0));
        REQUIRE_FALSE(log.append("{\"a\":1}"));
        REQUIRE_FALSE(log.append("{\"b\":2}"));
        CHECK(log.append("two\nlines").has_value()); // a record is one line
    }
    RecordLogRead read = readRecordLog(path, kMaxDocumentBytes);
    REQUIRE(read.ok());
    CHECK(read.records == std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"});
    CHECK(read.dropped.empty());
    CHECK(read.intactBytes == read.fileBytes);
    CHECK(crc32("123456789") == 0xCBF43926u); // the standard check value of CRC-32
    CHECK(crc32("The quick brown fox jumps over the lazy dog") == 0x414FA339u); // 5 blocks of 8 and a tail
    CHECK(crc32("") == 0u);
}

TEST_CASE("persist: staged records reach the file only with a flush, in order, one batch at a time") {
    TempDir dir;
    RecordLog log;
    REQUIRE_FALSE(log.open(dir.path + "/staged", 0));
    const std::string path = log.path();
    REQUIRE_FALSE(log.stage("{\"a\":1}"));
    REQUIRE_FALSE(log.stage("{\"b\":2}"));
    CHECK(log.stagedRecords() == 2);
    CHECK(log.durableBytes() == 0);          // nothing on disk yet
    CHECK(log.bytes() == log.stagedBytes()); // where the next record will start
    CHECK(readRecordLog(path, kMaxDocumentBytes).records.empty());
    REQUIRE_FALSE(log.append("{\"c\":3}")); // an append writes what was staged first
    CHECK(log.stagedRecords() == 0);
    REQUIRE_FALSE(log.stage("{\"d\":4}"));
    REQUIRE_FALSE(log.flush());
    CHECK(log.durableBytes() == log.bytes());
    REQUIRE_FALSE(log.stage("{\"e\":5}"));
    log = RecordLog{}; // a log let go writes what it staged
    CHECK(readRecordLog(path, kMaxDocumentBytes).records ==
          std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}", "{\"d\":4}", "{\"e\":5}"});
}

TEST_CASE("persist: a torn tail is dropped with a message and cut away before the next append") {
    TempDir dir;
    const std::string path = dir.path + "/log";
    writeLog(path, {"one", "two"});
    const auto intact = std::filesystem::file_size(path);
    appendRaw(path, "1234abcd {\"game\": {\"id\": 7, \"mo"); // a crash in the middle of a write
    RecordLogRead read = readRecordLog(path, kMaxDocumentBytes);
    REQUIRE(read.ok());
    CHECK(read.records == std::vector<std::string>{"one", "two"});
    REQUIRE(read.dropped.size() == 1);
    CHECK(read.dropped[0].find("cut short") != std::string::npos);
    CHECK(read.intactBytes == intact);
    {
        RecordLog log; // reopened where the intact part ends: the torn bytes are gone
        REQUIRE_FALSE(log.open(path, read.intactBytes));
        REQUIRE_FALSE(log.append("three"));
    }
    read = readRecordLog(path, kMaxDocumentBytes);
    CHECK(read.records == std::vector<std::string>{"one", "two", "three"});
    CHECK(read.dropped.empty());
}

TEST_CASE("persist: a damaged record in the middle is dropped, the records after it are kept") {
    TempDir dir;
    const std::string path = dir.path + "/log";
    writeLog(path, {"alpha", "bravo", "charlie"});
    std::string text = slurp(path);
    text[text.find("bravo")] = 'B'; // one flipped byte
    REQUIRE_FALSE(writeFileAtomic(path, text));
    appendRaw(path, "not a record at all\n");
    RecordLogRead read = readRecordLog(path, kMaxDocumentBytes);
    CHECK(read.records == std::vector<std::string>{"alpha", "charlie"});
    REQUIRE(read.dropped.size() == 2);
    CHECK(read.dropped[0].find("line 2: checksum mismatch") != std::string::npos);
    CHECK(read.dropped[1].find("line 4: not a log record") != std::string::npos);
}

TEST_CASE("persist: a log is read record by record with no limit on its total size, only on one record's") {
    TempDir dir;
    const std::string path = dir.path + "/log";
    std::vector<std::string> records;
    for (int i = 0; i < 2000; ++i) records.push_back("{\"game\":" + std::to_string(i) + ",\"pad\":\"" + std::string(40, 'x') + "\"}");
    writeLog(path, records);
    REQUIRE(std::filesystem::file_size(path) > 100u * 1024); // far past the 64-byte limit of one record
    RecordLogRead read = readRecordLog(path, 64);
    REQUIRE(read.ok());
    CHECK(read.records == records);
    CHECK(read.dropped.empty());
    CHECK(read.intactBytes == read.fileBytes);
    // scanRecordLog hands the same records over one at a time and keeps none itself.
    std::vector<std::string> seen;
    std::vector<std::uint64_t> offsets;
    RecordLogRead scanned = scanRecordLog(path, 64, [&](std::string_view r, std::uint64_t at) {
        seen.emplace_back(r);
        offsets.push_back(at);
    });
    CHECK(seen == records);
    CHECK(scanned.records.empty());
    CHECK(scanned.intactBytes == read.intactBytes);
    // Each record read again from its offset; a wrong place or a damaged byte is refused.
    std::string payload;
    REQUIRE(offsets.size() == records.size());
    for (size_t i : {size_t(0), size_t(1), size_t(999), size_t(1999)}) {
        REQUIRE_FALSE(readRecordAt(path, offsets[i], records[i].size(), payload));
        CHECK(payload == records[i]);
    }
    CHECK(readRecordAt(path, offsets[5] + 1, records[5].size(), payload).has_value());
    const std::optional<std::string> pastEnd = readRecordAt(path, offsets[1999], records[1999].size() + 1, payload);
    REQUIRE(pastEnd);
    CHECK(pastEnd->find(": the log ends before it") != std::string::npos);
    std::string text = slurp(path);
    text[size_t(offsets[7]) + 20] ^= 1;
    REQUIRE_FALSE(writeFileAtomic(path, text));
    const std::optional<std::string> damaged = readRecordAt(path, offsets[7], records[7].size(), payload);
    REQUIRE(damaged.has_value());
    CHECK(damaged->find("checksum mismatch") != std::string::npos);
    // The appender says where the next record starts.
    RecordLog log;
    REQUIRE_FALSE(log.open(path, read.intactBytes));
    CHECK(log.bytes() == read.intactBytes);
    const std::uint64_t at = log.bytes();
    REQUIRE_FALSE(log.append("appended"));
    CHECK(log.bytes() == at + 8 + 10);
    REQUIRE_FALSE(readRecordAt(path, at, 8, payload));
    CHECK(payload == "appended");
}

TEST_CASE("persist: a record longer than the limit is dropped with a message, the records around it are kept") {
    TempDir dir;
    const std::string path = dir.path + "/log";
    const std::string big(3u << 20, 'y'); // 3 MiB: crosses the reader's 1 MiB chunks
    const std::string spanning = std::string(1536u << 10, 'z'); // 1.5 MiB, under a 2 MiB limit
    writeLog(path, {"first", big, spanning, "last"});
    RecordLogRead read = readRecordLog(path, 2u << 20);
    REQUIRE(read.ok());
    REQUIRE(read.records.size() == 3);
    CHECK(read.records[0] == "first");
    CHECK(read.records[1] == spanning);
    CHECK(read.records[2] == "last");
    REQUIRE(read.dropped.size() == 1);
    CHECK(read.dropped[0] == path + " line 2: longer than 2 MiB (the limit for one record)");
    CHECK(read.intactBytes == read.fileBytes);
    // An overlong line at the end without its newline is a torn tail, cut away before appends.
    const auto intact = std::filesystem::file_size(path);
    appendRaw(path, "0000abcd " + big);
    read = readRecordLog(path, 2u << 20);
    CHECK(read.records.size() == 3);
    REQUIRE(read.dropped.size() == 2);
    CHECK(read.dropped[1].find("line 5: cut short (" + std::to_string(big.size() + 9) + " bytes") != std::string::npos);
    CHECK(read.intactBytes == intact);
}

TEST_CASE("persist: a log that is not a regular file or does not exist is an error, never an endless read") {
    RecordLogRead device = readRecordLog("/dev/zero", 64);
    CHECK_FALSE(device.ok());
    CHECK(device.error == "/dev/zero is not a regular file");
    TempDir dir;
    RecordLogRead none = readRecordLog(dir.path + "/nothing", 64);
    CHECK(none.missing);
    CHECK(none.error.find("cannot read " + dir.path + "/nothing") == 0);
    RecordLogRead folder = readRecordLog(dir.path, 64);
    CHECK_FALSE(folder.ok());
    CHECK_FALSE(folder.missing);
}

TEST_CASE("persist: a folder lock refuses a second holder and is free again once released") {
    TempDir dir;
    FolderLock first;
    REQUIRE_FALSE(first.acquire(dir.path));
    FolderLock second; // another open file description: flock refuses it like another process
    const std::optional<std::string> refused = second.acquire(dir.path);
    REQUIRE(refused.has_value());
    CHECK(refused->find("in use by another process (pid " + std::to_string(::getpid()) + ")") !=
          std::string::npos);
    first.release(); // what the kernel does when the holder is killed
    CHECK_FALSE(second.acquire(dir.path));
}

TEST_CASE("persist: readFileBounded refuses an endless or too large file with the limit in words") {
    ReadResult zero = readFileBounded("/dev/zero", 1u << 20);
    CHECK_FALSE(zero.ok());
    CHECK(zero.error == "/dev/zero is larger than 1 MiB (the limit for this kind of file)");
    CHECK(zero.text.empty());
    CHECK(zero.tooLarge);
    TempDir dir;
    const std::string path = dir.path + "/f";
    REQUIRE_FALSE(writeFileAtomic(path, std::string(100, 'x')));
    CHECK(readFileBounded(path, 100).ok());
    CHECK(readFileBounded(path, 100).text.size() == 100);
    CHECK(readFileBounded(path, 99).error.find("larger than 99 bytes") != std::string::npos);
    ReadResult missing = readFileBounded(dir.path + "/none", 100);
    CHECK(missing.missing);
    CHECK(readFileBounded(dir.path, 100).error.find("is a folder") != std::string::npos);
}

// The run folder of any mode (src/persist/run_folder): the manifest first, games by id, a later
// manifest counting, a record the mode refuses dropped and named unless the game was logged again.
namespace {
// A toy mode: config {"games": N}; a game {"id": I, "ok": bool} is refused when not ok.
class ToyReader final : public RecordReader {
public:
    int games = 0;
    std::map<int, std::string> kept;
    std::optional<std::string> readConfig(const std::string& json) override {
        const Json c = Json::parse(json, nullptr, false);
        if (!c.is_object() || !c.contains("games") || !c["games"].is_number_integer()) return std::string("no games");
        games = c["games"].get<int>();
        return std::nullopt;
    }
    Read read(std::string_view json, const std::vector<std::string>&) override {
        held_.reset();
        const Json g = Json::parse(json, nullptr, false);
        if (!g.is_object() || !g.contains("id")) return {-1, true, "not a game"};
        const int id = g["id"].get<int>();
        if (id > games) return {id, true, "beyond the run"};
        if (!g.value("ok", false)) return {id, true, "refused"};
        held_ = {id, std::string(json)};
        return {id, true, {}};
    }
    void keep() override {
        if (held_) kept[held_->first] = held_->second;
        held_.reset();
    }

private:
    std::optional<std::pair<int, std::string>> held_;
};
} // namespace

TEST_CASE("persist: a run folder keeps its manifest and games, refused records are named unless logged again") {
    TempDir dir;
    {
        RunFolder run;
        REQUIRE_FALSE(run.create(dir.path, "toy", R"({"games":3})", false));
        REQUIRE_FALSE(run.appendGame(1, R"({"id":1,"ok":true})"));
        REQUIRE_FALSE(run.appendGame(2, R"({"id":2,"ok":false})"));
        REQUIRE_FALSE(run.appendGame(3, R"({"id":3,"ok":false})"));
        REQUIRE_FALSE(run.appendGame(3, R"({"id":3,"ok":true,"again":1})")); // played again
        REQUIRE_FALSE(run.appendManifest(R"({"games":5})"));
        REQUIRE_FALSE(run.appendGame(5, R"({"id":5,"ok":true})"));
        REQUIRE_FALSE(run.appendManifest(R"({"nonsense":1})")); // a manifest this build cannot read
        // A second process is kept out while this one holds the run.
        RunFolder other;
        ToyReader none;
        CHECK(other.resume(dir.path, "toy", none).value_or("").find("in use") != std::string::npos);
    }
    ToyReader reader;
    RunFolder run;
    REQUIRE_FALSE(run.resume(dir.path, "toy", reader));
    const std::map<int, std::string>& kept = reader.kept;
    CHECK(reader.games == 5); // the latest manifest it could read
    CHECK(run.configJson() == R"({"games":5})");
    REQUIRE(kept.size() == 3);
    CHECK(kept.at(3) == R"({"id":3,"ok":true,"again":1})");
    REQUIRE(run.notes().size() == 2);
    CHECK(run.notes()[0].find(": refused; the game is played again") != std::string::npos); // game 2 only
    CHECK(run.notes()[0].find("record 3 of") != std::string::npos);
    CHECK(run.notes()[1].find("ignored record 8") != std::string::npos);
    std::string back;
    REQUIRE_FALSE(run.readGame(3, back));
    CHECK(back == R"({"id":3,"ok":true,"again":1})");
    CHECK(run.readGame(2, back).has_value());
}

TEST_CASE("persist: --out over a run is refused unless overwrite, another mode's run is refused") {
    TempDir dir;
    {
        RunFolder run;
        REQUIRE_FALSE(run.create(dir.path, "toy", R"({"games":1})", false));
    }
    {
        std::ofstream(dir.path + "/game-0001.json") << "{}";
        RunFolder run;
        const std::optional<std::string> refused = run.create(dir.path, "toy", R"({"games":2})", false, {"game-0001.json"});
        REQUIRE(refused);
        CHECK(*refused == dir.path + " already holds a run (tournament.log); continue it with --resume " + dir.path +
                              ", or replace it with --out " + dir.path + " --overwrite");
    }
    {
        RunFolder run;
        REQUIRE_FALSE(run.create(dir.path, "toy", R"({"games":2})", true, {"game-0001.json"}));
        CHECK_FALSE(std::filesystem::exists(dir.path + "/game-0001.json"));
    }
    ToyReader reader;
    RunFolder run;
    CHECK(run.resume(dir.path, "other", reader).value_or("").find("it holds a toy run, not a other one") !=
          std::string::npos);
}
