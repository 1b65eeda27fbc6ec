# The page's ImGui libraries: the widgets, every mode's screens and the app shell. Included by the
# web build (web/web.cmake) and by the native UI monkey (tests/monkey.cmake), which define
# chaiba_imgui first.
include(src/ui/ui_widgets.cmake)
include(src/modes/chess/chess_ui.cmake)
include(src/modes/werewolf/ui/werewolf_ui.cmake)
include(src/modes/werewolf/werewolf_arena_ui.cmake)
include(src/modes/planner/ui/planner_ui.cmake)
include(src/modes/story/ui/story_ui.cmake)
include(src/app/app_ui.cmake)
