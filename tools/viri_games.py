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
