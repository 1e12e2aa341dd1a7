#!/usr/bin/env python3
"""check_code_size.py [ROOT]: the size rules of docs/ARCHITECTURE.md, checked (ctest `code_size`).

Every file of src/ and shaders/ is at most 700 lines, and every function in them at most 150 lines
(from the first line of its signature to its closing brace). What breaks a rule today is listed in
tests/layering/size-exceptions.txt with its current size; the list may only shrink: an entry that
grew, an entry whose size changed (write the new, smaller number), an entry no longer over its limit
(delete it) and anything over a limit and not listed are each reported, and the exit status is 1.

Functions are found by a brace parser over the source with comments, strings and preprocessor
lines blanked: a `{` at namespace or class scope whose text since the previous `;`, `{` or `}`
holds a parameter list followed only by qualifiers, a trailing return type or a constructor's
initialiser list opens a function; everything up to the matching `}` belongs to it (lambdas and
local classes included). A constructor's braced member initialisers continue the same function.
"""
import os
import re
import sys

FILE_LIMIT = 700
FUNCTION_LIMIT = 150
SOURCE_DIRS = ('src', 'shaders')
SUFFIXES = ('.h', '.hpp', '.cpp', '.cc', '.cu', '.cuh', '.glsl', '.comp', '.frag', '.vert', '.geom')
EXCEPTIONS = os.path.join('tests', 'layering', 'size-exceptions.txt')

# What may follow a function's parameter list before its body.
QUALIFIERS = re.compile(r'^(\s|const\b|noexcept\b(\s*\([^)]*\))?|override\b|final\b|mutable\b|volatile\b|&&?|'
                        r'->\s*[\w:<>,\s\*&]+|__\w+__\s*(\(\([^)]*\)\))?)*(:.*)?$', re.S)


def blank_comments_and_strings(text):
    """The text with comments, string/char literals and preprocessor lines replaced by spaces
    (newlines kept, so offsets and line numbers stay right)."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == '#':
            j = i
            while j < n and not (text[j] == '\n' and text[j - 1] != '\\'):
                j += 1
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if c == '/' and text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
            continue
        if c == '/' and text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if m:
                end = text.find(')' + m.group(1) + '"', i)
                end = n if end < 0 else end + len(m.group(1)) + 2
                out.append(re.sub(r'[^\n]', ' ', text[i:end]))
                i = end
                continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            # A digit separator (1'000) is not a char literal.
            if c == '\'' and i > 0 and text[i - 1].isalnum():
                out.append(c)
                i += 1
                continue
            out.append(' ' * (j - i))
            i = j
            continue
        out.append(c)
        at_line_start = c == '\n' or (at_line_start and c in ' \t')
        i += 1
    return ''.join(out)


ATTRIBUTES = re.compile(r'\b(__launch_bounds__|__attribute__|alignas|__declspec)\s*\((?:[^()]|\([^()]*\))*\)')
TEMPLATE_PREFIX = re.compile(r'^\s*template\s*<(?:[^<>]|<[^<>]*>)*>\s*')


def function_name(header):
    """A readable name for a function header: the qualified name before its parameter list."""
    header = ATTRIBUTES.sub(' ', TEMPLATE_PREFIX.sub('', header))
    depth, first_paren = 0, -1
    for k, ch in enumerate(header):
        if ch == '<':
            depth += 1
        elif ch == '>':
            depth -= 1
        elif ch == '(' and depth <= 0:
            first_paren = k
            break
    before = header[:first_paren] if first_paren >= 0 else header
    m = re.search(r'(operator\s*\S+|~?[\w:]+)\s*$', before.strip())
    name = m.group(1) if m else before.strip()
    if name in ('TEST', 'TEST_F', 'TEST_P', 'TYPED_TEST'):
        close = header.find(')', first_paren)
        name += re.sub(r'\s+', '', header[first_paren:close + 1])
    return name or '(anonymous)'


def is_function_header(header):
    stripped = ATTRIBUTES.sub(' ', TEMPLATE_PREFIX.sub('', header)).strip()
    if re.match(r'(if|for|while|switch|catch|do|else)\b', stripped):
        return False
    if '(' not in stripped or re.search(r'\b(namespace|class|struct|union|enum)\b', stripped.split('(')[0]):
        return False
    if re.search(r'\b(buffer|uniform|shared)\b', stripped.split('(')[0] + stripped[stripped.rfind(')'):]):
        return False
    # The parameter list's closing parenthesis: the last ')' at depth 0 before any initialiser list.
    depth, close = 0, -1
    for k, ch in enumerate(stripped):
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
            if depth == 0:
                close = k
                rest = stripped[k + 1:]
                if QUALIFIERS.match(rest) and not rest.lstrip().startswith(':'):
                    return not re.search(r'=\s*$', stripped[:stripped.find('(')])
                if rest.lstrip().startswith(':') and not rest.lstrip().startswith('::'):
                    return True  # constructor initialiser list
    return close >= 0 and QUALIFIERS.match(stripped[close + 1:]) is not None


def functions(text):
    """(name, first line, line count) of every function in the source text."""
    code = blank_comments_and_strings(text)
    line_of = [0] * (len(code) + 1)
    line = 1
    for k, ch in enumerate(code):
        line_of[k] = line
        if ch == '\n':
            line += 1
    line_of[len(code)] = line
    found = []
    stack = []  # one entry per open brace: 'scope' (namespace/class/other) or 'function'
    header_start = 0
    continuing = None  # (name, start) of a constructor whose initialiser list has braced members
    function_depth = 0
    k = 0
    while k < len(code):
        ch = code[k]
        if ch == '{':
            if function_depth:
                function_depth += 1
            else:
                header = code[header_start:k]
                header = re.sub(r'^\s*(public|private|protected)\s*:', '', header)
                if continuing is not None:
                    name, start = continuing
                    stack.append(('function', name, start))
                    function_depth = 1
                    continuing = None
                elif is_function_header(header):
                    offset = header_start + (len(code[header_start:k]) - len(code[header_start:k].lstrip()))
                    stack.append(('function', function_name(header), line_of[offset]))
                    function_depth = 1
                else:
                    stack.append(('scope', None, None))
            header_start = k + 1
        elif ch == '}':
            if function_depth:
                function_depth -= 1
                if function_depth == 0:
                    _, name, start = stack.pop()
                    rest = code[k + 1:].lstrip()
                    if rest.startswith(',') or rest.startswith('{'):
                        continuing = (name, start)  # more braced member initialisers or the body
                    else:
                        found.append((name, start, line_of[k] - start + 1))
            elif stack:
                stack.pop()
            header_start = k + 1
        elif ch == ';' and not function_depth:
            header_start = k + 1
            continuing = None
        k += 1
    return found


def measure(root):
    """{key: size} of everything over a limit: 'path' for files, 'path:function' for functions."""
    over = {}
    for top in SOURCE_DIRS:
        for folder, _, names in os.walk(os.path.join(root, top)):
            for file_name in sorted(names):
                if not file_name.endswith(SUFFIXES):
                    continue
                path = os.path.join(folder, file_name)
                relative = os.path.relpath(path, root).replace(os.sep, '/')
                text = open(path, encoding='utf-8', errors='replace').read()
                lines = text.count('\n') + (0 if text.endswith('\n') or not text else 1)
                if lines > FILE_LIMIT:
                    over[relative] = lines
                for name, _, count in functions(text):
                    if count > FUNCTION_LIMIT:
                        key = f'{relative}:{name}'
                        over[key] = max(over.get(key, 0), count)
    return over


def read_exceptions(root):
    listed = {}
    path = os.path.join(root, EXCEPTIONS)
    if not os.path.exists(path):
        return listed
    for number, raw in enumerate(open(path, encoding='utf-8'), 1):
        text = raw.split('#', 1)[0].strip()
        if not text:
            continue
        parts = text.split(None, 1)
        if len(parts) != 2 or not parts[0].isdigit():
            raise SystemExit(f'{EXCEPTIONS}:{number}: expected "LINES PATH[:FUNCTION]", got "{text}"')
        listed[parts[1]] = int(parts[0])
    return listed


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    over = measure(root)
    listed = read_exceptions(root)
    problems = []
    for key, size in sorted(over.items()):
        limit = FUNCTION_LIMIT if ':' in key else FILE_LIMIT
        kind = 'function' if ':' in key else 'file'
        if key not in listed:
            problems.append(f'{key}: {kind} of {size} lines (limit {limit}); split it')
        elif size > listed[key]:
            problems.append(f'{key}: grew from {listed[key]} to {size} lines (limit {limit}); the list may only shrink')
        elif size < listed[key]:
            problems.append(f'{key}: now {size} lines; write {size} in {EXCEPTIONS}')
    for key, size in sorted(listed.items()):
        if key not in over:
            problems.append(f'{key}: within its limit now; delete its line from {EXCEPTIONS}')
    for problem in problems:
        print(problem)
    print(f'code size: {len(over)} over a limit, {len(listed)} listed, {len(problems)} problem(s)')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
