// Args: see args.h.
#include "src/cli/args.h"

#include <charconv>

namespace chaiba::cli {

Args::Args(const std::vector<std::string>& argv, std::set<std::string> valueFlags,
           std::set<std::string> switches) {
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() > 2 && a.rfind("--", 0) == 0) {
            std::string name = a.substr(2);
            std::string inlineValue;
            bool hasInline = false;
            if (auto eq = name.find('='); eq != std::string::npos) {
                inlineValue = name.substr(eq + 1);
                name = name.substr(0, eq);
                hasInline = true;
            }
            if (valueFlags.count(name)) {
                if (hasInline) {
                    values_.emplace_back(name, inlineValue);
                } else if (i + 1 < argv.size()) {
                    values_.emplace_back(name, argv[++i]);
                } else if (!error_) {
                    error_ = "--" + name + " needs a value";
                }
                present_.insert(name);
            } else if (switches.count(name) && !hasInline) {
                present_.insert(name);
            } else if (!error_) {
                error_ = "unknown option --" + name;
            }
        } else {
            positional_.push_back(a);
        }
    }
}

bool Args::has(std::string_view flag) const { return present_.count(std::string(flag)) > 0; }

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
