#!/usr/bin/python3
"""Ask real pmie 6.0.3 about rule files.

Reads cases on stdin, one JSON string per line (the text of a rule file);
writes one JSON object per line on stdout:
  {"text": T, "stderr": S, "listing": L, "rc": R}
S and L are pmie's bytes read as Latin-1 (one character per byte), since
pmie can print bytes that are not UTF-8.
S is the standard error of `pmie -C -c t.pmie` (syntax check; the file is
called t.pmie), L what `pmie -d t.pmie` lists for the debugger's "l"
command (every expression pmie kept, as pmie prints them), R the exit
status of the check (negative when pmie was killed by a signal: pmie 6.0.3
crashes on some statements, e.g. sum_inst of a constant).  Both need pmcd
running on the local host, because pmie looks up the metrics.

Run: /usr/bin/python3 oracle.py < cases.jsonl > pcp.jsonl
"""
import json, os, subprocess, sys, tempfile

tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "t.pmie")
for line in sys.stdin:
    if not line.strip():
        continue
    text = json.loads(line)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    chk = subprocess.run(["pmie", "-C", "-c", "t.pmie"], cwd=tmp, capture_output=True,
                         encoding="latin-1", timeout=20)
    dbg = subprocess.run(["pmie", "-d", "t.pmie"], cwd=tmp, input="l\nq\n", capture_output=True,
                         encoding="latin-1", timeout=20)
    out = dbg.stdout
    # the listing is what follows the first prompt, up to the next prompt
    parts = out.split("pmie> ")
    listing = parts[1] if len(parts) > 1 else ""
    print(json.dumps({"text": text, "stderr": chk.stderr, "listing": listing, "rc": chk.returncode}), flush=True)
