// Loading the game context (see game_context.h).
#include "src/modes/story/game_context.h"

#include <algorithm>

namespace chaiba::story {

bool isContextFile(std::string_view path) {
    const WorldPathCheck check = checkWorldPath(path);
    if (!check.ok() || check.kind != WorldPathKind::Markdown) return false;
    std::size_t start = 0;
    while (true) {
        const std::size_t slash = path.find('/', start);
        if (slash == std::string_view::npos) break;
        const std::string_view folder = path.substr(start, slash - start);
        if (folder == "images" || folder == "videos") return false;
        // The game's own folders (conversations, their turns and stored versions; agent logs).
        if (start == 0 && (folder == "conversations" || folder == "logs")) return false;
        start = slash + 1;
    }
    const std::string_view name = path.substr(start);
    return name != "system.md" && name != "style-guide.md";
}

std::optional<std::string> contextExclusion(std::string_view content) {
    if (content.size() > kMaxContextFileBytes)
        return "too large to send: " + std::to_string((content.size() + 1023) / 1024) + " KiB, the context takes " +
               std::to_string(kMaxContextFileBytes / 1024) + " KiB of one file at most";
    for (std::size_t i = 0; i < content.size(); ++i) { // a control byte anywhere: binary
        const unsigned char c = static_cast<unsigned char>(content[i]);
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return "binary, not text (a control byte at " + std::to_string(i + 1) + "): never sent";
    }
    for (std::size_t i = 0; i < content.size();) {
        const unsigned char c = static_cast<unsigned char>(content[i]);
        std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool ok = length != 0 && i + length <= content.size();
        for (std::size_t k = 1; ok && k < length; ++k)
            ok = (static_cast<unsigned char>(content[i + k]) & 0xC0) == 0x80;
        if (!ok) return "not UTF-8 text (byte " + std::to_string(i + 1) + "): never sent";
        i += length;
    }
    return std::nullopt;
}

GameContext loadGameContext(const WorldFiles& files) {
    GameContext context;
    std::vector<std::string> paths = files.listWorld();
    std::sort(paths.begin(), paths.end());
    for (const std::string& path : paths) {
        if (!isContextFile(path)) continue;
        const ReadResult file = files.read(path);
        if (!file.ok()) {
            context.warnings.push_back(file.error.message);
            continue;
        }
        if (std::optional<std::string> why = contextExclusion(file.content)) {
            context.leftOut.emplace_back(path, *why);
            context.warnings.push_back(path + " is not sent to the model: " + *why + ".");
            continue;
        }
        std::string_view content = file.content;
        while (!content.empty() &&
               (content.back() == '\n' || content.back() == ' ' || content.back() == '\r'))
            content.remove_suffix(1);
        if (!context.text.empty()) context.text += "\n\n---\n\n";
        context.text += "## " + path + "\n\n";
        context.text += content;
        context.paths.push_back(path);
    }
    return context;
}

std::string gameContextMessage(const GameContext& context) {
    return context.text.empty() ? std::string() : "# Game Context\n\n" + context.text;
}

} // namespace chaiba::story
