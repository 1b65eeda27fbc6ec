# Sourced by the calibration scripts: build_tool BUILD_DIR NAME brings the engine library of a
# CMake build directory up to date and builds tests/calibrate/NAME.cpp against it into
# BUILD_DIR/NAME when that is missing or older than its sources.
build_tool() {
    local build="$1" name="$2"
    local here root lib bin
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
    root="$(cd "$here/../.." && pwd)"
    lib="$build/libchaiba_engine.a"
    bin="$build/$name"
    cmake --build "$build" --target chaiba_engine -j2 >/dev/null
    local newer=0 source
    for source in "$here/$name.cpp" "$here"/*.h "$lib"; do
        [ "$source" -nt "$bin" ] && newer=1
    done
    if [ ! -x "$bin" ] || [ "$newer" = 1 ]; then
        g++ -std=c++20 -O2 -Wall -Wextra -I"$root" "$here/$name.cpp" "$root/src/cli/engine_process.cpp" "$lib" -o "$bin"
    fi
}
