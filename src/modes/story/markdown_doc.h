// Markdown parsed with MD4C (Debian's md4c 0.4.8, built from .deps like yaml-cpp) into a flat list
// of typed blocks with styled runs, which the screen lays out and draws (ui/markdown_view.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

enum MdStyle : std::uint8_t { MdPlain = 0, MdStrong = 1, MdEmphasis = 2, MdCode = 4, MdLink = 8 };

// A stretch of inline text with one style (bits of MdStyle).
struct MdRun {
    std::string text;
    std::uint8_t style = MdPlain;
};

enum class MdBlockKind { Paragraph, Heading, ListItem, CodeBlock, Rule, Image };

// What it is: one block as a reader sees it. quoteDepth > 0 inside block quotes; listDepth and
// marker ("•", "3.") for list items; level 1-6 for headings; Image keeps src and alt text.
struct MdBlock {
    MdBlockKind kind = MdBlockKind::Paragraph;
    int level = 0;
    int quoteDepth = 0;
    int listDepth = 0;
    std::string marker;
    std::vector<MdRun> runs;
    std::string imageSrc;
};

struct MdDocument {
    std::vector<MdBlock> blocks;
};

// Never fails: text MD4C cannot structure comes out as paragraphs.
MdDocument parseMarkdown(std::string_view text);

// The document's text without markup (tests, search).
std::string plainText(const MdDocument& doc);

} // namespace chaiba::story
