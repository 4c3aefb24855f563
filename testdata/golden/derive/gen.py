#!/usr/bin/python3
"""Regenerate the derive goldens with real PCP 6.0.3 (see README).

usage: /usr/bin/python3 testdata/golden/derive/gen.py [CATEGORY...]

For every expression in exprs/CATEGORY.txt this defines one derived metric
through PCP_DERIVED_CONFIG over the archive testdata/derive/golden and
records, in CATEGORY.golden:
  - what `pminfo -a golden -d NAME` prints on stdout and stderr;
  - what `pminfo -a golden -f -O OFFSET NAME` prints for each OFFSET;
  - the values libpcp itself computes for NAME at every record of the
    archive, fetched in PM_MODE_FORW from the start (through the pcp.pmapi
    Python binding; pminfo fetches only once, so delta() and rate() need
    this), exact to the last bit.

Expression files hold one expression per line, or `NAME = EXPR` where the
metric's name matters. `#` starts a comment line. A trailing
`## undefined: WHY` marks an expression whose values libpcp leaves
undefined (they read uninitialised memory); its values are not recorded.
"""
import os, subprocess, sys, json

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "testdata", "derive"))
from mkarchive import atom_str  # noqa: E402
ARCHIVE = os.path.join(ROOT, "testdata", "derive", "golden")
OFFSETS = ["+0", "+21", "+40.2", "+59"]
TMP = os.path.join("/tmp", "derive-golden-%d" % os.getpid())


def read_exprs(path):
    """The (name, expr, undefined) entries of an expression file."""
    out = []
    n = 0
    for line in open(path):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        undefined = ""
        if "## undefined:" in line:
            line, undefined = line.split("## undefined:", 1)
            undefined = undefined.strip()
        line = line.rstrip()
        n += 1
        name = "g.e%03d" % n
        if " = " in line and not line.startswith(("(", "!", "-")) and "(" not in line.split(" = ", 1)[0]:
            name, line = line.split(" = ", 1)
        out.append((name.strip(), line.strip(), undefined))
    return out


def run(args, conf):
    env = dict(os.environ)
    env["PCP_DERIVED_CONFIG"] = conf
    env["TZ"] = "UTC"
    p = subprocess.run(args, env=env, capture_output=True, text=True, timeout=30, cwd=TMP)
    return p.stdout, p.stderr


INTERP_STEP = 3  # seconds between fetches in PM_MODE_INTERP
INTERP_COUNT = 22


def values_main(name, out_file, mode="forw"):
    """Child process: fetch derived metric name with libpcp,
    PCP_DERIVED_CONFIG already set to define it: at every record
    (PM_MODE_FORW), or every INTERP_STEP seconds from the start
    (PM_MODE_INTERP, INTERP_COUNT fetches)."""
    from pcp import pmapi
    import cpmapi as c
    ctx = pmapi.pmContext(c.PM_CONTEXT_ARCHIVE, ARCHIVE)
    pmids = ctx.pmLookupName([name])
    desc = ctx.pmLookupDescs(pmids)[0]
    label = ctx.pmGetArchiveLabel()
    if mode == "interp":
        ctx.pmSetMode(c.PM_MODE_INTERP, label.start, INTERP_STEP * 1000)
    else:
        ctx.pmSetMode(c.PM_MODE_FORW, label.start, 0)
    lines = []
    while mode != "interp" or len(lines) < INTERP_COUNT:
        try:
            res = ctx.pmFetch(pmids)
        except pmapi.pmErr as e:
            if e.args[0] == c.PM_ERR_EOL:
                break
            raise
        ts = res.contents.timestamp
        stamp = "%d.%06d" % (ts.tv_sec - label.start.tv_sec, ts.tv_usec)
        vs = res.contents.get_vset(0).contents
        if vs.numval < 0:
            lines.append("%s err %s" % (stamp, pmapi.pmErr(vs.numval).message()))
        else:
            vals = []
            for j in range(vs.numval):
                v = res.contents.get_vlist(0, j)
                try:
                    atom = ctx.pmExtractValue(vs.valfmt, v, desc.type, desc.type)
                    vals.append("%d=%s" % (v.inst, atom_str(desc.type, atom)))
                except pmapi.pmErr as e:
                    vals.append("%d=<%s>" % (v.inst, e.message()))
            lines.append(" ".join([stamp, "n=%d" % vs.numval] + vals))
        ctx.pmFreeResult(res)
    with open(out_file, "w") as f:
        f.write("".join(l + "\n" for l in lines))


def series(name, conf, mode="forw"):
    """The libpcp values of name at every record (or every INTERP_STEP
    seconds), or None if they cannot be had (the metric does not bind, or
    libpcp crashes)."""
    out = os.path.join(TMP, "series")
    if os.path.exists(out):
        os.remove(out)
    env = dict(os.environ, PCP_DERIVED_CONFIG=conf, TZ="UTC")
    p = subprocess.run([sys.executable, __file__, "--values", name, out, mode], env=env,
                       capture_output=True, text=True, timeout=60, cwd=TMP)
    if p.returncode != 0:
        return None, "libpcp failed (exit %d): %s" % (p.returncode, p.stderr.strip().split("\n")[-1])
    return open(out).read(), ""


def indent(text, prefix="| "):
    if text == "":
        return ""
    if not text.endswith("\n"):
        text += "\n\\ no newline\n"
    return "".join(prefix + l + "\n" for l in text[:-1].split("\n"))


def category(cat):
    entries = read_exprs(os.path.join(HERE, "exprs", cat + ".txt"))
    os.makedirs(TMP, exist_ok=True)
    out = ["# made by gen.py from exprs/%s.txt with real PCP (pminfo 6.0.3); do not edit\n" % cat]
    conf = "one.conf"  # relative to TMP, where pminfo runs, so messages name it so
    for name, expr, undefined in entries:
        with open(os.path.join(TMP, conf), "w") as f:
            f.write("%s = %s\n" % (name, expr))
        out.append("=== %s = %s\n" % (name, expr))
        if undefined:
            out.append("--- undefined %s\n" % undefined)
        so, se = run(["pminfo", "-a", ARCHIVE, "-d", name], conf)
        out.append("--- pminfo -d\n" + indent(so))
        if se:
            out.append("--- stderr\n" + indent(se))
        if "Data Type:" not in so:
            continue
        for off in OFFSETS:
            so, se = run(["pminfo", "-a", ARCHIVE, "-f", "-O", off, name], conf)
            out.append("--- pminfo -f -O %s\n" % off + indent(so))
            if se:
                out.append("--- stderr\n" + indent(se))
        if undefined:
            continue
        modes = ["interp"] if cat == "interp" else ["forw"]
        for mode in modes:
            vals, why = series(name, conf, mode)
            if vals is None:
                out.append("--- libpcp %s failed\n" % mode + indent(why + "\n"))
            else:
                out.append("--- libpcp %s\n" % mode + indent(vals))
    with open(os.path.join(HERE, cat + ".golden"), "w") as f:
        f.write("".join(out))
    print("%s: %d expressions" % (cat, len(entries)))


def config_cases():
    """Run the pminfo command lines of config/cases.txt in config/ and
    record what each prints, in config.golden."""
    cdir = os.path.join(HERE, "config")
    out = ["# made by gen.py from config/cases.txt with real PCP (pminfo 6.0.3); do not edit\n"]
    for line in open(os.path.join(cdir, "cases.txt")):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        env = {k: v for k, v in os.environ.items() if not k.startswith("PCP_")}
        env["TZ"] = "UTC"
        env["PCP_DERIVED_CONFIG"] = ""
        while words[0] != "pminfo":
            w = words.pop(0)
            if w == "UNSET":
                env.pop("PCP_DERIVED_CONFIG", None)
            else:
                k, v = w.split("=", 1)
                env[k] = v
        args = [ARCHIVE if w == "ARCHIVE" else w for w in words]
        p = subprocess.run(args, env=env, capture_output=True, text=True, timeout=30, cwd=cdir)
        out.append("=== %s\n" % line)
        out.append("--- stdout\n" + indent(p.stdout))
        if p.stderr:
            out.append("--- stderr\n" + indent(p.stderr))
    with open(os.path.join(HERE, "config.golden"), "w") as f:
        f.write("".join(out))
    print("config: %d cases" % (len(out) - 1))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--values":
        values_main(*sys.argv[2:5])
        return
    cats = sys.argv[1:] or ["config"] + sorted(f[:-4] for f in os.listdir(os.path.join(HERE, "exprs"))
                                               if f.endswith(".txt"))
    for cat in cats:
        if cat == "config":
            config_cases()
        else:
            category(cat)


if __name__ == "__main__":
    main()
