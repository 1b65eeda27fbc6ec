# engine/werewolf/: the Werewolf rules library (standard library only, no other dependency).
include(engine/werewolf/sources.cmake)
add_library(chaiba_werewolf STATIC ${CHAIBA_WEREWOLF_SOURCES})
target_link_libraries(chaiba_werewolf PUBLIC chaiba_options)
