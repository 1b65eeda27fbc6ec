// The image tools: create_image through an OpenRouter image-output model (a chat completion with
// modalities ["image","text"]; the picture comes back as a data URL), stored as images/<slug>.<ext>
// with an index (images/index.json: slug, tags, prompt) and linked from a markdown file; and
// search_image over that index. Without an image model, create_image is a clear error.
#pragma once

#include "src/llm/chat.h"
#include "src/modes/story/story_tools.h"
#include "src/modes/story/turn_changes.h"
#include "src/modes/story/world_files.h"

#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

constexpr std::string_view kImageIndexPath = "images/index.json";

// What it is: one stored picture.
struct ImageRecord {
    std::string slug;
    std::string path; // images/<slug>.<ext>
    std::string prompt;
    std::vector<std::string> tags;
};

// The index (empty when there is none; an unreadable index reads as empty).
std::vector<ImageRecord> loadImageIndex(const WorldFiles& files);

// search_image {query}: the records whose slug, tags or prompt contain every word of the query.
StoryToolResult searchImage(const WorldFiles& files, std::string_view argumentsJson);

// create_image's arguments, checked: a slug of [a-z0-9-], a prompt, tags, an existing markdown file.
struct ImageOrder {
    std::string prompt;
    std::string slug;
    std::vector<std::string> tags;
    std::string file;
};
llm::Result<ImageOrder> parseImageOrder(const WorldFiles& files, std::string_view argumentsJson);

// The error create_image gives when no image model is configured.
std::string noImageModelText();

// The chat request that asks the image model for the picture.
llm::ChatRequest imageRequest(const std::string& model, const ImageOrder& order);

// A data URL's bytes and file extension ("data:image/png;base64,...": png, jpg, webp or gif).
struct DecodedImage {
    std::string bytes;
    std::string extension;
};
llm::Result<DecodedImage> decodeImageDataUrl(std::string_view url);

// Stores the picture (a free name: <slug>.<ext>, else <slug>-2.<ext>, ...), adds it to the index
// and appends "![<slug>](images/<file>)" to the order's file; every change is recorded in turn.
// Returns the stored path, or why not.
llm::Result<std::string> storeImage(WorldFiles& files, TurnChanges& turn, const ImageOrder& order,
                                    const DecodedImage& image);

} // namespace chaiba::story
