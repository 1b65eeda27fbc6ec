# Story mode (world files, tools, context, turn undo, config; conversations, agents and the turn engine) as chaiba_story, and
# yaml-cpp 0.7.0 and md4c 0.4.8 from Debian's source packages (src/modes/story/fetch_deps.sh) as chaiba_yaml
# and chaiba_md4c.
# Included from the top-level CMakeLists.txt after chaiba_core; builds natively and with em++.

set(CHAIBA_YAML_DIR "${CHAIBA_DEPS_DIR}/yaml-cpp")
if(NOT EXISTS "${CHAIBA_YAML_DIR}/src/parse.cpp")
  message(FATAL_ERROR "yaml-cpp source not found in ${CHAIBA_YAML_DIR}: run src/modes/story/fetch_deps.sh")
endif()

# yaml-cpp: third-party, so a system include and none of our warnings.
set(CHAIBA_YAML_SOURCES)
foreach(name binary convert depthguard directives emit emitfromevents emitter emitterstate emitterutils
             exceptions exp memory node node_data nodebuilder nodeevents null ostream_wrapper parse parser
             regex_yaml scanner scanscalar scantag scantoken simplekey singledocparser stream tag)
  list(APPEND CHAIBA_YAML_SOURCES "${CHAIBA_YAML_DIR}/src/${name}.cpp")
endforeach()
add_library(chaiba_yaml STATIC ${CHAIBA_YAML_SOURCES})
target_include_directories(chaiba_yaml SYSTEM PUBLIC "${CHAIBA_YAML_DIR}/include")
target_compile_options(chaiba_yaml PRIVATE -w)
if(EMSCRIPTEN)
  # yaml-cpp reports YAML syntax errors by throwing; world_config.cpp catches them. Emscripten
  # aborts on a throw unless catching is compiled in (here) and linked in (for whoever links us).
  target_compile_options(chaiba_yaml PRIVATE -fexceptions)
  target_link_options(chaiba_yaml INTERFACE -fexceptions)
endif()

# md4c 0.4.8 (markdown), from the same fetch: one C file, a system include, none of our warnings.
set(CHAIBA_MD4C_DIR "${CHAIBA_DEPS_DIR}/md4c")
if(NOT EXISTS "${CHAIBA_MD4C_DIR}/src/md4c.c")
  message(FATAL_ERROR "md4c source not found in ${CHAIBA_MD4C_DIR}: run src/modes/story/fetch_deps.sh")
endif()
add_library(chaiba_md4c STATIC "${CHAIBA_MD4C_DIR}/src/md4c.c")
target_include_directories(chaiba_md4c SYSTEM PUBLIC "${CHAIBA_MD4C_DIR}/src")
target_compile_options(chaiba_md4c PRIVATE -w)

add_library(chaiba_story STATIC
  src/modes/story/world_files.cpp
  src/modes/story/disk_world_files.cpp
  src/modes/story/turn_changes.cpp
  src/modes/story/turn_steering.cpp
  src/modes/story/story_memory.cpp
  src/modes/story/story_demo.cpp
  src/modes/story/text_diff.cpp
  src/modes/story/twist_of_fate.cpp
  src/modes/story/story_tools.cpp
  src/modes/story/game_context.cpp
  src/modes/story/world_config.cpp
  src/modes/story/orchestrator.cpp
  src/modes/story/transcript.cpp
  src/modes/story/agent_log.cpp
  src/modes/story/conversation_store.cpp
  src/modes/story/story_prompts.cpp
  src/modes/story/story_images.cpp
  src/modes/story/story_turn.cpp
  src/modes/story/kv_world_files.cpp
  src/modes/story/character_card.cpp
  src/modes/story/zlib_inflate.cpp
  src/modes/story/card_import.cpp
  src/modes/story/world_library.cpp
  src/modes/story/markdown_doc.cpp
)
target_link_libraries(chaiba_story PUBLIC chaiba_llm chaiba_persist chaiba_json chaiba_options chaiba_yaml chaiba_md4c)
if(EMSCRIPTEN)
  # The page catches exceptions only where it is built to (world_config.cpp, around yaml-cpp's
  # throws): anywhere else in Story a throw would end the page, so the rest may not throw at all.
  target_compile_options(chaiba_story PRIVATE -fno-exceptions)
  set_source_files_properties(src/modes/story/world_config.cpp PROPERTIES COMPILE_OPTIONS -fexceptions)
endif()
