#!/usr/bin/env python3
"""check_doc_links.py [ROOT]: checks the relative links of README.md and docs/**/*.md under ROOT
(default: the current folder): the target exists, and a #anchor names a heading (GitHub's slug
rules) or an explicit <a id/name> in the target document. Prints each broken link and a count;
exit status 1 when one is broken. Run by ctest `doc_links` (tests/scripts/check_doc_links_test.py)."""
import os, re, sys, unicodedata
root = sys.argv[1] if len(sys.argv) > 1 else '.'
os.chdir(root)
docs = ['README.md'] + sorted(os.path.join(dp, f) for dp, _, fs in os.walk('docs') for f in fs if f.endswith('.md'))

def slug(text):
    text = re.sub(r'<[^>]+>', '', text)
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)  # links -> text
    text = text.replace('`', '').strip().lower()
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in ' -_' or cat[0] in 'LN' or cat == 'Mn':
            out.append('-' if ch == ' ' else ch)
    return ''.join(out)

anchor_cache = {}
def anchors(path):
    if path in anchor_cache: return anchor_cache[path]
    seen, result, fence = {}, set(), False
    for line in open(path, encoding='utf-8'):
        if line.lstrip().startswith('```'):
            fence = not fence; continue
        if fence: continue
        m = re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if m:
            s = slug(m.group(2))
            n = seen.get(s, 0); seen[s] = n + 1
            result.add(s if n == 0 else f'{s}-{n}')
        for a in re.findall(r'<a\s+(?:id|name)="([^"]+)"', line):
            result.add(a)
    anchor_cache[path] = result
    return result

link = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
bad = 0; count = 0
for d in docs:
    fence = False
    for n, line in enumerate(open(d, encoding='utf-8'), 1):
        if line.lstrip().startswith('```'):
            fence = not fence; continue
        if fence: continue
        for target in link.findall(line):
            if re.match(r'^[a-z]+:', target): continue  # http:, mailto:
            count += 1
            path, _, frag = target.partition('#')
            full = os.path.normpath(os.path.join(os.path.dirname(d), path)) if path else d
            if not os.path.exists(full):
                print(f'{d}:{n}: missing file {target}'); bad += 1; continue
            if frag and full.endswith('.md') and frag not in anchors(full):
                print(f'{d}:{n}: missing anchor {target}'); bad += 1
print(f'{count} relative links in {len(docs)} documents, {bad} broken')
sys.exit(1 if bad else 0)
