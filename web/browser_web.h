// Closes the gaps between emscripten 3.1.6's GLFW and a polished page: clipboard paste/copy,
// HiDPI canvas sizing, wheel scaling, touch taps, browser-shortcut swallowing and wake-on-input.
#pragma once

#include "src/ui/platform.h"

#include <optional>
#include <string>

struct GLFWwindow;

namespace chaiba::web {

struct CanvasSize {
    int cssWidth = 0;
    int cssHeight = 0;
    float pixelRatio = 1.0f;
    int pixelWidth() const;
    int pixelHeight() const;
};

// Reads the canvas' CSS size and the device pixel ratio, and sizes its backing store to match.
CanvasSize fitCanvasToWindow();

// Installs the DOM listeners (paste, keydown capture, wheel, touch, resize, wake) and ImGui's
// clipboard functions. Call once after ImGui_ImplGlfw_InitForOpenGL.
void installBrowserFixes(GLFWwindow* window);

// Per-frame hooks around ImGui_ImplGlfw_NewFrame(): before() applies pending synthetic paste
// key presses; after() overrides display size, touch position and wheel.
void beforeImGuiNewFrame();
void afterImGuiNewFrame(const CanvasSize& canvas);
// Right after ImGui::NewFrame(): a key repeats only once the browser says it is held (its own
// repeat keydowns), not because frames came far apart while its release was on its way.
void afterNewFrame();

// Tells the page whether ImGui wants the keyboard (so browser shortcuts are swallowed).
void setKeyboardCaptured(bool captured);

// The wheel delta (in notches, + = away from the user) of the last frame that had one.
float lastWheelY();

// Input or a resize happened since the last call (and clears the flag).
bool takeWakeRequest();
// Asks for a redraw (the automation API changed something the app's counters do not show).
void requestWake();
bool takeResizeRequest();

// Shows the page's error card with a title and detail (shell.html).
void showFatalError(const std::string& title, const std::string& detail);
void hideLoadingOverlay();

// Clipboard write through navigator.clipboard (with a textarea fallback).
void copyToClipboard(const std::string& text);
// Offers text as a file download.
void downloadTextFile(const std::string& fileName, const std::string& mimeType, const std::string& text);
// The browser's file chooser for one text file; the file (or why it failed) comes from
// takePickedFile() once read (an error instead when it is over maxBytes, 0: no limit; the file is
// then not read). Cancelling delivers nothing. binary: the bytes arrive base64-encoded as the text.
void pickTextFile(const std::string& accept, std::size_t maxBytes, bool binary);
std::optional<PickedFile> takePickedFile();

} // namespace chaiba::web
