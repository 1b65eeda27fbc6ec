// The JSON reader's refusal of key-like members.
#include "src/persist/json_reader.h"

#include <array>
#include <cctype>

namespace chaiba::persist {

namespace {
// Member names that would carry a secret; a document with one is refused whole.
constexpr std::array<std::string_view, 6> kKeyFields = {
    "apikey", "api_key", "key", "authorization", "openrouter_api_key", "token"};
} // namespace

bool JsonDecoder::refuseKeyFields(const Json& obj, const std::string& path) {
    if (!obj.is_object()) return false;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        std::string lower = it.key();
        for (char& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
        for (std::string_view k : kKeyFields)
            if (lower == k) {
                fail(join(path, it.key().c_str()), "bundles never carry an API key");
                return true;
            }
    }
    return false;
}

} // namespace chaiba::persist
