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

GameContext loadGameContext(const WorldFiles& files) {
    GameContext context;
    std::vector<std::string> paths = files.list();
    std::sort(paths.begin(), paths.end());
    for (const std::string& path : paths) {
        if (!isContextFile(path)) continue;
        const ReadResult file = files.read(path);
        if (!file.ok()) {
            context.warnings.push_back(file.error.message);
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
