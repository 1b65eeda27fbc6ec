# src/net: the HTTP transport interface (the libcurl transport is native-only: src/cli/cli.cmake;
# the browser's fetch transport lives in web/).
add_library(chaiba_net STATIC src/net/http.cpp src/net/section_timer.cpp)
target_link_libraries(chaiba_net PUBLIC chaiba_options)
