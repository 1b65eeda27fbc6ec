# src/app: the shell. chaiba_app_core (settings storage) builds natively for the tests; the ImGui
# shell and its screens (chaiba_app) only in the web configuration (src/app/app_ui.cmake).
add_library(chaiba_app_core STATIC src/app/settings.cpp)
target_link_libraries(chaiba_app_core PUBLIC chaiba_chess chaiba_persist chaiba_ui_base)
