# WASM perft for the speed benchmark (tests/bench/perft_bench.sh): `chaiba_perft_node`, a single
# .js file with the wasm inlined, run by Node. Included from web/web.cmake (OPTIONAL) in emcmake builds.
if(TARGET chaiba_perft_node)
  return()
endif()
add_executable(chaiba_perft_node tests/bench/perft_node_main.cpp)
target_link_libraries(chaiba_perft_node PRIVATE chaiba_engine_worker) # the worker's -O3 copy
target_compile_options(chaiba_perft_node PRIVATE -O3)
target_link_options(chaiba_perft_node PRIVATE -O3 -sENVIRONMENT=node -sSINGLE_FILE=1 -sWASM_ASYNC_COMPILATION=0
                    -sNODERAWFS=1 -sEXIT_RUNTIME=1)
