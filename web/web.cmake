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

# The UI fonts, subset at build time to the glyphs the page loads (src/ui/fonts.cpp ranges):
# the full DejaVu files are ~1.8 MB, the subsets a small fraction of that.
# Debian's python3 (not a pyenv one on PATH) has fontTools from python3-fonttools.
find_program(CHAIBA_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
execute_process(COMMAND "${CHAIBA_SYSTEM_PYTHON}" -c "import fontTools.subset" RESULT_VARIABLE fonttools_missing
                OUTPUT_QUIET ERROR_QUIET)
if(NOT CHAIBA_SYSTEM_PYTHON OR fonttools_missing)
  message(FATAL_ERROR "fontTools not found for /usr/bin/python3: run web/setup.sh (installs python3-fonttools)")
endif()
set(CHAIBA_FONT_UNICODES "U+0020-00FF,U+2010-2027,U+2190-2199,U+2212,U+2248,U+25A0-25CF,U+2654-265F,U+2713-2717")
set(CHAIBA_SUBSET_FONTS "")
foreach(font DejaVuSans.ttf DejaVuSans-Bold.ttf DejaVuSansMono.ttf)
  set(out "${CMAKE_BINARY_DIR}/fonts/${font}")
  add_custom_command(OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/fonts"
    COMMAND "${CHAIBA_SYSTEM_PYTHON}" -m fontTools.subset "${CHAIBA_FONT_DIR}/${font}" "--unicodes=${CHAIBA_FONT_UNICODES}"
            "--output-file=${out}" --layout-features=* --no-hinting
    DEPENDS "${CHAIBA_FONT_DIR}/${font}"
    COMMENT "Subsetting ${font}")
  list(APPEND CHAIBA_SUBSET_FONTS "${out}")
endforeach()
add_custom_target(chaiba_fonts DEPENDS ${CHAIBA_SUBSET_FONTS})

# The boards' SVG piece sets (web/fetch_pieces.sh, from Debian's pychess package; never committed)
# are copied beside the page as site/pieces/<set>/<wk|..|bp>.svg with their copyright and licence.
# site/pieces/index.json lists the sets this build has; the page draws font glyphs for the others.
set(CHAIBA_PIECES_DIR "${CHAIBA_DEPS_DIR}/pieces")
set(CHAIBA_PIECE_SETS cburnett merida)
set(CHAIBA_PIECE_NAMES wk wq wr wb wn wp bk bq br bb bn bp)
set(CHAIBA_SITE_DIR "${CMAKE_BINARY_DIR}/site")
set(piece_outputs "")
set(pieces_found "")
foreach(set ${CHAIBA_PIECE_SETS})
  set(have_set TRUE)
  foreach(n ${CHAIBA_PIECE_NAMES})
    if(NOT EXISTS "${CHAIBA_PIECES_DIR}/${set}/${n}.svg")
      set(have_set FALSE)
    endif()
  endforeach()
  if(have_set)
    list(APPEND pieces_found "\"${set}\"")
    foreach(n ${CHAIBA_PIECE_NAMES})
      set(out "${CHAIBA_SITE_DIR}/pieces/${set}/${n}.svg")
      if(set STREQUAL "merida" AND n STREQUAL "bk")
        # (drawn white-bodied as packaged: web/patch_piece.cmake says why and what changes)
        add_custom_command(OUTPUT "${out}"
          COMMAND ${CMAKE_COMMAND} -DIN=${CHAIBA_PIECES_DIR}/${set}/${n}.svg -DOUT=${out}
                  -P "${CMAKE_SOURCE_DIR}/web/patch_piece.cmake"
          DEPENDS "${CHAIBA_PIECES_DIR}/${set}/${n}.svg" "${CMAKE_SOURCE_DIR}/web/patch_piece.cmake")
      else()
        add_custom_command(OUTPUT "${out}"
          COMMAND ${CMAKE_COMMAND} -E copy "${CHAIBA_PIECES_DIR}/${set}/${n}.svg" "${out}"
          DEPENDS "${CHAIBA_PIECES_DIR}/${set}/${n}.svg")
      endif()
      list(APPEND piece_outputs "${out}")
    endforeach()
  endif()
endforeach()
if(pieces_found)
  foreach(f copyright GPL-3 SOURCE)
    add_custom_command(OUTPUT "${CHAIBA_SITE_DIR}/pieces/${f}"
      COMMAND ${CMAKE_COMMAND} -E copy "${CHAIBA_PIECES_DIR}/${f}" "${CHAIBA_SITE_DIR}/pieces/${f}"
      DEPENDS "${CHAIBA_PIECES_DIR}/${f}")
    list(APPEND piece_outputs "${CHAIBA_SITE_DIR}/pieces/${f}")
  endforeach()
  list(JOIN pieces_found "," pieces_json)
  message(STATUS "Piece sets for the boards: ${CHAIBA_PIECE_SETS} (from ${CHAIBA_PIECES_DIR})")
else()
  set(pieces_json "")
  message(WARNING "No SVG piece sets in ${CHAIBA_PIECES_DIR} (run web/fetch_pieces.sh; it needs Debian's "
                  "pychess package): the page will draw the pieces as font glyphs.")
endif()
file(WRITE "${CHAIBA_SITE_DIR}/pieces/index.json" "{\"sets\": [${pieces_json}]}\n")
add_custom_target(chaiba_pieces DEPENDS ${piece_outputs})

# Dear ImGui 1.86 from Debian's source package (never committed), compiled without our warnings.
add_library(chaiba_imgui STATIC
  ${CHAIBA_IMGUI_DIR}/imgui.cpp
  ${CHAIBA_IMGUI_DIR}/imgui_draw.cpp
  ${CHAIBA_IMGUI_DIR}/imgui_tables.cpp
  ${CHAIBA_IMGUI_DIR}/imgui_widgets.cpp
  ${CHAIBA_IMGUI_DIR}/backends/imgui_impl_glfw.cpp
  ${CHAIBA_IMGUI_DIR}/backends/imgui_impl_opengl3.cpp
)
# ImGui for size (-Os), as the widgets below.
target_compile_options(chaiba_imgui PRIVATE -Os)
target_include_directories(chaiba_imgui SYSTEM PUBLIC "${CHAIBA_IMGUI_DIR}" "${CHAIBA_IMGUI_DIR}/backends")
target_compile_definitions(chaiba_imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS IMGUI_DISABLE_DEMO_WINDOWS
                                               IMGUI_DISABLE_DEFAULT_SHELL_FUNCTIONS)
# The backend's per-frame GL state backup answered without WebGL queries (web/gl_state_shim.cpp).
set_source_files_properties(${CHAIBA_IMGUI_DIR}/backends/imgui_impl_opengl3.cpp PROPERTIES COMPILE_DEFINITIONS
                            "glGetIntegerv=chaiba_imgui_glGetIntegerv;glIsEnabled=chaiba_imgui_glIsEnabled")

# UI widgets, the chess widgets and the app shell (ImGui), then the web platform layer (the only
# emscripten code).
include(src/app/page_ui.cmake)
set(CHAIBA_WEB_SOURCES
  web/main_web.cpp
  web/browser_web.cpp
  web/image_atlas_web.cpp
  web/storage_web.cpp
  web/idb_store.cpp
  web/image_texture.cpp
  web/http_web.cpp
  web/engine_client_web.cpp
  web/engine_player_web.cpp
  web/position_scorer_web.cpp
  web/gl_state_shim.cpp
  web/text_areas_web.cpp
)
add_executable(chaiba_web ${CHAIBA_WEB_SOURCES})
target_link_libraries(chaiba_web PRIVATE chaiba_app)

set_target_properties(chaiba_web PROPERTIES OUTPUT_NAME index SUFFIX ".html"
                      RUNTIME_OUTPUT_DIRECTORY "${CHAIBA_SITE_DIR}")
set(CHAIBA_WEB_LINK_FLAGS
  -sUSE_GLFW=3 -sUSE_WEBGL2=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sFULL_ES3=1
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -sMINIFY_HTML=0 -sENVIRONMENT=web
  -sEXPORTED_FUNCTIONS=_main,_malloc,_free
  -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString,stringToUTF8,lengthBytesUTF8
  "SHELL:--shell-file ${CMAKE_SOURCE_DIR}/shell.html"
  "SHELL:--pre-js ${CMAKE_SOURCE_DIR}/web/idb_preload.js"
  "SHELL:--pre-js ${CMAKE_SOURCE_DIR}/web/io_worker.js"
  "SHELL:--pre-js ${CMAKE_SOURCE_DIR}/web/io_client.js"
  "SHELL:--pre-js ${CMAKE_SOURCE_DIR}/web/text_areas.js"
  "SHELL:--preload-file ${CMAKE_BINARY_DIR}/fonts@/fonts"
  "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/assets@/assets"
  "SHELL:--exclude-file *.png"
)
# A size-report build (tests/bench/wasm_size.py --report): the same page plus its final function
# names (site/index.html.symbols; the wasm comes out within ~1 % of the plain build's gzip size).
option(CHAIBA_WEB_SIZE_REPORT "Link the page with a symbol map for tests/bench/wasm_size.py --report" OFF)
if(CHAIBA_WEB_SIZE_REPORT)
  list(APPEND CHAIBA_WEB_LINK_FLAGS --emit-symbol-map)
endif()
# The link's own pass over the whole module (wasm-opt) optimises for size: with the Werewolf replay
# viewer, Story's steering and card import the page was 38 114 bytes over 1 MiB at the link's -O3
# (1 086 690 B gz), 1 042 580 at -Oz; the arena grid's frames measured side by side, two runs each:
# avg 3.21 / 3.68 ms at -Oz against 3.18 / 3.33 ms (node tests/bench/frame_bench.mjs, FRAME_ONLY=arena).
target_link_options(chaiba_web PRIVATE ${CHAIBA_WEB_LINK_FLAGS} -Oz)
# Code off the hot paths (model calls, settings, the shell) is optimised for size. The drawing code
# (ImGui above, the widgets and the chess screens) is -Os: a frame's drawing is a few ms at most
# (tests/bench/frame_bench.mjs), and -O3 cost ~48 KiB of the page's download; the sessions, the
# engine and the ratings recomputed at each game end keep -O3. The chess screens' widgets are -Oz
# since the match history, the bundle's harness and Werewolf's role ratings came in (the page was
# 23 KB over 1 MiB).
foreach(lib chaiba_ui_base chaiba_ui)
  target_compile_options(${lib} PRIVATE -Os)
endforeach()
target_compile_options(chaiba_chess_ui PRIVATE -Oz)
# The model calls, the network, the stores and the shell (header, settings, mode wiring) run at an
# answer, a write or a click: -Oz (the page passed 1 MiB when the planner's review and the bundle's
# harness came in).
foreach(lib chaiba_net chaiba_persist chaiba_llm chaiba_app_core chaiba_app)
  target_compile_options(${lib} PRIVATE -Oz)
endforeach()
# Likewise the cold files of the play layer and the chess mode: bundles, config checks, seat specs,
# setup validation, estimates, exports and the automation API run on a click, not per frame; so do the
# chess agent and conversation, which build one model request a move (-O3 until the page, with the
# engine's node clock linked in through the match screen's analyser, was 150 bytes over 1 MiB).
set_source_files_properties(
  src/modes/chess/chess_agent.cpp src/modes/chess/conversation.cpp
  src/play/bundle.cpp src/play/seat.cpp src/play/budget.cpp src/play/failure.cpp src/play/tempo.cpp
  src/modes/chess/bundle.cpp src/modes/chess/bundle_harness.cpp src/modes/chess/bundle_pgn.cpp src/modes/chess/tournament.cpp
  src/modes/chess/game_setup.cpp
  src/modes/chess/chess_prompts.cpp src/modes/chess/cost_estimate.cpp src/modes/chess/arena_api.cpp
  src/modes/chess/arena_session_store.cpp src/modes/chess/leaderboard_report.cpp src/modes/chess/chess_settings.cpp src/modes/chess/player_factory.cpp
  src/modes/chess/reasoning_model.cpp src/modes/chess/match_history.cpp src/modes/chess/games_filter.cpp
  src/modes/chess/match_session.cpp src/modes/chess/arena_session.cpp src/modes/chess/tournament_runner.cpp
  src/modes/chess/arena_analysis.cpp src/modes/chess/game_analyser.cpp src/modes/chess/match.cpp
  PROPERTIES COMPILE_OPTIONS -Oz)
# The modes other than chess, their third-party parsers and the page's glue run on a click or at a
# model's answer, not per frame of the arena: optimised hardest for size (-Oz; tests/bench/wasm_size.py).
foreach(lib chaiba_werewolf chaiba_werewolf_mode chaiba_werewolf_ui chaiba_werewolf_arena_ui chaiba_story
            chaiba_story_ui chaiba_yaml chaiba_md4c chaiba_planner chaiba_planner_ui)
  target_compile_options(${lib} PRIVATE -Oz)
endforeach()
set_source_files_properties(
  web/main_web.cpp web/browser_web.cpp web/storage_web.cpp web/text_areas_web.cpp web/image_texture.cpp
  web/engine_client_web.cpp web/engine_player_web.cpp web/position_scorer_web.cpp
  src/modes/chess/ui/new_game_dialog.cpp src/modes/chess/arena_setup.cpp src/modes/chess/prompt_size.cpp
  PROPERTIES COMPILE_OPTIONS -Oz)
set_property(TARGET chaiba_web APPEND PROPERTY LINK_DEPENDS "${CMAKE_SOURCE_DIR}/shell.html"
             "${CMAKE_SOURCE_DIR}/web/idb_preload.js" "${CMAKE_SOURCE_DIR}/web/io_worker.js"
             "${CMAKE_SOURCE_DIR}/web/io_client.js" "${CMAKE_SOURCE_DIR}/web/text_areas.js" ${CHAIBA_SUBSET_FONTS})
# index.data packs assets/ (prompts, strategies, schemas, the sample world): an edited or added
# data file relinks the page, or it would ship the old text. Data, not sources: listed by a glob
# that is checked again at each build.
file(GLOB_RECURSE CHAIBA_PACKED_ASSETS CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/assets/*")
list(FILTER CHAIBA_PACKED_ASSETS EXCLUDE REGEX "\\.png$")
set_property(TARGET chaiba_web APPEND PROPERTY LINK_DEPENDS ${CHAIBA_PACKED_ASSETS})
# The I/O worker (HTTP requests and IndexedDB writes off the main thread) is the same file as a
# worker script beside the page.
configure_file("${CMAKE_SOURCE_DIR}/web/io_worker.js" "${CHAIBA_SITE_DIR}/io_worker.js" COPYONLY)
add_dependencies(chaiba_web chaiba_fonts chaiba_pieces)

# The built-in engine in a Web Worker: a second, small module (engine_worker.js/.wasm).
# It also draws the arena's rating intervals (the bootstrap of src/play/rating.cpp, pure C++).
# The worker links a copy of the engine of its own at -O3: the search's speed is the worker's. The
# page's copy (rules, SAN, PGN, FEN, the move reader; it does not search) is -Oz: at -O3 it was
# ~12 KB of the page's gzipped download, when the Story demo, the card inflate and the agent-log
# reads took the page past 1 MiB.
add_library(chaiba_engine_worker STATIC ${CHAIBA_ENGINE_SOURCES})
target_link_libraries(chaiba_engine_worker PUBLIC chaiba_options)
# WASM SIMD (every current browser: Chrome 91, Firefox 89, Safari 16.4): level 9's evaluation network
# (engine/search/nnue.cpp) takes 8 units an instruction; without it the worker needed 1.6-2.3 s a move.
target_compile_options(chaiba_engine_worker PUBLIC -msimd128)
target_compile_options(chaiba_engine PRIVATE -Oz)
add_executable(engine_worker web/engine_worker.cpp src/play/rating.cpp src/play/rating_job.cpp)
target_link_libraries(engine_worker PRIVATE chaiba_engine_worker)
set_target_properties(engine_worker PROPERTIES SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY "${CHAIBA_SITE_DIR}")
target_link_options(engine_worker PRIVATE -sBUILD_AS_WORKER=1 -sENVIRONMENT=worker -sALLOW_MEMORY_GROWTH=1
                    -sEXPORTED_FUNCTIONS=_engine_choose_move,_engine_analyse_position,_engine_bootstrap_ratings -sFILESYSTEM=0)
add_dependencies(chaiba_web engine_worker)

# Optional node-run benchmark targets (perft under WASM).
include(tests/bench/bench_web.cmake OPTIONAL)
