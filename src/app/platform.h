// What the app asks of the platform it runs on (the browser, or a test double): clipboard,
// downloads, time. Implemented in web/ for the page.
#pragma once

#include <string>

namespace chaiba {

class Platform {
public:
    virtual ~Platform() = default;
    virtual void copyToClipboard(const std::string& text) = 0;
    virtual void downloadTextFile(const std::string& fileName, const std::string& mimeType,
                                  const std::string& text) = 0;
    virtual double nowMs() const = 0;  // monotonic milliseconds
};

} // namespace chaiba
