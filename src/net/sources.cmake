# src/net: sources of chaiba_core (listed by hand).
list(APPEND CHAIBA_CORE_SOURCES
)
