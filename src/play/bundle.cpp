// The bundle envelope and secret redaction (see bundle.h).
#include "src/play/bundle.h"

#include <array>
#include <cctype>

namespace chaiba::play {

namespace {

constexpr std::string_view kRedacted = "[redacted]";
} // namespace

std::string redactSecrets(std::string text, std::string_view secret) {
    if (!secret.empty())
        for (size_t at = text.find(secret); at != std::string::npos;
             at = text.find(secret, at + kRedacted.size()))
            text.replace(at, secret.size(), kRedacted);
    auto keyChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
    };
    auto scrub = [&](std::string_view marker, size_t minRun) {
        for (size_t at = text.find(marker); at != std::string::npos;) {
            size_t end = at + marker.size();
            while (end < text.size() && keyChar(text[end])) ++end;
            if (end - at - marker.size() >= minRun) {
                text.replace(at, end - at, kRedacted);
                at = text.find(marker, at + kRedacted.size());
            } else {
                at = text.find(marker, at + 1);
            }
        }
    };
    scrub("sk-", 20);
    scrub("Bearer ", 1);
    return text;
}

Json envelopeJson(const BundleEnvelope& e) {
    Json doc{{"format", e.format}, {"version", e.version}};
    if (!e.mode.empty()) doc["mode"] = e.mode;
    return doc;
}

Parsed<OpenedBundle> openBundle(std::string_view text, const EnvelopeRule& rule) {
    using Result = Parsed<OpenedBundle>;
    if (text.size() > kMaxBundleBytes)
        return Result::fail("the bundle is too large (" + std::to_string(text.size() >> 20) + " MiB, at most " +
                            std::to_string(kMaxBundleBytes >> 20) + " MiB)");
    OpenedBundle b;
    b.doc = Json::parse(text.begin(), text.end(), nullptr, false);
    if (b.doc.is_discarded()) return Result::fail("not a JSON document");
    if (!b.doc.is_object()) return Result::fail("expected a JSON object at the top");
    JsonDecoder d;
    d.read(b.doc, "format", "", b.envelope.format);
    if (!d.failed() && b.envelope.format != rule.format)
        d.fail("format", "not " + std::string(rule.description));
    int version = 0;
    d.read(b.doc, "version", "", version, 0, 1000000);
    if (!d.failed() && (version < rule.minVersion || version > rule.maxVersion)) {
        std::string expected = std::to_string(rule.minVersion);
        for (int v = rule.minVersion + 1; v <= rule.maxVersion; ++v)
            expected += (v == rule.maxVersion ? " or " : ", ") + std::to_string(v);
        d.fail("version", "version " + std::to_string(version) + " is not supported (expected " + expected + ")");
    }
    b.envelope.version = version;
    if (!d.failed()) {
        if (version < rule.modeSince) {
            b.envelope.mode = std::string(rule.mode);
        } else {
            d.read(b.doc, "mode", "", b.envelope.mode);
            if (!d.failed() && b.envelope.mode != rule.mode)
                d.fail("mode", "a " + b.envelope.mode.substr(0, 40) + " bundle, not a " + std::string(rule.mode) +
                                   " one");
        }
    }
    if (d.failed()) return Result::fail(d.error());
    return {std::move(b), {}};
}

} // namespace chaiba::play
