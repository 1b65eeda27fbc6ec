# Copies one piece SVG into the site, mending what draws wrong in the packaged file. Merida's black
# king (pychess's merida/bk.svg) fills its crown with a white gradient meant as a faint sheen
# (its coordinates are in another unit than the picture's), so the black king is drawn
# white-bodied: the crown is filled with the piece's black and outlined in white, as the black
# queen's bands are. Usage: cmake -DIN=... -DOUT=... -P web/patch_piece.cmake
file(READ "${IN}" svg)
string(REPLACE "style=\"fill-opacity:1.0;fill:url(#linearGradient2173)\""
               "style=\"fill:#1F1A17;stroke:#ffffff;stroke-width:0.5\"" svg "${svg}")
file(WRITE "${OUT}" "${svg}")
