#!/usr/bin/env python3
"""tev_send.py: sends an image to a tev display server (hdrlab --listen, or tev) over tev's protocol.

    python3 scripts/tev_send.py [--host 127.0.0.1] [--port 14158] [--name NAME] [--tile N] WIDTHxHEIGHT
        sends a made-up gradient (R: x, G: y, B: 0.5, in tiles of N pixels, as a renderer streams);
    python3 scripts/tev_send.py --open PATH      asks the server to open an image file (OpenImageV2).

Standard library only; the protocol: little-endian, each packet a uint32 total length, a uint8 type,
then its fields (docs/USAGE.md, "hdrlab as a tev display server").
"""
import argparse
import socket
import struct


def packet(kind, payload):
    body = struct.pack("<B", kind) + payload
    return struct.pack("<I", len(body) + 4) + body


def cstr(text):
    return text.encode() + b"\0"


def create_image(name, width, height, channels):
    payload = struct.pack("<B", 1) + cstr(name) + struct.pack("<iii", width, height, len(channels))
    return packet(4, payload + b"".join(cstr(c) for c in channels))


def update_image(name, channel, x, y, width, height, values):
    """UpdateImage (type 3): one channel of a tile, as pbrt-v4 sends it."""
    payload = struct.pack("<B", 0) + cstr(name) + cstr(channel) + struct.pack("<iiii", x, y, width, height)
    return packet(3, payload + struct.pack("<%df" % len(values), *values))


def open_image(path, selector=""):
    return packet(7, struct.pack("<B", 1) + cstr(path) + cstr(selector))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=14158)
    parser.add_argument("--name", default="gradient")
    parser.add_argument("--tile", type=int, default=64)
    parser.add_argument("--open", metavar="PATH")
    parser.add_argument("size", nargs="?", default="256x128")
    args = parser.parse_args()
    with socket.create_connection((args.host, args.port), timeout=30) as conn:
        if args.open:
            conn.sendall(open_image(args.open))
            return
        width, height = (int(v) for v in args.size.split("x"))
        conn.sendall(create_image(args.name, width, height, ["R", "G", "B"]))
        for y0 in range(0, height, args.tile):
            for x0 in range(0, width, args.tile):
                w, h = min(args.tile, width - x0), min(args.tile, height - y0)
                planes = {
                    "R": [(x0 + x) / width for y in range(h) for x in range(w)],
                    "G": [(y0 + y) / height for y in range(h) for x in range(w)],
                    "B": [0.5] * (w * h),
                }
                for channel, values in planes.items():
                    conn.sendall(update_image(args.name, channel, x0, y0, w, h, values))


if __name__ == "__main__":
    main()
