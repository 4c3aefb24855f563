#!/usr/bin/python3
"""Ask libpcp (real PCP 6.0.3) about derived-metric expressions.

Reads expressions, one JSON string per line, on stdin; writes one JSON
object per line on stdout:
  {"expr": E, "err": ERRMSG-or-null, "tree": TREE-or-null}
err is the errmsg pmRegisterDerivedMetric(3) returns for the expression,
registered as metric "t.m"; tree is libpcp's parse tree, taken from its
-Dderive,appl0 dump, in the notation NODE<value>(children...).  Trees are
not taken for expressions with "[" or matchinst, because libpcp 6.0.3's
dump crashes on instance filters.  Each expression is registered by a fresh
process, so libpcp state (its matchinst scanner mode) does not carry over.

Run: /usr/bin/python3 oracle.py < exprs.jsonl > pcp.jsonl
"""
import json, re, subprocess, sys

CHILD = r'''
import ctypes, sys
pcp = ctypes.CDLL("libpcp.so.3")
pcp.pmRegisterDerivedMetric.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
pcp.pmSetDebug.argtypes = [ctypes.c_char_p]
expr = sys.argv[1].encode()
if sys.argv[2] == "1":
    pcp.pmSetDebug(b"derive,appl0")
err = ctypes.c_char_p()
rc = pcp.pmRegisterDerivedMetric(b"t.m", expr, ctypes.byref(err))
sys.stderr.flush()
sys.stdout.write("OK" if rc == 0 else "ERR" + err.value.decode())
'''

def tree(dump):
    nodes, root = {}, None
    for l in dump.splitlines():
        m = re.match(r"expr node (\S+) type=(\S+) left=(\S+) right=(\S+) save_last=\d+(.*)", l)
        if not m:
            continue
        addr, typ, left, right, rest = m.groups()
        if root is None:
            root = addr
        mm = re.search(r"\[(.*)\]", rest)
        nodes[addr] = (typ, left, right, mm.group(1) if mm else "")
    def r(a):
        t, l, rr, v = nodes[a]
        kids = [r(x) for x in (l, rr) if x != "(nil)"]
        return t + ("<" + v + ">" if v else "") + ("(" + ", ".join(kids) + ")" if kids else "")
    return r(root) if root else None

for line in sys.stdin:
    if not line.strip():
        continue
    expr = json.loads(line)
    want_tree = "[" not in expr and "matchinst" not in expr
    p = subprocess.run(["/usr/bin/python3", "-c", CHILD, expr, "1" if want_tree else "0"],
                       capture_output=True, text=True, errors="replace")
    out = {"expr": expr, "err": None, "tree": None}
    if p.stdout.startswith("ERR"):
        out["err"] = p.stdout[3:]
    elif p.stdout == "OK" and want_tree:
        mine = p.stderr.split('pmRegisterDerived: name="t.m"', 1)[-1]
        dump = mine.split("Derived metric expr dump from", 1)
        out["tree"] = tree(dump[1]) if len(dump) > 1 else None
    elif p.stdout != "OK":
        out["err"] = "ORACLE FAILURE: " + p.stderr
    print(json.dumps(out), flush=True)
