// Args: see args.h.
#include "src/cli/args.h"

#include <algorithm>
#include <charconv>

namespace chaiba::cli {

namespace {

const Option* findOption(const Usage& usage, std::string_view name) {
    for (const Option& o : usage.options)
        if (o.name == name) return &o;
    return nullptr;
}

std::string optionLabel(const Option& o) {
    return "--" + o.name + (o.value.empty() ? "" : " " + o.value);
}

} // namespace

std::string usageLines(const Usage& usage) {
    std::string text;
    std::string_view forms = usage.synopsis;
    bool first = true;
    do { // one "chaiba NAME ..." line per form of the synopsis
        const size_t end = forms.find('\n');
        const std::string_view form = forms.substr(0, end);
        text += std::string(first ? "usage: " : "       ") + "chaiba " + usage.name + (form.empty() ? "" : " ") +
                std::string(form) + "\n";
        first = false;
        forms = end == std::string_view::npos ? std::string_view() : forms.substr(end + 1);
    } while (!forms.empty());
    return text;
}

std::string usageText(const Usage& usage) {
    std::string text = usageLines(usage);
    text += "\n" + usage.summary + "\n\noptions:\n";
    size_t width = std::string("-h, --help").size();
    for (const Option& o : usage.options) width = std::max(width, optionLabel(o).size());
    auto line = [&](const std::string& label, const std::string& help) {
        text += "  " + label + std::string(width - label.size() + 2, ' ') + help + "\n";
    };
    for (const Option& o : usage.options) line(optionLabel(o), o.help);
    line("-h, --help", "print this help and exit");
    if (!usage.notes.empty()) text += "\n" + usage.notes + (usage.notes.back() == '\n' ? "" : "\n");
    return text;
}

Args::Args(const std::vector<std::string>& argv, const Usage& usage) {
    auto fail = [&](const std::string& why) {
        if (!error_) error_ = why + " (chaiba " + usage.name + " --help lists the options)";
    };
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a == "-h" || a == "--help") {
            helpWanted_ = true;
        } else if (a.size() > 2 && a.rfind("--", 0) == 0) {
            std::string name = a.substr(2);
            std::string inlineValue;
            bool hasInline = false;
            if (auto eq = name.find('='); eq != std::string::npos) {
                inlineValue = name.substr(eq + 1);
                name = name.substr(0, eq);
                hasInline = true;
            }
            const Option* option = findOption(usage, name);
            if (!option) {
                fail("unknown option --" + name);
            } else if (!option->value.empty()) {
                if (hasInline) {
                    values_.emplace_back(name, inlineValue);
                } else if (i + 1 < argv.size()) {
                    values_.emplace_back(name, argv[++i]);
                } else {
                    fail("--" + name + " needs a value");
                }
                present_.push_back(name);
            } else if (hasInline) {
                fail("--" + name + " takes no value");
            } else {
                present_.push_back(name);
            }
        } else {
            positional_.push_back(a);
        }
    }
}

bool Args::has(std::string_view flag) const {
    return std::find(present_.begin(), present_.end(), flag) != present_.end();
}

std::optional<std::string> Args::value(std::string_view flag) const {
    for (auto it = values_.rbegin(); it != values_.rend(); ++it)
        if (it->first == flag) return it->second;
    return std::nullopt;
}

long long Args::integer(std::string_view flag, long long fallback, long long lo, long long hi) {
    auto text = value(flag);
    if (!text) return fallback;
    auto n = parseInteger(*text);
    if (!n || *n < lo || *n > hi) {
        if (!error_)
            error_ = "--" + std::string(flag) + " must be a whole number from " + std::to_string(lo) +
                     " to " + std::to_string(hi) + ", got '" + *text + "'";
        return fallback;
    }
    return *n;
}

std::optional<long long> parseInteger(std::string_view text) {
    long long n = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) return std::nullopt;
    return n;
}

std::string terminalSafe(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7F) {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        } else {
            out += ch;
        }
    }
    return out;
}

} // namespace chaiba::cli
