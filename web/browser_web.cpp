// Browser glue for the ImGui page (see browser_web.h). The JavaScript halves live in EM_JS
// functions here; they call back into the exported chaiba_* functions below.
#include "web/browser_web.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

struct BrowserState {
    bool wake = true;
    bool resize = true;
    // Clipboard: the text of the last DOM paste event, handed to ImGui once.
    std::string clipboard;
    bool clipboardFresh = false;
    int syntheticPasteFrames = 0;  // 2: press Ctrl+V next frame, 1: release it
    // Touch: position in canvas pixels, whether a finger is down, and a tap that both started and
    // ended between two frames (kept pressed for one frame so ImGui sees it).
    bool touchActive = false;
    bool touchDown = false;
    bool touchTapPending = false;
    bool touchReleasePending = false;  // the release frame keeps the finger's position (click on release)
    float touchX = 0, touchY = 0;
    // Two fingers: their distance at the last event (0: no pinch), and the zoom gathered since the
    // last frame (the log of the distance's ratio), handed on as Ctrl + wheel (what a trackpad's
    // pinch sends), which the graph views zoom by.
    float pinchDistance = 0;
    float pinchLog = 0;
    bool pinchCtrlSet = false; // this frame's Ctrl came from a pinch: restored at the next
    bool ctrlBeforePinch = false;
    bool mouseMovedSinceTouch = false;
    // Wheel, in ImGui units (1 = one notch), accumulated between frames.
    float wheelX = 0, wheelY = 0;
    float lastWheelY = 0;  // what the last frame with wheel input gave ImGui (for tests)
    // Keys: ImGui 1.86 reads key state once per frame, so a key pressed and released between two
    // frames (a quick tap while the loop idles, e.g. right after a click) was never seen, and two
    // taps of one key between two frames counted once (the arrow keys stepping through a game).
    // A text field also takes a frame's typed characters before its keys, so Backspace and then
    // "x" in one slow frame deleted the x. An event that would undo or overtake what no frame has
    // seen yet therefore waits in `keyQueue` for the next frame, and so does every later event
    // that depends on it (the same key; characters and editing keys among themselves); the others
    // go on, so typing is not slowed down to a key a frame.
    struct QueuedKey {
        int key, scancode, action, mods;  // action kTypedChar: a typed character, `key` its code point
    };
    std::map<int, long long> changedAt;  // key -> `frames` when its last press or release reached ImGui
    long long lastEditPressAt = -1;      // `frames` when the last editing key press reached ImGui
    std::deque<QueuedKey> keyQueue;
    long long frames = 0;
    // A quick click (press and release between two frames) takes two frames: the press, then the
    // release where buttons fire. A key pressed right after it waits for the release frame, so a
    // click on a move and then an arrow key steps from the clicked move, in the order they came.
    long long mouseSettledFrame = 0;  // the first frame a key event may reach without overtaking a click
    std::vector<QueuedKey> keysAfterClick;
    // Keys the browser reports held (a repeat keydown since their press). ImGui 1.86 repeats a key
    // from frame times alone: a tap whose release came late (a loaded machine, one slow frame) was
    // held past its 0.275 s repeat delay and counted twice (an arrow key stepped two moves back).
    // Other keys never pass the delay (afterNewFrame).
    std::set<int> heldByBrowser;
};

BrowserState& state() {
    static BrowserState s;
    return s;
}

const char* getClipboardText(void*) {
    BrowserState& s = state();
    if (!s.clipboardFresh) return "";
    s.clipboardFresh = false;
    return s.clipboard.c_str();
}

void setClipboardText(void*, const char* text) { chaiba::web::copyToClipboard(text ? text : ""); }

EM_JS(void, js_install_listeners, (), {
    var canvas = Module['canvas'];
    var wake = function() { Module['_chaiba_wake'](); };
    ['mousemove', 'mousedown', 'mouseup', 'keydown', 'keyup', 'keypress', 'wheel', 'touchstart',
     'touchmove', 'touchend', 'focus', 'blur', 'visibilitychange', 'pointerdown'].forEach(function(type) {
        window.addEventListener(type, wake, true);
    });
    // Browser shortcuts (Ctrl+F/S/P/..., Alt+arrows) must not fire while a text field has the
    // keyboard; copy, cut and paste keep their default so the DOM clipboard events happen. Plain
    // keys are never prevented: keypress (which carries typed characters) would be lost.
    window.addEventListener('keydown', function(e) {
        if (!Module['chaibaKeyboardCaptured']) return;
        var k = (e.key || "").toLowerCase();
        var mod = e.ctrlKey || e.metaKey;
        if (mod && (k === 'c' || k === 'v' || k === 'x')) return;
        if (mod || (e.altKey && k.indexOf('arrow') === 0) || k === 'f3' || k === 'f7') e.preventDefault();
    }, true);
    document.addEventListener('paste', function(e) {
        var text = (e.clipboardData || window.clipboardData).getData('text');
        if (!text) return;
        e.preventDefault();
        var len = lengthBytesUTF8(text) + 1;
        var ptr = _malloc(len);
        stringToUTF8(text, ptr, len);
        Module['_chaiba_on_paste'](ptr);
        _free(ptr);
    });
    // The canvas takes keyboard focus on any press, so keys and paste reach it.
    canvas.addEventListener('mousedown', function() { canvas.focus(); }, true);
    canvas.addEventListener('touchstart', function() { canvas.focus(); }, {capture: true, passive: true});
    setTimeout(function() { canvas.focus(); }, 0);
});

EM_JS(void, js_set_keyboard_captured, (int captured), { Module['chaibaKeyboardCaptured'] = !!captured; });

EM_JS(void, js_show_fatal, (const char* title, const char* detail), {
    if (window.chaibaShowError) window.chaibaShowError(UTF8ToString(title), UTF8ToString(detail));
});

EM_JS(void, js_hide_overlay, (), {
    if (window.chaibaHideOverlay) window.chaibaHideOverlay();
});

EM_JS(void, js_copy_to_clipboard, (const char* textPtr), {
    var text = UTF8ToString(textPtr);
    var fallback = function() {
        var area = document.createElement('textarea');
        area.value = text;
        area.setAttribute('readonly', "");
        area.style.position = 'fixed';
        area.style.left = '-9999px';
        document.body.appendChild(area);
        area.select();
        try { document.execCommand('copy'); } catch (e) { console.warn('CHAIBA: copy failed: ' + e); }
        document.body.removeChild(area);
        Module['canvas'].focus();
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).catch(fallback);
    } else {
        fallback();
    }
});

EM_JS(void, js_download, (const char* namePtr, const char* mimePtr, const char* textPtr), {
    var blob = new Blob([UTF8ToString(textPtr)], {type: UTF8ToString(mimePtr)});
    var url = URL.createObjectURL(blob);
    var a = document.createElement('a');
    a.href = url;
    a.download = UTF8ToString(namePtr);
    document.body.appendChild(a);
    a.click();
    document.body.removeChild(a);
    setTimeout(function() { URL.revokeObjectURL(url); }, 1000);
});

EM_JS(void, js_pick_file, (const char* acceptPtr, double maxBytes, int binary), {
    var input = document.createElement('input');
    input.type = 'file';
    input.accept = UTF8ToString(acceptPtr);
    input.style.display = 'none';
    input.addEventListener('change', function() {
        var file = input.files && input.files[0];
        document.body.removeChild(input);
        if (!file) return;
        if (maxBytes > 0 && file.size > maxBytes) {
            var kib = function(n) { return Math.ceil(n / 1024) + ' KiB'; };
            Module['chaibaPicked'] = {name: file.name, text: "", error: 'the file is ' + kib(file.size) +
                ', over the limit of ' + kib(maxBytes) + ' (it was not read)'};
            return;
        }
        var reader = new FileReader();
        reader.onload = function() {
            var text = String(reader.result);
            if (binary) text = text.substring(text.indexOf(',') + 1); // a data: URL's base64
            Module['chaibaPicked'] = {name: file.name, text: text, error: ""};
        };
        reader.onerror = function() {
            Module['chaibaPicked'] = {name: file.name, text: "", error: 'the file could not be read (' +
                (reader.error && reader.error.name ? reader.error.name : 'unknown error') + ')'};
        };
        if (binary) reader.readAsDataURL(file); else reader.readAsText(file);
    });
    document.body.appendChild(input);
    input.click();
});

// Fills the three fields of the picked file (malloc'd copies) and forgets it; 0 when none.
EM_JS(int, js_take_picked, (char** name, char** text, char** error), {
    var p = Module['chaibaPicked'];
    if (!p) return 0;
    Module['chaibaPicked'] = null;
    var copy = function(s) {
        var len = lengthBytesUTF8(s) + 1;
        var ptr = _malloc(len);
        stringToUTF8(s, ptr, len);
        return ptr;
    };
    HEAPU32[name >> 2] = copy(p.name);
    HEAPU32[text >> 2] = copy(p.text);
    HEAPU32[error >> 2] = copy(p.error);
    return 1;
});

EM_BOOL onResize(int, const EmscriptenUiEvent*, void*) {
    state().resize = true;
    state().wake = true;
    return EM_FALSE;
}

float canvasScale() {
    double cssW = 0, cssH = 0;
    emscripten_get_element_css_size("#canvas", &cssW, &cssH);
    int w = 0, h = 0;
    emscripten_get_canvas_element_size("#canvas", &w, &h);
    return cssW > 0 ? static_cast<float>(w / cssW) : 1.0f;
}

EM_BOOL onWheel(int, const EmscriptenWheelEvent* e, void*) {
    // DOM deltas: pixels (~100 per notch), lines (3 per notch) or pages; ImGui wants notches, with
    // positive = away from the user (the DOM's sign is the opposite).
    double perNotch = 100.0;
    if (e->deltaMode == DOM_DELTA_LINE) perNotch = 3.0;
    if (e->deltaMode == DOM_DELTA_PAGE) perNotch = 0.5;
    state().wheelX -= static_cast<float>(e->deltaX / perNotch);
    state().wheelY -= static_cast<float>(e->deltaY / perNotch);
    state().wake = true;
    return EM_TRUE;  // no page scroll or zoom gesture
}

EM_BOOL onTouch(int type, const EmscriptenTouchEvent* e, void*) {
    BrowserState& s = state();
    const float scale = canvasScale();
    const EmscriptenTouchPoint* primary = nullptr;
    for (int i = 0; i < e->numTouches; ++i)
        if (e->touches[i].isChanged || primary == nullptr) primary = &e->touches[i];
    if (primary) {
        s.touchX = static_cast<float>(primary->targetX) * scale;
        s.touchY = static_cast<float>(primary->targetY) * scale;
    }
    // Two fingers down: a pinch, its midpoint the cursor.
    const EmscriptenTouchPoint* fingers[2] = {nullptr, nullptr};
    int down = 0;
    for (int i = 0; i < e->numTouches && down < 2; ++i) {
        const bool lifted = e->touches[i].isChanged &&
                            (type == EMSCRIPTEN_EVENT_TOUCHEND || type == EMSCRIPTEN_EVENT_TOUCHCANCEL);
        if (!lifted) fingers[down++] = &e->touches[i];
    }
    if (down == 2) {
        const float dx = static_cast<float>(fingers[0]->targetX - fingers[1]->targetX) * scale;
        const float dy = static_cast<float>(fingers[0]->targetY - fingers[1]->targetY) * scale;
        const float distance = std::sqrt(dx * dx + dy * dy);
        if (s.pinchDistance > 0 && distance > 0) s.pinchLog += std::log(distance / s.pinchDistance);
        s.pinchDistance = distance;
        s.touchX = static_cast<float>(fingers[0]->targetX + fingers[1]->targetX) * 0.5f * scale;
        s.touchY = static_cast<float>(fingers[0]->targetY + fingers[1]->targetY) * 0.5f * scale;
    } else {
        s.pinchDistance = 0;
    }
    s.touchActive = true;
    s.mouseMovedSinceTouch = false;
    if (type == EMSCRIPTEN_EVENT_TOUCHSTART) {
        s.touchDown = true;
        s.touchTapPending = true;
    } else if (type == EMSCRIPTEN_EVENT_TOUCHEND || type == EMSCRIPTEN_EVENT_TOUCHCANCEL) {
        s.touchDown = false;
        s.touchReleasePending = true;
    }
    s.wake = true;
    return EM_TRUE;  // no emulated mouse events, no page scroll/zoom
}

EM_BOOL onMouseMove(int, const EmscriptenMouseEvent*, void*) {
    state().mouseMovedSinceTouch = true;
    return EM_FALSE;
}

} // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void chaiba_wake() { state().wake = true; }

EMSCRIPTEN_KEEPALIVE void chaiba_on_paste(const char* text) {
    BrowserState& s = state();
    s.clipboard = text ? text : "";
    s.clipboardFresh = true;
    // A paste that did not come with Ctrl+V (context menu, or the keydown was already handled
    // before the text arrived) is replayed as a synthetic Ctrl+V; the clipboard text is handed
    // out only once, so ImGui never pastes twice.
    s.syntheticPasteFrames = 2;
    s.wake = true;
}

} // extern "C"

namespace chaiba::web {

int CanvasSize::pixelWidth() const { return std::max(1, static_cast<int>(std::lround(cssWidth * pixelRatio))); }
int CanvasSize::pixelHeight() const { return std::max(1, static_cast<int>(std::lround(cssHeight * pixelRatio))); }

CanvasSize fitCanvasToWindow() {
    CanvasSize size;
    double cssW = 0, cssH = 0;
    emscripten_get_element_css_size("#canvas", &cssW, &cssH);
    size.cssWidth = std::max(1, static_cast<int>(std::lround(cssW)));
    size.cssHeight = std::max(1, static_cast<int>(std::lround(cssH)));
    size.pixelRatio = std::clamp(static_cast<float>(emscripten_get_device_pixel_ratio()), 0.5f, 4.0f);
    emscripten_set_canvas_element_size("#canvas", size.pixelWidth(), size.pixelHeight());
    return size;
}

static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);
static void onChar(GLFWwindow* window, unsigned int codepoint);
static void onMouseButton(GLFWwindow* window, int button, int action, int mods);

void installBrowserFixes(GLFWwindow* window) {
    ImGuiIO& io = ImGui::GetIO();
    io.GetClipboardTextFn = getClipboardText;
    io.SetClipboardTextFn = setClipboardText;
    io.ClipboardUserData = nullptr;
    // The wheel comes from the DOM event (with its delta mode), not GLFW's raw pixel deltas.
    glfwSetScrollCallback(window, nullptr);
    glfwSetKeyCallback(window, onKey);  // forwards to ImGui's, holding back too-quick releases
    glfwSetCharCallback(window, onChar);  // forwards to ImGui's, in order with the keys
    glfwSetMouseButtonCallback(window, onMouseButton);  // forwards to ImGui's, noting the click's frames
    emscripten_set_wheel_callback("#canvas", nullptr, EM_TRUE, onWheel);
    emscripten_set_touchstart_callback("#canvas", nullptr, EM_TRUE, onTouch);
    emscripten_set_touchmove_callback("#canvas", nullptr, EM_TRUE, onTouch);
    emscripten_set_touchend_callback("#canvas", nullptr, EM_TRUE, onTouch);
    emscripten_set_touchcancel_callback("#canvas", nullptr, EM_TRUE, onTouch);
    emscripten_set_mousemove_callback("#canvas", nullptr, EM_TRUE, onMouseMove);
    emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, EM_FALSE, onResize);
    js_install_listeners();
}

static void onMouseButton(GLFWwindow* window, int button, int action, int mods) {
    BrowserState& s = state();
    // The next frame sees this event; a release comes a frame after a press at the earliest.
    s.mouseSettledFrame = std::max(s.mouseSettledFrame, s.frames + (action == GLFW_PRESS ? 2 : 1));
    s.wake = true;
    ImGui_ImplGlfw_MouseButtonCallback(window, button, action, mods);
}

// Presses and characters queued past this are dropped (a flood of synthetic events must not grow
// the page without bound); releases are always kept, so no key stays down. One queued tap reaches
// ImGui every frame or two.
constexpr size_t kMaxQueuedKeys = 256;

constexpr int kTypedChar = -1;

// A press a text field acts on: Backspace, Delete, Enter, the arrows... (GLFW's non-printable
// keys, modifiers aside) and any key with Ctrl or Super (select all, undo, copy, cut).
static bool isEditPress(const BrowserState::QueuedKey& k) {
    if (k.action != GLFW_PRESS) return false;
    const bool modifier = k.key >= GLFW_KEY_LEFT_SHIFT && k.key <= GLFW_KEY_MENU;
    return (k.key >= GLFW_KEY_ESCAPE && !modifier) || (k.mods & (GLFW_MOD_CONTROL | GLFW_MOD_SUPER)) != 0;
}

// Whether `later` must stay behind `earlier` (queued before it): events of one key keep their
// order, and so do typed characters among themselves and with editing presses.
static bool mustFollow(const BrowserState::QueuedKey& earlier, const BrowserState::QueuedKey& later) {
    const bool earlierChar = earlier.action == kTypedChar, laterChar = later.action == kTypedChar;
    if (!earlierChar && !laterChar) return earlier.key == later.key;
    if (earlierChar && laterChar) return true;
    return isEditPress(earlierChar ? later : earlier);
}

static void applyKey(GLFWwindow* window, const BrowserState::QueuedKey& k) {
    if (k.action == kTypedChar) {
        ImGui_ImplGlfw_CharCallback(window, static_cast<unsigned int>(k.key));
        return;
    }
    BrowserState& s = state();
    if (k.action == GLFW_PRESS || k.action == GLFW_RELEASE) {
        s.changedAt[k.key] = s.frames;
        s.heldByBrowser.erase(k.key);
    } else if (k.action == GLFW_REPEAT) {
        s.heldByBrowser.insert(k.key);
    }
    if (isEditPress(k)) s.lastEditPressAt = s.frames;
    ImGui_ImplGlfw_KeyCallback(window, k.key, k.scancode, k.action, k.mods);
}

// Whether a key event may reach ImGui before the next frame: not if no frame has seen the key's
// last change yet (a release right after the press would hide the tap; a press right after the
// release would make two taps one), and not a character typed after an editing press no frame has
// seen (a text field takes a frame's characters before its keys).
static bool keyDeliverable(const BrowserState::QueuedKey& k) {
    const BrowserState& s = state();
    if (k.action == kTypedChar) return s.lastEditPressAt < s.frames;
    if (k.action != GLFW_PRESS && k.action != GLFW_RELEASE) return true;  // a repeat changes no key
    const auto it = s.changedAt.find(k.key);
    return it == s.changedAt.end() || it->second < s.frames;  // a frame began since the last change
}

static void deliverKey(GLFWwindow* window, int key, int scancode, int action, int mods) {
    BrowserState& s = state();
    const BrowserState::QueuedKey k{key, scancode, action, mods};
    const bool blocked = std::any_of(s.keyQueue.begin(), s.keyQueue.end(),
                                     [&k](const BrowserState::QueuedKey& q) { return mustFollow(q, k); });
    if (!blocked && keyDeliverable(k)) {
        applyKey(window, k);
        return;
    }
    if (s.keyQueue.size() < kMaxQueuedKeys || action == GLFW_RELEASE) s.keyQueue.push_back(k);
    s.wake = true;
}

static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods) {
    BrowserState& s = state();
    // frames + 1 is the frame that would see this key.
    if (!s.keysAfterClick.empty() || s.frames + 1 < s.mouseSettledFrame) {
        s.keysAfterClick.push_back({key, scancode, action, mods});
        s.wake = true;
        return;
    }
    deliverKey(window, key, scancode, action, mods);
}

// Typed characters keep their place among the key events (after a click, behind queued keys).
static void onChar(GLFWwindow* window, unsigned int codepoint) {
    onKey(window, static_cast<int>(codepoint), 0, kTypedChar, 0);
}

void afterNewFrame() {
    ImGuiIO& io = ImGui::GetIO();
    const BrowserState& s = state();
    for (int k = 0; k < IM_ARRAYSIZE(io.KeysDown); ++k)
        if (io.KeysDown[k] && io.KeysDownDuration[k] > io.KeyRepeatDelay && !s.heldByBrowser.count(k))
            io.KeysDownDuration[k] = io.KeyRepeatDelay; // still down, no new press, no repeat yet
}

void beforeImGuiNewFrame() {
    BrowserState& s = state();
    ImGuiIO& io = ImGui::GetIO();
    // Keys that came right after a quick click, once the frame that sees its release is next.
    if (!s.keysAfterClick.empty() && s.frames + 1 >= s.mouseSettledFrame) {
        std::vector<BrowserState::QueuedKey> queued;
        queued.swap(s.keysAfterClick);
        for (const BrowserState::QueuedKey& k : queued)
            deliverKey(glfwGetCurrentContext(), k.key, k.scancode, k.action, k.mods);
    }
    if (!s.keysAfterClick.empty()) s.wake = true;
    // Queued events the last frame has made ready, in order; those still behind one that waits
    // (or not ready themselves) stay for the next frame.
    GLFWwindow* window = glfwGetCurrentContext();
    for (size_t i = 0; i < s.keyQueue.size();) {
        const BrowserState::QueuedKey k = s.keyQueue[i];
        const bool blocked = std::any_of(s.keyQueue.begin(), s.keyQueue.begin() + std::ptrdiff_t(i),
                                         [&k](const BrowserState::QueuedKey& q) { return mustFollow(q, k); });
        if (blocked || !keyDeliverable(k)) {
            ++i;
            continue;
        }
        applyKey(window, k);
        s.keyQueue.erase(s.keyQueue.begin() + std::ptrdiff_t(i));
    }
    if (!s.keyQueue.empty()) s.wake = true;
    ++s.frames;
    if (s.syntheticPasteFrames == 2) {
        if (io.KeysDownDuration[GLFW_KEY_V] >= 0.0f) {
            // ImGui saw V down in its last frame (a Ctrl+V whose paste event came a frame later,
            // with the clipboard not yet fresh): V held on would be no new press, and releasing
            // and pressing it before one NewFrame is none either. V is up for this frame and
            // pressed in the next (the paste was lost so under load, CI's smoke test).
            io.KeysDown[GLFW_KEY_V] = false;
        } else {
            io.KeysDown[GLFW_KEY_V] = true;
            io.KeyCtrl = true;
            s.syntheticPasteFrames = 1;
        }
        s.wake = true;
    } else if (s.syntheticPasteFrames == 1) {
        GLFWwindow* w = glfwGetCurrentContext();
        io.KeysDown[GLFW_KEY_V] = glfwGetKey(w, GLFW_KEY_V) == GLFW_PRESS;
        io.KeyCtrl = glfwGetKey(w, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS ||
                     glfwGetKey(w, GLFW_KEY_RIGHT_CONTROL) == GLFW_PRESS;
        s.syntheticPasteFrames = 0;
        s.clipboardFresh = false;
        s.wake = true;
    }
}

void afterImGuiNewFrame(const CanvasSize& canvas) {
    BrowserState& s = state();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(canvas.pixelWidth()), static_cast<float>(canvas.pixelHeight()));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    if (s.touchActive && !s.mouseMovedSinceTouch) {
        // Phases: press (held, or a whole tap between two frames: pressed for one frame), then a
        // release frame at the same spot (buttons fire on release), then the cursor is parked so
        // nothing stays hovered under a lifted finger.
        io.MousePos = ImVec2(s.touchX, s.touchY);
        if (s.touchDown || s.touchTapPending) {
            io.MouseDown[0] = true;
            s.touchTapPending = false;
            s.wake = true;
        } else if (s.touchReleasePending) {
            io.MouseDown[0] = false;
            s.touchReleasePending = false;
            s.wake = true;
        } else {
            io.MouseDown[0] = false;
            io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
            s.touchActive = false;
        }
    }
    if (s.pinchCtrlSet) {
        io.KeyCtrl = s.ctrlBeforePinch;
        s.pinchCtrlSet = false;
    }
    if (s.pinchLog != 0.0f) {
        // One wheel notch zooms the graph views by 1.15.
        s.ctrlBeforePinch = io.KeyCtrl;
        s.pinchCtrlSet = true;
        io.KeyCtrl = true;
        io.MouseWheel += s.pinchLog / std::log(1.15f);
        s.pinchLog = 0;
        s.wake = true;
    }
    if (s.wheelX != 0.0f || s.wheelY != 0.0f) {
        io.MouseWheelH += s.wheelX;
        io.MouseWheel += s.wheelY;
        s.lastWheelY = s.wheelY;
        s.wheelX = s.wheelY = 0.0f;
    }
}

void setKeyboardCaptured(bool captured) {
    static int last = -1;
    if (last == static_cast<int>(captured)) return;
    last = captured;
    js_set_keyboard_captured(captured);
}

float lastWheelY() { return state().lastWheelY; }

bool takeWakeRequest() {
    const bool w = state().wake;
    state().wake = false;
    return w;
}

void requestWake() { state().wake = true; }

bool takeResizeRequest() {
    const bool r = state().resize;
    state().resize = false;
    return r;
}

void showFatalError(const std::string& title, const std::string& detail) {
    js_show_fatal(title.c_str(), detail.c_str());
}

void hideLoadingOverlay() { js_hide_overlay(); }

void copyToClipboard(const std::string& text) { js_copy_to_clipboard(text.c_str()); }

void downloadTextFile(const std::string& fileName, const std::string& mimeType, const std::string& text) {
    js_download(fileName.c_str(), mimeType.c_str(), text.c_str());
}

void pickTextFile(const std::string& accept, std::size_t maxBytes, bool binary) {
    js_pick_file(accept.c_str(), double(maxBytes), binary ? 1 : 0);
}

std::optional<PickedFile> takePickedFile() {
    char* name = nullptr;
    char* text = nullptr;
    char* error = nullptr;
    if (!js_take_picked(&name, &text, &error)) return std::nullopt;
    PickedFile f{name, text, error};
    std::free(name);
    std::free(text);
    std::free(error);
    state().wake = true;
    return f;
}

} // namespace chaiba::web
