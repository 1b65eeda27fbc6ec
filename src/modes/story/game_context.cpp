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

namespace {

std::string trimmedText(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    return std::string(text);
}

std::string lowered(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

bool wordByte(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || static_cast<unsigned char>(c) >= 0x80;
}

// Where `key` (lower case) last appears in `text` (lower case) as whole words, or npos.
std::size_t lastMention(const std::string& text, const std::string& key) {
    if (key.empty()) return std::string::npos;
    std::size_t at = text.rfind(key);
    while (at != std::string::npos) {
        const bool startOk = at == 0 || !wordByte(text[at - 1]);
        const std::size_t end = at + key.size();
        // "lamp" names "lamps" and "lamp's" too: a plural s after the key is allowed.
        const bool endOk = end >= text.size() || !wordByte(text[end]) ||
                           (text[end] == 's' && (end + 1 >= text.size() || !wordByte(text[end + 1])));
        if (startOk && endOk) return at;
        if (at == 0) break;
        at = text.rfind(key, at - 1);
    }
    return std::string::npos;
}

} // namespace

FileKeys parseFileKeys(std::string_view content) {
    FileKeys out;
    std::size_t lineStart = 0;
    auto nextLine = [&](std::string_view& line) {
        if (lineStart >= content.size()) return false;
        std::size_t end = content.find('\n', lineStart);
        if (end == std::string_view::npos) end = content.size();
        line = content.substr(lineStart, end - lineStart);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lineStart = end + 1;
        return true;
    };
    std::string_view line;
    if (!nextLine(line) || line != "---") {
        out.always = true;
        return out;
    }
    FileKeys read;
    bool closed = false;
    for (int lines = 0; lines < 20 && nextLine(line); ++lines) {
        if (line == "---") {
            closed = true;
            break;
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) break;
        const std::string name = lowered(trimmedText(line.substr(0, colon)));
        const std::string value = trimmedText(line.substr(colon + 1));
        if (name == "keys") {
            std::string list = value;
            if (list.size() >= 2 && list.front() == '[' && list.back() == ']') list = list.substr(1, list.size() - 2);
            std::size_t from = 0;
            while (from <= list.size()) {
                std::size_t comma = list.find(',', from);
                if (comma == std::string::npos) comma = list.size();
                std::string key = trimmedText(std::string_view(list).substr(from, comma - from));
                if (key.size() >= 2 && (key.front() == '"' || key.front() == '\'') && key.back() == key.front())
                    key = key.substr(1, key.size() - 2);
                if (!key.empty()) read.keys.push_back(std::move(key));
                from = comma + 1;
            }
        } else if (name == "always") {
            const std::string v = lowered(value);
            read.always = v == "true" || v == "yes" || v == "on";
        }
    }
    if (!closed) { // not a front matter of ours: the file is text like any other
        out.always = true;
        return out;
    }
    read.bodyAt = std::min(lineStart, content.size());
    if (read.keys.empty()) read.always = true;
    return read;
}

long long estimateTokens(std::string_view text) {
    return static_cast<long long>((text.size() + 3) / 4);
}

const char* fileInclusionName(FileInclusion inclusion) {
    switch (inclusion) {
    case FileInclusion::Always: return "always";
    case FileInclusion::Named: return "named";
    case FileInclusion::NotNamed: return "not named";
    case FileInclusion::OverBudget: return "over budget";
    case FileInclusion::NotSent: return "not sent";
    }
    return "always";
}

GameContext loadGameContext(const WorldFiles& files, const ContextSelection& selection) {
    GameContext context;
    std::vector<std::string> paths = files.listWorld();
    std::sort(paths.begin(), paths.end());
    // Step 1. Every context file's state and its section's text (when it may be sent).
    std::vector<std::string> sections(paths.size());
    std::vector<std::size_t> named; // indices into context.files, with the place of their mention
    std::vector<std::size_t> mentionAt;
    const std::string mentions = lowered(selection.mentions);
    for (const std::string& path : paths) {
        if (!isContextFile(path)) continue;
        ContextFileState state;
        state.path = path;
        const ReadResult file = files.read(path);
        if (!file.ok()) {
            state.inclusion = FileInclusion::NotSent;
            state.why = "cannot be read: " + file.error.message;
            context.warnings.push_back(file.error.message);
            context.files.push_back(std::move(state));
            continue;
        }
        if (std::optional<std::string> why = contextExclusion(file.content)) {
            state.inclusion = FileInclusion::NotSent;
            state.why = *why;
            context.leftOut.emplace_back(path, *why);
            context.warnings.push_back(path + " is not sent to the model: " + *why + ".");
            context.files.push_back(std::move(state));
            continue;
        }
        const FileKeys keys = parseFileKeys(file.content);
        std::string_view content = std::string_view(file.content).substr(keys.bodyAt);
        while (!content.empty() && (content.back() == '\n' || content.back() == ' ' || content.back() == '\r'))
            content.remove_suffix(1);
        std::string section = "## " + path + "\n\n";
        section += content;
        state.keys = keys.keys;
        state.tokens = estimateTokens(section);
        state.inclusion = keys.always ? FileInclusion::Always : FileInclusion::NotNamed;
        if (!keys.always) {
            std::size_t best = std::string::npos;
            for (const std::string& key : keys.keys) {
                const std::size_t at = lastMention(mentions, lowered(key));
                if (at != std::string::npos && (best == std::string::npos || at > best)) {
                    best = at;
                    state.namedKey = key;
                }
            }
            if (best != std::string::npos) {
                state.inclusion = FileInclusion::Named;
                named.push_back(context.files.size());
                mentionAt.push_back(best);
            }
        }
        sections[context.files.size()] = std::move(section);
        context.files.push_back(std::move(state));
    }
    // Step 2. Named files, the most recently named first, while they fit what the budget leaves.
    std::vector<std::size_t> order(named.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return mentionAt[a] > mentionAt[b]; });
    long long left = selection.filesBudgetTokens;
    if (left >= 0)
        for (const ContextFileState& state : context.files)
            if (state.inclusion == FileInclusion::Always) left = std::max(0LL, left - state.tokens);
    for (std::size_t i : order) {
        ContextFileState& state = context.files[named[i]];
        if (left >= 0 && state.tokens > left) {
            state.inclusion = FileInclusion::OverBudget;
            continue;
        }
        if (left >= 0) left -= state.tokens;
    }
    // Step 3. The sections sent, in path order (a stable prefix from turn to turn).
    for (std::size_t i = 0; i < context.files.size(); ++i) {
        if (!context.files[i].sent()) continue;
        if (!context.text.empty()) context.text += "\n\n---\n\n";
        context.text += sections[i];
        context.paths.push_back(context.files[i].path);
    }
    return context;
}

std::string gameContextMessage(const GameContext& context) {
    return context.text.empty() ? std::string() : "# Game Context\n\n" + context.text;
}

} // namespace chaiba::story
