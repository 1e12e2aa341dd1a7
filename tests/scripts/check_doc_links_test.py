#!/usr/bin/env python3
"""ctest doc_links: the repository's documents have no broken relative link, and the checker fails on
a made-up tree with a missing file and a missing anchor (so it can fail)."""
import os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, '..', '..'))
checker = os.path.join(root, 'scripts', 'check_doc_links.py')

def run(tree):
    return subprocess.run([sys.executable, checker, tree], capture_output=True, text=True)

result = run(root)
print(result.stdout, end='')
if result.returncode != 0:
    sys.exit('doc_links: the repository has broken links (above)')

with tempfile.TemporaryDirectory() as tree:
    os.makedirs(os.path.join(tree, 'docs'))
    with open(os.path.join(tree, 'README.md'), 'w') as f:
        f.write('# Title\n\n[ok](docs/A.md#a-heading) [gone](docs/Missing.md) [no anchor](docs/A.md#nowhere)\n')
    with open(os.path.join(tree, 'docs', 'A.md'), 'w') as f:
        f.write('# A heading\n\n```\n[not a link in a code block](Nothing.md)\n```\n')
    bad = run(tree)
    expected = ['missing file docs/Missing.md', 'missing anchor docs/A.md#nowhere', '3 relative links in 2 documents, 2 broken']
    if bad.returncode != 1 or not all(e in bad.stdout for e in expected):
        sys.exit('doc_links: the checker did not report the made-up tree as expected:\n' + bad.stdout + bad.stderr)
print('doc_links: OK')
