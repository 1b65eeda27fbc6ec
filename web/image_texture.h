// Pictures decoded by the browser into WebGL textures for ImGui::Image: createImageBitmap scales
// the encoded bytes to the size asked for, off the main loop, and the bitmap is uploaded into a
// texture made through emscripten's GL object table. The page's one cache (ui/image_cache.h)
// bounds how many stay alive.
#pragma once

#include "src/ui/image_cache.h"

namespace chaiba::web {

// The page's picture cache (made on first use; needs the GL context, so after glfwMakeContextCurrent).
ui::ImageTextures& imageTextures();

} // namespace chaiba::web
