#!/usr/bin/env python3
"""Writes compressed.json: zlib streams (Python's zlib, a real deflate encoder) for the tests of the
card importer's inflate (zTXt / compressed iTXt chunks): SillyTavern's Seraphina card text (the
base64 of default_Seraphina.png's chara chunk) at levels 0 (stored blocks), 1 and 9, short inputs
(fixed-Huffman blocks, overlapping matches), and a 24 MiB run of zeros (a bomb past the import's
limit). Run from anywhere: python3 tests/data/story_cards/make_compressed.py"""
import base64
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def chara_text():
    data = open(os.path.join(HERE, "default_Seraphina.png"), "rb").read()
    at = 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"tEXt" and body.split(b"\0", 1)[0].lower() == b"chara":
            return body.split(b"\0", 1)[1]
        at += 12 + length
    raise SystemExit("no chara chunk")


def entry(name, plain, level, keep_plain=True):
    out = {"name": name, "level": level, "zlib": base64.b64encode(zlib.compress(plain, level)).decode(),
           "plainBytes": len(plain), "adler32": zlib.adler32(plain)}
    if keep_plain:
        out["plain"] = base64.b64encode(plain).decode()
    return out


def main():
    chara = chara_text()
    streams = [entry("seraphina-level-%d" % level, chara, level, keep_plain=False) for level in (0, 1, 9)]
    streams += [
        entry("empty", b"", 6),
        entry("one byte", b"a", 6),
        entry("overlapping run", b"ab" * 300 + b"abc" * 5, 9),
        entry("text", "Seraphina hums a glade-song; the lanterns answer. ".encode() * 40, 6),
    ]
    streams.append(entry("zeros 24 MiB", bytes(24 << 20), 9, keep_plain=False))
    with open(os.path.join(HERE, "compressed.json"), "w") as f:
        json.dump({"about": "made by make_compressed.py from default_Seraphina.png and short inputs",
                   "streams": streams}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
