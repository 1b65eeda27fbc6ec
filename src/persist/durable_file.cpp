// Durable files: atomic replace, the checksummed record log, the folder lock (POSIX calls).
#include "src/persist/durable_file.h"

#include "src/persist/bounded_read.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace chaiba::persist {

namespace {

std::string errnoText() {
    return std::strerror(errno);
}

std::string parentOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// Writes all of text to fd; false with errno set.
bool writeAll(int fd, std::string_view text) {
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += size_t(n);
    }
    return true;
}

// The folder's entry for a renamed or created file is durable only once the folder is synced.
void syncFolder(const std::string& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// The CRC-32 tables for slicing by 8 (Intel's method): table[0] is the bytewise one, table[k][i]
// the CRC of byte i followed by k zero bytes, so eight bytes fold in one step (5x the bytewise
// loop: a run's log checksums tens of MB a second).
using CrcTables = std::array<std::array<std::uint32_t, 256>, 8>;
CrcTables crcTables() {
    CrcTables t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[0][i] = c;
    }
    for (std::size_t i = 0; i < 256; ++i)
        for (std::size_t k = 1; k < 8; ++k) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
    return t;
}

std::optional<std::uint32_t> parseHex8(std::string_view text) {
    if (text.size() != 8) return std::nullopt;
    std::uint32_t value = 0;
    for (char ch : text) {
        value <<= 4;
        if (ch >= '0' && ch <= '9') value |= std::uint32_t(ch - '0');
        else if (ch >= 'a' && ch <= 'f') value |= std::uint32_t(ch - 'a' + 10);
        else return std::nullopt;
    }
    return value;
}

} // namespace

std::uint32_t crc32(std::string_view text) {
    static const CrcTables t = crcTables();
    std::uint32_t c = 0xFFFFFFFFu;
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    std::size_t n = text.size();
    auto le32 = [](const unsigned char* b) {
        return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
    };
    for (; n >= 8; n -= 8, p += 8) {
        const std::uint32_t one = le32(p) ^ c, two = le32(p + 4);
        c = t[7][one & 0xFF] ^ t[6][(one >> 8) & 0xFF] ^ t[5][(one >> 16) & 0xFF] ^ t[4][one >> 24] ^
            t[3][two & 0xFF] ^ t[2][(two >> 8) & 0xFF] ^ t[1][(two >> 16) & 0xFF] ^ t[0][two >> 24];
    }
    for (; n > 0; --n, ++p) c = t[0][(c ^ *p) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

std::optional<std::string> writeFileAtomic(const std::string& path, std::string_view text) {
    const std::string temp = path + ".tmp";
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return "cannot write " + temp + ": " + errnoText();
    if (!writeAll(fd, text) || ::fsync(fd) != 0) {
        const std::string why = errnoText();
        ::close(fd);
        ::unlink(temp.c_str());
        return "cannot write " + temp + ": " + why;
    }
    if (::close(fd) != 0) return "cannot write " + temp + ": " + errnoText();
    if (::rename(temp.c_str(), path.c_str()) != 0) return "cannot replace " + path + ": " + errnoText();
    syncFolder(parentOf(path));
    return std::nullopt;
}

std::optional<std::string> writeFileAtomicPieces(const std::string& path,
                                                 const std::function<std::optional<std::string>(const PieceWriter&)>& produce) {
    const std::string temp = path + ".tmp";
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return "cannot write " + temp + ": " + errnoText();
    std::string writeError;
    const std::optional<std::string> refused = produce([&](std::string_view piece) {
        if (!writeError.empty()) return false;
        if (!writeAll(fd, piece)) writeError = errnoText();
        return writeError.empty();
    });
    if (refused || !writeError.empty() || ::fsync(fd) != 0) {
        const std::string why = refused ? *refused : "cannot write " + temp + ": " + (writeError.empty() ? errnoText() : writeError);
        ::close(fd);
        ::unlink(temp.c_str());
        return why;
    }
    if (::close(fd) != 0) return "cannot write " + temp + ": " + errnoText();
    if (::rename(temp.c_str(), path.c_str()) != 0) return "cannot replace " + path + ": " + errnoText();
    syncFolder(parentOf(path));
    return std::nullopt;
}

namespace {
// One line of a log (without its '\n'): a record handed on, or a dropped line noted.
void takeLine(std::string_view line, const std::string& where, std::uint64_t endOffset, RecordLogRead& out,
              const std::function<void(std::string_view, std::uint64_t)>& onRecord) {
    const std::optional<std::uint32_t> sum =
        line.size() > 9 && line[8] == ' ' ? parseHex8(line.substr(0, 8)) : std::nullopt;
    if (!sum) {
        out.dropped.push_back(where + ": not a log record");
    } else if (*sum != crc32(line.substr(9))) {
        out.dropped.push_back(where + ": checksum mismatch (a damaged record)");
    } else {
        onRecord(line.substr(9), endOffset - line.size() - 1);
        out.intactBytes = endOffset;
    }
}
} // namespace

RecordLogRead scanRecordLog(const std::string& path, std::size_t maxRecordBytes,
                            const std::function<void(std::string_view, std::uint64_t)>& onRecord) {
    RecordLogRead out;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        out.missing = errno == ENOENT;
        out.error = "cannot read " + path + ": " + errnoText();
        return out;
    }
    struct stat st {};
    const bool statted = ::fstat(fd, &st) == 0;
    if (!statted || !S_ISREG(st.st_mode)) {
        out.error = statted ? path + " is not a regular file" : "cannot read " + path + ": " + errnoText();
        ::close(fd);
        return out;
    }
    // The size at the start is the log (the folder's lock keeps writers out while it is read).
    out.fileBytes = static_cast<std::uint64_t>(st.st_size);
    const std::size_t maxLine = maxRecordBytes + 9; // the checksum and its space
    std::vector<char> buffer(std::size_t(1) << 20);
    std::string line;          // the current line so far
    bool overlong = false;     // the current line passed maxLine: skipped to its end
    std::uint64_t lineStart = 0, pos = 0;
    int lineNumber = 0;
    while (pos < out.fileBytes) {
        const std::size_t want = std::size_t(std::min<std::uint64_t>(buffer.size(), out.fileBytes - pos));
        const ssize_t got = ::read(fd, buffer.data(), want);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) { // an error, or the file shrank under us: what was read stands
            if (got < 0) out.error = "cannot read " + path + ": " + errnoText();
            out.fileBytes = pos;
            break;
        }
        std::string_view chunk(buffer.data(), std::size_t(got));
        while (!chunk.empty()) {
            const std::size_t nl = chunk.find('\n');
            const std::string_view part = chunk.substr(0, nl);
            if (!overlong && line.size() + part.size() > maxLine) {
                overlong = true;
                line.clear();
                line.shrink_to_fit();
            }
            if (!overlong) line.append(part);
            if (nl == std::string_view::npos) {
                pos += part.size();
                break;
            }
            pos += part.size() + 1;
            chunk.remove_prefix(nl + 1);
            const std::string where = path + " line " + std::to_string(++lineNumber);
            if (overlong)
                out.dropped.push_back(where + ": longer than " + byteSizeText(maxRecordBytes) +
                                      " (the limit for one record)");
            else
                takeLine(line, where, pos, out, onRecord);
            line.clear();
            overlong = false;
            lineStart = pos;
        }
    }
    ::close(fd);
    if (out.ok() && lineStart < out.fileBytes) // a record cut short by a crash: no newline yet
        out.dropped.push_back(path + " line " + std::to_string(lineNumber + 1) + ": cut short (" +
                              std::to_string(out.fileBytes - lineStart) + " bytes without an end of line)");
    return out;
}

RecordLogRead readRecordLog(const std::string& path, std::size_t maxRecordBytes) {
    std::vector<std::string> records;
    RecordLogRead out =
        scanRecordLog(path, maxRecordBytes, [&](std::string_view r, std::uint64_t) { records.emplace_back(r); });
    out.records = std::move(records);
    return out;
}

std::optional<std::string> readRecordAt(const std::string& path, std::uint64_t offset, std::size_t payloadBytes,
                                       std::string& payload) {
    const std::string where = path + " at byte " + std::to_string(offset);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return "cannot read " + path + ": " + errnoText();
    std::string line(payloadBytes + 10, '\0');
    std::size_t done = 0;
    std::string readError = "the log ends before it"; // unless the read itself fails
    while (done < line.size()) {
        const ssize_t got = ::pread(fd, line.data() + done, line.size() - done, off_t(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) readError = errnoText();
        if (got <= 0) break;
        done += std::size_t(got);
    }
    ::close(fd);
    if (done < line.size()) return "cannot read " + where + ": " + readError;
    const std::string_view text(line);
    const std::optional<std::uint32_t> sum = text[8] == ' ' ? parseHex8(text.substr(0, 8)) : std::nullopt;
    if (!sum || text.back() != '\n') return where + ": not a log record";
    const std::string_view body = text.substr(9, payloadBytes);
    if (*sum != crc32(body)) return where + ": checksum mismatch (a damaged record)";
    payload.assign(body);
    return std::nullopt;
}

RecordLog::~RecordLog() {
    close();
}

void RecordLog::close() {
    if (fd_ < 0) return;
    (void)flush();
    ::close(fd_);
    fd_ = -1;
}

RecordLog::RecordLog(RecordLog&& other) noexcept
    : fd_(other.fd_), bytes_(other.bytes_), path_(std::move(other.path_)), staged_(std::move(other.staged_)),
      stagedRecords_(other.stagedRecords_) {
    other.fd_ = -1;
    other.staged_.clear();
    other.stagedRecords_ = 0;
}

RecordLog& RecordLog::operator=(RecordLog&& other) noexcept {
    if (this != &other) {
        close();
        fd_ = other.fd_;
        bytes_ = other.bytes_;
        path_ = std::move(other.path_);
        staged_ = std::move(other.staged_);
        stagedRecords_ = other.stagedRecords_;
        other.fd_ = -1;
        other.staged_.clear();
        other.stagedRecords_ = 0;
    }
    return *this;
}

std::optional<std::string> RecordLog::open(const std::string& path, std::uint64_t keepBytes) {
    close();
    path_ = path;
    struct stat before {};
    const bool existed = ::stat(path.c_str(), &before) == 0;
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) return "cannot open " + path + ": " + errnoText();
    if (::ftruncate(fd_, off_t(keepBytes)) != 0 || ::lseek(fd_, 0, SEEK_END) < 0 || ::fsync(fd_) != 0) {
        const std::string why = errnoText();
        ::close(fd_);
        fd_ = -1;
        return "cannot prepare " + path + ": " + why;
    }
    if (!existed) syncFolder(parentOf(path));
    bytes_ = keepBytes;
    return std::nullopt;
}

std::optional<std::string> RecordLog::stage(std::string_view payload) {
    if (fd_ < 0) return "the log " + path_ + " is not open";
    if (payload.find('\n') != std::string_view::npos) return "a log record cannot hold a line break";
    char sum[10];
    std::snprintf(sum, sizeof sum, "%08x ", unsigned(crc32(payload)));
    staged_.append(sum, 9).append(payload).push_back('\n');
    ++stagedRecords_;
    return std::nullopt;
}

std::optional<std::string> RecordLog::flush() {
    if (fd_ < 0) return "the log " + path_ + " is not open";
    if (staged_.empty()) return std::nullopt;
    // On failure, a torn tail is cut back when the log is next opened (readRecordLog keeps the
    // intact records before it).
    if (!writeAll(fd_, staged_) || ::fdatasync(fd_) != 0) return "cannot append to " + path_ + ": " + errnoText();
    bytes_ += staged_.size();
    staged_.clear();
    stagedRecords_ = 0;
    return std::nullopt;
}

std::optional<std::string> RecordLog::append(std::string_view payload) {
    if (auto bad = stage(payload)) return bad;
    return flush();
}

FolderLock::~FolderLock() {
    release();
}

void FolderLock::release() {
    if (fd_ < 0) return;
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
    fd_ = -1;
}

std::optional<std::string> FolderLock::acquire(const std::string& dir) {
    release();
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return "cannot create " + dir + ": " + errnoText();
    const std::string path = dir + "/.lock";
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return "cannot open " + path + ": " + errnoText();
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const bool busy = errno == EWOULDBLOCK;
        const std::string why = errnoText();
        char pid[32] = {0};
        const ssize_t n = ::pread(fd, pid, sizeof pid - 1, 0);
        ::close(fd);
        std::string holder = n > 0 ? std::string(pid, size_t(n)) : std::string();
        while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
        if (busy)
            return dir + " is in use by another process" + (holder.empty() ? "" : " (pid " + holder + ")") +
                   "; wait for it to end or stop it first";
        return "cannot lock " + path + ": " + why;
    }
    const std::string me = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) == 0) ::pwrite(fd, me.data(), me.size(), 0);
    fd_ = fd;
    return std::nullopt;
}

} // namespace chaiba::persist
