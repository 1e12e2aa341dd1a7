#!/usr/bin/env python3
"""highlight_bound_table.py: makes docs/TONE_OPERATORS.md's table "The bound on every input where the
limit pulled further than 4 EV": for each input, the exposure the percentile operator's highlight
limit wants (the key's exposure minus the unbounded limit's, `percentile.max_highlight_pull_ev=64`
against `percentile.limit_highlights=false`) and, for each bound on that pull, the share of pixels
near black (brightest 8-bit sRGB channel <= 3) and the median luma (Rec. 709 weights on the 8-bit sRGB
values, 0..1) of the picture; the inputs are those whose wanted pull exceeds 4 EV.

How: a scene preset is rendered headless at 160x90 (3 frames) to an EXR (`--screenshot-exr`); a
photograph (../shared/exr/real, skipped where missing) is used as it is; `hdrlab tonemap` maps each
with `--operator percentile --verify` (the exposure is the "percentile target exposure" it prints).
Deterministic on a given GL (llvmpipe here); doc-check `highlight-bound` compares the rows.

    scripts/highlight_bound_table.py [--hdrlab BIN] [--shared DIR]   (defaults build/hdrlab, ../shared)
"""
import argparse, os, re, subprocess, sys, tempfile

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENES = ['default', 'night-street', 'sunset-street', 'tunnel-exit', 'outdoor-env', 'water-bottle-kerner',
          'stress-sun-disc']
PHOTOS = ['CandleGlass', 'Desk', 'KernerEnvLatLong', 'MtTamWest']
BOUNDS = [2.0, 2.585, 3.0, 3.5, 4.0]
EXPOSURE = re.compile(r'percentile target exposure: gpu ([-+0-9.e]+) EV')


def run(args, cwd):
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f'highlight_bound_table: {" ".join(args)} failed:\n{result.stdout}{result.stderr}')
    return result.stdout + result.stderr


def measure(png):
    """Near-black share and median luma of an 8-bit sRGB picture."""
    pixels = list(Image.open(png).convert('RGB').getdata())
    near_black = sum(1 for p in pixels if max(p) <= 3) / len(pixels)
    lumas = sorted((0.2126 * r + 0.7152 * g + 0.0722 * b) / 255.0 for r, g, b in pixels)
    return near_black, lumas[len(lumas) // 2]


def tonemap(hdrlab, exr, work, name, settings):
    png = os.path.join(work, name + '.png')
    args = [hdrlab, 'tonemap', exr, '-o', png, '--operator', 'percentile', '--verify']
    for setting in settings:
        args += ['--set', setting]
    match = EXPOSURE.search(run(args, work))
    if not match:
        sys.exit(f'highlight_bound_table: no target exposure from tonemap of {exr}')
    return float(match.group(1)), png


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--hdrlab', default=os.path.join(ROOT, 'build', 'hdrlab'))
    parser.add_argument('--shared', default=os.environ.get('HDRLAB_SHARED_DIR', os.path.join(ROOT, '..', 'shared')))
    args = parser.parse_args()
    hdrlab = os.path.abspath(args.hdrlab)
    with tempfile.TemporaryDirectory() as work:
        inputs = []
        plain_median = None
        for scene in SCENES:
            exr = os.path.join(work, scene + '.exr')
            run([hdrlab, '--headless', '--size', '160x90', '--frames', '3', '--scene',
                 os.path.join(ROOT, 'scenes', scene + '.json'), '--screenshot-exr', exr, '--log-level', 'warning'], work)
            inputs.append((scene, exr))
        for photo in PHOTOS:
            exr = os.path.join(args.shared, 'exr', 'real', photo + '.exr')
            if os.path.exists(exr):
                inputs.append((photo, exr))
            else:
                print(f'highlight_bound_table: {exr} missing: {photo} left out', file=sys.stderr)
        print('| input | pull wanted | ' + ' | '.join(f'{b:g} EV' if b != 2.585 else f'**{b:g} EV**' for b in BOUNDS)
              + ' |')
        print('|---|---|' + '---|' * len(BOUNDS))
        for name, exr in inputs:
            key, off_png = tonemap(hdrlab, exr, work, name + '-off', ['percentile.limit_highlights=false'])
            if name == 'default':
                plain_median = measure(off_png)[1]
            unbounded, _ = tonemap(hdrlab, exr, work, name + '-unbounded', ['percentile.max_highlight_pull_ev=64'])
            wanted = key - unbounded
            if wanted <= 4.0:
                print(f'highlight_bound_table: {name} wants {wanted:.2f} EV: within every bound, left out',
                      file=sys.stderr)
                continue
            cells = []
            for bound in BOUNDS:
                _, png = tonemap(hdrlab, exr, work, f'{name}-{bound}', [f'percentile.max_highlight_pull_ev={bound}'])
                near_black, median = measure(png)
                cell = f'{100 * near_black:.1f} % / {median:.3f}'
                cells.append(f'**{cell}**' if bound == 2.585 else cell)
            print(f'| {name} | {wanted:.2f} | ' + ' | '.join(cells) + ' |')
        if plain_median is not None:
            print(f'default with a bound of zero (limit off, the median to the key): median luma {plain_median:.2f}')


if __name__ == '__main__':
    main()
