// The image tools (see story_images.h).
#include "src/modes/story/story_images.h"
#include "src/modes/story/transcript.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba::story {

namespace {

using json = nlohmann::json;

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::vector<std::string> words(std::string_view text) {
    std::vector<std::string> out;
    std::string word;
    for (char c : lower(text) + " ") {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            word += c;
        } else if (!word.empty()) {
            out.push_back(word);
            word.clear();
        }
    }
    return out;
}

std::string indexJson(const std::vector<ImageRecord>& records) {
    json list = json::array();
    for (const ImageRecord& r : records)
        list.push_back({{"slug", r.slug}, {"path", r.path}, {"prompt", r.prompt}, {"tags", r.tags}});
    return json{{"images", list}}.dump(1, ' ', false, json::error_handler_t::replace);
}

// Writes and records (before: the current content, if any).
WorldError writeRecorded(WorldFiles& files, TurnChanges& turn, const std::string& path,
                         const std::string& content) {
    const ReadResult current = files.read(path);
    if (WorldError error = files.write(path, content); !error.ok()) return error;
    turn.record(path, current.ok() ? std::optional<std::string>(current.content) : std::nullopt, content);
    return WorldError::none();
}

} // namespace

std::vector<ImageRecord> loadImageIndex(const WorldFiles& files) {
    std::vector<ImageRecord> records;
    const ReadResult read = files.read(kImageIndexPath);
    if (!read.ok()) return records;
    const json doc = json::parse(read.content, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("images") || !doc["images"].is_array())
        return records;
    for (const json& item : doc["images"]) {
        if (!item.is_object()) continue;
        // A field of another type reads as empty (json's value() would end the program on it).
        const auto text = [&item](const char* key) {
            const auto it = item.find(key);
            return it != item.end() && it->is_string() ? it->get<std::string>() : std::string();
        };
        ImageRecord r;
        r.slug = text("slug");
        r.path = text("path");
        r.prompt = text("prompt");
        if (item.contains("tags") && item["tags"].is_array())
            for (const json& tag : item["tags"])
                if (tag.is_string()) r.tags.push_back(tag.get<std::string>());
        if (!r.slug.empty() && checkWorldPath(r.path).ok()) records.push_back(std::move(r));
    }
    return records;
}

StoryToolResult searchImage(const WorldFiles& files, std::string_view argumentsJson) {
    const json args = json::parse(argumentsJson.begin(), argumentsJson.end(), nullptr, false);
    if (args.is_discarded() || !args.is_object() || !args.contains("query") || !args["query"].is_string())
        return StoryToolResult::error("search_image needs {\"query\": \"words\"}");
    const std::vector<std::string> wanted = words(args["query"].get<std::string>());
    std::string found;
    int count = 0;
    for (const ImageRecord& r : loadImageIndex(files)) {
        std::string haystack = lower(r.slug + " " + r.prompt);
        for (const std::string& tag : r.tags) haystack += " " + lower(tag);
        if (!std::all_of(wanted.begin(), wanted.end(),
                         [&](const std::string& w) { return haystack.find(w) != std::string::npos; }))
            continue;
        ++count;
        found += "- " + r.path + " (tags: ";
        for (std::size_t i = 0; i < r.tags.size(); ++i) found += (i ? ", " : "") + r.tags[i];
        found += "): ![" + r.slug + "](" + r.path + ")\n";
    }
    if (count == 0) return {false, "No image matches \"" + args["query"].get<std::string>() + "\".", {}, {}};
    return {false, std::to_string(count) + (count == 1 ? " image:\n" : " images:\n") + found, {}, {}};
}

llm::Result<ImageOrder> parseImageOrder(const WorldFiles& files, std::string_view argumentsJson) {
    using R = llm::Result<ImageOrder>;
    const json args = json::parse(argumentsJson.begin(), argumentsJson.end(), nullptr, false);
    if (args.is_discarded() || !args.is_object())
        return R::fail("create_image: the arguments must be a JSON object");
    ImageOrder order;
    for (const auto& [key, target] : {std::pair<const char*, std::string*>{"prompt", &order.prompt},
                                      {"slug", &order.slug},
                                      {"file", &order.file}}) {
        if (!args.contains(key) || !args[key].is_string() || args[key].get<std::string>().empty())
            return R::fail(std::string("create_image needs '") + key + "' (a non-empty string)");
        *target = args[key].get<std::string>();
    }
    if (order.slug.size() > 60 || !std::all_of(order.slug.begin(), order.slug.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        }))
        return R::fail("create_image: slug must be 1-60 lowercase letters, digits or '-'");
    if (args.contains("tags") && args["tags"].is_array())
        for (const json& tag : args["tags"])
            if (tag.is_string()) order.tags.push_back(tag.get<std::string>());
    const WorldPathCheck check = checkWorldPath(order.file);
    if (!check.ok()) return R::fail("create_image: " + check.error.message);
    if (check.kind != WorldPathKind::Markdown)
        return R::fail("create_image: file must be a markdown (.md) file");
    if (!files.exists(order.file))
        return R::fail("create_image: " + order.file + " does not exist; create it first");
    return R::ok(std::move(order));
}

std::string noImageModelText() {
    return "create_image is not available: no image model is configured for this game. Continue without "
           "a picture (search_image still finds existing ones).";
}

llm::ChatRequest imageRequest(const std::string& model, const ImageOrder& order) {
    llm::ChatRequest request;
    request.model = model;
    request.modalities = {"image", "text"};
    request.messages.push_back({llm::Role::User, "Create a picture: " + order.prompt, {}, {}, {}, false});
    return request;
}

llm::Result<DecodedImage> decodeImageDataUrl(std::string_view url) {
    using R = llm::Result<DecodedImage>;
    if (url.rfind("data:image/", 0) != 0) return R::fail("the image is not a data URL");
    const std::size_t comma = url.find(',');
    const std::string_view header = url.substr(0, comma == std::string_view::npos ? 0 : comma);
    if (comma == std::string_view::npos || header.find(";base64") == std::string_view::npos)
        return R::fail("the image data URL is not base64");
    const std::string_view type = header.substr(11, header.find(';') - 11);
    DecodedImage image;
    if (type == "png")
        image.extension = "png";
    else if (type == "jpeg" || type == "jpg")
        image.extension = "jpg";
    else if (type == "webp")
        image.extension = "webp";
    else if (type == "gif")
        image.extension = "gif";
    else
        return R::fail("unsupported image type image/" + std::string(type));
    // Refused before decoding: a picture over the world's per-file limit could never be stored.
    const std::size_t approxBytes = (url.size() - comma - 1) / 4 * 3;
    if (approxBytes > kMaxWorldFileBytes + 3)
        return R::fail("the picture is about " + std::to_string(approxBytes >> 10) +
                       " KiB; a world file holds at most " + std::to_string(kMaxWorldFileBytes >> 10) +
                       " KiB (ask the image model for a smaller picture)");
    std::optional<std::string> bytes = base64Decode(url.substr(comma + 1));
    if (!bytes || bytes->empty()) return R::fail("the image data is not valid base64");
    image.bytes = std::move(*bytes);
    return R::ok(std::move(image));
}

llm::Result<std::string> storeImage(WorldFiles& files, TurnChanges& turn, const ImageOrder& order,
                                    const DecodedImage& image) {
    using R = llm::Result<std::string>;
    std::string path = "images/" + order.slug + "." + image.extension;
    for (int n = 2; files.exists(path); ++n)
        path = "images/" + order.slug + "-" + std::to_string(n) + "." + image.extension;
    if (WorldError error = writeRecorded(files, turn, path, image.bytes); !error.ok())
        return R::fail(error.message);
    std::vector<ImageRecord> index = loadImageIndex(files);
    index.push_back({order.slug, path, order.prompt, order.tags});
    if (WorldError error = writeRecorded(files, turn, std::string(kImageIndexPath), indexJson(index));
        !error.ok())
        return R::fail(error.message);
    const ReadResult page = files.read(order.file);
    if (!page.ok()) return R::fail(page.error.message);
    std::string linked = page.content;
    if (!linked.empty() && linked.back() != '\n') linked += '\n';
    linked += "\n![" + order.slug + "](" + path + ")\n";
    if (WorldError error = writeRecorded(files, turn, order.file, linked); !error.ok())
        return R::fail(error.message);
    return R::ok(std::move(path));
}

} // namespace chaiba::story
