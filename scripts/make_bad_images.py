#!/usr/bin/env python3
"""make_bad_images.py: writes the damaged and unsupported image files that docs/IMAGE_IO.md's error
examples come from (doc-check image-errors-crafted runs this, then hdrlab on each), byte by byte, so
that no damaged binary needs to live in the repository:

    wide.exr    an OpenEXR header whose data window is 200000 pixels wide
    zip.exr     a 4x2 ZIPS-compressed OpenEXR whose chunks hold bytes that are not zlib data
    mask.exr    a 2x2 OpenEXR with only an A and a Z channel (no colour, and not one lone channel)
    huge.png    a PNG header (IHDR) of 200000x200000 pixels
    short.hdr   a Radiance HDR of 640x480 that ends after 11 scanlines
    rgbf.hdr    a Radiance HDR with FORMAT=32-bit_rle_rgbf

    scripts/make_bad_images.py OUT_DIR
"""
import os, struct, sys, zlib


def attribute(name, kind, value):
    return name.encode() + b'\0' + kind.encode() + b'\0' + struct.pack('<i', len(value)) + value


def exr(width, height, channels, compression=0, chunk_data=None):
    """A single-part scanline OpenEXR; channels are (name, pixel type: 1 half, 2 float)."""
    chlist = b''.join(n.encode() + b'\0' + struct.pack('<iB3xii', t, 0, 1, 1) for n, t in channels) + b'\0'
    box = struct.pack('<4i', 0, 0, width - 1, height - 1)
    header = b''.join([
        attribute('channels', 'chlist', chlist),
        attribute('compression', 'compression', bytes([compression])),
        attribute('dataWindow', 'box2i', box),
        attribute('displayWindow', 'box2i', box),
        attribute('lineOrder', 'lineOrder', b'\0'),
        attribute('pixelAspectRatio', 'float', struct.pack('<f', 1.0)),
        attribute('screenWindowCenter', 'v2f', struct.pack('<2f', 0.0, 0.0)),
        attribute('screenWindowWidth', 'float', struct.pack('<f', 1.0)),
    ]) + b'\0'
    head = struct.pack('<ii', 20000630, 2) + header
    bytes_per_pixel = sum(2 if t == 1 else 4 for _, t in channels)
    chunks = []
    for y in range(height):  # one scanline a chunk (NO_COMPRESSION and ZIPS)
        data = chunk_data if chunk_data is not None else bytes(width * bytes_per_pixel)
        chunks.append(struct.pack('<ii', y, len(data)) + data)
    offsets, at = [], len(head) + 8 * height
    for chunk in chunks:
        offsets.append(at)
        at += len(chunk)
    return head + b''.join(struct.pack('<Q', o) for o in offsets) + b''.join(chunks)


def png_header(width, height):
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    files = {
        'wide.exr': exr(200000, 1, [('R', 1)])[:400],  # the header is enough to be refused
        'zip.exr': exr(4, 2, [('B', 1), ('G', 1), ('R', 1)], compression=2, chunk_data=b'not zlib data'),
        'mask.exr': exr(2, 2, [('A', 1), ('Z', 2)]),
        'huge.png': png_header(200000, 200000),
        'short.hdr': b'#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 480 +X 640\n' + bytes([128, 128, 128, 128]) * 640 * 11,
        'rgbf.hdr': b'#?RADIANCE\nFORMAT=32-bit_rle_rgbf\n\n-Y 2 +X 2\n' + bytes(32),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
