#!/usr/bin/env python3
"""Generates the maze example's pixel art into assets/ (deterministic; no dependencies).

maze_tiles.png: a 16x16 tile strip: 0-2 floor variants, 3-4 wall variants.
player.png, chaser.png: 16x16 sprites with transparency.
"""
import random
import struct
import zlib
from pathlib import Path

T = 16
OUT = Path(__file__).resolve().parent.parent / "assets"


def png(path, w, h, px):
    raw = b"".join(b"\x00" + bytes(c for p in px[y * w:(y + 1) * w] for c in p) for y in range(h))
    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    path.write_bytes(data)


def shade(c, f):
    return tuple(max(0, min(255, int(v * f))) for v in c[:3]) + (c[3] if len(c) > 3 else 255,)


def floor(rng, base, moss=False):
    tile = []
    for y in range(T):
        for x in range(T):
            c = shade(base, 0.92 + 0.16 * rng.random())
            # slab grout: a 2x2 pattern of flagstones, offset per row
            gx = (x + (4 if y >= 8 else 0)) % 8
            if y % 8 == 0 or gx == 0:
                c = shade(base, 0.7)
            elif y % 8 == 1 or gx == 1:
                c = shade(base, 1.12)
            if moss and rng.random() < 0.18 and (x + y) % 3:
                c = shade((70, 120, 60), 0.85 + 0.3 * rng.random())
            tile.append(c)
    return tile


def wall(rng, base, lit):
    tile = []
    for y in range(T):
        for x in range(T):
            row = y // 4
            bx = (x + (4 if row % 2 else 0)) % 8
            c = shade(base, 0.88 + 0.2 * rng.random())
            if y % 4 == 3 or bx == 7:
                c = shade(base, 0.45)  # mortar
            elif y % 4 == 0 or bx == 0:
                c = shade(base, 1.25)  # lit brick edge
            if lit and y < 2:
                c = shade(c, 1.35)
            if x == 0 or x == T - 1 or y == T - 1:
                c = shade(c, 0.7)
            tile.append(c)
    return tile


def sprite(body, eye, kind):
    px = []
    for y in range(T):
        for x in range(T):
            dx, dy = x - 7.5, y - 7.0
            inside = dx * dx + dy * dy <= 42 if kind == "player" else (
                (dx * dx + (dy + 1) ** 2 <= 40 and y < 12) or (12 <= y < 15 and (x + (y % 2)) % 3 != 0 and 1 < x < 14))
            if not inside:
                px.append((0, 0, 0, 0))
                continue
            edge = dx * dx + dy * dy > 30 if kind == "player" else (y >= 14 or dx * dx + (dy + 1) ** 2 > 32)
            c = shade(body, 0.55) if edge else shade(body, 1.0 + (0.25 if dy < -2 and dx < 0 else 0))
            # eyes
            if 5 <= y <= 7 and (x in (5, 6) or x in (9, 10)):
                c = (255, 255, 255, 255) if y < 7 or x in (6, 10) else eye
                if y == 7 and x in (6, 10):
                    c = eye
            px.append(c)
    return px


def main():
    rng = random.Random(7)
    OUT.mkdir(exist_ok=True)
    tiles = [
        floor(rng, (96, 90, 84)),
        floor(rng, (92, 88, 86)),
        floor(rng, (90, 92, 84), moss=True),
        wall(rng, (120, 62, 48), lit=True),
        wall(rng, (104, 56, 52), lit=False),
    ]
    w = T * len(tiles)
    strip = []
    for y in range(T):
        for t in tiles:
            strip.extend(t[y * T:(y + 1) * T])
    png(OUT / "maze_tiles.png", w, T, strip)
    png(OUT / "player.png", T, T, sprite((60, 200, 240, 255), (20, 30, 60, 255), "player"))
    png(OUT / "chaser.png", T, T, sprite((230, 70, 110, 255), (40, 0, 20, 255), "chaser"))


if __name__ == "__main__":
    main()
