// readFileBounded: reads in chunks and stops one byte past the limit (sizes from stat are not
// trusted: devices and pipes report 0).
#include "src/persist/bounded_read.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <filesystem>

namespace chaiba::persist {

std::string byteSizeText(std::size_t bytes) {
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

ReadResult readFileBounded(const std::string& path, std::size_t maxBytes) {
    ReadResult r;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        r.error = path + " is a folder, not a file";
        return r;
    }
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        const int err = errno;
        r.missing = err == ENOENT;
        r.error = "cannot read " + path + ": " + std::strerror(err);
        return r;
    }
    char buffer[65536];
    for (;;) {
        const std::size_t want = std::min(sizeof buffer, maxBytes + 1 - r.text.size());
        const std::size_t got = std::fread(buffer, 1, want, f);
        r.text.append(buffer, got);
        if (r.text.size() > maxBytes) {
            r.text.clear();
            r.text.shrink_to_fit();
            r.tooLarge = true;
            r.error = path + " is larger than " + byteSizeText(maxBytes) + " (the limit for this kind of file)";
            break;
        }
        if (got < want) {
            if (std::ferror(f)) r.error = "cannot read " + path + ": " + std::strerror(errno);
            break;
        }
    }
    std::fclose(f);
    return r;
}

} // namespace chaiba::persist
