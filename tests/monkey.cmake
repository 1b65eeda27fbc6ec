# The UI monkey (tests/ui_monkey.cpp): the page's ImGui code built natively, without a window or a
# GPU, for a seeded random-input test under AddressSanitizer and UBSan. Configured with
# -DCHAIBA_UI_NATIVE=ON (tests/run.sh builds it in build/sanitize with -DCHAIBA_SANITIZE=ON); the
# normal native tree runs the binary as the CTest test `ui_monkey` (tests/monkey_tests.cmake).
set(CHAIBA_IMGUI_DIR "${CHAIBA_DEPS_DIR}/imgui")
if(NOT EXISTS "${CHAIBA_IMGUI_DIR}/imgui.cpp")
  message(FATAL_ERROR "Dear ImGui source not found in ${CHAIBA_IMGUI_DIR}: run web/setup.sh")
endif()
# Dear ImGui's core only: the monkey feeds input through ImGuiIO and never renders the draw lists.
add_library(chaiba_imgui STATIC
  ${CHAIBA_IMGUI_DIR}/imgui.cpp
  ${CHAIBA_IMGUI_DIR}/imgui_draw.cpp
  ${CHAIBA_IMGUI_DIR}/imgui_tables.cpp
  ${CHAIBA_IMGUI_DIR}/imgui_widgets.cpp
)
target_include_directories(chaiba_imgui SYSTEM PUBLIC "${CHAIBA_IMGUI_DIR}")
target_compile_definitions(chaiba_imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS IMGUI_DISABLE_DEMO_WINDOWS
                                               IMGUI_DISABLE_DEFAULT_SHELL_FUNCTIONS)
if(CHAIBA_SANITIZE)
  target_compile_options(chaiba_imgui PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer)
endif()

include(src/app/page_ui.cmake)

add_executable(chaiba_monkey tests/ui_monkey.cpp)
target_link_libraries(chaiba_monkey PRIVATE chaiba_app chaiba_json)
