# Non-UI sources above the rules; each folder keeps its own list.
set(CHAIBA_CORE_SOURCES "")
include(src/app/sources.cmake)
include(src/net/sources.cmake)
include(src/agent/sources.cmake)
include(src/arena/sources.cmake)
