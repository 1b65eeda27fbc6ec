// A zlib stream (RFC 1950 around RFC 1951 deflate) inflated, for the compressed text chunks of a
// PNG (zTXt, compressed iTXt) that a character card may use: stored, fixed and dynamic Huffman
// blocks, the Adler-32 check, and a cap on the output so a tiny bomb cannot fill memory.
#pragma once

#include "src/llm/chat.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace chaiba::story {

// The inflated bytes, or why the stream is not a whole, valid zlib stream of at most `maxBytes`.
llm::Result<std::string> zlibInflate(std::string_view stream, std::size_t maxBytes);

} // namespace chaiba::story
