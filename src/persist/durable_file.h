// Durable files (native, POSIX): a whole file replaced atomically (temp file, fsync, rename, fsync
// of the folder), an append-only log of checksummed one-line records fsynced one by one (a torn
// tail is detected and dropped, never a reason to refuse the rest), and a lock on a folder that a
// killed process does not leave behind (flock: the kernel releases it with the process).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::persist {

// Replaces path with text atomically: a reader sees the old file or the new one, never a part.
// Returns the error, or nothing.
std::optional<std::string> writeFileAtomic(const std::string& path, std::string_view text);
// The same for a text made piece by piece (a document too large to hold whole as a string):
// `produce` hands each piece to the writer it is given (false: the write failed, stop) and returns
// its own error, if any; on any error the old file stays as it was.
using PieceWriter = std::function<bool(std::string_view)>;
std::optional<std::string> writeFileAtomicPieces(const std::string& path,
                                                 const std::function<std::optional<std::string>(const PieceWriter&)>& produce);

// CRC-32 (IEEE) of text: each log record carries it.
std::uint32_t crc32(std::string_view text);

// What readRecordLog found: the intact records in order, what it dropped and why, and where the
// intact part ends (an appender truncates there before writing, so a torn tail never glues
// itself to the next record).
struct RecordLogRead {
    std::vector<std::string> records;
    std::vector<std::string> dropped; // one message per dropped line ("line 7: checksum mismatch")
    std::uint64_t intactBytes = 0;    // byte length of the file up to the last intact record
    std::uint64_t fileBytes = 0;
    std::string error; // the file could not be read (missing, not a regular file, a read error)
    bool missing = false;
    bool ok() const { return error.empty(); }
};
// A record line: 8 hex digits of the payload's CRC-32, a space, the payload (one line), '\n'.
// The log is read a chunk at a time, never whole: it has no size limit (a long tournament's log
// outgrows any), each record has maxRecordBytes (a longer line is dropped with a message). Each
// intact record goes to onRecord in order, with the offset its line starts at (readRecordAt reads
// it again from there); `records` stays empty. Only a regular file is read.
RecordLogRead scanRecordLog(const std::string& path, std::size_t maxRecordBytes,
                            const std::function<void(std::string_view, std::uint64_t)>& onRecord);
// The same, collecting the records in `records`.
RecordLogRead readRecordLog(const std::string& path, std::size_t maxRecordBytes);
// The record whose line starts at offset and whose payload has payloadBytes (as scanned or
// appended), checked against its checksum: the error, or nothing and payload set.
std::optional<std::string> readRecordAt(const std::string& path, std::uint64_t offset, std::size_t payloadBytes,
                                        std::string& payload);

// An open log for appending; each append is written and fsynced before it returns.
class RecordLog {
public:
    RecordLog() = default;
    ~RecordLog();
    RecordLog(const RecordLog&) = delete;
    RecordLog& operator=(const RecordLog&) = delete;
    RecordLog(RecordLog&& other) noexcept;
    RecordLog& operator=(RecordLog&& other) noexcept;

    // Opens (creating) path for appending after truncating it to keepBytes (the intact part that
    // readRecordLog reported; 0 for a new log). Returns the error, or nothing.
    std::optional<std::string> open(const std::string& path, std::uint64_t keepBytes);
    // Appends one record (payload without '\n') and fsyncs; the error, or nothing. Records staged
    // before it are written first (the log keeps their order).
    std::optional<std::string> append(std::string_view payload);
    // Stages one record in memory: nothing is written until flush() (or append()), which writes
    // every staged record in one write and fsyncs once. A crash loses the staged records only.
    std::optional<std::string> stage(std::string_view payload);
    std::optional<std::string> flush();
    std::size_t stagedRecords() const { return stagedRecords_; }
    std::size_t stagedBytes() const { return staged_.size(); }
    bool isOpen() const { return fd_ >= 0; }
    // The log's length in bytes, staged records included: where the next record's line will start.
    std::uint64_t bytes() const { return bytes_ + staged_.size(); }
    // The bytes on disk and fsynced (what a crash keeps).
    std::uint64_t durableBytes() const { return bytes_; }
    const std::string& path() const { return path_; }

private:
    void close(); // flushes what is staged (best effort: a destructor cannot report), closes

    int fd_ = -1;
    std::uint64_t bytes_ = 0;
    std::string path_;
    std::string staged_; // whole record lines, not yet written
    std::size_t stagedRecords_ = 0;
};

// An exclusive lock on a folder (DIR/.lock, flock). Refused while another process holds it; a
// crashed or killed holder leaves nothing stuck (its descriptor, and so the lock, dies with it).
class FolderLock {
public:
    FolderLock() = default;
    ~FolderLock();
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;

    // Creates dir if missing and takes its lock; the error ("... is in use by process 1234").
    std::optional<std::string> acquire(const std::string& dir);
    void release();

private:
    int fd_ = -1;
};

} // namespace chaiba::persist
