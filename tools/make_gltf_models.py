#!/usr/bin/python3
"""make_gltf_models.py: writes hdrlab's procedural glTF 2.0 models into assets/models/.

Everything is generated here (geometry, textures), so the files carry no third-party data and are
under the project's own terms (assets/README.md). Deterministic: the same script gives the same bytes.
  planter.glb  a stone planter (base colour, occlusion-roughness-metalness and normal textures) with
               a plant of alpha-masked, double-sided leaf cards.
  lantern.glb  a post lantern whose glass has an emissive texture (KHR_materials_emissive_strength).
Usage: /usr/bin/python3 tools/make_gltf_models.py [OUT_DIR]   (default: assets/models beside tools/)
Needs numpy and PIL (Debian: python3-numpy python3-pil).
"""
import io
import json
import math
import os
import struct
import sys

import numpy as np
from PIL import Image

RNG = np.random.default_rng(20261123)


def png_bytes(pixels):
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def smooth_noise(size, scale):
    coarse = RNG.random((size // scale + 2, size // scale + 2))
    image = Image.fromarray((coarse * 255).astype(np.uint8)).resize((size, size), Image.BICUBIC)
    return np.asarray(image).astype(np.float32) / 255.0


def stone_textures(size=128):
    """Base colour, ORM and normal map of dressed stone blocks (4 courses of 2 blocks)."""
    u, v = np.meshgrid(np.arange(size) / size, np.arange(size) / size)
    course = np.floor(v * 4)
    shifted = u * 2 + 0.5 * (course % 2)
    du = np.abs(shifted - np.round(shifted)) / 2  # distance to a vertical joint (in u)
    dv = np.abs(v * 4 - np.round(v * 4)) / 4       # distance to a horizontal joint
    joint = np.minimum(du, dv)
    height = np.clip(joint / 0.015, 0, 1) + 0.15 * smooth_noise(size, 8)
    blotch = smooth_noise(size, 16)
    tint = 0.55 + 0.25 * blotch
    base = np.stack([tint * 0.93, tint * 0.86, tint * 0.76], axis=-1)
    base[joint < 0.01] *= 0.55
    occlusion = 0.55 + 0.45 * np.clip(joint / 0.02, 0, 1)
    roughness = 0.65 + 0.3 * smooth_noise(size, 4)
    orm = np.stack([occlusion, roughness, np.zeros_like(occlusion)], axis=-1)
    gy, gx = np.gradient(height * 3.0)
    normal = np.stack([-gx, gy, np.ones_like(gx)], axis=-1)  # +v is down the image, glTF's t is up
    normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
    to8 = lambda a: (np.clip(a, 0, 1) * 255 + 0.5).astype(np.uint8)
    srgb = np.where(base <= 0.0031308, 12.92 * base, 1.055 * np.power(base, 1 / 2.4) - 0.055)
    return to8(srgb), to8(orm), to8(normal * 0.5 + 0.5)


def leaf_texture(size=128):
    """Three leaves on a transparent card: RGBA, alpha 0 outside the leaves."""
    y, x = np.mgrid[0:size, 0:size] / size
    alpha = np.zeros((size, size), np.float32)
    shade = np.zeros((size, size), np.float32)
    for cx, cy, angle, length in ((0.5, 0.55, 0.0, 0.42), (0.28, 0.6, 0.5, 0.3), (0.72, 0.6, -0.5, 0.3)):
        dx, dy = x - cx, y - cy
        along = dx * math.sin(angle) - dy * math.cos(angle)
        across = dx * math.cos(angle) + dy * math.sin(angle)
        t = np.clip(along / length, 0, 1)
        half_width = 0.09 * np.sin(np.pi * t)
        inside = (along > 0) & (along < length) & (np.abs(across) < half_width)
        alpha[inside] = 1
        shade[inside] = np.maximum(shade[inside], 1 - 0.35 * (np.abs(across[inside]) < 0.006))
    green = np.stack([0.10 * shade, 0.32 * shade, 0.06 * shade], axis=-1) * (0.8 + 0.4 * smooth_noise(size, 8))[..., None]
    srgb = np.where(green <= 0.0031308, 12.92 * green, 1.055 * np.power(green, 1 / 2.4) - 0.055)
    rgba = np.concatenate([srgb, alpha[..., None]], axis=-1)
    return (np.clip(rgba, 0, 1) * 255 + 0.5).astype(np.uint8)


def lantern_glass_texture(size=64):
    """Warm glass panes behind dark mullions (emissive, sRGB)."""
    y, x = np.mgrid[0:size, 0:size] / size
    mullion = (np.abs(x - 0.5) < 0.04) | (np.abs(y - 0.5) < 0.04) | (x < 0.05) | (x > 0.95) | (y < 0.05) | (y > 0.95)
    glow = 0.75 + 0.25 * np.cos((x - 0.5) * 3) * np.cos((y - 0.5) * 3)
    rgb = np.stack([glow, glow * 0.72, glow * 0.38], axis=-1)
    rgb[mullion] = 0.02
    return (np.clip(rgb, 0, 1) * 255 + 0.5).astype(np.uint8)


class GlbBuilder:
    def __init__(self):
        self.binary = bytearray()
        self.doc = {"asset": {"version": "2.0", "generator": "hdrlab tools/make_gltf_models.py"},
                    "buffers": [], "bufferViews": [], "accessors": [], "images": [], "textures": [],
                    "samplers": [{"magFilter": 9729, "minFilter": 9987, "wrapS": 10497, "wrapT": 10497}],
                    "materials": [], "meshes": [], "nodes": [], "scenes": [{"nodes": []}], "scene": 0}

    def view(self, data, target=None):
        while len(self.binary) % 4:
            self.binary.append(0)
        entry = {"buffer": 0, "byteOffset": len(self.binary), "byteLength": len(data)}
        if target:
            entry["target"] = target
        self.binary += data
        self.doc["bufferViews"].append(entry)
        return len(self.doc["bufferViews"]) - 1

    def accessor(self, array, kind, indices=False):
        array = np.ascontiguousarray(array, dtype=np.uint32 if indices else np.float32)
        view = self.view(array.tobytes(), 34963 if indices else 34962)
        entry = {"bufferView": view, "componentType": 5125 if indices else 5126, "count": int(array.shape[0]), "type": kind}
        if kind == "VEC3" and not indices:
            entry["min"] = [float(a) for a in array.min(axis=0)]
            entry["max"] = [float(a) for a in array.max(axis=0)]
        self.doc["accessors"].append(entry)
        return len(self.doc["accessors"]) - 1

    def texture(self, pixels):
        view = self.view(png_bytes(pixels))
        self.doc["images"].append({"bufferView": view, "mimeType": "image/png"})
        self.doc["textures"].append({"source": len(self.doc["images"]) - 1, "sampler": 0})
        return len(self.doc["textures"]) - 1

    def material(self, entry):
        self.doc["materials"].append(entry)
        return len(self.doc["materials"]) - 1

    def mesh(self, name, parts):
        """parts: (positions, normals, tangents, uvs, indices, material) per primitive."""
        primitives = []
        for positions, normals, tangents, uvs, indices, material in parts:
            primitives.append({"attributes": {"POSITION": self.accessor(positions, "VEC3"),
                                              "NORMAL": self.accessor(normals, "VEC3"),
                                              "TANGENT": self.accessor(tangents, "VEC4"),
                                              "TEXCOORD_0": self.accessor(uvs, "VEC2")},
                               "indices": self.accessor(indices, "SCALAR", indices=True), "material": material})
        self.doc["meshes"].append({"name": name, "primitives": primitives})
        self.doc["nodes"].append({"name": name, "mesh": len(self.doc["meshes"]) - 1})
        self.doc["scenes"][0]["nodes"].append(len(self.doc["nodes"]) - 1)

    def write(self, path):
        while len(self.binary) % 4:
            self.binary.append(0)
        self.doc["buffers"] = [{"byteLength": len(self.binary)}]
        text = json.dumps(self.doc, separators=(",", ":")).encode()
        text += b" " * (-len(text) % 4)
        total = 12 + 8 + len(text) + 8 + len(self.binary)
        with open(path, "wb") as out:
            out.write(struct.pack("<III", 0x46546C67, 2, total))
            out.write(struct.pack("<II", len(text), 0x4E4F534A) + text)
            out.write(struct.pack("<II", len(self.binary), 0x004E4942) + bytes(self.binary))
        print(f"wrote {path} ({total} bytes)")


def quad(corner, edge_u, edge_v, uv_scale=(1.0, 1.0)):
    """One quad: corner + s*edge_u + t*edge_v; normal edge_u x edge_v; tangent along edge_u."""
    corner, edge_u, edge_v = (np.asarray(a, np.float32) for a in (corner, edge_u, edge_v))
    positions = np.array([corner, corner + edge_u, corner + edge_u + edge_v, corner + edge_v])
    normal = np.cross(edge_u, edge_v)
    normal /= np.linalg.norm(normal)
    tangent = np.append(edge_u / np.linalg.norm(edge_u), 1.0)
    uvs = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], np.float32) * np.array(uv_scale, np.float32)
    uvs[:, 1] = uvs[:, 1] - (uv_scale[1] - 1)  # v grows downwards in glTF
    return positions, np.tile(normal, (4, 1)), np.tile(tangent, (4, 1)), uvs


def merge(quads, material):
    positions, normals, tangents, uvs, indices = [], [], [], [], []
    for i, (p, n, t, uv) in enumerate(quads):
        positions.append(p), normals.append(n), tangents.append(t), uvs.append(uv)
        indices += [4 * i, 4 * i + 1, 4 * i + 2, 4 * i, 4 * i + 2, 4 * i + 3]
    return (np.concatenate(positions), np.concatenate(normals), np.concatenate(tangents), np.concatenate(uvs),
            np.array(indices), material)


def box_quads(lo, hi, uv_per_metre):
    """The outward faces of an axis-aligned box (no bottom)."""
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    w, h, d = x1 - x0, y1 - y0, z1 - z0
    s = uv_per_metre
    return [quad((x0, y0, z1), (w, 0, 0), (0, h, 0), (w * s, h * s)),   # front (+z)
            quad((x1, y0, z0), (-w, 0, 0), (0, h, 0), (w * s, h * s)),  # back (-z)
            quad((x1, y0, z1), (0, 0, -d), (0, h, 0), (d * s, h * s)),  # right (+x)
            quad((x0, y0, z0), (0, 0, d), (0, h, 0), (d * s, h * s)),   # left (-x)
            quad((x0, y1, z1), (w, 0, 0), (0, 0, -d), (w * s, d * s))]  # top


def planter(out_dir):
    b = GlbBuilder()
    base, orm, normal = stone_textures()
    orm_texture = b.texture(orm)
    stone = b.material({"name": "planter-stone",
                        "pbrMetallicRoughness": {"baseColorTexture": {"index": b.texture(base)},
                                                 "metallicRoughnessTexture": {"index": orm_texture},
                                                 "metallicFactor": 1.0, "roughnessFactor": 1.0},
                        "normalTexture": {"index": b.texture(normal), "scale": 1.0},
                        "occlusionTexture": {"index": orm_texture, "strength": 1.0}})
    soil = b.material({"name": "soil", "pbrMetallicRoughness": {"baseColorFactor": [0.08, 0.06, 0.045, 1.0],
                                                                 "metallicFactor": 0.0, "roughnessFactor": 0.95}})
    leaves = b.material({"name": "leaves", "alphaMode": "MASK", "alphaCutoff": 0.5, "doubleSided": True,
                         "pbrMetallicRoughness": {"baseColorTexture": {"index": b.texture(leaf_texture())},
                                                  "metallicFactor": 0.0, "roughnessFactor": 0.6}})
    walls = box_quads((-0.3, 0.0, -0.3), (0.3, 0.45, 0.3), 2.0)
    top = walls.pop()  # the rim: a frame around the soil
    rim = [quad((-0.3, 0.45, 0.3), (0.6, 0, 0), (0, 0, -0.05), (1.2, 0.1)),
           quad((-0.3, 0.45, -0.25), (0.6, 0, 0), (0, 0, -0.05), (1.2, 0.1)),
           quad((-0.3, 0.45, 0.25), (0.05, 0, 0), (0, 0, -0.5), (0.1, 1.0)),
           quad((0.25, 0.45, 0.25), (0.05, 0, 0), (0, 0, -0.5), (0.1, 1.0))]
    soil_top = [quad((-0.25, 0.42, 0.25), (0.5, 0, 0), (0, 0, -0.5))]
    cards = []
    for k in range(6):
        angle = k * math.pi / 3
        c, s = math.cos(angle), math.sin(angle)
        tilt = 0.25 + 0.1 * (k % 2)
        edge_u = (0.55 * c, 0.0, 0.55 * s)
        edge_v = (-0.2 * s * tilt, 0.75, 0.2 * c * tilt)
        cards.append(quad((-0.275 * c, 0.4, -0.275 * s), edge_u, edge_v))
    b.mesh("planter", [merge(walls + rim, stone), merge(soil_top, soil)])
    b.mesh("plant", [merge(cards, leaves)])
    del top
    b.write(os.path.join(out_dir, "planter.glb"))


def lantern(out_dir):
    b = GlbBuilder()
    iron = b.material({"name": "iron", "pbrMetallicRoughness": {"baseColorFactor": [0.05, 0.05, 0.055, 1.0],
                                                                 "metallicFactor": 1.0, "roughnessFactor": 0.45}})
    glass = b.material({"name": "lantern-glass", "emissiveTexture": {"index": b.texture(lantern_glass_texture())},
                        "emissiveFactor": [1.0, 1.0, 1.0],
                        "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 3.0}},
                        "pbrMetallicRoughness": {"baseColorFactor": [0.9, 0.8, 0.6, 1.0],
                                                 "metallicFactor": 0.0, "roughnessFactor": 0.1}})
    b.doc["extensionsUsed"] = ["KHR_materials_emissive_strength"]
    post = box_quads((-0.04, 0.0, -0.04), (0.04, 2.2, 0.04), 1.0)
    cap = box_quads((-0.16, 2.6, -0.16), (0.16, 2.66, 0.16), 1.0)
    base = box_quads((-0.14, 2.2, -0.14), (0.14, 2.24, 0.14), 1.0)
    panes = box_quads((-0.12, 2.24, -0.12), (0.12, 2.6, 0.12), 1.0 / 0.24)[:4]
    b.mesh("lantern-frame", [merge(post + cap + base, iron)])
    b.mesh("lantern-glass", [merge(panes, glass)])
    b.write(os.path.join(out_dir, "lantern.glb"))


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "assets", "models")
    os.makedirs(out_dir, exist_ok=True)
    planter(out_dir)
    lantern(out_dir)


if __name__ == "__main__":
    main()
