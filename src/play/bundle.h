// The generic bundle: a versioned JSON envelope {"format", "version", "mode", ...} that every
// mode's bundle (export, import, browser storage, --out/--resume) starts with, read with the
// path-naming decoder of src/persist, the size limit, and the redaction of secrets in free text.
#pragma once

#include "src/persist/json_reader.h"
#include "src/play/parsed.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace chaiba::play {

using persist::Json;
using persist::JsonDecoder;

// The envelope of a bundle: which kind of document, which layout version, which mode.
struct BundleEnvelope {
    std::string format; // e.g. "chaiba-tournament"
    int version = 1;
    std::string mode;   // the mode whose games it holds; empty: not written (older layouts)
};
// Bundles larger than this are refused before parsing (a browser tab's storage is smaller).
inline constexpr size_t kMaxBundleBytes = size_t(64) << 20;

// A document starting with the envelope's members ("mode" only when set).
Json envelopeJson(const BundleEnvelope& envelope);

// What a reader accepts: its format and the versions it reads. Versions before modeSince carry
// no "mode" and read as `mode`; later ones must name it.
struct EnvelopeRule {
    std::string_view format;
    std::string_view description; // "a CHAIBA tournament bundle", for "not a ..." errors
    int minVersion = 1;
    int maxVersion = 1;
    std::string_view mode;
    int modeSince = 1;
};
struct OpenedBundle {
    Json doc;
    BundleEnvelope envelope;
};
// Parses and checks the envelope: size, JSON, an object at the top, format, version, mode.
// Errors: "not a JSON document", "format: not a CHAIBA tournament bundle", "version: version 7 is
// not supported (expected 1 or 2)", "mode: a werewolf bundle, not a story one".
Parsed<OpenedBundle> openBundle(std::string_view text, const EnvelopeRule& rule);

// Replaces `secret` and every key-like run ("sk-" + 20 key characters, "Bearer x...") by
// "[redacted]".
std::string redactSecrets(std::string text, std::string_view secret);

} // namespace chaiba::play
