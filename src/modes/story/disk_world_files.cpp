// A world folder on disk with atomic writes (see disk_world_files.h).
#include "src/modes/story/disk_world_files.h"

#include "src/persist/bounded_read.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace chaiba::story {

namespace fs = std::filesystem;

namespace {

WorldError ioError(std::string_view path, const std::string& what, const std::string& why) {
    return WorldError::make(WorldErrorKind::Io, "cannot " + what + " " + std::string(path) + ": " + why);
}

// Writes all of content to fd, retrying short writes and interruptions.
bool writeAll(int fd, std::string_view content) {
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace

DiskWorldFiles::DiskWorldFiles(fs::path root) : root_(std::move(root)) {}

WorldError DiskWorldFiles::create(const fs::path& root) {
    std::error_code ec;
    fs::create_directories(root, ec);
    if (ec) return ioError(root.string(), "create the world folder", ec.message());
    if (!fs::is_directory(root, ec))
        return WorldError::make(WorldErrorKind::Io, root.string() + " is not a folder");
    return WorldError::none();
}

WorldError DiskWorldFiles::resolve(std::string_view path, fs::path& full) const {
    const WorldPathCheck check = checkWorldPath(path);
    if (!check.ok()) return check.error;
    full = root_;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t slash = std::min(path.find('/', start), path.size());
        full /= std::string(path.substr(start, slash - start));
        std::error_code ec;
        if (fs::is_symlink(fs::symlink_status(full, ec)))
            return WorldError::make(WorldErrorKind::InvalidPath, "invalid path \"" + std::string(path) +
                                                                     "\": it passes through a symbolic link");
        start = slash + 1;
    }
    return WorldError::none();
}

std::vector<std::string> DiskWorldFiles::list() const {
    return walk(true);
}

std::vector<std::string> DiskWorldFiles::listWorld() const {
    return walk(false);
}

std::vector<std::string> DiskWorldFiles::walk(bool records) const {
    std::vector<std::string> paths;
    std::error_code ec;
    fs::recursive_directory_iterator it(root_, fs::directory_options::none, ec);
    const fs::recursive_directory_iterator end;
    for (; !ec && it != end; it.increment(ec)) {
        const fs::directory_entry& entry = *it;
        std::error_code statusError;
        if (entry.is_symlink(statusError)) {
            if (entry.is_directory(statusError)) it.disable_recursion_pending();
            continue;
        }
        if (!records && it.depth() == 0 && entry.is_directory(statusError) &&
            (entry.path().filename() == "conversations" || entry.path().filename() == "logs")) {
            it.disable_recursion_pending();
            continue;
        }
        if (!entry.is_regular_file(statusError)) continue;
        std::string relative = entry.path().lexically_relative(root_).generic_string();
        if (checkWorldPath(relative).ok()) paths.push_back(std::move(relative));
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

ReadResult DiskWorldFiles::read(std::string_view path) const {
    fs::path full;
    if (WorldError error = resolve(path, full); !error.ok()) return {{}, error};
    std::error_code ec;
    const fs::file_status status = fs::status(full, ec);
    if (!fs::exists(status))
        return {{}, WorldError::make(WorldErrorKind::Missing, std::string(path) + " does not exist")};
    if (!fs::is_regular_file(status)) return {{}, ioError(path, "read", "not a regular file")};
    const std::uintmax_t size = fs::file_size(full, ec);
    if (ec) return {{}, ioError(path, "read", ec.message())};
    if (size > kMaxWorldFileBytes)
        return {{},
                WorldError::make(WorldErrorKind::TooLarge, std::string(path) + " is " + std::to_string(size) +
                                                               " bytes; a world file holds at most " +
                                                               std::to_string(kMaxWorldFileBytes) +
                                                               " bytes")};
    // The size above is a hint only (a device or a growing file reports less): the read is bounded.
    persist::ReadResult read = persist::readFileBounded(full.string(), kMaxWorldFileBytes);
    if (!read.ok())
        return {{}, read.tooLarge
                        ? WorldError::make(WorldErrorKind::TooLarge, std::string(path) + ": a world file holds at most " +
                                                                         std::to_string(kMaxWorldFileBytes) + " bytes")
                        : ioError(path, "read", read.error)};
    return {std::move(read.text), WorldError::none()};
}

WorldError DiskWorldFiles::write(std::string_view path, std::string_view content) {
    if (WorldError error = checkWorldWrite(path, content); !error.ok()) return error;
    fs::path full;
    if (WorldError error = resolve(path, full); !error.ok()) return error;
    std::error_code ec;
    fs::create_directories(full.parent_path(), ec);
    if (ec) return ioError(path, "create the folder for", ec.message());
    if (fs::is_directory(full, ec)) return ioError(path, "write", "a folder of that name exists");

    // Step 1. A new hidden temp file in the same folder (so the rename stays on one file system).
    static std::atomic<unsigned> counter{0};
    fs::path temp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        std::string name = ".";
        name += full.filename().string();
        for (const std::string& part :
             {std::to_string(::getpid()), std::to_string(counter++), std::string("tmp")})
            name += '.' + part;
        temp = full.parent_path() / name;
        fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST) return ioError(path, "create a temp file for", std::strerror(errno));
    }
    if (fd < 0) return ioError(path, "create a temp file for", "every temp name is taken");

    // Step 2. Content, flushed to the device, then the rename that replaces the file at once.
    const bool written = writeAll(fd, content);
    const int writeErrno = errno;
    const bool synced = written && ::fsync(fd) == 0;
    const int syncErrno = errno;
    const bool closed = ::close(fd) == 0;
    if (!written || !synced || !closed) {
        fs::remove(temp, ec);
        const int why = !written ? writeErrno : !synced ? syncErrno : errno;
        return ioError(path, "write", std::strerror(why));
    }
    fs::rename(temp, full, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        return ioError(path, "replace", ec.message());
    }
    return WorldError::none();
}

WorldError DiskWorldFiles::remove(std::string_view path) {
    fs::path full;
    if (WorldError error = resolve(path, full); !error.ok()) return error;
    std::error_code ec;
    const fs::file_status status = fs::status(full, ec);
    if (!fs::exists(status))
        return WorldError::make(WorldErrorKind::Missing, std::string(path) + " does not exist");
    if (!fs::is_regular_file(status)) return ioError(path, "remove", "not a regular file");
    if (!fs::remove(full, ec) || ec) return ioError(path, "remove", ec ? ec.message() : "not removed");
    // Folders left empty go too, so undoing a turn that made NPCs/new/ leaves no trace.
    const auto depth = std::count(path.begin(), path.end(), '/'); // folders between root and file
    fs::path folder = full.parent_path();
    for (auto i = depth; i > 0; --i, folder = folder.parent_path()) {
        if (!fs::is_empty(folder, ec) || ec) break;
        if (!fs::remove(folder, ec) || ec) break;
    }
    return WorldError::none();
}

} // namespace chaiba::story
