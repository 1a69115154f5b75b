"""Pictures for the browser tests, made byte by byte (standard library only):
a PNG drawn by scripts/make-seed-photos.py, and a baseline JPEG (each 8x8
block one flat grey, DC coefficients only, the standard DC Huffman table)
carrying EXIF with GPS tags, as a phone's photo does. swipe strips the EXIF
before storing it; the page must still decode what remains."""
import importlib.util
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("seed_photos", ROOT / "scripts" / "make-seed-photos.py")
seed_photos = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seed_photos)

GPS_LATITUDE = struct.pack(">6I", 48, 1, 51, 1, 2959, 100)


def png(key, initial):
    return seed_photos.png(seed_photos.picture(key, initial))


def _exif():
    """Big-endian TIFF: IFD0 with a GPS IFD pointer; the GPS IFD with a latitude."""
    def entry(tag, kind, count, value):
        return struct.pack(">HHI", tag, kind, count) + value.ljust(4, b"\0")
    ifd0 = struct.pack(">H", 1) + entry(0x8825, 4, 1, struct.pack(">I", 26)) + struct.pack(">I", 0)
    gps = (struct.pack(">H", 2) + entry(1, 2, 2, b"N\0") + entry(2, 5, 3, struct.pack(">I", 56))
           + struct.pack(">I", 0))
    return b"MM\0*" + struct.pack(">I", 8) + ifd0 + gps + GPS_LATITUDE


def jpeg(width=64, height=64, shade=lambda x, y: (x * 30 + y * 20) % 256):
    out = bytearray(b"\xff\xd8")

    def segment(marker, payload):
        out.extend(b"\xff" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload)

    segment(0xE0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0")
    segment(0xE1, b"Exif\0\0" + _exif())
    segment(0xDB, b"\0" + b"\x01" * 64)
    segment(0xC0, struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00")
    counts = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    segment(0xC4, b"\x00" + bytes(counts) + bytes(range(12)))
    segment(0xC4, b"\x10" + bytes([1] + [0] * 15) + b"\x00")
    segment(0xDA, b"\x01\x01\x00\x00\x3f\x00")
    codes, code = [], 0
    for length, count in enumerate(counts, start=1):
        for _ in range(count):
            codes.append((code, length))
            code += 1
        code <<= 1
    bits = []

    def put(value, length):
        bits.extend((value >> shift) & 1 for shift in range(length - 1, -1, -1))

    previous = 0
    for by in range(height // 8):
        for bx in range(width // 8):
            dc = (max(0, min(255, shade(bx, by))) - 128) * 8
            diff, previous = dc - previous, dc
            category = abs(diff).bit_length()
            put(*codes[category])
            if category:
                put(diff if diff > 0 else diff - 1 + (1 << category), category)
            put(0, 1)  # end of block
    bits.extend([1] * (-len(bits) % 8))
    for start in range(0, len(bits), 8):
        byte = int("".join(map(str, bits[start:start + 8])), 2)
        out.append(byte)
        if byte == 0xFF:
            out.append(0)
    out.extend(b"\xff\xd9")
    return bytes(out)
