#!/usr/bin/env python3
"""doc_check.py: runs the commands the documents quote and compares what they print with what the
documents say, so that quoted outputs and numbers cannot go stale (issue 39; docs/RELIABILITY.md,
"Docs that cannot go stale").

    scripts/doc_check.py [--hdrlab BIN] [--heavy|--heavy-only] [--only NAME[,NAME...]] [--list] [--verbose] [FILE.md...]

Files: README.md and docs/*.md under the repository root by default. Each check is an HTML comment
(invisible on GitHub) placed before the text it checks:

    <!-- doc-check NAME
    run: hdrlab tonemap in.exr -o out.png --operator percentile
    expect: median luma ([0-9.]+)
    doc: median ([0-9.]+)
    tol: 0.005
    -->

Keys, one a line (`run`, `expect`, `doc`, `tol` and `block` may repeat; `expect` pairs with the
next `doc` and the `tol` after them):
  run:    a bash command line (pipefail on), run in the check's scratch folder (a fresh one per check, or the one of
          the check named by `uses`) with `hdrlab` on the PATH as the binary under test, $REPO the
          repository root and HDRLAB_DATA_DIR set; a nonzero exit fails the check unless the line
          starts with `!` (then it must fail). Output: stdout and stderr of every run line together.
  uses:   NAME of an earlier check (any file, in the order the files are read) whose folder this one
          runs in: a sequence rendered once serves several checks.
  expect: a regular expression searched in the output; its groups are the values.
  doc:    a regular expression searched in the check's scope of the document (from the comment to
          the next doc-check comment or heading); its groups are compared with `expect`'s, in order:
          numbers within `tol` (absolute; `tol: 2%` relative; default 0 as printed), text exactly.
  block:  the first fenced code block in the scope is the output's lines that match the given
          regular expression (all non-empty lines without one), line by line, numbers within `tol`;
          a block line `...` stands for lines left out and is not compared.
  synopsis: the first fenced code block in the scope names every `--flag` the output names (a
          synopsis against `hdrlab ... --help`), and no flag the output does not; the value lists
          flags that are left out on purpose (space-separated).
  needs:  a file under the shared data folder ($SHARED: $HDRLAB_SHARED_DIR, else ../shared beside
          the checkout, as the tests' sharedData): the check is skipped, saying so, where it is missing.
  cost:   `heavy`: run only with --heavy (a check over a minute on llvmpipe on 2 cores).
  size:   free text for readers: the size the check runs at (e.g. the documented 480x270).
A check that finds no match (in the output or in the document) fails, naming what it looked for.
Exit status 1 when any check fails, 2 for a malformed comment.
"""
import argparse, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = re.compile(r'<!-- doc-check (\S+)\n(.*?)-->', re.S)
HEADING = re.compile(r'^#{1,6} ', re.M)
NUMBER = re.compile(r'[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?')


class Check:
    def __init__(self, path, line, name, body, scope):
        self.path, self.line, self.name, self.scope = path, line, name, scope
        self.runs, self.pairs, self.blocks, self.uses, self.cost, self.needs = [], [], [], None, '', []
        self.synopsis = None
        pending = None
        for raw in body.splitlines():
            if not raw.strip():
                continue
            key, sep, value = raw.partition(':')
            key, value = key.strip(), value.strip()
            if not sep:
                raise ValueError(f'{self.where()}: a line without "key:": {raw!r}')
            if key == 'run':
                self.runs.append(value)
            elif key == 'uses':
                self.uses = value
            elif key == 'cost':
                self.cost = value
            elif key == 'synopsis':
                self.synopsis = value.split()
            elif key == 'needs':
                self.needs.append(value)
            elif key == 'size':
                pass
            elif key == 'expect':
                pending = {'expect': value, 'doc': None, 'tol': '0'}
                self.pairs.append(pending)
            elif key == 'doc':
                if pending is None or pending['doc'] is not None:
                    raise ValueError(f'{self.where()}: "doc:" without an "expect:" before it')
                pending['doc'] = value
            elif key == 'block':
                pending = {'block': value, 'tol': '0'}
                self.blocks.append(pending)
            elif key == 'tol':
                if pending is None:
                    raise ValueError(f'{self.where()}: "tol:" before any "expect:" or "block:"')
                pending['tol'] = value
            else:
                raise ValueError(f'{self.where()}: unknown key {key!r}')
        for pair in self.pairs:
            if pair['doc'] is None:
                raise ValueError(f'{self.where()}: "expect: {pair["expect"]}" has no "doc:"')
        if not self.runs and not self.uses:
            raise ValueError(f'{self.where()}: no "run:" line')

    def where(self):
        return f'{os.path.relpath(self.path, ROOT)}:{self.line}: {self.name}'


def read_checks(paths):
    checks = []
    for path in paths:
        text = open(path, encoding='utf-8').read()
        matches = list(MARKER.finditer(text))
        for i, m in enumerate(matches):
            end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
            heading = HEADING.search(text, m.end())
            if heading and heading.start() < end:
                end = heading.start()
            line = text.count('\n', 0, m.start()) + 1
            checks.append(Check(path, line, m.group(1), m.group(2), text[m.end():end]))
    return checks


def within(doc_value, out_value, tol):
    """Numbers within the tolerance; anything else equal as text."""
    try:
        a, b = float(doc_value), float(out_value)
    except ValueError:
        return doc_value == out_value
    if tol.endswith('%'):
        return abs(a - b) <= abs(b) * float(tol[:-1]) / 100.0 + 1e-12
    return abs(a - b) <= float(tol) + 1e-12


def lines_match(doc_line, out_line, tol):
    """Two lines agree: the same text between the numbers, each number within the tolerance."""
    if NUMBER.sub('#', doc_line).split() != NUMBER.sub('#', out_line).split():
        return False
    return all(within(a, b, tol) for a, b in zip(NUMBER.findall(doc_line), NUMBER.findall(out_line)))


def first_block(scope):
    """The lines of the first fenced block in the scope; a line `...` (an elision) is left out."""
    m = re.search(r'^```[^\n]*\n(.*?)^```', scope, re.M | re.S)
    return None if m is None else [l for l in m.group(1).splitlines() if l.strip() and l.strip() != '...']


def run_check(check, folders, env, verbose):
    problems = []
    if check.uses:
        if check.uses not in folders:
            return [f'uses {check.uses!r}, which has not run (name an earlier check)']
        folder = folders[check.uses]
    else:
        folder = tempfile.mkdtemp(prefix=f'doc-check-{check.name}-')
    folders[check.name] = folder
    output = ''
    for command in check.runs:
        must_fail = command.startswith('!')
        command = command[1:].strip() if must_fail else command
        result = subprocess.run(['bash', '-o', 'pipefail', '-c', command], cwd=folder, env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        output += result.stdout
        if verbose:
            sys.stdout.write(result.stdout)
        if (result.returncode != 0) != must_fail:
            tail = '\n    '.join(result.stdout.strip().splitlines()[-6:])
            return [f'`{command}` exited {result.returncode}:\n    {tail}']
    for pair in check.pairs:
        out = re.search(pair['expect'], output, re.M)
        doc = re.search(pair['doc'], check.scope, re.M)
        if out is None:
            problems.append(f'the output has no match for /{pair["expect"]}/')
            continue
        if doc is None:
            problems.append(f'the document has no match for /{pair["doc"]}/ after the comment')
            continue
        outs, docs = out.groups() or (out.group(0),), doc.groups() or (doc.group(0),)
        if len(outs) != len(docs):
            problems.append(f'/{pair["expect"]}/ and /{pair["doc"]}/ have different numbers of groups')
            continue
        for o, d in zip(outs, docs):
            if not within(d, o, pair['tol']):
                problems.append(f'the document says {d!r}, the command prints {o!r} '
                                f'(tolerance {pair["tol"]}; /{pair["doc"]}/)')
    if check.synopsis is not None:
        block = first_block(check.scope)
        flag = re.compile(r'(?<![A-Za-z0-9-])(--[a-z][a-z0-9-]*[a-z0-9])')
        if block is None:
            problems.append('no fenced code block after the comment')
        else:
            shown, listed = set(flag.findall('\n'.join(block))), set(flag.findall(output))
            ignored = set(check.synopsis) | {'--help', '--version', '--help-all'}
            missing = sorted(listed - shown - ignored)
            unknown = sorted(shown - listed - ignored)
            if missing:
                problems.append('the synopsis leaves out ' + ' '.join(missing))
            if unknown:
                problems.append('the synopsis names flags the command does not take: ' + ' '.join(unknown))
    for block in check.blocks:
        expected = first_block(check.scope)
        if expected is None:
            problems.append('no fenced code block after the comment')
            continue
        keep = re.compile(block['block']) if block['block'] else None
        printed = [l for l in output.splitlines() if l.strip() and (keep is None or keep.search(l))]
        if len(printed) != len(expected):
            problems.append(f'the block has {len(expected)} lines, the command prints {len(printed)} such lines:\n'
                            + '\n'.join('    ' + l for l in printed))
            continue
        for d, o in zip(expected, printed):
            if not lines_match(d, o, block['tol']):
                problems.append(f'block line differs (tolerance {block["tol"]}):\n    doc: {d}\n    now: {o}')
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--hdrlab', default=os.path.join(ROOT, 'build', 'hdrlab'))
    parser.add_argument('--heavy', action='store_true', help='also the checks marked cost: heavy')
    parser.add_argument('--heavy-only', action='store_true', help='only the checks marked cost: heavy')
    parser.add_argument('--only', help='comma-separated check names (and the ones they use)')
    parser.add_argument('--list', action='store_true', help='list the checks and exit')
    parser.add_argument('--verbose', action='store_true', help='print every command output')
    parser.add_argument('files', nargs='*')
    args = parser.parse_args()
    files = args.files or [os.path.join(ROOT, 'README.md')] + sorted(
        os.path.join(ROOT, 'docs', f) for f in os.listdir(os.path.join(ROOT, 'docs')) if f.endswith('.md'))
    try:
        checks = read_checks(files)
    except ValueError as error:
        print(f'doc_check: {error}', file=sys.stderr)
        return 2
    if args.list:
        for c in checks:
            print(f'{c.where()}{"  (heavy)" if c.cost == "heavy" else ""}')
        return 0
    names = {c.name for c in checks}
    if len(names) != len(checks):
        print('doc_check: two checks share a name', file=sys.stderr)
        return 2
    wanted = None
    if args.only:
        wanted = set(args.only.split(','))
        by_name = {c.name: c for c in checks}
        for name in list(wanted):  # the checks they use, transitively
            while name in by_name and by_name[name].uses:
                name = by_name[name].uses
                wanted.add(name)
    binary = os.path.abspath(args.hdrlab)
    if not os.access(binary, os.X_OK):
        print(f'doc_check: no hdrlab binary at {binary} (build it, or pass --hdrlab)', file=sys.stderr)
        return 2
    bindir = tempfile.mkdtemp(prefix='doc-check-bin-')
    os.symlink(binary, os.path.join(bindir, 'hdrlab'))
    shared = os.environ.get('HDRLAB_SHARED_DIR') or os.path.join(os.path.dirname(ROOT), 'shared')
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get('PATH', ''), REPO=ROOT,
               HDRLAB_DATA_DIR=ROOT, SHARED=shared)
    folders, failed, ran, skipped = {}, 0, 0, 0
    start = time.time()
    for check in checks:
        heavy = check.cost == 'heavy'
        if ((wanted is not None and check.name not in wanted) or (heavy and not (args.heavy or args.heavy_only))
                or (args.heavy_only and not heavy)):
            skipped += 1
            continue
        missing = [n for n in check.needs if not os.path.exists(os.path.join(shared, n))]
        if missing:
            skipped += 1
            print(f'doc-check {check.where()}: skipped ({shared}/{missing[0]} is missing)')
            continue
        began = time.time()
        problems = run_check(check, folders, env, args.verbose)
        ran += 1
        status = 'ok' if not problems else 'FAILED'
        print(f'doc-check {check.where()}: {status} ({time.time() - began:.1f} s)')
        for p in problems:
            print(f'  {p}')
        failed += bool(problems)
    for folder in folders.values():
        shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(bindir, ignore_errors=True)
    print(f'doc_check: {ran} checks ran, {failed} failed, {skipped} skipped, {time.time() - start:.0f} s')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
