"""The games of a viriformat file (the layout of src/viri.rs), for the tools that study them.

Each game is a 32-byte marlinformat start position, then (move u16, White-relative score
i16) pairs ending with four zero bytes; the start position's result byte (offset 30) is 0
when Black won, 1 for a draw and 2 when White won.
"""
import struct


def games(path):
    """(32-byte start position, result byte, [(move, score), ...]) of every game of a file."""
    data = open(path, "rb").read()
    pos = 0
    while pos + 32 <= len(data):
        start = data[pos:pos + 32]
        pos += 32
        plies = []
        while True:
            move, score = struct.unpack_from("<Hh", data, pos)
            pos += 4
            if move == 0 and score == 0:
                break
            plies.append((move, score))
        yield start, start[30], plies


def start_board(start):
    """The 32-byte marlinformat start position as a python-chess board (Chess960 mode, so
    that castling moves are king-takes-rook as the file stores them). Needs python-chess."""
    import chess

    occupancy, = struct.unpack_from("<Q", start, 0)
    stm_ep, halfmove, fullmove = struct.unpack_from("<BBH", start, 24)
    board = chess.Board(None, chess960=True)
    rooks, i = 0, 0
    for square in range(64):
        if not occupancy >> square & 1:
            continue
        code = (start[8 + i // 2] >> (i % 2 * 4)) & 0xF
        i += 1
        kind = code & 7
        if kind == 6:  # a rook that may still castle
            rooks |= chess.BB_SQUARES[square]
            kind = 3
        board.set_piece_at(square, chess.Piece(kind + 1, not code >> 3))
    board.turn = not stm_ep >> 7
    board.ep_square = None if stm_ep & 0x7F == 64 else stm_ep & 0x7F
    board.castling_rights = rooks
    board.halfmove_clock, board.fullmove_number = halfmove, max(fullmove, 1)
    return board


def decode_move(code):
    """A 16-bit viriformat move as a python-chess move."""
    import chess

    frm, to = code & 63, (code >> 6) & 63
    promotion = [chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN][(code >> 12) & 3]
    return chess.Move(frm, to, promotion if code >> 14 == 3 else None)
