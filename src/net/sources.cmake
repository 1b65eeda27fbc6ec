# src/net: sources of chaiba_core (listed by hand). The native libcurl transport is not here: it
# lives in chaiba_native_net (src/cli/cli.cmake) so chaiba_core also builds for the web.
list(APPEND CHAIBA_CORE_SOURCES
  src/net/http.cpp
)
