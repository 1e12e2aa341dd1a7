#!/usr/bin/env python3
"""ctest doc_check_script: scripts/doc_check.py on made-up documents with a stand-in `hdrlab` (a
shell script), so the checker is shown to fail where a quoted number or block went stale, and the
repository's own doc-check comments parse."""
import os, subprocess, sys, tempfile, textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, 'scripts', 'doc_check.py')
failures = []


def run(doc, *extra):
    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(tmp, 'fake-hdrlab')
        with open(fake, 'w') as f:
            f.write('#!/bin/sh\n'
                    'case "$1" in\n'
                    '  flicker) echo "flicker: 1.598 EV/s over 599 pairs";;\n'
                    '  sheet) printf "tile 1: percentile\\nsheet: 7 tiles, 1504x1383\\n";;\n'
                    '  write) echo made > made.txt;;\n'
                    '  fail) echo "hdrlab: error: no"; exit 2;;\n'
                    '  help) printf "  --size WxH  size\\n  --part NAME  part\\n  --help\\n";;\n'
                    'esac\n')
        os.chmod(fake, 0o755)
        path = os.path.join(tmp, 'doc.md')
        with open(path, 'w') as f:
            f.write(textwrap.dedent(doc))
        result = subprocess.run([sys.executable, SCRIPT, '--hdrlab', fake, *extra, path],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return result.returncode, result.stdout


def expect(name, doc, code, text=None, *extra):
    got, output = run(doc, *extra)
    if got != code or (text and text not in output):
        failures.append(f'{name}: exit {got} (wanted {code}{", and " + repr(text) if text else ""}):\n{output}')


NUMBER_DOC = '''
<!-- doc-check flicker
run: hdrlab flicker
expect: flicker: ([0-9.]+) EV/s
doc: flicker ([0-9.]+) EV/s
tol: {tol}
-->
The filmstrip's percentile flicker {value} EV/s.
'''
expect('number as printed', NUMBER_DOC.format(tol='0', value='1.598'), 0)
expect('stale number', NUMBER_DOC.format(tol='0.01', value='0.96'), 1, "the document says '0.96'")
expect('number within tolerance', NUMBER_DOC.format(tol='0.01', value='1.60'), 0)
expect('number within a relative tolerance', NUMBER_DOC.format(tol='1%', value='1.61'), 0)
expect('number beyond a relative tolerance', NUMBER_DOC.format(tol='0.1%', value='1.61'), 1)

BLOCK_DOC = '''
<!-- doc-check sheet
run: hdrlab sheet
block: ^sheet:
-->
```
sheet: {tiles} tiles, 1504x1383
```
'''
expect('block as printed', BLOCK_DOC.format(tiles=7), 0)
expect('stale block', BLOCK_DOC.format(tiles=4), 1, 'block line differs')

expect('no match in the output', '''
<!-- doc-check nothing
run: hdrlab flicker
expect: cut at frame (\\d+)
doc: frame (\\d+)
-->
frame 4
''', 1, 'the output has no match')
expect('the scope ends at the next heading', '''
<!-- doc-check scoped
run: hdrlab flicker
expect: flicker: ([0-9.]+)
doc: flicker ([0-9.]+)
-->
## Another section
flicker 1.598
''', 1, 'the document has no match')
expect('a run that fails', '''
<!-- doc-check failing
run: hdrlab fail
expect: error
doc: error
-->
error
''', 1, 'exited 2')
expect('a run that must fail', '''
<!-- doc-check refused
run: ! hdrlab fail
expect: (hdrlab: error: no)
doc: (hdrlab: error: no)
-->
hdrlab: error: no
''', 0)
expect('uses runs in the named check folder', '''
<!-- doc-check maker
run: hdrlab write
expect: ^$
doc: ^$
-->

<!-- doc-check user
uses: maker
run: cat made.txt
expect: (made)
doc: (made)
-->
made
''', 0)
expect('heavy checks are skipped without --heavy', '''
<!-- doc-check slow
cost: heavy
run: hdrlab fail
expect: x
doc: x
-->
x
''', 0, '1 skipped')
expect('a malformed comment', '''
<!-- doc-check bad
run: hdrlab flicker
doc: flicker
-->
''', 2)

SYNOPSIS_DOC = '''
<!-- doc-check synopsis
run: hdrlab help
synopsis:
-->
```
hdrlab view IMAGE [--size WxH]{extra}
```
'''
expect('a complete synopsis', SYNOPSIS_DOC.format(extra=' [--part NAME]'), 0)
expect('a synopsis without a flag', SYNOPSIS_DOC.format(extra=''), 1, 'leaves out --part')
expect('a synopsis with a flag too many', SYNOPSIS_DOC.format(extra=' [--part NAME] [--fps F]'), 1,
       'does not take: --fps')

# The repository's own comments parse (no binary needed to list them).
listed = subprocess.run([sys.executable, SCRIPT, '--list'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                        text=True)
if listed.returncode != 0:
    failures.append(f'--list on the repository: exit {listed.returncode}\n{listed.stdout}')
if listed.stdout.count('\n') < 5:
    failures.append(f'--list on the repository lists fewer than 5 checks:\n{listed.stdout}')

if failures:
    print('\n\n'.join(failures))
    sys.exit(1)
print('doc_check_test: every case passed')
