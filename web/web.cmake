# Web configuration (emcmake): the static site in <build>/site: index.html (from shell.html),
# index.js, index.wasm, index.data (fonts and assets). Single-threaded: no SharedArrayBuffer.
set(CHAIBA_IMGUI_DIR "${CHAIBA_DEPS_DIR}/imgui")
if(NOT EXISTS "${CHAIBA_IMGUI_DIR}/imgui.cpp")
  message(FATAL_ERROR "Dear ImGui source not found in ${CHAIBA_IMGUI_DIR}: run web/setup.sh")
endif()
set(CHAIBA_FONT_DIR "/usr/share/fonts/truetype/dejavu" CACHE PATH "DejaVu fonts (fonts-dejavu-core)")
foreach(font DejaVuSans.ttf DejaVuSans-Bold.ttf DejaVuSansMono.ttf)
  if(NOT EXISTS "${CHAIBA_FONT_DIR}/${font}")
    message(FATAL_ERROR "${CHAIBA_FONT_DIR}/${font} not found: run web/setup.sh (fonts-dejavu-core)")
  endif()
endforeach()

# Dear ImGui 1.86 from Debian's source package (never committed), compiled without our warnings.
add_library(chaiba_imgui STATIC
  ${CHAIBA_IMGUI_DIR}/imgui.cpp
  ${CHAIBA_IMGUI_DIR}/imgui_draw.cpp
  ${CHAIBA_IMGUI_DIR}/imgui_tables.cpp
  ${CHAIBA_IMGUI_DIR}/imgui_widgets.cpp
  ${CHAIBA_IMGUI_DIR}/backends/imgui_impl_glfw.cpp
  ${CHAIBA_IMGUI_DIR}/backends/imgui_impl_opengl3.cpp
)
target_include_directories(chaiba_imgui SYSTEM PUBLIC "${CHAIBA_IMGUI_DIR}" "${CHAIBA_IMGUI_DIR}/backends")
target_compile_definitions(chaiba_imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS IMGUI_DISABLE_DEMO_WINDOWS
                                               IMGUI_DISABLE_DEFAULT_SHELL_FUNCTIONS)

# UI panels and the app (ImGui), then the web platform layer (the only emscripten code).
include(src/ui/sources.cmake)
set(CHAIBA_WEB_SOURCES
  web/main_web.cpp
  web/browser_web.cpp
  web/storage_web.cpp
  web/http_web.cpp
  web/engine_client_web.cpp
  web/engine_player_web.cpp
)
add_executable(chaiba_web ${CHAIBA_UI_SOURCES} ${CHAIBA_WEB_SOURCES})
target_link_libraries(chaiba_web PRIVATE chaiba_core chaiba_imgui)

set(CHAIBA_SITE_DIR "${CMAKE_BINARY_DIR}/site")
set_target_properties(chaiba_web PROPERTIES OUTPUT_NAME index SUFFIX ".html"
                      RUNTIME_OUTPUT_DIRECTORY "${CHAIBA_SITE_DIR}")
set(CHAIBA_WEB_LINK_FLAGS
  -sUSE_GLFW=3 -sUSE_WEBGL2=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sFULL_ES3=1
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -sMINIFY_HTML=0
  -sEXPORTED_FUNCTIONS=_main,_malloc,_free
  -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString,stringToUTF8,lengthBytesUTF8
  "SHELL:--shell-file ${CMAKE_SOURCE_DIR}/shell.html"
  "SHELL:--preload-file ${CHAIBA_FONT_DIR}/DejaVuSans.ttf@/fonts/DejaVuSans.ttf"
  "SHELL:--preload-file ${CHAIBA_FONT_DIR}/DejaVuSans-Bold.ttf@/fonts/DejaVuSans-Bold.ttf"
  "SHELL:--preload-file ${CHAIBA_FONT_DIR}/DejaVuSansMono.ttf@/fonts/DejaVuSansMono.ttf"
  "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/assets@/assets"
  "SHELL:--exclude-file *.png"
)
target_link_options(chaiba_web PRIVATE ${CHAIBA_WEB_LINK_FLAGS})
set_property(TARGET chaiba_web APPEND PROPERTY LINK_DEPENDS "${CMAKE_SOURCE_DIR}/shell.html")

# The built-in engine in a Web Worker: a second, small module (engine_worker.js/.wasm).
add_executable(engine_worker web/engine_worker.cpp)
target_link_libraries(engine_worker PRIVATE chaiba_engine)
set_target_properties(engine_worker PROPERTIES SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY "${CHAIBA_SITE_DIR}")
target_link_options(engine_worker PRIVATE -sBUILD_AS_WORKER=1 -sENVIRONMENT=worker -sALLOW_MEMORY_GROWTH=1
                    -sEXPORTED_FUNCTIONS=_engine_choose_move -sFILESYSTEM=0)
add_dependencies(chaiba_web engine_worker)

# Optional node-run benchmark targets (perft under WASM).
include(tests/bench/bench_web.cmake OPTIONAL)
