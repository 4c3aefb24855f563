#!/usr/bin/python3
"""diff-derive.py: random differential testing of our pminfo against real
pminfo (PCP 6.0.3), for derived metrics and pminfo's options.

usage: /usr/bin/python3 scripts/diff-derive.py [-n CASES] [-s SEED]
           [-o OUTDIR] [-b PMINFO] [-k] [ARCHIVE...]

It reads the metadata of the archives (default: every archive in the
corpus, /work/shared/corpus/archives or $PMIE_CORPUS/archives, and in
testdata/archives), then runs CASES random cases (default 500). A case is
a derived-metric configuration file of one to six definitions, written at
random in the language of pmRegisterDerived(3) over the metrics of one
archive (their types, semantics, units and instance domains), with
well-formed expressions and, some of the time, bad ones (syntax errors,
unknown metrics and functions, type, unit and semantic mismatches, names
that clash), plus a pminfo command line (-d, -f, -F, -x, -l, -T, -m, -M,
-I, -O +OFFSET, -t, -n, -c, -L, bad options ...). Real pminfo and ours
(-b, default built from ./cmd/pminfo) run it with TZ=UTC and
PCP_DERIVED_CONFIG=FILE (or -c FILE); their stdout, stderr and exit status
are compared line by line.

It prints the number of cases, the cases that differ, and the lines
identical/total (stdout and stderr, counted as compare-lib.sh's score
does: lines of real's output that diff keeps, out of the larger count).
Each differing case is kept in OUTDIR (default /tmp/diff-derive) as
caseNNNN/: conf, cmd (runnable: cd there and sh cmd), real.out, real.err,
ours.out, ours.err, and, shrunk (definitions dropped and subexpressions
replaced by their operands while the outputs still differ), min.conf and
min.cmd. -k keeps no shrinking (faster). A case's class line (the first
differing line of each stream) is printed so classes can be counted with
sort | uniq -c.

Needs python3-pcp (/usr/bin/python3) and PCP's pminfo on PATH.
"""
import argparse, os, random, re, shutil, subprocess, sys, tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# ---------------------------------------------------------------- metadata


class Metric:
    def __init__(self, name, typ, sem, indom, units, insts, pmid, rawindom):
        self.name, self.type, self.sem, self.indom = name, typ, sem, indom
        self.units, self.insts, self.pmid = units, insts, pmid
        self.indomstr = "%d.%d" % (rawindom >> 22, rawindom & 0x3fffff) if insts else ""

    def numeric(self):
        return self.type in (0, 1, 2, 3, 4, 5)


def archive_metrics(path):
    """The metrics of archive path, with descriptors and instance names."""
    from pcp import pmapi
    import cpmapi as c
    ctx = pmapi.pmContext(c.PM_CONTEXT_ARCHIVE, path)
    names = []
    ctx.pmTraversePMNS("", names.append)
    out = []
    indoms = {}
    for n in names:
        try:
            pmid = ctx.pmLookupName([n])
            d = ctx.pmLookupDescs(pmid)[0]
        except pmapi.pmErr:
            continue
        insts = []
        if d.indom != c.PM_INDOM_NULL:
            if d.indom not in indoms:
                try:
                    indoms[d.indom] = ctx.pmGetInDomArchive(d)[1]
                except pmapi.pmErr:
                    indoms[d.indom] = []
            insts = indoms[d.indom]
        units = pmapi.pmContext.pmUnitsStr(d.units)
        if n.startswith("event."):
            # libpcp's anonymous derived metrics: as operands they are
            # derived metrics over derived metrics, where libpcp reads
            # freed memory (see the README's differences)
            continue
        out.append(Metric(n, d.type, d.sem, d.indom, units, list(insts), pmapi.pmContext.pmIDStr(pmid[0]),
                          d.indom))
    return out


def find_archives(args):
    if args:
        return args
    dirs = [os.path.join(os.environ.get("PMIE_CORPUS", "/work/shared/corpus"), "archives"),
            os.path.join(ROOT, "testdata", "archives")]
    out = []
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            for suf in (".meta", ".meta.xz"):
                if f.endswith(suf):
                    out.append(os.path.join(d, f[:-len(suf)]))
    return out

# ---------------------------------------------------------------- expressions
# An expression is a tree: (kind, text-or-op, children...). str() of it is
# the source. Shrinking replaces a node by one of its children.


class E:
    def __init__(self, fmt, kids=()):
        self.fmt, self.kids = fmt, list(kids)

    def __str__(self):
        return self.fmt.format(*[str(k) for k in self.kids])

    def nodes(self):
        yield self
        for k in self.kids:
            yield from k.nodes()


def leaf(s):
    return E(s.replace("{", "{{").replace("}", "}}"))


TYPES = ["32", "U32", "64", "U64", "FLOAT", "DOUBLE", "u32", "double", "STRING", "bogus"]
SEMS = ["COUNTER", "INSTANT", "DISCRETE", "counter", "instant", "discrete", "bogus"]
UNITS = ["", "count", "Kbyte", "Mbyte", "byte", "sec", "millisec", "microsec", "nanosec", "hour",
         "min", "byte/sec", "Kbyte/sec", "Mbyte/hour", "count/sec", "millisec/count",
         "count x 10^3", "count x 10^-2", "kbyte / count", "sec^-1", "/sec", "byte^2", "1",
         "count^2/sec", "Gbyte/min", "bogus", "byte sec", "10^6 count", "utilization",
         "percent", "Tbyte", "Ebyte", "nsec", "usec", "msec", "/ms", "count /millisec"]
FUNCS1 = ["avg", "count", "delta", "rate", "instant", "max", "min", "sum", "defined", "scalar"]
BADFUNCS = ["abs", "floor", "log", "sqrt", "round", "exp", "ceil", "AVG", "Sum", "mkconst", "rescale",
            "matchinst", "anon"]


class Gen:
    def __init__(self, rnd, metrics):
        self.r = rnd
        self.m = metrics
        self.num = [m for m in metrics if m.numeric()] or metrics
        self.ind = [m for m in metrics if m.insts] or self.num
        self.strs = [m for m in metrics if m.type == 6]

    def metric(self, pool=None):
        r = self.r
        x = r.random()
        if x < 0.03:
            return leaf(r.choice(["no.such.metric", "sample", "disk", "kernel.all", "dv.nosuch",
                                  "a", "hinv.ncpu.x"]))
        if x < 0.06 and self.strs:
            return leaf(r.choice(self.strs).name)
        if x < 0.10:
            return leaf(r.choice(self.m).name)
        return leaf(r.choice(pool or self.num).name)

    def const(self):
        r = self.r
        return leaf(r.choice([
            str(r.randint(0, 10)), str(r.randint(0, 1000000)), "%g" % (r.random() * 100),
            "0", "1", "2", "3.5", "0.5", "1e3", "1.5e-2", "4294967295", "4294967296", "12345678901",
            "0.0", "100", "1000", "1024", "07", "0x10", ".5", "5.", "1E2", "2.5e+3"]))

    def mkconst(self):
        r = self.r
        params = []
        for tag, vals in (("type", TYPES), ("semantics", SEMS), ("units", UNITS)):
            if r.random() < 0.5:
                v = r.choice(vals)
                if tag == "units" or r.random() < 0.3:
                    v = '"%s"' % v
                params.append("%s=%s" % (tag, v))
        if not params or r.random() < 0.05:
            params.append(r.choice(["units=", "type=", "bogus=3", "Units=byte", "units=byte, units=sec"]))
        return leaf("mkconst(%s, %s)" % (str(self.const()), ", ".join(params)))

    def inst(self):
        r = self.r
        m = r.choice(self.ind)
        if m.insts and r.random() < 0.85:
            i = r.choice(m.insts)
        else:
            i = r.choice(["nosuch", "", "1 minute", "cpu0", "sda", " sda"])
        i = i.replace("\\", "\\\\").replace("]", "\\]")
        return leaf("%s[%s]" % (m.name, i))

    def regex(self):
        r = self.r
        m = r.choice(self.ind)
        if m.insts and r.random() < 0.7:
            i = r.choice(m.insts)
            re_ = r.choice([re.escape(i[:3]), "^" + re.escape(i[:2]), i[-1:] + "$", ".", "[0-9]"])
        else:
            re_ = r.choice(["^s", ".*", "[", "a|b", "^(lo)|(vbir)", "", "x\\/y", "bin-[1-3]00"])
        re_ = re_.replace("/", "\\/")
        neg = "!" if r.random() < 0.3 else ""
        return neg + "/" + re_ + "/", m

    def expr(self, depth=0):
        r = self.r
        if depth > 3 or r.random() < 0.25 + depth * 0.15:
            x = r.random()
            if x < 0.55:
                return self.metric()
            if x < 0.75:
                return self.const()
            if x < 0.87:
                return self.inst()
            return self.mkconst()
        x = r.random()
        if x < 0.30:
            op = r.choice(["+", "-", "*", "/", "+", "-", "*", "/", "<", "<=", "==", ">=", ">", "!=",
                           "&&", "||"])
            return E("{} " + op + " {}", [self.expr(depth + 1), self.expr(depth + 1)])
        if x < 0.36:
            return E("({})", [self.expr(depth + 1)])
        if x < 0.40:
            return E(r.choice(["-{}", "!{}", "- {}", "!({})", "-({})"]), [self.expr(depth + 1)])
        if x < 0.47:
            return E("{} ? {} : {}", [self.expr(depth + 1), self.expr(depth + 1), self.expr(depth + 1)])
        if x < 0.72:
            f = r.choice(FUNCS1)
            if f in ("scalar",) or r.random() < 0.15:
                arg = self.expr(depth + 1)
            else:
                arg = self.metric(self.ind if r.random() < 0.5 else None)
            return E(f + "({})", [arg])
        if x < 0.80:
            u = r.choice(UNITS)
            return E("rescale({}, %s)" % ('"%s"' % u if r.random() < 0.9 else u), [self.expr(depth + 1)])
        if x < 0.88:
            pat, m = self.regex()
            arg = leaf(m.name) if r.random() < 0.7 else self.expr(depth + 1)
            return E("matchinst(%s, {})" % pat, [arg])
        if x < 0.91:
            t = r.choice(TYPES) if r.random() < 0.1 else "PM_TYPE_" + r.choice(TYPES[:6])
            return E("anon(%s)" % t)
        if x < 0.93:
            return E("({})[%s]" % r.choice(["sda", "cpu0", "bin-100", "1 minute", "nosuch"]),
                     [self.expr(depth + 1)])
        return E(r.choice(BADFUNCS) + "({})", [self.expr(depth + 1)])

    def broken(self, e):
        """Some syntax damage to expression text e."""
        r = self.r
        s = str(e)
        x = r.random()
        if x < 0.2:
            return s + r.choice([" +", " *", " ?", " ? 1", ")", " (", " 3", " ]", " ,"])
        if x < 0.4:
            return r.choice(["(", "*", "+ ", "?", "!", ")", "[x]", ", "]) + s
        if x < 0.6 and len(s) > 2:
            i = r.randrange(len(s))
            return s[:i] + s[i + 1:]
        if x < 0.8 and len(s) > 2:
            i = r.randrange(len(s))
            return s[:i] + r.choice(["@", "$", "'", "\"", "(", ")", "[", "]", ",", " ", "%", "&", "|",
                                     "=", "\\", "#", ";", "{", "}", "~", "^", "`", "0x", "."]) + s[i:]
        if x < 0.85:
            i = r.randrange(len(s) + 1)
            return s[:i] + r.choice(["é", "\t", "\u00a0", "ü", "\t\t", "€"]) + s[i:]
        return r.choice(["", " ", "()", "1 2", "a.b.", "a..b", ".a", "1.2.3", "rate()", "rate(1)",
                         "sum(1+2)", "mkconst()", "mkconst(1)", "rescale(1)", "matchinst(/a/)",
                         "anon()", "count()", "scalar()", "1 ? 2", "? 1 : 2", "1 : 2"])


def gen_config(g, r):
    """Random configuration lines and the names it defines."""
    n = r.randint(1, 6)
    lines, names = [], []
    for i in range(n):
        name = "dv.r%d" % (i + 1)
        x = r.random()
        if x < 0.04:
            name = r.choice(g.m).name  # clash with a real metric
        elif x < 0.06:
            name = r.choice(["dv", "dv.r1.x", "1dv.x", "dv.r-1", "dv..x", "dv.r1", "sample", "dv.R1",
                             "kernel.all.new", "dv.r1 extra"])
        e = g.expr()
        text = str(e)
        if r.random() < 0.12:
            text = g.broken(e)
            e = None
        sep = r.choice([" = ", " = ", "=", "  =\t", " =  "])
        if r.random() < 0.04:
            sep = r.choice([" ", " == ", ": "])
        if e is not None and r.random() < 0.03 and " " in text:
            k = text.index(" ")
            text = text[:k] + " \\\n\t" + text[k + 1:]
        lines.append([name, sep, text, e])
        names.append(name)
    if r.random() < 0.1:
        lines.insert(r.randrange(len(lines) + 1), [None, None, r.choice(
            ["# comment", "", "   ", "#", "junk line", "= 3", "dv.x =", " # indented", "dv.x = 1 # c",
             "\t", "dv.é = 1", "dv.x\t=\t2"]), None])
    for _ in range(r.choice([0, 0, 0, 1, 2, 3])):
        # help text attributes: name(attr) = value
        name = r.choice(names + ["dv.none", "hinv.ncpu"])
        attr = r.choice(["oneline", "oneline", "helptext", "helptext", "bogus", "ONELINE", ""])
        val = r.choice(["plain text", "'single'", '"double"', "'multi\nline'", '"esc \\" q"',
                        "'trailing' text", "", '"unterminated', "'a\\\nb'", "text \\", "é ü",
                        '"tab\there"'])
        sep = r.choice([" = ", "=", " =\t"])
        lines.insert(r.randrange(len(lines) + 1), [None, None, "%s(%s)%s%s" % (name, attr, sep, val), None])
    return lines, names


def conf_text(lines):
    out = []
    for name, sep, text, _ in lines:
        out.append(text if name is None else name + sep + text)
    text = "".join(l + "\n" for l in out)
    if len(out) > 1 and sum(map(ord, text)) % 29 == 0:
        text = text[:-1]  # sometimes no newline at the end
    return text

# ---------------------------------------------------------------- namespaces


def gen_pmns(r, ms):
    """A random ASCII PMNS (pmns(5)) over some metrics of ms, sometimes
    damaged, and names to ask for."""
    picked = r.sample(ms, min(len(ms), r.randint(1, 12)))
    kids = {"root": []}
    for m in picked:
        parts = m.name.split(".")
        for i in range(len(parts)):
            parent = ".".join(parts[:i]) or "root"
            node = ".".join(parts[:i + 1])
            kids.setdefault(parent, [])
            if i == len(parts) - 1:
                entry = "%s\t%s" % (parts[i], m.pmid.replace(".", ":"))
            else:
                entry = parts[i]
                kids.setdefault(node, [])
            if entry not in kids[parent]:
                kids[parent].append(entry)
    lines = []
    for node, ks in kids.items():
        lines.append("%s {" % node)
        lines += ["    " + k for k in ks]
        lines.append("}")
    for _ in range(r.choice([0, 0, 1, 1, 2, 3])):
        x = r.random()
        i = r.randrange(len(lines))
        if x < 0.2:
            del lines[i]
        elif x < 0.35:
            lines.insert(i, lines[i])
        elif x < 0.6:
            lines[i] = re.sub(r"\d+:\d+:\d+", r.choice(["60:x:1", "60:1", "511:0:1", "29:*:*", "1:2:3:4",
                                                         "60:0:99999999", "600:0:1", "-1:0:1", "60.0.1"]),
                              lines[i])
        elif x < 0.8:
            lines.insert(i, r.choice(["junk", "}", "{", "root {", "# comment", "/* c */", "#define X 1",
                                      "    extra\t1:2:3", "    9bad\t1:2:3", "    a.b\t1:2:3", "", "\t",
                                      "#include \"/nonexistent\"", "    é\t1:2:3"]))
        else:
            lines[i] = lines[i].replace("{", r.choice(["", "{ {", "["]), 1)
    names = [m.name for m in picked]
    return "".join(l + "\n" for l in lines), names

# ---------------------------------------------------------------- commands

FLAGS = ["-d", "-f", "-F", "-x", "-l", "-T", "-m", "-M", "-I", "-t", "-s", "-v"]
LONGS = ["--desc", "--fetch", "--fetchall", "--events", "--labels", "--helptext", "--pmid", "--fullpmid",
         "--fullindom", "--oneline", "--verify", "--series", "--hostzone", "--timezone=UTC", "--des",
         "--fe", "--origin=+1", "--batch=2"]
KSPECS = ["x", "clear", "cleared", "add", "add,", "add,3", "add,3,x.so", "add,3,x.so,", "add,3,x.so,init",
          "del,x", "del,3x", "del,511", "del,,", "add,,x", "del, 60", "add,2,,init", "del,60", "", "del"]


def gen_cmd(r, arch, names, all_ok, ms):
    """Random pminfo arguments (without the program name). -L is left
    out: ours is the embedded collector (a deliberate difference)."""
    args = []
    x = r.random()
    if x < 0.06:
        args += r.choice([["-Z"], ["-q"], ["-O"], ["--bogus"], ["-a"], ["-h", "nohost", "-a", arch],
                          ["-n"], ["-c"], ["-b", "x"], ["-r"], ["-z"], ["--version"], ["-V"],
                          ["-n", "/nonexistent"], ["-c", "/nonexistent"], ["-K"], ["-K", r.choice(KSPECS)],
                          ["-?"], ["--help"], ["--desc=3"], ["--fetc"], ["-Z", "EST5"], ["-N", "/nonexistent"],
                          ["-b", "0"], ["-b", "-3"], ["-O", "+1", "-O", "+2"], ["--container=x"]])
        if r.random() < 0.5:
            return args
    args += ["-a", arch]
    k = r.choice([1, 1, 1, 2, 2, 3])
    flags = r.sample(FLAGS, k)
    if r.random() < 0.5:
        args.append("-" + "".join(f[1] for f in flags))
    else:
        args += flags
    if r.random() < 0.1:
        args.append(r.choice(LONGS))
    if r.random() < 0.05:
        args += r.choice([["-Z", "UTC"], ["-z"], ["-Z", "EST5EDT"]])
    if r.random() < 0.3:
        args += ["-O", r.choice(["+0", "+1", "+10", "+3.5", "+100000", "-1", "+30s", "@00:00:00"])]
    if r.random() < 0.05:
        args += ["-b", r.choice(["1", "2", "10"])]
    y = r.random()
    if y < 0.45:
        args.append("dv")
    elif y < 0.75:
        args += r.sample(names, min(len(names), r.randint(1, 3)))
    elif y < 0.85 and all_ok:
        pass
    else:
        m = r.choice(ms)
        args += r.choice([["dv.r1", "no.such"], ["dv.r1", "dv.r1"], ["dv.nosuch"], ["dv", "sample"],
                          ["dv.r1.x"], ["dv.r"], ["511.0.3"], ["511.0.4", "511.0.1"], ["511.*.*"],
                          [m.pmid, "dv.r2"], [m.indomstr or "29.1"], ["511.0.1000"], ["dv.r1", m.name],
                          ["511.0.3", "dv.r1"]])
    return args

# ---------------------------------------------------------------- running


def run(binary, args, conf, via_c, cwd):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PCP_")}
    env["TZ"] = "UTC"
    if via_c:
        env["PCP_DERIVED_CONFIG"] = ""
        args = ["-c", conf] + args
    else:
        env["PCP_DERIVED_CONFIG"] = conf
    try:
        p = subprocess.run([binary] + args, env=env, capture_output=True, timeout=60, cwd=cwd)
        return p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired:
        return "", "TIMEOUT\n", -1


def lines_of(s):
    return s.splitlines()


def score(real, ours):
    """Lines identical (diff's alignment) and the larger count."""
    import difflib
    a, b = lines_of(real), lines_of(ours)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    same = sum(bl.size for bl in sm.get_matching_blocks())
    return same, max(len(a), len(b))


def first_diff(real, ours):
    a, b = lines_of(real), lines_of(ours)
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<none>"
        y = b[i] if i < len(b) else "<none>"
        if x != y:
            return "real: %s | ours: %s" % (x[:100], y[:100])
    return ""


def outcome(ours_bin, args, conf, via_c, cwd):
    r = run("pminfo", args, conf, via_c, cwd)
    o = run(ours_bin, args, conf, via_c, cwd)
    return r, o


def differs(r, o):
    return r != o


def shrink(lines, args, ours_bin, via_c, cwd):
    """Drop definitions and simplify expressions while real and ours
    still differ; the smaller lines."""
    conf = os.path.join(cwd, "min.conf")

    def bad(ls):
        with open(conf, "w") as f:
            f.write(conf_text(ls))
        r, o = outcome(ours_bin, args, conf, via_c, cwd)
        return differs(r, o)
    cur = [list(l) for l in lines]
    changed = True
    while changed:
        changed = False
        for i in range(len(cur)):
            if len(cur) > 1:
                trial = cur[:i] + cur[i + 1:]
                if bad(trial):
                    cur, changed = trial, True
                    break
        if changed:
            continue
        for i, (name, sep, text, e) in enumerate(cur):
            if e is None:
                continue
            for node in list(e.nodes()):
                for kid in node.kids:
                    saved = (node.fmt, node.kids)
                    node.fmt, node.kids = kid.fmt, kid.kids
                    cur[i][2] = str(e)
                    if bad(cur):
                        changed = True
                        break
                    node.fmt, node.kids = saved
                    cur[i][2] = str(e)
                if changed:
                    break
            if changed:
                break
    bad(cur)
    return cur


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=500)
    ap.add_argument("-s", type=int, default=1)
    ap.add_argument("-o", default="/tmp/diff-derive")
    ap.add_argument("-b", default="")
    ap.add_argument("-k", action="store_true")
    ap.add_argument("archives", nargs="*")
    a = ap.parse_args()
    r = random.Random(a.s)
    ours = a.b
    tmpbin = None
    if not ours:
        tmpbin = tempfile.mkdtemp()
        ours = os.path.join(tmpbin, "pminfo")
        subprocess.run(["go", "build", "-o", ours, "./cmd/pminfo"], cwd=ROOT, check=True)
    elif os.path.basename(ours) != "pminfo":
        # messages start with the program's name: run it as pminfo
        tmpbin = tempfile.mkdtemp()
        os.symlink(os.path.abspath(ours), os.path.join(tmpbin, "pminfo"))
        ours = os.path.join(tmpbin, "pminfo")
    ours = os.path.abspath(ours)
    if os.path.isdir(a.o):
        shutil.rmtree(a.o)
    os.makedirs(a.o)
    archs = []
    for p in find_archives(a.archives):
        try:
            ms = archive_metrics(p)
        except Exception:
            continue
        if ms:
            size = sum(os.path.getsize(os.path.join(os.path.dirname(p), f))
                       for f in os.listdir(os.path.dirname(p) or ".")
                       if f.startswith(os.path.basename(p) + "."))
            archs.append((p, ms, size < 300000))
    print("archives: %d" % len(archs), flush=True)
    tot = {"out": [0, 0], "err": [0, 0]}
    ndiff = nrc = ncrash = 0
    work = os.path.join(a.o, "work")
    os.makedirs(work)
    for case in range(a.n):
        arch, ms, small = r.choice(archs)
        g = Gen(r, ms)
        lines, names = gen_config(g, r)
        args = gen_cmd(r, arch, names, small, ms)
        if r.random() < 0.12 and "-a" in args:
            text, pnames = gen_pmns(r, ms)
            pmns = os.path.join(work, "pmns")
            with open(pmns, "w") as f:
                f.write(text)
            args = [r.choice(["-n", "-n", "-N"]), pmns] + args
            if r.random() < 0.5:
                args += r.sample(pnames, min(len(pnames), 2))
        via_c = r.random() < 0.1
        conf = os.path.join(work, "conf")
        if os.path.exists(os.path.join(work, "pmns")):
            os.remove(os.path.join(work, "pmns"))
        with open(conf, "w") as f:
            f.write(conf_text(lines))
        (ro, re_, rc), (oo, oe, oc) = outcome(ours, args, conf, via_c, work)
        if rc < 0:
            # real pminfo died of a signal (libpcp crashed): not a model
            ncrash += 1
            d = os.path.join(a.o, "crash%04d" % case)
            os.makedirs(d)
            shutil.copy(conf, os.path.join(d, "conf"))
            with open(os.path.join(d, "cmd"), "w") as f:
                f.write("%s\n%s" % (args, re_))
            print("case%04d: real pminfo killed by signal %d (not compared)" % (case, -rc), flush=True)
            continue
        s = score(ro, oo)
        e = score(re_, oe)
        tot["out"][0] += s[0]
        tot["out"][1] += s[1]
        tot["err"][0] += e[0]
        tot["err"][1] += e[1]
        if rc != oc:
            nrc += 1
        if (ro, re_, rc) == (oo, oe, oc):
            continue
        ndiff += 1
        d = os.path.join(a.o, "case%04d" % case)
        os.makedirs(d)
        shutil.copy(conf, os.path.join(d, "conf"))
        if os.path.exists(os.path.join(work, "pmns")):
            shutil.copy(os.path.join(work, "pmns"), os.path.join(d, "pmns"))
        cl = ("-c conf " if via_c else "") + " ".join("'%s'" % x for x in args)
        env = "PCP_DERIVED_CONFIG=" + ("" if via_c else "conf")
        with open(os.path.join(d, "cmd"), "w") as f:
            f.write("TZ=UTC %s pminfo %s\n" % (env, cl))
        for nm, t in (("real.out", ro), ("real.err", re_), ("ours.out", oo), ("ours.err", oe)):
            with open(os.path.join(d, nm), "w") as f:
                f.write(t)
        cls = []
        if ro != oo:
            cls.append("stdout " + first_diff(ro, oo))
        if re_ != oe:
            cls.append("stderr " + first_diff(re_, oe))
        if rc != oc:
            cls.append("exit real %d ours %d" % (rc, oc))
        if not a.k:
            mconf = os.path.join(d, "min.conf")
            shutil.copy(conf, mconf)
            small_lines = shrink(lines, args, ours, via_c, d)
            with open(mconf, "w") as f:
                f.write(conf_text(small_lines))
            with open(os.path.join(d, "min.cmd"), "w") as f:
                f.write("TZ=UTC %s pminfo %s\n" % ("PCP_DERIVED_CONFIG=" + ("" if via_c else "min.conf"),
                                                  cl.replace("-c conf", "-c min.conf")))
        print("case%04d: %s" % (case, " || ".join(cls)), flush=True)
    print("cases: %d (real pminfo crashed on %d), differing: %d, exit status differing: %d" %
          (a.n, ncrash, ndiff, nrc))
    print("stdout lines identical: %d/%d" % tuple(tot["out"]))
    print("stderr lines identical: %d/%d" % tuple(tot["err"]))
    shutil.rmtree(work)
    if tmpbin:
        shutil.rmtree(tmpbin)


if __name__ == "__main__":
    main()
