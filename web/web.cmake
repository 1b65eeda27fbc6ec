# Web configuration (emcmake): the static site in <build>/site: index.html (from shell.html),
# index.js, index.wasm, index.data (fonts and assets). Single-threaded: no SharedArrayBuffer.
set(CHAIBA_IMGUI_DIR "${CHAIBA_DEPS_DIR}/imgui")
if(NOT EXISTS "${CHAIBA_IMGUI_DIR}/imgui.cpp")
  message(FATAL_ERROR "Dear ImGui source not found in ${CHAIBA_IMGUI_DIR}: run web/setup.sh")
endif()
