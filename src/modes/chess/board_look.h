// How the boards look, as the person chose it in Settings: the piece set and the squares' colours.
// Plain enums and their stored names (the settings blob is read natively too); the drawing is in
// ui/board_style.
#pragma once

namespace chaiba::chessmode {

// cburnett (lichess's default) and merida are SVG sets shipped beside the page (web/fetch_pieces.sh);
// Glyphs are the font's chess symbols, also what is drawn while a set loads or when it failed.
enum class PieceSet { Cburnett, Merida, Glyphs };
// Brown, Blue and Green are lichess's board colours; Grey is the page's original neutral board.
enum class BoardTheme { Brown, Blue, Green, Grey };

inline constexpr PieceSet kPieceSets[] = {PieceSet::Cburnett, PieceSet::Merida, PieceSet::Glyphs};
inline constexpr BoardTheme kBoardThemes[] = {BoardTheme::Brown, BoardTheme::Blue, BoardTheme::Green,
                                              BoardTheme::Grey};

// The stored name (also the pieces' folder under the site, pieces/<name>/).
inline const char* pieceSetName(PieceSet set) {
    switch (set) {
    case PieceSet::Cburnett: return "cburnett";
    case PieceSet::Merida: return "merida";
    case PieceSet::Glyphs: return "glyphs";
    }
    return "cburnett";
}

inline const char* pieceSetLabel(PieceSet set) {
    switch (set) {
    case PieceSet::Cburnett: return "Cburnett";
    case PieceSet::Merida: return "Merida";
    case PieceSet::Glyphs: return "Font glyphs";
    }
    return "Cburnett";
}

inline const char* boardThemeName(BoardTheme theme) {
    switch (theme) {
    case BoardTheme::Brown: return "brown";
    case BoardTheme::Blue: return "blue";
    case BoardTheme::Green: return "green";
    case BoardTheme::Grey: return "grey";
    }
    return "brown";
}

inline const char* boardThemeLabel(BoardTheme theme) {
    switch (theme) {
    case BoardTheme::Brown: return "Brown";
    case BoardTheme::Blue: return "Blue";
    case BoardTheme::Green: return "Green";
    case BoardTheme::Grey: return "Grey";
    }
    return "Brown";
}

// What every board draws with (Settings → Chess).
struct BoardLook {
    PieceSet pieceSet = PieceSet::Cburnett;
    BoardTheme boardTheme = BoardTheme::Brown;
};

} // namespace chaiba::chessmode
