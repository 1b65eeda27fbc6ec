// Reading config.yaml with yaml-cpp (see world_config.h). yaml-cpp reports syntax errors by
// throwing; this file is the only place that catches, and it turns them into messages (the web
// build compiles it and yaml-cpp with -fexceptions for that reason).
#include "src/modes/story/world_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

namespace chaiba::story {

namespace {

std::string trimmed(double value) {
    std::string text = std::to_string(value);
    while (text.find('.') != std::string::npos && (text.back() == '0' || text.back() == '.')) {
        const bool dot = text.back() == '.';
        text.pop_back();
        if (dot) break;
    }
    return text;
}

std::string lineOf(const YAML::Node& node) {
    const YAML::Mark mark = node.Mark();
    return mark.is_null() ? std::string() : " (line " + std::to_string(mark.line + 1) + ")";
}

const char* typeName(const YAML::Node& node) {
    switch (node.Type()) {
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Scalar: return "text";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Undefined: break;
    }
    return "nothing";
}

// Walks one mapping: each known key goes to its reader, unknown keys become warnings, duplicated
// keys and non-text keys errors. Returns the keys seen.
class MapReader {
public:
    MapReader(const YAML::Node& map, std::string prefix, ConfigParse& out)
        : map_(map), prefix_(std::move(prefix)), out_(out) {}

    template <class OnKey> std::set<std::string> read(const std::vector<std::string>& known, OnKey onKey) {
        std::set<std::string> seen;
        for (auto it = map_.begin(); it != map_.end(); ++it) {
            const YAML::Node key = it->first;
            if (!key.IsScalar()) {
                out_.errors.push_back(where("") + lineOf(key) + ": a key must be text, not " + typeName(key));
                continue;
            }
            const std::string name = key.Scalar();
            if (!seen.insert(name).second) {
                out_.errors.push_back(where(name) + lineOf(key) + ": the key appears more than once");
                continue;
            }
            if (std::find(known.begin(), known.end(), name) == known.end()) {
                std::string list;
                for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
                out_.warnings.push_back(where(name) + lineOf(key) +
                                        ": unknown key, ignored (known keys: " + list + ")");
                continue;
            }
            currentKeyMark_ = key.Mark(); // (assigning a YAML::Node would write into it)
            onKey(name, it->second);
        }
        return seen;
    }

    // The key's text; an error naming the key when it is not text.
    bool text(const std::string& name, const YAML::Node& value, std::string& into) {
        if (!value.IsScalar()) {
            out_.errors.push_back(where(name) + valueLine(value) + ": expected text, found " +
                                  typeName(value));
            return false;
        }
        into = value.Scalar();
        return true;
    }

    // The key's number within [min, max]; an error naming the key otherwise.
    bool number(const std::string& name, const YAML::Node& value, double min, double max, double& into) {
        double read = 0;
        if (!value.IsScalar() || !YAML::convert<double>::decode(value, read) || !(read >= min && read <= max)) {
            out_.errors.push_back(where(name) + valueLine(value) + ": expected a number from " + trimmed(min) +
                                  " to " + trimmed(max) + ", found " +
                                  (value.IsScalar() ? "\"" + value.Scalar() + "\"" : std::string(typeName(value))));
            return false;
        }
        into = read;
        return true;
    }

    void requireAll(const std::set<std::string>& seen, const std::vector<std::string>& required) {
        for (const std::string& name : required)
            if (!seen.count(name)) out_.errors.push_back(where(name) + ": missing (required)");
    }

    std::string where(const std::string& name) const {
        return prefix_.empty() ? name : name.empty() ? prefix_ : prefix_ + "." + name;
    }

    // The value's line; an empty value has none of its own (yaml-cpp gives the next token's), so
    // the line of its key.
    std::string valueLine(const YAML::Node& value) const {
        const YAML::Mark mark = value.IsNull() || value.Mark().is_null() ? currentKeyMark_ : value.Mark();
        return mark.is_null() ? std::string() : " (line " + std::to_string(mark.line + 1) + ")";
    }

private:
    const YAML::Node& map_;
    YAML::Mark currentKeyMark_ = YAML::Mark::null_mark();
    std::string prefix_;
    ConfigParse& out_;
};

bool expectMap(const MapReader& reader, const YAML::Node& value, const std::string& name, ConfigParse& out) {
    if (value.IsMap()) return true;
    out.errors.push_back(name + reader.valueLine(value) +
                         ": expected a mapping (keys on indented lines), found " + typeName(value));
    return false;
}

void readConfig(const YAML::Node& root, ConfigParse& out) {
    WorldConfig config;
    MapReader top(root, "", out);
    const std::set<std::string> seen = top.read(
        {"title", "setting", "tone", "institutions", "player", "opening", "models", "memory"},
        [&](const std::string& name, const YAML::Node& value) {
            if (name == "title") top.text(name, value, config.title);
            if (name == "setting") top.text(name, value, config.setting);
            if (name == "tone") top.text(name, value, config.tone);
            if (name == "opening") top.text(name, value, config.opening);
            if (name == "institutions") {
                if (!value.IsSequence()) {
                    out.errors.push_back("institutions" + top.valueLine(value) +
                                         ": expected a list of text, found " + typeName(value));
                    return;
                }
                for (std::size_t i = 0; i < value.size(); ++i) {
                    std::string item;
                    if (top.text("institutions[" + std::to_string(i) + "]", value[i], item))
                        config.institutions.push_back(std::move(item));
                }
            }
            if (name == "player" && expectMap(top, value, "player", out)) {
                MapReader player(value, "player", out);
                const auto playerSeen =
                    player.read({"name", "description"}, [&](const std::string& key, const YAML::Node& v) {
                        player.text(key, v, key == "name" ? config.player.name : config.player.description);
                    });
                player.requireAll(playerSeen, {"name"});
            }
            if (name == "models" && expectMap(top, value, "models", out)) {
                MapReader models(value, "models", out);
                models.read({"narrator", "orchestrator", "world", "faction"},
                            [&](const std::string& key, const YAML::Node& v) {
                                std::string& into = key == "narrator"       ? config.models.narrator
                                                    : key == "orchestrator" ? config.models.orchestrator
                                                    : key == "world"        ? config.models.world
                                                                            : config.models.faction;
                                models.text(key, v, into);
                            });
            }
            if (name == "memory" && expectMap(top, value, "memory", out)) {
                MapReader memory(value, "memory", out);
                memory.read({"context_tokens", "recent_turns", "turn_cost_cap_usd"},
                            [&](const std::string& key, const YAML::Node& v) {
                                double read = 0;
                                if (key == "context_tokens" && memory.number(key, v, 1000, 2000000, read))
                                    config.memory.contextTokens = static_cast<int>(read);
                                if (key == "recent_turns" && memory.number(key, v, 1, 100, read))
                                    config.memory.recentTurns = static_cast<int>(read);
                                if (key == "turn_cost_cap_usd" && memory.number(key, v, 0, 1000, read))
                                    config.memory.turnCostCapUsd = read;
                            });
            }
        });
    top.requireAll(seen, {"setting", "tone", "player"});
    for (const char* name : {"setting", "tone"}) {
        const std::string& value = std::string(name) == "setting" ? config.setting : config.tone;
        if (seen.count(name) && value.empty() && root[name].IsScalar())
            out.errors.push_back(std::string(name) + lineOf(root[name]) + ": must not be empty");
    }
    if (out.errors.empty()) {
        out.config = std::move(config);
        return;
    }
    // What failed takes the default world's value; everything read stays.
    const WorldConfig fallback = defaultWorldConfig();
    if (config.setting.empty()) config.setting = fallback.setting;
    if (config.tone.empty()) config.tone = fallback.tone;
    if (config.player.name.empty()) config.player = fallback.player;
    out.partial = std::move(config);
}

} // namespace

ConfigParse parseWorldConfig(std::string_view yamlText) {
    ConfigParse out;
    try {
        const YAML::Node root = YAML::Load(std::string(yamlText));
        if (root.IsNull()) {
            out.errors.push_back("config.yaml is empty (it needs at least setting, tone and player)");
            return out;
        }
        if (!root.IsMap()) {
            out.errors.push_back("config.yaml must be a mapping of keys (setting: ..., tone: ...), not " +
                                 std::string(typeName(root)));
            return out;
        }
        readConfig(root, out);
    } catch (const YAML::Exception& e) {
        out.config.reset();
        out.errors.push_back(e.mark.is_null()
                                 ? "config.yaml: " + e.msg
                                 : "config.yaml line " + std::to_string(e.mark.line + 1) + ", column " +
                                       std::to_string(e.mark.column + 1) + ": " + e.msg);
    }
    return out;
}

WorldConfig defaultWorldConfig() {
    WorldConfig config;
    config.title = "The Open Road";
    config.setting = "A temperate land of market towns, old roads and older ruins, where news travels at the "
                     "speed of a cart and every valley keeps its own customs.";
    config.tone = "Grounded adventure with room for wonder; consequences are real but rarely cruel.";
    config.player = {"the Traveller", "A wanderer with a worn pack, a little coin and no one waiting."};
    config.opening = "Dusk at a crossroads inn, the last room just taken by someone who looks like trouble.";
    return config;
}

LoadedWorldConfig loadWorldConfig(const WorldFiles& files) {
    LoadedWorldConfig loaded;
    const ReadResult file = files.read(kConfigPath);
    if (!file.ok()) {
        loaded.config = defaultWorldConfig();
        loaded.usedDefault = true;
        loaded.banner = file.missing() ? "config.yaml is missing: playing the default world \"" +
                                             loaded.config.title + "\"."
                                       : "config.yaml cannot be read (" + file.error.message +
                                             "): playing the default world \"" + loaded.config.title + "\".";
        return loaded;
    }
    ConfigParse parsed = parseWorldConfig(file.content);
    loaded.warnings = std::move(parsed.warnings);
    if (parsed.ok()) {
        loaded.config = std::move(*parsed.config);
        return loaded;
    }
    const std::string problems =
        parsed.errors.front() +
        (parsed.errors.size() > 1 ? "; and " + std::to_string(parsed.errors.size() - 1) + " more" : "");
    if (parsed.partial) {
        loaded.config = std::move(*parsed.partial);
        loaded.partlyDefault = true;
        loaded.banner = "config.yaml has a problem (" + problems +
                        "): its other values are used, what is wrong or missing takes the default world's.";
    } else {
        loaded.config = defaultWorldConfig();
        loaded.usedDefault = true;
        loaded.banner = "config.yaml is invalid (" + problems + "): playing the default world \"" +
                        loaded.config.title + "\" until it is fixed.";
    }
    loaded.warnings.insert(loaded.warnings.begin(), parsed.errors.begin(), parsed.errors.end());
    return loaded;
}

} // namespace chaiba::story
