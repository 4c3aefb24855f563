#!/usr/bin/python3
"""Generate derived-metric test expressions (deterministic).

Writes JSON strings, one per line: hand-written cases (cases.txt), random
valid expressions with random mutations, and random token soup.  The output
is the input of oracle.py.

Run: python3 gen.py > exprs.jsonl
"""
import json, random, os

rnd = random.Random(20240607)
NAMES = ["a", "b.c", "disk.dev.total", "x_1", "kernel.all.load", "y.", "avg", "rate", "mkconst"]
NUMS = ["0", "1", "42", "4294967295", "4294967296", "99999999999", "1.5", ".5", "5.", ".", "1.2.3"]
BIN = ["+", "-", "*", "/", "<", "<=", "==", ">=", ">", "!=", "&&", "||"]
NAMEFN = ["avg", "count", "delta", "max", "min", "sum", "rate", "instant", "defined", "anon"]

def gen(d=0):
    r = rnd.random()
    if d > 3 or r < 0.3:
        c = rnd.random()
        if c < 0.5:
            return rnd.choice(NAMES[:5])
        if c < 0.7:
            return rnd.choice(NUMS[:4] + ["1.5", ".5"])
        if c < 0.8:
            return rnd.choice(NAMES[:4]) + "[" + rnd.choice(["eth0", "1 minute", "a\\]b", ""]) + "]"
        return rnd.choice(NAMEFN) + "(" + rnd.choice(NAMES[:4]) + ")"
    if r < 0.6:
        return gen(d+1) + rnd.choice(["", " "]) + rnd.choice(BIN) + rnd.choice(["", " "]) + gen(d+1)
    if r < 0.68:
        return rnd.choice(["-", "!", "- ", "! "]) + gen(d+1)
    if r < 0.75:
        return gen(d+1) + " ? " + gen(d+1) + " : " + gen(d+1)
    if r < 0.82:
        s = "(" + gen(d+1) + ")"
        if rnd.random() < 0.2:
            s += "[eth" + str(rnd.randint(0, 3)) + "]"
        return s
    if r < 0.87:
        return "scalar(" + gen(d+1) + ")"
    if r < 0.9:
        return "rescale(" + gen(d+1) + ", \"" + rnd.choice(["Kbyte", "Mbyte/hour", "count"]) + "\")"
    if r < 0.94:
        return "matchinst(" + rnd.choice(["", "!"]) + "/" + rnd.choice(["^eth", "a\\/b", "x|y"]) + "/, " + gen(d+1) + ")"
    specs = ["type=U32", "type=\"double\"", "semantics=instant", "units=Kbyte", "units=\"Kbyte / count\"", "type=32"]
    return "mkconst(" + rnd.choice(["1", "2.5"]) + ", " + ", ".join(rnd.sample(specs, rnd.randint(1, 2))) + ")"

SOUP = (NAMES + NUMS + BIN + ["!", "?", ":", "(", ")", ",", "=", "[eth0]", "[a\\]b]", "[x", "\"Kbyte\"", "\"", "/a/",
        "$", "&", "|", "#", "]", ";", "type", "units", "semantics"] +
        [f + "(" for f in NAMEFN + ["rescale", "scalar", "matchinst", "mkconst", "foo"]])

def soup():
    return "".join(rnd.choice(["", " "]) + rnd.choice(SOUP) for _ in range(rnd.randint(1, 7))).strip()

def mutate(s):
    toks = s.split(" ")
    i = rnd.randrange(len(toks))
    m = rnd.random()
    if m < 0.3:
        del toks[i]
    elif m < 0.6:
        toks.insert(i, rnd.choice(SOUP))
    else:
        toks[i] = rnd.choice(SOUP)
    return " ".join(toks)

out, seen = [], set()
def add(e):
    if e not in seen:
        seen.add(e)
        out.append(e)

here = os.path.dirname(os.path.abspath(__file__))
for line in open(os.path.join(here, "cases.txt")):
    line = line.rstrip("\n")
    if line and not line.startswith("#"):
        add(json.loads(line) if line.startswith('"') else line)
for _ in range(900):
    add(gen())
for _ in range(700):
    add(mutate(gen()))
for _ in range(1400):
    add(soup())
for e in out:
    print(json.dumps(e))
