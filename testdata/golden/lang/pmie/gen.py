#!/usr/bin/python3
"""Generate pmie rule files for oracle.py (deterministic).

Writes JSON strings, one rule file per line: the hand-written files of
cases/*.pmie, then random well-typed statements over metrics every Linux
pmcd has, mutated by deleting, inserting or replacing tokens, grouped one
to four to a file so that pmie's habit of skipping into the next statement
after some errors is exercised.

Run: python3 gen.py > cases.jsonl
"""
import glob, json, os, random

rnd = random.Random(4242)
METRICS = ["hinv.ncpu", "kernel.all.pswitch", "mem.util.used", "hinv.physmem", "kernel.all.sysfork"]
PREFIX = "n = 5;\nt = 2 > 1;\nm = \"hinv.ncpu\";\nq = \"#'1 minute'\";\n"

def metric():
    r = rnd.random()
    if r < 0.1:
        return "kernel.all.load #'1 minute'"
    if r < 0.15:
        return "$m"
    if r < 0.2:
        return "kernel.all.load $q"
    return rnd.choice(METRICS)

def num():
    r = rnd.random()
    if r < 0.6:
        return str(rnd.randint(0, 100))
    if r < 0.7:
        return "%.1f" % (rnd.random() * 10)
    if r < 0.8:
        return "$n"
    return str(rnd.randint(1, 9)) + " " + rnd.choice(["Kbyte", "count/sec", "Kbytes / sec", "msec", "min", "Mcount"])

def aexp(d=0):
    r = rnd.random()
    if d > 2 or r < 0.35:
        return metric() if rnd.random() < 0.7 else num()
    if r < 0.6:
        return aexp(d+1) + " " + rnd.choice("+-*/") + " " + aexp(d+1)
    if r < 0.65:
        return "-" + aexp(d+1)
    if r < 0.72:
        return rnd.choice(["rate ", "instant "]) + aexp(d+1)
    if r < 0.8:
        return "(" + aexp(d+1) + ")"
    if r < 0.87:
        return rnd.choice(["sum_inst", "avg_inst", "max_inst", "min_inst"]) + " " + aexp(d+1)
    if r < 0.93:
        return rnd.choice(["avg_sample", "max_sample"]) + " (" + rnd.choice(METRICS) + " @0.." + str(rnd.randint(1, 4)) + ")"
    return "count_inst (" + bexp(d+1) + ")"

def bexp(d=0):
    r = rnd.random()
    if d > 2 or r < 0.35:
        return aexp(d+1) + " " + rnd.choice(["<", ">", "<=", ">=", "==", "!="]) + " " + aexp(d+1)
    if r < 0.55:
        return bexp(d+1) + " " + rnd.choice(["&&", "||"]) + " " + bexp(d+1)
    if r < 0.62:
        return rnd.choice(["! ", "!", "rising ", "falling "]) + bexp(d+1)
    if r < 0.7:
        return rnd.choice(["some_inst ", "all_inst ", "some_host ", "75 %_inst ", "50%_host "]) + bexp(d+1)
    if r < 0.75:
        return rnd.choice(["all_sample", "some_sample"]) + " (" + rnd.choice(METRICS) + " @0..2 > " + num() + ")"
    if r < 0.82:
        return "(" + bexp(d+1) + ")"
    if r < 0.87:
        return rnd.choice(["match_inst", "nomatch_inst"]) + " \"^x\" " + bexp(d+1)
    if r < 0.92:
        return rnd.choice(["true", "false", "$t"])
    return "\"a\" == \"b\""

def act(d=0):
    r = rnd.random()
    if d > 1 or r < 0.6:
        w = rnd.choice(["print", "print", "shell", "alarm"])
        hold = rnd.choice(["", "", "5 min ", "10 "])
        return w + " " + hold + " ".join('"%s"' % rnd.choice(["x", "y %v", "%h:%i"]) for _ in range(rnd.randint(1, 2)))
    if r < 0.9:
        return act(d+1) + " " + rnd.choice(["&", "|"]) + " " + act(d+1)
    return "(" + act(d+1) + ")"

def rule():
    s = bexp() + " -> " + act()
    return "(" + s + ")" if rnd.random() < 0.05 else s

def ruleset():
    s = "ruleset " + rule()
    for _ in range(rnd.randint(0, 2)):
        s += " else " + rule()
    if rnd.random() < 0.5:
        s += " unknown -> " + act()
    if rnd.random() < 0.5:
        s += " otherwise -> " + act()
    return s

def statement():
    r = rnd.random()
    if r < 0.35:
        x = rule()
    elif r < 0.45:
        x = ruleset()
    elif r < 0.7:
        x = bexp()
    elif r < 0.9:
        x = aexp()
    else:
        x = act()
    if rnd.random() < 0.6:
        x = "r%d = %s" % (rnd.randint(0, 9999), x)
    return x

VOCAB = (METRICS + ["+", "-", "*", "/", "<", ">", "==", "!=", "&&", "||", "!", "->", "&", "|", "(", ")",
         ";", "=", ":", "#", "@", "..", "^", "%_inst", "some_inst", "count_host", "sum_sample", "rate",
         "instant", "rising", "true", "print", "shell", "\"s\"", "5", "1.5", "Kbyte", "sec", "/ sec",
         "ruleset", "else", "unknown", "otherwise", "match_inst", "$n", "$t", "$m", "$nosuch", "$",
         "'1 minute'", "/* c */", "// c\n", "}", "[", "?", ",", "."])

def mutate(s):
    toks = s.split(" ")
    for _ in range(rnd.choice([1, 1, 1, 2])):
        i = rnd.randrange(len(toks))
        m = rnd.random()
        if m < 0.35 and len(toks) > 1:
            del toks[i]
        elif m < 0.7:
            toks.insert(i, rnd.choice(VOCAB))
        else:
            toks[i] = rnd.choice(VOCAB)
    return " ".join(toks)

out = []
here = os.path.dirname(os.path.abspath(__file__))
for f in sorted(glob.glob(os.path.join(here, "cases", "*.pmie"))):
    out.append(open(f).read())
for _ in range(2400):
    stmts = []
    for _ in range(rnd.choice([1, 1, 2, 3, 4])):
        s = statement()
        if rnd.random() < 0.55:
            s = mutate(s)
        sep = rnd.choice([";\n", ";\n", "; ", ";\n\n"])
        stmts.append(s + sep)
    text = "".join(stmts)
    if rnd.random() < 0.5:
        text = PREFIX + text
    if rnd.random() < 0.1:
        text = text.rstrip().rstrip(";")
    out.append(text)
for t in out:
    print(json.dumps(t))
