#!/usr/bin/env python3
"""Makes the seed's photos: seed/photos/ID-N.png, license-free pictures drawn
here from nothing (Python 3's standard library only: zlib for PNG), so the
demo's cards show real images without downloading any.

Each picture is a portrait-shaped abstract: a two-colour gradient, a head
and shoulders in a lighter tone of the profile's own hue, and the person's
initial. The colours and the shapes' places come from the id, so the same
id always gets the same picture, and running this again writes the same
bytes. scripts/make-seed.py lists them in seed/profiles.csv by relative path
(photos/ID-N.png), which `swipe import` resolves against the CSV's folder,
checks and stores in the database.

    python3 scripts/make-seed-photos.py        # from the repository's root
"""
import colorsys
import hashlib
import os
import struct
import sys
import zlib

WIDTH, HEIGHT = 300, 400

# A 5x7 bitmap font for the initials: A-Z; others draw as a dot.
FONT = {
    "A": "01110 10001 10001 11111 10001 10001 10001", "B": "11110 10001 10001 11110 10001 10001 11110",
    "C": "01110 10001 10000 10000 10000 10001 01110", "D": "11110 10001 10001 10001 10001 10001 11110",
    "E": "11111 10000 10000 11110 10000 10000 11111", "F": "11111 10000 10000 11110 10000 10000 10000",
    "G": "01110 10001 10000 10111 10001 10001 01111", "H": "10001 10001 10001 11111 10001 10001 10001",
    "I": "01110 00100 00100 00100 00100 00100 01110", "J": "00111 00010 00010 00010 00010 10010 01100",
    "K": "10001 10010 10100 11000 10100 10010 10001", "L": "10000 10000 10000 10000 10000 10000 11111",
    "M": "10001 11011 10101 10101 10001 10001 10001", "N": "10001 10001 11001 10101 10011 10001 10001",
    "O": "01110 10001 10001 10001 10001 10001 01110", "P": "11110 10001 10001 11110 10000 10000 10000",
    "Q": "01110 10001 10001 10001 10101 10010 01101", "R": "11110 10001 10001 11110 10100 10010 10001",
    "S": "01111 10000 10000 01110 00001 00001 11110", "T": "11111 00100 00100 00100 00100 00100 00100",
    "U": "10001 10001 10001 10001 10001 10001 01110", "V": "10001 10001 10001 10001 10001 01010 00100",
    "W": "10001 10001 10001 10101 10101 10101 01010", "X": "10001 10001 01010 00100 01010 10001 10001",
    "Y": "10001 10001 01010 00100 00100 00100 00100", "Z": "11111 00001 00010 00100 01000 10000 11111",
}
DOT = "00000 00000 00000 01110 01110 00000 00000"


def rgb(hue, saturation, value):
    return tuple(round(c * 255) for c in colorsys.hsv_to_rgb(hue % 1.0, saturation, value))


def mix(a, b, t):
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def picture(key, initial):
    """The RGB rows of one picture for `key` (an id and a number)."""
    digest = hashlib.sha256(key.encode()).digest()
    hue = digest[0] / 256
    top, bottom = rgb(hue, 0.55, 0.95), rgb(hue + 0.08 + digest[1] / 2048, 0.75, 0.45)
    figure = rgb(hue + 0.5, 0.25, 0.98)
    head_x, head_y = WIDTH // 2 + (digest[2] % 41) - 20, 150 + digest[3] % 30
    radius = 58 + digest[4] % 14
    glyph = FONT.get(initial.upper(), DOT).split()
    scale = 9
    glyph_x, glyph_y = head_x - 5 * scale // 2, head_y - 7 * scale // 2
    letter = rgb(hue, 0.7, 0.35)
    rows = []
    for y in range(HEIGHT):
        background = mix(top, bottom, y / (HEIGHT - 1))
        row = []
        for x in range(WIDTH):
            colour = background
            dx, dy = x - head_x, y - head_y
            if dx * dx + dy * dy <= radius * radius:
                colour = figure
            # Shoulders: an ellipse below the head, cut by the picture's edge.
            sx, sy = (x - head_x) / 120, (y - (head_y + radius + 120)) / 110
            if sx * sx + sy * sy <= 1 and y > head_y + radius - 10:
                colour = mix(figure, background, 0.25)
            gx, gy = (x - glyph_x) // scale, (y - glyph_y) // scale
            if 0 <= gx < 5 and 0 <= gy < 7 and x >= glyph_x and y >= glyph_y and glyph[gy][gx] == "1":
                colour = letter
            row.append(colour)
        rows.append(row)
    return rows


def png(rows):
    """PNG bytes of RGB rows: each row filtered with Up (type 2), which
    turns the gradient's rows into runs of small numbers that deflate well."""
    raw = bytearray()
    previous = bytes(WIDTH * 3)
    for row in rows:
        line = bytes(c for pixel in row for c in pixel)
        raw.append(2)
        raw += bytes((a - b) & 0xFF for a, b in zip(line, previous))
        previous = line

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b""))


def main(arguments):
    """Writes seed/photos/ID-N.png for each `ID:N:INITIAL` argument (the list
    make-seed.py passes), and removes pictures no longer listed."""
    folder = os.path.join("seed", "photos")
    os.makedirs(folder, exist_ok=True)
    wanted = set()
    for argument in arguments:
        pid, number, initial = argument.split(":", 2)
        name = f"{pid}-{number}.png"
        wanted.add(name)
        data = png(picture(f"{pid}/{number}", initial))
        path = os.path.join(folder, name)
        if not os.path.exists(path) or open(path, "rb").read() != data:
            with open(path, "wb") as handle:
                handle.write(data)
    for name in os.listdir(folder):
        if name.endswith(".png") and name not in wanted:
            os.remove(os.path.join(folder, name))


if __name__ == "__main__":
    main(sys.argv[1:])
