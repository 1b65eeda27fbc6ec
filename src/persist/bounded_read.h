// Reading a file with a size limit: every file the program reads (configs, bundles, logs, imports,
// plan and world files) goes through readFileBounded, so /dev/zero or a runaway file is a clear
// error ("... is larger than 64 MiB") instead of unbounded memory. Portable (std only).
#pragma once

#include <cstddef>
#include <string>

namespace chaiba::persist {

// Limits by kind of file, in bytes.
inline constexpr std::size_t kMaxConfigBytes = 4u << 20;     // a config, a plan, a world's text file
inline constexpr std::size_t kMaxDocumentBytes = 256u << 20; // a bundle, an import, a game record, a log

// The outcome of a bounded read: the text, or an error naming the file and the limit.
struct ReadResult {
    std::string text;
    std::string error; // empty on success
    bool missing = false;  // the file does not exist (error says so)
    bool tooLarge = false; // past maxBytes (error says so)
    bool ok() const { return error.empty(); }
};

// Reads at most maxBytes; a larger file (or an endless one: a device, a pipe) is an error.
ReadResult readFileBounded(const std::string& path, std::size_t maxBytes);

// "64 MiB", "512 KiB", "100 bytes": a size for messages.
std::string byteSizeText(std::size_t bytes);

} // namespace chaiba::persist
