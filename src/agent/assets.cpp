// Asset loading: whole files, trailing whitespace trimmed, the tool schema validated once here.
#include "src/agent/assets.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>
#include <utility>

namespace chaiba::agent {

using nlohmann::json;

namespace {
std::string trimEnd(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
        s.pop_back();
    return s;
}
// A tool schema file: {name, description, parameters}.
std::optional<std::string> loadTool(const AssetSource& assets, const std::string& path, ToolDefinition& out) {
    Result<std::string> tool = assets.read(path);
    if (!tool.isOk()) return tool.error;
    const json doc = json::parse(*tool.value, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return path + " is not JSON";
    auto name = doc.find("name");
    auto description = doc.find("description");
    auto parameters = doc.find("parameters");
    if (name == doc.end() || !name->is_string() || description == doc.end() || !description->is_string() ||
        parameters == doc.end() || !parameters->is_object())
        return path + " needs name, description and parameters";
    out.name = name->get<std::string>();
    out.description = description->get<std::string>();
    out.parametersJson = parameters->dump();
    return std::nullopt;
}
} // namespace

Result<std::string> DirectoryAssetSource::read(std::string_view path) const {
    if (path.find("..") != std::string_view::npos)
        return Result<std::string>::fail("asset path escapes the root");
    const std::string full = root_ + "/" + std::string(path);
    std::FILE* f = std::fopen(full.c_str(), "rb");
    if (!f) return Result<std::string>::fail("cannot read asset " + full);
    std::string text;
    char buffer[4096];
    for (;;) {
        const std::size_t n = std::fread(buffer, 1, sizeof buffer, f);
        text.append(buffer, n);
        if (n < sizeof buffer) break;
    }
    const bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed) return Result<std::string>::fail("error reading asset " + full);
    return Result<std::string>::ok(std::move(text));
}

Result<std::string> MemoryAssetSource::read(std::string_view path) const {
    auto it = files_.find(path);
    if (it == files_.end()) return Result<std::string>::fail("no asset " + std::string(path));
    return Result<std::string>::ok(it->second);
}

Result<AgentPrompts> loadAgentPrompts(const AssetSource& assets) {
    AgentPrompts p;
    struct Item {
        const char* path;
        std::string* out;
    };
    const Item items[] = {{"prompts/system_base.md", &p.systemBase},
                          {"prompts/system_white.md", &p.systemWhite},
                          {"prompts/system_black.md", &p.systemBlack},
                          {"prompts/text_mode.md", &p.textMode},
                          {"prompts/game_start.md", &p.gameStart},
                          {"prompts/game_start_reply.md", &p.gameStartReply},
                          {"prompts/context.md", &p.context},
                          {"prompts/invalid_move.md", &p.invalidMove},
                          {"prompts/no_move.md", &p.noMove},
                          {"prompts/draw_offer.md", &p.drawOffer},
                          {"prompts/draw_offer_text.md", &p.drawOfferText},
                          {"prompts/draw_answer_invalid.md", &p.drawAnswerInvalid}};
    for (const Item& item : items) {
        Result<std::string> r = assets.read(item.path);
        if (!r.isOk()) return Result<AgentPrompts>::fail(r.error);
        *item.out = trimEnd(std::move(*r.value));
    }
    for (auto [path, tool] : {std::pair{"tools/make_move.json", &p.makeMove},
                              std::pair{"tools/respond_to_draw_offer.json", &p.respondToDraw}})
        if (auto error = loadTool(assets, path, *tool)) return Result<AgentPrompts>::fail(*error);
    return Result<AgentPrompts>::ok(std::move(p));
}

Result<DefaultModels> loadDefaultModels(const AssetSource& assets) {
    Result<std::string> text = assets.read("models/default_models.json");
    if (!text.isOk()) return Result<DefaultModels>::fail(text.error);
    const json doc = json::parse(*text.value, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return Result<DefaultModels>::fail("default_models.json is not JSON");
    DefaultModels d;
    if (auto models = doc.find("models"); models != doc.end() && models->is_array())
        for (const json& m : *models)
            if (m.is_string() && !m.get<std::string>().empty()) d.models.push_back(m.get<std::string>());
    if (auto last = doc.find("lastResort");
        last != doc.end() && last->is_string() && !last->get<std::string>().empty())
        d.lastResort = last->get<std::string>();
    if (d.models.empty()) return Result<DefaultModels>::fail("default_models.json lists no models");
    return Result<DefaultModels>::ok(std::move(d));
}

std::string fillTemplate(std::string_view text, const std::map<std::string, std::string>& values) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '{') {
            const std::size_t close = text.find('}', i + 1);
            if (close != std::string_view::npos) {
                auto it = values.find(std::string(text.substr(i + 1, close - i - 1)));
                if (it != values.end()) {
                    out += it->second;
                    i = close + 1;
                    continue;
                }
            }
        }
        out += text[i++];
    }
    return out;
}

} // namespace chaiba::agent
