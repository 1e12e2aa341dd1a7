#!/usr/bin/env python3
"""make_bad_scenes.py: writes the bad scene files whose one-line errors docs/SCENE_FORMAT.md quotes
(doc-check scene-errors runs this, then hdrlab on each): a syntax error, a misspelt field, a wrong
type, a value out of range, a zero size, an unknown material, keyframes out of order, and a glTF
model whose accessor reaches past its buffer view.

    scripts/make_bad_scenes.py OUT_DIR
"""
import base64, json, os, struct, sys

MATERIAL = '  "materials": {\n    "wall": { "baseColor": [0.5, 0.5, 0.5], "roughness": 0.5 }\n  },\n'
BOX = '    { "name": "table", "type": "box", "position": [0, 0.5, -3], "size": [1, 1, 1], "material": "wall" }'


def scene(materials=MATERIAL, objects=BOX, extra=''):
    return '{\n' + materials + '  "objects": [\n' + objects + '\n  ]' + extra + '\n}\n'


def gltf_past_its_view():
    """A triangle whose POSITION accessor wants 100 vertices from a 36-byte buffer view."""
    data = struct.pack('<9f', 0, 0, 0, 1, 0, 0, 0, 1, 0)
    uri = 'data:application/octet-stream;base64,' + base64.b64encode(data).decode()
    model = {
        'asset': {'version': '2.0'},
        'buffers': [{'byteLength': len(data), 'uri': uri}],
        'bufferViews': [{'buffer': 0, 'byteLength': len(data)}],
        'accessors': [{'bufferView': 0, 'componentType': 5126, 'count': 100, 'type': 'VEC3',
                       'min': [0, 0, 0], 'max': [1, 1, 0]}],
        'meshes': [{'primitives': [{'attributes': {'POSITION': 0}}]}],
        'nodes': [{'mesh': 0}],
        'scenes': [{'nodes': [0]}],
    }
    return json.dumps(model)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(os.path.join(out, 'models'), exist_ok=True)
    files = {
        'syntax.json': scene(materials='  "materials": { "wall": { "roughness": 0.5 }, },\n'),
        'typo.json': scene(materials='  "materials": {\n    "wall": { "colr": [1, 0, 0] }\n  },\n'),
        'type.json': scene(materials='  "materials": {\n    "wall": { "roughness": "rough" }\n  },\n'),
        'range.json': scene(materials='  "materials": {\n    "wall": { "roughness": 1.5 }\n  },\n'),
        'size.json': scene(objects=BOX.replace('"size": [1, 1, 1]', '"size": [1, 0, 1]')),
        'material.json': scene(objects=BOX.replace('"material": "wall"', '"material": "wal"')),
        'keyframes.json': scene(extra=',\n  "cameraPath": { "keyframes": [\n'
                                      '    { "time": 0, "position": [0, 1.6, 0] },\n'
                                      '    { "time": 5, "position": [0, 1.6, -1] },\n'
                                      '    { "time": 5, "position": [0, 1.6, -2] }\n  ] }'),
        'models/x.gltf': gltf_past_its_view(),
    }
    for name, text in files.items():
        with open(os.path.join(out, name), 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main()
