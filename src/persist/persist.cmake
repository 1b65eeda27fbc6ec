# src/persist: key-value and document stores (files natively; localStorage and IndexedDB in web/).
add_library(chaiba_persist STATIC src/persist/file_store.cpp src/persist/json_reader.cpp src/persist/bounded_read.cpp)
target_link_libraries(chaiba_persist PUBLIC chaiba_json chaiba_options)
# Native only (POSIX fsync/rename/flock): the durable files of `chaiba arena`.
if(NOT EMSCRIPTEN)
  add_library(chaiba_persist_durable STATIC src/persist/durable_file.cpp src/persist/run_folder.cpp)
  target_link_libraries(chaiba_persist_durable PUBLIC chaiba_persist)
endif()
