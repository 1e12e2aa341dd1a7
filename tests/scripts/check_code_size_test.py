#!/usr/bin/env python3
"""The size check (scripts/check_code_size.py) on a fixture tree with one case of each rule, so it is
known to fail when it must: a file over 700 lines, a function over 150 lines (a constructor with
braced member initialisers and a CUDA kernel with launch bounds among the functions), a listed
entry that grew, one that shrank, one within its limit again, and functions it must not count
(inside comments, strings, a lambda, a class body)."""
import os, subprocess, sys, tempfile

script = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts', 'check_code_size.py')


def body(lines):
    return ''.join(f'    x += {k};\n' for k in range(lines))


with tempfile.TemporaryDirectory() as root:
    os.makedirs(os.path.join(root, 'src', 'a'))
    os.makedirs(os.path.join(root, 'shaders'))
    os.makedirs(os.path.join(root, 'tests', 'layering'))
    def write(path, text):
        with open(os.path.join(root, path), 'w') as f:
            f.write(text)
    write('src/a/Long.cpp', 'int x;\n' * 701)
    # 151 lines: signature, 149 body lines, closing brace.
    write('src/a/Big.cpp', '// void commented(int) {\nconst char* s = "void inString() {";\n'
          'int big(int y)\n{\n' + body(148) + '}\n'
          'struct Holder {\n  Holder() : a{1},\n    b(2)\n  {\n' + body(147) + '  }\n  int a, b;\n};\n'
          'auto f = [](int x) {\n' + body(10) + '};\n')
    write('shaders/Grew.comp', 'void main()\n{\n' + body(160) + '}\n')
    write('src/a/Shrank.cu', '__global__ void __launch_bounds__(256) kernel(int n)\n{\n' + body(155) + '}\n')
    write('src/a/Fine.cpp', 'int ok()\n{\n' + body(10) + '}\n')
    write('tests/layering/size-exceptions.txt', '# list\n150 shaders/Grew.comp:main\n'
          '170 src/a/Shrank.cu:kernel\n800 src/a/Fine.cpp\n')
    run = subprocess.run([sys.executable, script, root], capture_output=True, text=True)
    out = run.stdout
    print(out)
    expected = ['src/a/Long.cpp: file of 701 lines',
                'src/a/Big.cpp:big: function of 151 lines',
                'src/a/Big.cpp:Holder: function of 151 lines',
                'shaders/Grew.comp:main: grew from 150 to 163 lines',
                'src/a/Shrank.cu:kernel: now 158 lines',
                'src/a/Fine.cpp: within its limit now',
                '5 over a limit, 3 listed, 6 problem(s)']
    missing = [e for e in expected if e not in out]
    if run.returncode != 1 or missing or 'inString' in out or 'commented' in out:
        print('check_code_size_test: FAILED; missing:', missing, 'exit', run.returncode)
        sys.exit(1)
print('check_code_size_test: the check reports each case')
