#!/usr/bin/python3
"""diff-pmie-agent.py: random differential testing of our pmie -x and -X
against real pmie's.

Takes the random rule files of diff-pmie.py (every construct of the
language, some bad statements, some actions) and gives most of their
statements names of a namespace it writes ("s.rN", PMID 27.0.N, loaded
as pmie -x loads it, through $PMNS_DEFAULT), leaving some unnamed and
some with names the namespace lacks. It runs real pmie (twice, to set
apart what it sends from memory it should not read: the value of a
string metric is a pointer) and ours, with -x (secret agent mode: PDUs
for the summary PMDA) or -X (secret applet mode: a line of values per
evaluation) and random -t, -S, -T, -z, and compares standard output (as
bytes for -x: every PDU, its sender and values), standard error and the
exit status. Cases that differ are kept under DIR with the rule file,
the namespace and both outputs.

usage:
  /usr/bin/python3 scripts/diff-pmie-agent.py run [-n CASES] [-s SEED]
      [-o DIR] [-p OUR_PMIE] [ARCHIVE...]
      CASES cases (default 200) over the ARCHIVEs (default: as
      diff-pmie.py's), differing ones kept under DIR (default
      /tmp/diff-pmie-agent)

Under -x, PCP's global derived metrics are off ($PCP_DERIVED_CONFIG
empty): real pmie -x no longer computes them as defined once it has
loaded the namespace (see README). The pad byte of a
descriptor's units is not compared (pmie copies the source metric's; ours
is 0, see README). It needs PCP (pmie, python3-pcp: run it with
/usr/bin/python3). Real pmie's crashes (a rule that is a reserved variable alone, a string metric
under -X) are counted and not compared; our answers there are in the
README's differences.
"""
import importlib.util
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("diffpmie", os.path.join(ROOT, "scripts", "diff-pmie.py"))
dp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dp)

NAME = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\s*(?:/\*[^*]*\*/\s*|//[^\n]*\n\s*)*)=")


def namespace(n):
    lines = ["root {", "\ts", "}", "s {"]
    lines += ["\tr%d\t27:0:%d" % (i, i) for i in range(n)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def agentize(stmts, r):
    """The statements with most names made metrics of the namespace."""
    out = []
    for i, s in enumerate(stmts):
        m = NAME.match(s)
        u = r.random()
        if m and u < 0.9:
            s = "s.r%d%s=%s" % (i, m.group(2), s[m.end():])
        elif m and u < 0.93:
            s = "s.nosuch%d%s=%s" % (i, m.group(2), s[m.end():])
        elif not m and u < 0.7:
            s = "s.r%d = %s" % (i, s)
        out.append(s)
    return out


def pdus(b):
    """The PDUs of b as lists of 32-bit words, and the lines of text
    between them (what -z and actions print), as strings."""
    out, off = [], 0
    while off < len(b):
        if off + 12 <= len(b):
            ln, ty = struct.unpack(">iI", b[off:off + 8])
            if ty in (0x7001, 0x7005) and 12 <= ln <= len(b) - off and ln % 4 == 0:
                words = list(struct.unpack(">%dI" % (ln // 4), b[off:off + ln]))
                if ty == 0x7005 and len(words) == 8:
                    # the pad byte of a descriptor's units: pmie copies
                    # the source metric's, ours is 0 (see README)
                    words[7] &= 0xffffff00
                out.append(words)
                off += ln
                continue
        end = b.find(b"\n", off)
        end = len(b) if end < 0 else end + 1
        out.append(b[off:end].decode(errors="replace"))
        off = end
    return out


def flags(r, mode):
    f = [mode]
    if r.random() < 0.6:
        f.append("-t %s" % r.choice(["1", "2", "0.5", "3sec", "10"]))
    if r.random() < 0.2:
        f.append("-S +%dsec" % r.randint(0, 10))
    if r.random() < 0.2:
        f.append("-T +%dsec" % r.randint(1, 30))
    if r.random() < 0.3:
        f.append("-z")
    return " ".join(f)


def run1(prog, archs, rules, fl, tmp, pmns):
    env = dict(os.environ, TZ="UTC", PMNS_DEFAULT=pmns)
    env.pop("PCP_XCONFIRM_PROG", None)
    if "-x" in fl.split():
        # no global derived metrics: real pmie -x computes them wrongly
        # (see README), a difference this would find again and again
        env["PCP_DERIVED_CONFIG"] = ""
    args = []
    for a in archs:
        args += ["-a", a]
    try:
        p = subprocess.run([prog] + args + ["-c", rules] + fl.split(), cwd=tmp, env=env,
                           capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return b"<timeout>", ["<timeout>"], -1
    err = [l for l in p.stderr.decode(errors="replace").splitlines() if not dp.UNSTABLE.search(l)]
    err = [dp.STAMP.sub("[DATE] pmie(PID)", l.replace(rules, "RULES")) for l in err]
    return p.stdout, err, p.returncode


def same_out(mode, real1, real2, ours):
    """Whether ours is real pmie's output, where its two runs agree."""
    if mode == "-X":
        a, b, o = (x.decode(errors="replace").splitlines() for x in (real1, real2, ours))
        return len(a) == len(o) and all(x == y or x != z for x, y, z in zip(a, o, b))
    a, b, o = pdus(real1), pdus(real2), pdus(ours)
    if len(a) != len(o) or len(a) != len(b):
        return False
    for pa, pb, po in zip(a, b, o):
        if pa == po:
            continue
        if isinstance(pa, str) or isinstance(po, str) or len(pa) != len(po) or pa == pb:
            return False
        # words real pmie's two runs disagree on (a pointer sent as a
        # double) are not compared, nor the count of values around them
        bad = [i for i in range(len(pa)) if pa[i] != pb[i]]
        diff = [i for i in range(len(pa)) if pa[i] != po[i]]
        if any(i not in bad and not (i + 1 in bad or i + 2 in bad or i + 3 in bad) for i in diff):
            return False
    return True


def main():
    if len(sys.argv) < 2 or sys.argv[1] != "run":
        sys.exit(__doc__)
    args = sys.argv[2:]
    n, seed, outdir, archs = 200, random.randrange(1 << 30), "/tmp/diff-pmie-agent", []
    i = 0
    while i < len(args):
        if args[i] in ("-n", "-s", "-o", "-p"):
            v = args[i + 1]
            if args[i] == "-n":
                n = int(v)
            elif args[i] == "-s":
                seed = int(v)
            elif args[i] == "-o":
                outdir = v
            else:
                os.environ["PMIE"] = v
            i += 2
        else:
            archs.append(args[i])
            i += 1
    archs = archs or dp.default_archives()
    os.makedirs(outdir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="diff-pmie-agent.")
    try:
        ours = dp.our_pmie(tmp)
        r = random.Random(seed)
        groups = dp.archive_groups()
        bad = crashes = pdu_total = 0
        for k in range(n):
            group = [r.choice(archs)]
            hosts = None
            if groups and r.random() < 0.15:
                group = r.choice(groups)
                hosts = [dp.archive_meta(a)["host"] for a in group]
            meta = dp.archive_meta(group[0])
            cs = r.randrange(1 << 30)
            pre, stmts = dp.make_rules(meta, cs, hosts)
            stmts = agentize(stmts, r)
            mode = "-x" if r.random() < 0.75 else "-X"
            fl = flags(r, mode)
            rules = os.path.join(tmp, "rules.pmie")
            pmns = os.path.join(tmp, "pmns")
            dp.save(tmp, "rules.pmie", "\n".join(pre + stmts) + "\n")
            dp.save(tmp, "pmns", namespace(len(stmts)))
            o1, e1, x1 = run1("pmie", group, rules, fl, tmp, pmns)
            o2, _, _ = run1("pmie", group, rules, fl, tmp, pmns)
            oo, eo, xo = run1(ours, group, rules, fl, tmp, pmns)
            if x1 < 0:
                crashes += 1
                print("%d %s %s: real pmie crashed" % (k, os.path.basename(group[0]), fl), flush=True)
                continue
            pdu_total += sum(1 for p in pdus(o1) if not isinstance(p, str)) if mode == "-x" else 0
            good = same_out(mode, o1, o2, oo) and e1 == eo and x1 == xo
            if not good:
                bad += 1
                case = os.path.join(outdir, "case-%d-%d" % (seed, k))
                os.makedirs(case, exist_ok=True)
                shutil.copy(rules, os.path.join(case, "rules.pmie"))
                shutil.copy(pmns, os.path.join(case, "pmns"))
                for name, data in (("real.out", o1), ("ours.out", oo)):
                    with open(os.path.join(case, name), "wb") as f:
                        f.write(data)
                dp.save(case, "real.err", "\n".join(e1) + "\n")
                dp.save(case, "ours.err", "\n".join(eo) + "\n")
                dp.save(case, "cmd", "PMNS_DEFAULT=pmns TZ=UTC pmie %s -c rules.pmie %s  # exit %d, ours %d\n" % (
                    " ".join("-a " + a for a in group), fl, x1, xo))
            print("%d %s %s: %s" % (k, os.path.basename(group[0]), fl, "same" if good else "DIFF"), flush=True)
        print("seed %d: %d cases, %d real pmie crashed, %d differ; %d PDUs of real pmie compared" % (
            seed, n, crashes, bad, pdu_total))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
