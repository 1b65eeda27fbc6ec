// MD4C's callbacks folded into MdDocument blocks (see markdown_doc.h).
#include "src/modes/story/markdown_doc.h"

#include <md4c.h>

namespace chaiba::story {

namespace {

// The parser's state while MD4C walks the text.
struct Builder {
    MdDocument doc;
    int quoteDepth = 0;
    struct List {
        bool ordered;
        unsigned next;
    };
    std::vector<List> lists;
    std::uint8_t style = MdPlain;
    int imageDepth = 0;   // inside ![alt](src): text is the alt
    bool inBlock = false; // a text-holding block is open
    std::string pendingMarker;

    MdBlock& open(MdBlockKind kind) {
        MdBlock block;
        block.kind = kind;
        block.quoteDepth = quoteDepth;
        block.listDepth = static_cast<int>(lists.size());
        if (!pendingMarker.empty()) {
            block.marker = pendingMarker;
            block.kind = kind == MdBlockKind::Paragraph ? MdBlockKind::ListItem : kind;
            pendingMarker.clear();
        }
        doc.blocks.push_back(std::move(block));
        inBlock = true;
        return doc.blocks.back();
    }

    void addText(std::string_view text) {
        if (!inBlock) open(MdBlockKind::Paragraph);
        MdBlock& block = doc.blocks.back();
        if (imageDepth > 0) {
            if (block.kind == MdBlockKind::Image) block.runs.push_back({std::string(text), MdPlain});
            return;
        }
        if (!block.runs.empty() && block.runs.back().style == style)
            block.runs.back().text += text;
        else
            block.runs.push_back({std::string(text), style});
    }
};

int enterBlock(MD_BLOCKTYPE type, void* detail, void* user) {
    Builder& b = *static_cast<Builder*>(user);
    switch (type) {
    case MD_BLOCK_QUOTE: ++b.quoteDepth; break;
    case MD_BLOCK_UL: b.lists.push_back({false, 0}); break;
    case MD_BLOCK_OL: b.lists.push_back({true, static_cast<MD_BLOCK_OL_DETAIL*>(detail)->start}); break;
    case MD_BLOCK_LI:
        if (!b.lists.empty()) {
            Builder::List& list = b.lists.back();
            b.pendingMarker = list.ordered ? std::to_string(list.next++) + "." : "\xE2\x80\xA2"; // •
        }
        // A tight list item's text arrives without a paragraph: open one now.
        b.open(MdBlockKind::ListItem);
        break;
    case MD_BLOCK_H:
        b.open(MdBlockKind::Heading).level = static_cast<int>(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level);
        break;
    case MD_BLOCK_CODE: b.open(MdBlockKind::CodeBlock); break;
    case MD_BLOCK_HR:
        b.open(MdBlockKind::Rule);
        b.inBlock = false;
        break;
    case MD_BLOCK_P:
    case MD_BLOCK_TD:
    case MD_BLOCK_TH:
    case MD_BLOCK_HTML:
        // A paragraph right inside a list item continues the item's block while it is still empty.
        if (!b.doc.blocks.empty() && b.inBlock && b.doc.blocks.back().kind == MdBlockKind::ListItem &&
            b.doc.blocks.back().runs.empty())
            break;
        b.open(MdBlockKind::Paragraph);
        break;
    default: break;
    }
    return 0;
}

int leaveBlock(MD_BLOCKTYPE type, void*, void* user) {
    Builder& b = *static_cast<Builder*>(user);
    switch (type) {
    case MD_BLOCK_QUOTE: --b.quoteDepth; break;
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
        if (!b.lists.empty()) b.lists.pop_back();
        break;
    case MD_BLOCK_LI:
    case MD_BLOCK_H:
    case MD_BLOCK_CODE:
    case MD_BLOCK_P:
    case MD_BLOCK_TD:
    case MD_BLOCK_TH:
    case MD_BLOCK_HTML: b.inBlock = false; break;
    default: break;
    }
    return 0;
}

int enterSpan(MD_SPANTYPE type, void* detail, void* user) {
    Builder& b = *static_cast<Builder*>(user);
    switch (type) {
    case MD_SPAN_EM: b.style |= MdEmphasis; break;
    case MD_SPAN_STRONG: b.style |= MdStrong; break;
    case MD_SPAN_CODE: b.style |= MdCode; break;
    case MD_SPAN_A: b.style |= MdLink; break;
    case MD_SPAN_IMG: {
        const MD_ATTRIBUTE& src = static_cast<MD_SPAN_IMG_DETAIL*>(detail)->src;
        const bool wasOpen = b.inBlock;
        MdBlock& image = b.open(MdBlockKind::Image);
        image.imageSrc.assign(src.text, src.size);
        b.inBlock = wasOpen;
        ++b.imageDepth;
        break;
    }
    default: break;
    }
    return 0;
}

int leaveSpan(MD_SPANTYPE type, void*, void* user) {
    Builder& b = *static_cast<Builder*>(user);
    switch (type) {
    case MD_SPAN_EM: b.style &= static_cast<std::uint8_t>(~MdEmphasis); break;
    case MD_SPAN_STRONG: b.style &= static_cast<std::uint8_t>(~MdStrong); break;
    case MD_SPAN_CODE: b.style &= static_cast<std::uint8_t>(~MdCode); break;
    case MD_SPAN_A: b.style &= static_cast<std::uint8_t>(~MdLink); break;
    case MD_SPAN_IMG:
        --b.imageDepth;
        // Text after an inline image continues in a new block of the same kind as before.
        if (b.inBlock) {
            MdBlock& image = b.doc.blocks.back();
            MdBlock next;
            next.kind = MdBlockKind::Paragraph;
            next.quoteDepth = image.quoteDepth;
            b.doc.blocks.push_back(std::move(next));
        }
        break;
    default: break;
    }
    return 0;
}

int onText(MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* user) {
    Builder& b = *static_cast<Builder*>(user);
    switch (type) {
    case MD_TEXT_BR: b.addText("\n"); break;
    case MD_TEXT_SOFTBR: b.addText(" "); break;
    case MD_TEXT_NULLCHAR: b.addText("\xEF\xBF\xBD"); break;
    case MD_TEXT_ENTITY: {
        const std::string_view entity(text, size);
        b.addText(entity == "&amp;"    ? "&"
                  : entity == "&lt;"   ? "<"
                  : entity == "&gt;"   ? ">"
                  : entity == "&quot;" ? "\""
                  : entity == "&nbsp;" ? " "
                                       : entity);
        break;
    }
    default: b.addText(std::string_view(text, size)); break;
    }
    return 0;
}

} // namespace

MdDocument parseMarkdown(std::string_view text) {
    Builder builder;
    MD_PARSER parser{};
    parser.abi_version = 0;
    parser.flags = MD_FLAG_NOHTML | MD_FLAG_STRIKETHROUGH | MD_FLAG_TABLES | MD_FLAG_PERMISSIVEAUTOLINKS;
    parser.enter_block = enterBlock;
    parser.leave_block = leaveBlock;
    parser.enter_span = enterSpan;
    parser.leave_span = leaveSpan;
    parser.text = onText;
    if (md_parse(text.data(), static_cast<MD_SIZE>(text.size()), &parser, &builder) != 0) {
        MdDocument fallback;
        fallback.blocks.push_back({MdBlockKind::Paragraph, 0, 0, 0, "", {{std::string(text), MdPlain}}, ""});
        return fallback;
    }
    // Blocks left empty by the walk (an image's trailing paragraph with no text) are dropped.
    std::vector<MdBlock> kept;
    for (MdBlock& block : builder.doc.blocks) {
        const bool empty =
            block.runs.empty() && block.kind != MdBlockKind::Rule && block.kind != MdBlockKind::Image;
        if (!empty) kept.push_back(std::move(block));
    }
    builder.doc.blocks = std::move(kept);
    return builder.doc;
}

std::string plainText(const MdDocument& doc) {
    std::string out;
    for (const MdBlock& block : doc.blocks) {
        if (!out.empty()) out += "\n";
        if (!block.marker.empty()) out += block.marker + " ";
        for (const MdRun& run : block.runs) out += run.text;
    }
    return out;
}

} // namespace chaiba::story
