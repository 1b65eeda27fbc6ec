# src/ui: widgets that know no game. chaiba_ui_base (formatting, no ImGui) builds everywhere;
# chaiba_ui (ImGui widgets) only in the web configuration (src/ui/ui_widgets.cmake).
add_library(chaiba_ui_base STATIC src/ui/format.cpp src/ui/screen.cpp src/ui/image_header.cpp src/ui/image_cache.cpp)
target_link_libraries(chaiba_ui_base PUBLIC chaiba_options chaiba_json)
