# src/persist: key-value and document stores (files natively; localStorage and IndexedDB in web/).
add_library(chaiba_persist STATIC src/persist/file_store.cpp src/persist/json_reader.cpp)
target_link_libraries(chaiba_persist PUBLIC chaiba_json chaiba_options)
