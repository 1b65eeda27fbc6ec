# The native command-line tool `chaiba`: one file per command, registered in commands.cpp.
set(CHAIBA_CLI_SOURCES
  src/cli/main.cpp
  src/cli/commands.cpp
  src/cli/args.cpp
  src/cli/rating_bench_command.cpp
)
# Native-only networking (libcurl), kept out of chaiba_core so the core also builds for the web.
find_package(CURL REQUIRED)
add_library(chaiba_native_net STATIC src/net/curl_transport.cpp)
target_link_libraries(chaiba_native_net PUBLIC chaiba_core CURL::libcurl)

add_executable(chaiba ${CHAIBA_CLI_SOURCES})
target_link_libraries(chaiba PRIVATE chaiba_core chaiba_native_net)
target_compile_definitions(chaiba PRIVATE CHAIBA_VERSION="${PROJECT_VERSION}")
