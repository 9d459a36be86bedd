#!/usr/bin/env python3
"""The longest Rust functions and files: the project's check ("no function over ~120
lines and no file over ~800").

    tools/long-functions.py [--fn 120] [--file 800] crates src tests

Prints every function (`fn` to its closing brace, lines counted as in the file, doc
comments not) over --fn lines and every .rs file over --file lines, longest first.
Comments, strings and char literals are blanked before braces are matched; `target/` is
skipped.
"""
import os, re, sys

def strip(src):
    # blank out comments, strings and char literals, keeping newlines
    out = []; i = 0; n = len(src)
    while i < n:
        c = src[i]
        if src.startswith('//', i):
            j = src.find('\n', i); j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif src.startswith('/*', i):
            depth = 1; j = i + 2
            while j < n and depth:
                if src.startswith('/*', j): depth += 1; j += 2
                elif src.startswith('*/', j): depth -= 1; j += 2
                else: j += 1
            out.append(re.sub(r'[^\n]', ' ', src[i:j])); i = j
        elif c == 'r' and re.match(r'r#*"', src[i:i+10]) and (i == 0 or not (src[i-1].isalnum() or src[i-1]=='_')):
            m = re.match(r'r(#*)"', src[i:]); hashes = m.group(1)
            end = src.find('"' + hashes, i + len(m.group(0)))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r'[^\n]', ' ', src[i:end])); i = end
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == '\\' else 1
            out.append(re.sub(r'[^\n]', ' ', src[i:j+1])); i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^'\\])'", src[i:])
            if m:
                out.append(' ' * len(m.group(0))); i += len(m.group(0))
            else:
                out.append(c); i += 1
        else:
            out.append(c); i += 1
    return ''.join(out)

def functions(path):
    src = open(path, encoding='utf-8').read()
    s = strip(src)
    res = []
    for m in re.finditer(r'\bfn\s+([A-Za-z_][A-Za-z0-9_]*)', s):
        # find the body's opening brace (skip signatures ending in ';')
        j = m.end(); depth_paren = 0; angle = 0
        while j < len(s):
            ch = s[j]
            if ch in '([': depth_paren += 1
            elif ch in ')]': depth_paren -= 1
            elif ch == ';' and depth_paren == 0: j = -1; break
            elif ch == '{' and depth_paren == 0: break
            j += 1
        if j < 0 or j >= len(s): continue
        depth = 0; k = j
        while k < len(s):
            if s[k] == '{': depth += 1
            elif s[k] == '}':
                depth -= 1
                if depth == 0: break
            k += 1
        start = s.count('\n', 0, m.start()) + 1
        end = s.count('\n', 0, k) + 1
        # attribute to enclosing impl? keep simple: name only
        res.append((end - start + 1, m.group(1), start))
    return res

def main():
    args = sys.argv[1:]; fnlim = 120; filelim = 800
    while args and args[0].startswith('--'):
        if args[0] == '--fn': fnlim = int(args[1])
        elif args[0] == '--file': filelim = int(args[1])
        args = args[2:]
    fns = []; files = []
    for d in args:
        for root, _, names in os.walk(d):
            if '/target' in root: continue
            for nm in names:
                if nm.endswith('.rs'):
                    p = os.path.join(root, nm)
                    files.append((sum(1 for _ in open(p, encoding='utf-8')), p))
                    for ln, name, start in functions(p):
                        fns.append((ln, name, f'{p}:{start}'))
    print(f'functions over {fnlim} lines:')
    for ln, name, where in sorted(fns, reverse=True):
        if ln > fnlim: print(f'  {ln:5} {name} {where}')
    print(f'files over {filelim} lines:')
    for ln, p in sorted(files, reverse=True):
        if ln > filelim: print(f'  {ln:5} {p}')
main()
