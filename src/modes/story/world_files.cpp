// World path rules and the in-memory world (see world_files.h).
#include "src/modes/story/world_files.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace chaiba::story {

namespace {

std::string quoted(std::string_view path) {
    // Control characters would garble a message: show them as \xNN.
    std::string out = "\"";
    for (unsigned char c : path) {
        if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

WorldPathCheck invalid(std::string_view path, const std::string& why) {
    return {WorldPathKind::Markdown,
            WorldError::make(WorldErrorKind::InvalidPath, "invalid path " + quoted(path) + ": " + why)};
}

bool allowedNameChar(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ' ' ||
           c == '_' || c == '.' || c == '-';
}

std::string lowerAscii(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

bool endsWith(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

constexpr std::array<std::string_view, 5> kImageExtensions = {".png", ".jpg", ".jpeg", ".webp", ".gif"};

} // namespace

WorldPathCheck checkWorldPath(std::string_view path) {
    if (path.empty()) return invalid(path, "the path is empty");
    if (path.size() > kMaxWorldPathLength)
        return invalid(path, "the path is " + std::to_string(path.size()) + " bytes long (at most " +
                                 std::to_string(kMaxWorldPathLength) + ")");
    for (unsigned char c : path)
        if (c < 0x20 || c == 0x7f) return invalid(path, "control characters are not allowed");
    if (path.find('\\') != std::string_view::npos)
        return invalid(path, "backslashes are not allowed; separate folders with '/'");
    if (path.front() == '/')
        return invalid(path, "absolute paths are not allowed; give a path inside the world");

    std::size_t start = 0;
    std::string_view name;
    while (true) {
        const std::size_t slash = path.find('/', start);
        const std::string_view segment =
            path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
        if (segment.empty()) return invalid(path, "empty folder or file name ('//' or a trailing '/')");
        if (segment == "..") return invalid(path, "'..' is not allowed; paths stay inside the world");
        if (segment == ".") return invalid(path, "'.' segments are not allowed");
        if (segment.front() == '.') return invalid(path, "names must not start with '.'");
        if (segment.front() == ' ' || segment.back() == ' ')
            return invalid(path, "names must not start or end with a space");
        for (unsigned char c : segment) {
            if (!allowedNameChar(c)) {
                const std::string found =
                    c < 0x80 ? "'" + std::string(1, static_cast<char>(c)) + "'" : "non-ASCII";
                return invalid(path,
                               "names may use only letters A-Z a-z, digits, space, '_', '.' and '-' (found " +
                                   found + ")");
            }
        }
        if (slash == std::string_view::npos) {
            name = segment;
            break;
        }
        start = slash + 1;
    }

    if (path == kConfigPath) return {WorldPathKind::Config, WorldError::none()};
    const std::string lower = lowerAscii(name);
    if (endsWith(lower, ".md") && lower.size() > 3) return {WorldPathKind::Markdown, WorldError::none()};
    if (endsWith(lower, ".json") && lower.size() > 5) return {WorldPathKind::Data, WorldError::none()};
    for (std::string_view ext : kImageExtensions)
        if (endsWith(lower, ext) && lower.size() > ext.size())
            return {WorldPathKind::Image, WorldError::none()};
    return invalid(path,
                   "a world holds markdown (.md), images (.png .jpg .jpeg .webp .gif) and the top-level "
                   "config.yaml, and the app's .json data only");
}

WorldError checkWorldWrite(std::string_view path, std::string_view content) {
    const WorldPathCheck check = checkWorldPath(path);
    if (!check.ok()) return check.error;
    if (content.size() > kMaxWorldFileBytes)
        return WorldError::make(WorldErrorKind::TooLarge,
                                std::string(path) + " would be " + std::to_string(content.size()) +
                                    " bytes; a world file holds at most " +
                                    std::to_string(kMaxWorldFileBytes) + " bytes (1 MiB)");
    return WorldError::none();
}

MemoryWorldFiles::MemoryWorldFiles(const WorldFileMap& files) {
    for (const auto& [path, content] : files) {
        if (write(path, content).ok()) continue;
        ++rejectedCount_;
    }
}

std::string safeFileName(std::string_view text, std::string_view fallback, std::size_t maxBytes) {
    std::string out;
    for (char c : text) {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out += c;
        else if (c >= 'A' && c <= 'Z')
            out += static_cast<char>(c - 'A' + 'a');
        else if (!out.empty() && out.back() != '-')
            out += '-';
        if (out.size() >= maxBytes) break;
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out.empty() ? std::string(fallback) : out;
}

bool isGameRecordPath(std::string_view path) {
    return path.rfind("conversations/", 0) == 0 || path.rfind("logs/", 0) == 0;
}

std::vector<std::string> WorldFiles::listWorld() const {
    std::vector<std::string> paths = list();
    paths.erase(
        std::remove_if(paths.begin(), paths.end(), [](const std::string& p) { return isGameRecordPath(p); }),
        paths.end());
    return paths;
}

void WorldFiles::readLater(std::vector<std::string> paths, ReadsDone done) const {
    std::vector<ReadResult> files;
    files.reserve(paths.size());
    for (const std::string& path : paths) files.push_back(read(path));
    done(std::move(files));
}

std::vector<std::string> MemoryWorldFiles::list() const {
    std::vector<std::string> paths;
    paths.reserve(files_.size());
    for (const auto& entry : files_) paths.push_back(entry.first);
    return paths;
}

ReadResult MemoryWorldFiles::read(std::string_view path) const {
    const WorldPathCheck check = checkWorldPath(path);
    if (!check.ok()) return {{}, check.error};
    const auto it = files_.find(path);
    if (it == files_.end())
        return {{}, WorldError::make(WorldErrorKind::Missing, std::string(path) + " does not exist")};
    return {it->second, WorldError::none()};
}

WorldError MemoryWorldFiles::write(std::string_view path, std::string_view content) {
    if (WorldError error = checkWorldWrite(path, content); !error.ok()) return error;
    const auto it = files_.find(path);
    if (it != files_.end())
        it->second.assign(content);
    else
        files_.emplace(std::string(path), std::string(content));
    return WorldError::none();
}

WorldError MemoryWorldFiles::remove(std::string_view path) {
    const WorldPathCheck check = checkWorldPath(path);
    if (!check.ok()) return check.error;
    const auto it = files_.find(path);
    if (it == files_.end())
        return WorldError::make(WorldErrorKind::Missing, std::string(path) + " does not exist");
    files_.erase(it);
    return WorldError::none();
}

} // namespace chaiba::story
