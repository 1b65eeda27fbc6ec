# The native command-line tool `chaiba`: one file per command, registered in commands.cpp.
set(CHAIBA_CLI_SOURCES
  src/cli/main.cpp
  src/cli/commands.cpp
  src/cli/args.cpp
)
add_executable(chaiba ${CHAIBA_CLI_SOURCES})
target_link_libraries(chaiba PRIVATE chaiba_core)
target_compile_definitions(chaiba PRIVATE CHAIBA_VERSION="${PROJECT_VERSION}")
