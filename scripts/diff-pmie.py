#!/usr/bin/python3
"""diff-pmie.py: random differential testing of our pmie against real pmie.

Makes random but valid (and some deliberately bad) pmie rule files over the
metrics of given archives (some statements laid out over several lines, with
comments between their tokens), runs real pmie (twice, with glibc's
MALLOC_PERTURB_ filling what malloc gives with other bytes each time, to
drop the lines it prints from uninitialised memory) and ours on each with random flags (-v, -V, -W,
-e, -t, -S, -T, -O, -A), TZ=UTC and -z, and compares standard output line by
line, standard error and the exit status. Cases that differ are kept, with
the rule file, both outputs and a shrunk form: each statement of the file
run on its own, those that still differ listed in "minimal". When real
pmie crashes on a file, each statement is compared on its own instead.

With --derived, each case also has a random derived-metric configuration
(PCP_DERIVED_CONFIG), made by scripts/diff-derive.py's generator over the
archive's metrics (sometimes another archive's; imported from there): one to six definitions in the
language of pmRegisterDerived(3), some of them bad (syntax errors,
unknown metrics or functions, type, unit and semantic mismatches, names
that clash), in one file or split over two files, or a directory of
them, sometimes beside a missing path, named twice, or with
PCP_DERIVED_CONFIG empty. The derived metrics that libpcp accepts are
described as it describes them (type, semantics, units, instances), and
the rules use them about half the time where they use a metric (alone,
with host and instance qualifiers, sample windows, in arithmetic, rate,
aggregates and quantifiers, match_inst), beside the archive's own
metrics and now and then a name whose definition failed or that was
never defined; -C is among the flags. A kept derived case has its
configuration under derived/ and, when it is one file, minimal.conf (the
lines of it the differing statements still need), minimal.pmie and
minimal.sh (runs real pmie, or $PMIE, on them).

usage:
  /usr/bin/python3 scripts/diff-pmie.py gen [--derived] ARCHIVE [SEED]
      print one random rule file for ARCHIVE (with --derived, first its
      derived-metric configuration, as comments)
  /usr/bin/python3 scripts/diff-pmie.py run [--derived] [-n CASES] [-s SEED]
      [-o DIR] [-p OUR_PMIE] [ARCHIVE...]
      run CASES cases (default 200) over the ARCHIVEs (default: the shared
      corpus's small archives and testdata/archives/*; some cases run
      several archives of different hosts together), keep the differing
      ones under DIR (default /tmp/diff-pmie), with the first line that
      differs in their summary, and print the totals
  /usr/bin/python3 scripts/diff-pmie.py shrink CASEDIR
      run each statement of a kept case on its own, again
  /usr/bin/python3 scripts/diff-pmie.py recheck CASEDIR...
      run kept cases again (after a fix) and say which still differ

It needs PCP (pmie, python3-pcp: run it with /usr/bin/python3). OUR_PMIE
defaults to $PMIE, else a pmie built from ./cmd/pmie. Shell actions only
run `true` and `false`; every file written goes under DIR or a temp dir.
It was used to find the classes that testdata/pmie/reduce.pmie and the
schedule-past/schedule-noalign goldens cover.
"""
import difflib
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---------------------------------------------------------------- metadata


def archive_meta(arch):
    """Metrics of ARCH: name, type, semantics, units, instance names, and
    whether any value was seen at three points of the archive. Cached."""
    cache = os.path.join(tempfile.gettempdir(), "diff-pmie-meta")
    os.makedirs(cache, exist_ok=True)
    key = os.path.join(cache, os.path.abspath(arch).replace("/", "_") + ".json")
    if os.path.exists(key):
        with open(key) as f:
            return json.load(f)
    from pcp import pmapi
    import cpmapi as c
    ctx = pmapi.pmContext(c.PM_CONTEXT_ARCHIVE, arch)
    label = ctx.pmGetArchiveLabel()
    host = label.hostname.decode() if isinstance(label.hostname, bytes) else label.hostname
    names = []
    ctx.pmTraversePMNS("", lambda n: names.append(n))
    meta = {"host": host, "metrics": describe(ctx, label, names)}
    with open(key, "w") as f:
        json.dump(meta, f)
    return meta


def describe(ctx, label, names):
    """The metrics of names in the archive context ctx (those it can look
    up), as archive_meta gives them."""
    from pcp import pmapi
    import cpmapi as c
    metrics = []
    pmids = {}
    for name in names:
        try:
            pmid = ctx.pmLookupName([name])[0]
            d = ctx.pmLookupDescs([pmid])[0]
        except pmapi.pmErr:
            continue
        insts = []
        if d.indom != c.PM_INDOM_NULL:
            try:
                insts = list(ctx.pmGetInDomArchive(d)[1])
            except pmapi.pmErr:
                insts = None
        m = {"name": name, "type": d.type, "sem": d.sem,
             "units": ctx.pmUnitsStr(d.units), "indom": d.indom,
             "insts": insts, "seen": False}
        metrics.append(m)
        pmids[pmid] = m
    # which metrics have values: fetch at three points
    try:
        start = label.start
        end = ctx.pmGetArchiveEnd()
        span = float(end) - float(start)
        ids = list(pmids)
        for frac in (0.2, 0.5, 0.9):
            secs = float(start) + span * frac
            t = pmapi.timeval(int(secs), int((secs % 1) * 1e6))
            ctx.pmSetMode(c.PM_MODE_INTERP, t, 1000)
            for i in ids:
                if pmids[i]["seen"]:
                    continue
                try:
                    res = ctx.pmFetch(ctx.pmLookupName([pmids[i]["name"]]))
                except pmapi.pmErr:
                    continue
                for j in range(res.contents.numpmid):
                    vs = res.contents.get_vset(j)
                    if vs.contents.numval > 0:
                        pmids[i]["seen"] = True
                ctx.pmFreeResult(res)
    except ImportError:
        pass
    return metrics


# ---------------------------------------------------------------- generator

NUMERIC = (0, 1, 2, 3, 4, 5)  # 32 U32 64 U64 FLOAT DOUBLE
STRING = 6
SCALES = ["byte", "Kbyte", "Mbyte", "Gbyte", "Kbytes", "nsec", "usec",
          "msec", "sec", "min", "mins", "hour", "count", "Kcount",
          "count/sec", "Kbyte/sec", "Mbyte/min", "count/min", "byte/sec",
          "sec/count", "msec/sec", "Kbyte/hour"]
RELOPS = ["<", "<=", "==", ">=", ">", "!="]
ARITH = ["+", "-", "*", "/"]


def quote_inst(name):
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
        return name
    return "'" + name.replace("'", "") + "'"


class Gen:
    """Gen composes random pmie statements over one archive's metrics."""

    def __init__(self, meta, rnd, hosts):
        self.r = rnd
        self.meta = meta
        self.hosts = hosts
        ms = [m for m in meta["metrics"] if m["insts"] is not None]
        seen = [m for m in ms if m["seen"]]
        self.all = ms
        self.seen = seen or ms
        self.macros = []      # numeric named expressions usable as $name
        self.strmacros = []   # string macros
        # string macros holding the text of a numeric (xnum) or truth
        # (xbool) expression, used as $name; chosen with their own random
        # source (xr), so that other seeds' files stay as they were
        self.xnum, self.xbool, self.xr = [], [], None
        self.xparts = {}  # metric name prefixes spliced from macros
        self.n = 0

    def metric(self, kind="num", indom=None):
        """A metric of the kind ("num" or "str"), with instance domain
        indom when given ("any" for any)."""
        pool = self.seen if self.r.random() < 0.9 else self.all
        want = NUMERIC if kind == "num" else (STRING,)
        cands = [m for m in pool if m["type"] in want]
        if indom is not None and indom != "any":
            cands = [m for m in cands if m["indom"] == indom] or cands
        if not cands:
            cands = [m for m in self.all if m["type"] in want] or self.all
        return self.r.choice(cands)

    def quals(self, m, window=True):
        """Optional host, instance and sample qualifiers for m."""
        s = ""
        r = self.r
        if r.random() < 0.15:
            s += "".join(" :" + quote_inst(h) for h in r.sample(self.hosts, r.randint(1, len(self.hosts))))
        if m["insts"] and r.random() < 0.25:
            k = r.randint(1, min(3, len(m["insts"])))
            s += "".join(" #" + quote_inst(i) for i in r.sample(m["insts"], k))
        if window and r.random() < 0.2:
            a = r.randint(0, 3)
            if r.random() < 0.5:
                s += " @%d" % a
            else:
                s += " @%d..%d" % (a, a + r.randint(0, 3))
        return s

    def const(self):
        r = self.r
        v = r.choice([0, 1, 2, 3, 10, 100, 0.5, 1024, 1e6, 7.25, 60, 1e-3])
        if r.random() < 0.4:
            return "%s %s" % (v, r.choice(SCALES))
        return str(v)

    def num(self, d, indom="any"):
        """An arithmetic expression of depth at most d."""
        r = self.r
        c = r.random()
        if d <= 0 or c < 0.3:
            if r.random() < 0.15:
                return self.const()
            if self.macros and r.random() < 0.1:
                return "$" + r.choice(self.macros)
            if self.xnum and self.xr.random() < 0.15:
                return "$" + self.xr.choice(self.xnum)
            m = self.metric("num", indom)
            pre = r.choice(["", "", "", "rate ", "instant "])
            return pre + self.spliced(m["name"]) + self.quals(m)
        if c < 0.55:
            return "%s %s %s" % (self.num(d - 1, indom), r.choice(ARITH), self.num(d - 1, indom))
        if c < 0.65:
            return "(%s %s %s)" % (self.num(d - 1, indom), r.choice(ARITH), self.const())
        if c < 0.8:
            agg = r.choice(["sum", "avg", "min", "max"]) + "_" + r.choice(["inst", "inst", "sample", "host"])
            return "%s (%s)" % (agg, self.num(d - 1, "any"))
        if c < 0.87:
            agg = "count_" + r.choice(["inst", "inst", "sample", "host"])
            return "%s (%s)" % (agg, self.boolean(d - 1, "any"))
        if c < 0.92:
            return "- " + self.num(d - 1, indom)
        if c < 0.96:
            return r.choice(["rate ", "instant "]) + "(" + self.num(d - 1, indom) + ")"
        return "(" + self.num(d - 1, indom) + ")"

    def spliced(self, name):
        """name, or some of the time (with expression macros) the same
        name with a part of it taken from a string macro defined in the
        preamble ($name inside an identifier splices the macro's text)."""
        if self.xr is None or "." not in name or self.xr.random() > 0.1:
            return name
        parts = name.split(".")
        k = self.xr.randint(1, len(parts) - 1)
        head = ".".join(parts[:k])
        if head not in self.xparts:
            self.xparts[head] = "p%d" % len(self.xparts)
        return "$" + self.xparts[head] + "." + ".".join(parts[k:])

    def regex(self, m=None):
        r = self.r
        if m and m["insts"] and r.random() < 0.7:
            i = r.choice(m["insts"])
            k = r.randint(1, max(1, len(i)))
            return "^" + re.escape(i[:k]).replace("\\", "\\\\").replace('"', "")
        return r.choice(["^sd", "a", "[0-9]", ".", "^x", "min", "^(x|y)", "e|o"])

    def boolean(self, d, indom="any"):
        """A truth-valued expression of depth at most d."""
        r = self.r
        c = r.random()
        if d <= 0 or c < 0.35:
            if r.random() < 0.08:
                m = self.metric("str")
                if m["type"] == STRING:
                    return '%s%s %s "%s"' % (m["name"], self.quals(m, False), r.choice(["==", "!="]),
                                           r.choice(["", "x", "Linux", "localhost", "6.0.3"]))
            if r.random() < 0.05:
                return r.choice(["true", "false"])
            if self.xbool and self.xr.random() < 0.15:
                return "$" + self.xr.choice(self.xbool)
            return "%s %s %s" % (self.num(d - 1, indom), r.choice(RELOPS), self.num(d - 1, indom))
        if c < 0.5:
            return "%s %s %s" % (self.boolean(d - 1, indom), r.choice(["&&", "||"]), self.boolean(d - 1, indom))
        if c < 0.55:
            return "! " + self.boolean(d - 1, indom)
        if c < 0.75:
            q = r.choice(["some", "all", "some", "all", "%d%%" % r.choice([0, 25, 50, 75, 100])])
            return "%s_%s (%s)" % (q, r.choice(["inst", "inst", "sample", "host"]), self.boolean(d - 1, "any"))
        if c < 0.85:
            m = self.metric("num")
            op = r.choice(["match_inst", "nomatch_inst"])
            rx = "$rx" if self.strmacros and r.random() < 0.2 else self.regex(m)
            return '%s "%s" %s %s %s' % (op, rx, m["name"] + self.quals(m), r.choice(RELOPS), self.num(d - 1, m["indom"]))
        if c < 0.93:
            return "%s (%s)" % (r.choice(["rising", "falling"]), self.boolean(d - 1, indom))
        return "(" + self.boolean(d - 1, indom) + ")"

    def action(self):
        r = self.r
        hold = ""
        if r.random() < 0.25:
            hold = "%d %s " % (r.choice([1, 2, 5, 30]), r.choice(["sec", "secs", "min", "mins", "hour"]))
        args = []
        for _ in range(r.randint(1, 3)):
            args.append('"%s"' % r.choice(["hit", " %v", " %i", " %h", " %c", "[%h] %i=%v ", "v=%v i=%i",
                                           "%%", "at %h:", "x\\ty", ""]))
            if self.xnum and self.xr.random() < 0.2:
                args[-1] = args[-1][:-1] + " $%s\"" % self.xr.choice(self.xnum)
        kind = r.choice(["print", "print", "print", "print", "shell", "syslog", "alarm"])
        if kind == "shell":
            args = ['"%s"' % r.choice(["true", "false", "true %v", "false %i"])]
        return "%s %s%s" % (kind, hold, " ".join(args))

    def actions(self):
        s = self.action()
        while self.r.random() < 0.3:
            s += " %s %s" % (self.r.choice(["&", "|"]), self.action())
        return s

    def statement(self, d):
        """One statement, without its semicolon."""
        r = self.r
        self.n += 1
        c = r.random()
        if c < 0.25:
            return "e%d = %s" % (self.n, self.num(d))
        if c < 0.4:
            return "b%d = %s" % (self.n, self.boolean(d))
        if c < 0.8:
            return "%s\n    -> %s" % (self.boolean(d), self.actions())
        if c < 0.88:
            s = "ruleset\n    %s -> %s" % (self.boolean(d), self.actions())
            for _ in range(r.randint(0, 2)):
                s += "\nelse %s -> %s" % (self.boolean(d), self.actions())
            if r.random() < 0.5:
                s += "\nunknown -> %s" % self.actions()
            if r.random() < 0.5:
                s += "\notherwise -> %s" % self.actions()
            return s
        if c < 0.93:
            return "delta = %d %s" % (r.choice([1, 2, 3, 5, 10, 30]), r.choice(["sec", "secs", "min"]))
        return self.boolean(d)

    def breakit(self, s):
        """A bad form of statement s: a syntax or semantic error."""
        r = self.r
        c = r.random()
        toks = s.split(" ")
        if c < 0.2 and len(toks) > 2:
            del toks[r.randrange(len(toks))]
            return " ".join(toks)
        if c < 0.35:
            return s + " " + r.choice([")", "(", "&&", "+", "->", "#", "@", ":"])
        if c < 0.5:
            return s.replace(".", ".nosuch", 1)
        if c < 0.6:
            return "$undefined_macro > 1 -> print \"x\""
        if c < 0.7:
            m = self.metric("str")
            return "%s + 1 > 2" % m["name"]
        if c < 0.8:
            return "%s > 1 bogon" % self.metric("num")["name"]
        if c < 0.9:
            m = self.metric("num")
            return "%s #'no such inst' > 0 -> print \"%%i\"" % m["name"]
        return "some_inst (%s) + 1" % self.boolean(1)


def make_rules(meta, seed, hosts=None):
    """A rule file: a list of (statement text) and the preamble."""
    r = random.Random(seed)
    return rules_of(Gen(meta, r, hosts or [meta["host"]]), r, seed)


def rules_of(g, r, seed):
    """The preamble and statements of a rule file made by g, drawing on r."""
    pre = ["delta = %d %s;" % (r.choice([1, 2, 5, 10, 30, 60]), r.choice(["sec", "sec", "min"]))]
    if r.random() < 0.5:
        pre.append('rx = "%s";' % g.regex())
        g.strmacros.append("rx")
    for i in range(r.randint(0, 2)):  # numeric macros: constants only
        pre.append("k%d = %s;" % (i, g.const()))
        g.macros.append("k%d" % i)
    xr = random.Random(seed * 11 + 3)
    if xr.random() < 0.4:
        expression_macros(xr, g, pre)
    stmts = []
    lr = random.Random(seed * 7 + 1)  # layout: leaves the statements of a seed as they were
    br = random.Random(seed * 13 + 5)  # stray operators: likewise
    for _ in range(r.randint(3, 10)):
        s = g.statement(r.randint(1, 4))
        if r.random() < 0.08:
            s = g.breakit(s)
        if br.random() < 0.06:
            s = stray_operator(s, br)
        if lr.random() < 0.3:
            s = relayout(s, lr)
        stmts.append(s + ";")
    for head, name in g.xparts.items():
        pre.append('%s = "%s";' % (name, head))
    return pre, stmts


STRAY = ["+", "-", "*", "/", "- +", "- *", "&&", "||", "!", "->", "&", "|", ">", "==", "rate", "instant",
         "some_inst", "sum_inst", "75 %_inst", "(", ")", "@", "#", ":", "rising", "match_inst", "print"]


def stray_operator(s, r):
    """s with an operator (or two, or a bracket) put between two of its
    tokens, or doubled, or at its end: pmie's parser recovers from each
    in its own way, and says so."""
    toks = s.split(" ")
    i = r.randrange(len(toks) + 1)
    op = r.choice(STRAY)
    if r.random() < 0.2 and i < len(toks):
        op = op + " " + r.choice(STRAY)
    toks.insert(i, op)
    return " ".join(toks)


def expression_macros(xr, g, pre):
    """Defines in pre one to three string macros whose text is a numeric or
    truth expression (as hand-written rule files do: cpu = "(a + b)";
    ... avg_inst $cpu), some laid out over lines, and lets g use them."""
    mg = Gen(g.meta, xr, g.hosts)
    g.xr = xr
    for i in range(xr.randint(1, 3)):
        truth = xr.random() < 0.35
        for _ in range(5):
            text = mg.boolean(xr.randint(0, 2)) if truth else mg.num(xr.randint(0, 2))
            if '"' not in text:
                break
        else:
            continue
        if g.xnum and xr.random() < 0.25:
            text = "$%s %s %s" % (xr.choice(g.xnum), xr.choice(ARITH), text) if not truth else \
                "$%s %s %s" % (xr.choice(g.xnum), xr.choice(RELOPS), text)
        if xr.random() < 0.3:
            text = "(" + text + ")"
        if xr.random() < 0.3:
            text = relayout(text, xr)
        if xr.random() < 0.2:
            text = xr.choice(["\n", " ", "\n  "]) + text + xr.choice(["\n", "", " "])
        name = "x%d" % i
        pre.append('%s = "%s";' % (name, text))
        (g.xbool if truth else g.xnum).append(name)


SEPARATORS = ["\n", "\n\n", "\t", "  ", " /* c */ ", "/* c\n*/", " // c\n", "\n// c\n  "]


def relayout(s, r):
    """s with some of the blanks between its tokens (outside quotes) made
    newlines or comments, as a rule file may be laid out: pmie reports
    problems near the line its scanner has reached."""
    out, quote = [], None
    for c in s:
        if quote:
            quote = None if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c == " " and r.random() < 0.3:
            out.append(r.choice(SEPARATORS))
            continue
        out.append(c)
    return "".join(out)


# ---------------------------------------------------------------- derived metrics

_DD = []


def diff_derive():
    """scripts/diff-derive.py as a module: its generator of derived-metric
    configurations is the one used here."""
    if not _DD:
        spec = importlib.util.spec_from_file_location("diffderive", os.path.join(ROOT, "scripts", "diff-derive.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _DD.append(mod)
    return _DD[0]


def make_derived(meta, seed):
    """A random derived-metric configuration over meta's metrics, made by
    diff-derive.py's generator (some definitions bad): the files, as
    (path, text) with paths relative to the directory they will be
    written in, the entries of PCP_DERIVED_CONFIG (relative likewise;
    "" for an empty PCP_DERIVED_CONFIG), and the names defined."""
    dd = diff_derive()
    r = random.Random(seed)
    ms = [dd.Metric(m["name"], m["type"], m["sem"], m["indom"], m["units"], m["insts"] or [], "", m["indom"])
          for m in meta["metrics"] if m["insts"] is not None and not m["name"].startswith("event.")]
    g = dd.Gen(r, ms)
    lines, names = dd.gen_config(g, r)
    # and some shallow definitions, which libpcp accepts more often
    for i in range(r.choice([0, 1, 2, 3, 4])):
        e = g.expr(r.choice([2, 3, 3, 4]))
        lines.insert(r.randrange(len(lines) + 1), ["dv.s%d" % (i + 1), " = ", str(e), e])
        names.append("dv.s%d" % (i + 1))
    x = r.random()
    if x < 0.7 or len(lines) < 2:
        files = [("derived.conf", dd.conf_text(lines))]
        entries = ["derived.conf"]
    else:
        k = r.randint(1, len(lines) - 1)
        files = [("a.conf", dd.conf_text(lines[:k])), ("b.conf", dd.conf_text(lines[k:]))]
        entries = ["a.conf", "b.conf"]
        if x < 0.85:
            # a directory of files: libpcp reads each file in it
            files = [("dir/" + p, t) for p, t in files]
            entries = ["dir"]
    y = r.random()
    if y < 0.05:
        entries.insert(r.randrange(len(entries) + 1), "nosuch")
    elif y < 0.08:
        entries.append(entries[0])  # the same definitions twice
    elif y < 0.1:
        entries = [""]
    return files, entries, names


def derived_spec(base, entries):
    """PCP_DERIVED_CONFIG for entries relative to base."""
    return ":".join(os.path.join(base, e) if e else "" for e in entries)


def write_derived(base, files):
    for path, text in files:
        full = os.path.join(base, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def derived_meta(arch, spec, names, script=None):
    """The derived metrics of names as libpcp sees them in ARCH with
    PCP_DERIVED_CONFIG=spec (those it can look up), as archive_meta
    describes metrics; in a process of its own, libpcp loading derived
    metrics once per process: `SCRIPT dmeta ARCH NAME...` (this script's
    by default; diff-pmie-live.py's for a host). None if libpcp crashed
    on them."""
    env = dict(os.environ, PCP_DERIVED_CONFIG=spec)
    try:
        p = subprocess.run([sys.executable, script or os.path.abspath(__file__), "dmeta", arch] + names,
                           env=env, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return []
    if p.returncode < 0:
        return None
    if p.returncode != 0:
        return []
    try:
        return json.loads(p.stdout.decode())
    except ValueError:
        return []


def cmd_dmeta(args):
    """dmeta ARCH NAME...: derived_meta's side in its own process."""
    from pcp import pmapi
    import cpmapi as c
    ctx = pmapi.pmContext(c.PM_CONTEXT_ARCHIVE, args[0])
    print(json.dumps(describe(ctx, ctx.pmGetArchiveLabel(), args[1:])))


PMIE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*")


class DerivedGen(Gen):
    """DerivedGen composes statements whose metrics are derived ones
    about half the time, and now and then names that do not work: a
    definition that failed, a derived name never defined."""

    def __init__(self, meta, rnd, hosts, derived, names):
        Gen.__init__(self, meta, rnd, hosts)
        self.derived = [m for m in derived if m["insts"] is not None]
        self.bad = [n for n in names if PMIE_NAME.fullmatch(n) and n not in {m["name"] for m in derived}]
        self.bad += ["dv.r9", "dv"]

    def metric(self, kind="num", indom=None):
        r = self.r
        x = r.random()
        if x < (0.06 if self.derived else 0.2):
            return {"name": r.choice(self.bad), "type": 0, "sem": 3, "units": "", "indom": -1,
                    "insts": [], "seen": False}
        if x < 0.55:
            want = NUMERIC if kind == "num" else (STRING,)
            cands = [m for m in self.derived if m["type"] in want]
            if indom is not None and indom != "any":
                cands = [m for m in cands if m["indom"] == indom] or cands
            if cands:
                return r.choice(cands)
        return Gen.metric(self, kind, indom)


def make_derived_rules(meta, seed, hosts, derived, names):
    """make_rules with DerivedGen's metrics."""
    r = random.Random(seed)
    return rules_of(DerivedGen(meta, r, hosts or [meta["host"]], derived, names), r, seed)


# ---------------------------------------------------------------- running

def default_archives():
    corpus = os.environ.get("PMIE_CORPUS", os.path.join(ROOT, "..", "..", "shared", "corpus"))
    if not os.path.isdir(corpus):
        corpus = "/work/shared/corpus"
    out = []
    skip = {"pmiostat_mark", "kenj-pc-1", "interpmark", "pcp-zeroconf", "20180127.08.40", "20180416"}
    for d in (os.path.join(corpus, "archives"), os.path.join(ROOT, "testdata/archives"),
              os.path.join(ROOT, "testdata/archives/pmie"), os.path.join(ROOT, "testdata/archives/conform")):
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith(".index") and f[:-6] not in skip and not f.startswith(("multi-vm0", "mismatch-")):
                out.append(os.path.join(d, f[:-6]))
    return out


def archive_groups():
    """Sets of archives of different hosts, to be run together."""
    groups = []
    d = os.path.join(ROOT, "testdata/archives/pmie")
    if os.path.exists(os.path.join(d, "alpha.index")):
        groups.append([os.path.join(d, h) for h in ("alpha", "beta", "gamma")])
    d = os.path.join(ROOT, "testdata/archives/conform")
    if os.path.exists(os.path.join(d, "sa.index")):
        groups.append([os.path.join(d, h) for h in ("sa", "sb")])
    corpus = "/work/shared/corpus/archives"
    if os.path.exists(os.path.join(corpus, "multi-vm00.index")):
        groups.append([os.path.join(corpus, "multi-vm0%d" % i) for i in range(4)])
    return groups


def flags(r):
    f = [r.choice(["-v", "-v", "-V", "-W", "-V -e"])]
    if r.random() < 0.3:
        f.append("-t %s" % r.choice(["1", "2", "0.5", "3sec", "10"]))
    if r.random() < 0.2:
        f.append("-S +%dsec" % r.randint(0, 10))
    if r.random() < 0.2:
        f.append("-T +%dsec" % r.randint(1, 30))
    if r.random() < 0.05:
        f.append("-O +%dsec" % r.randint(0, 10))
    if r.random() < 0.05:
        f.append("-A %s" % r.choice(["1sec", "2sec", "1min", "1hour"]))
    return " ".join(f)


# Lines of stderr left out: the evaluator's exit line, and our warnings about
# comparisons of different units (a deliberate addition, see README).
UNSTABLE = re.compile(r"Info: evaluator exiting|^pmie: pid \d+|^pmie: warning - rule .* compares ")
STAMP = re.compile(r"^\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d\] pmie\(\d+\)")


def run1(prog, arch, rules, fl, tmp, derived=None, perturb=None):
    env = dict(os.environ, TZ="UTC")
    env.pop("PCP_XCONFIRM_PROG", None)
    env.pop("MALLOC_PERTURB_", None)
    if perturb:
        env["MALLOC_PERTURB_"] = str(perturb)
    if derived is not None:
        env["PCP_DERIVED_CONFIG"] = derived
    archs = []
    for a in arch.split(" "):  # several archives: one -a each
        archs += ["-a", a]
    try:
        p = subprocess.run([prog, "-z"] + archs + ["-c", rules] + fl.split(),
                           cwd=tmp, env=env, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return ["<timeout>"], ["<timeout>"], -1
    out = p.stdout.decode(errors="replace").splitlines()
    err = [l for l in p.stderr.decode(errors="replace").splitlines() if not UNSTABLE.search(l)]
    err = [STAMP.sub("[DATE] pmie(PID)", l.replace(rules, "RULES")) for l in err]
    return out, err, p.returncode


def compare(ours, arch, rules, fl, tmp, derived=None):
    """Stable lines of real pmie, how many ours reproduces, and whether
    stderr and the exit status agree. derived, if not None, is
    PCP_DERIVED_CONFIG."""
    # glibc fills what malloc gives with 0xa5 bytes in the first run and
    # 0x5a in the second (and what free takes back with the other): what
    # real pmie prints from heap memory it never wrote (libpcp's min() of
    # no values at the first fetch, say) then differs between its runs
    r1, e1, x1 = run1("pmie", arch, rules, fl, tmp, derived, perturb=90)
    r2, _, x2 = run1("pmie", arch, rules, fl, tmp, derived, perturb=165)
    if x2 < 0 <= x1:
        r2 = r1  # crashed only with the filled memory: every line counts
    o, eo, xo = run1(ours, arch, rules, fl, tmp, derived)
    return tally(r1, e1, x1, r2, o, eo, xo)


def tally(r1, e1, x1, r2, o, eo, xo):
    """Compares ours (o, eo, xo) with real pmie's first run (r1, e1, x1),
    counting only the lines of r1 that its second run (r2) repeats."""
    # the lines of r1 that r2 repeats, aligned as diff aligns them (a line
    # from uninitialised memory can be there in one run and not the other)
    m2 = difflib.SequenceMatcher(None, r1, r2, autojunk=False)
    stable = {i for a, b, n in m2.get_matching_blocks() for i in range(a, a + n)}
    sm = difflib.SequenceMatcher(None, r1, o, autojunk=False)
    same = sum(1 for a, b, n in sm.get_matching_blocks() for i in range(a, a + n) if i in stable)
    extra = max(0, len(o) - same - (len(r1) - len(stable)))
    return {"same": same, "total": len(stable), "extra": extra,
            "err_ok": e1 == eo, "exit_ok": x1 == xo,
            "real": r1, "ours": o, "real_err": e1, "ours_err": eo, "real_exit": x1, "ours_exit": xo}


def first_diff(res):
    """The first line that differs, of stdout, else stderr, else the exit
    status: what a class of differences is known by."""
    for key, what in (("", "stdout"), ("_err", "stderr")):
        a, b = res["real" + key], res["ours" + key]
        for i in range(max(len(a), len(b))):
            x = a[i] if i < len(a) else "<none>"
            y = b[i] if i < len(b) else "<none>"
            if x != y:
                return "%s real: %s | ours: %s" % (what, x[:120], y[:120])
    if res["real_exit"] != res["ours_exit"]:
        return "exit real %d ours %d" % (res["real_exit"], res["ours_exit"])
    return ""


SAMPLE_OP = re.compile(r"\b(?:\d+(?:\.\d*)?\s*%|avg|sum|max|min|count|all|some)_sample\s*\(")
WINDOW = re.compile(r"@\s*(\d+)\s*\.\.\s*(\d+)")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def one_sample(stmt):
    """Whether stmt has an aggregate or quantifier over the samples of a
    parenthesised operand holding one sample (no @N..M window of more, no
    macro that could hold one): pmie reads it from freed memory (README,
    Differences), so such a statement's values may differ."""
    stmt = COMMENT.sub(" ", stmt)
    for m in SAMPLE_OP.finditer(stmt):
        depth, i = 1, m.end()
        while i < len(stmt) and depth:
            depth += {"(": 1, ")": -1}.get(stmt[i], 0)
            i += 1
        inner = stmt[m.end():i]
        if "$" not in inner and all(a == b for a, b in WINDOW.findall(inner)):
            return True
    return False


def quoted_only(res):
    """Whether real's and our standard output differ only by the quotes
    ours puts around the values of shell actions (README, Differences):
    every line that differs is the same once single quotes are taken
    out."""
    a, b = res["real"], res["ours"]
    if len(a) != len(b) or not res["err_ok"] or not res["exit_ok"]:
        return False
    diff = [(x, y) for x, y in zip(a, b) if x != y]
    return bool(diff) and all(y.startswith("shell ") and x == y.replace("'", "") for x, y in diff)


def known_class(stmts):
    """The documented class of difference that every statement of stmts
    (those still differing on their own) is in, or ""."""
    if stmts and all(one_sample(st) for st in stmts):
        return "one sample"
    return ""


def ok(res):
    if res["real_exit"] < 0:
        return True  # real pmie crashed: nothing to compare with
    return res["same"] == res["total"] and res["extra"] == 0 and res["err_ok"] and res["exit_ok"]


def our_pmie(tmp):
    if os.environ.get("PMIE"):
        return os.environ["PMIE"]
    out = os.path.join(tmp, "pmie")
    subprocess.run(["go", "build", "-o", out, "./cmd/pmie"], cwd=ROOT, check=True)
    return out


def save(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def shrink(ours, case, tmp, compare=compare):
    """Each statement of case on its own; those that still differ."""
    case = os.path.abspath(case)  # pmie runs in a directory of its own
    with open(os.path.join(case, "case.json")) as f:
        c = json.load(f)
    kw = {}
    if c.get("derived"):
        kw["derived"] = derived_spec(os.path.join(case, "derived"), c["derived"]["entries"])
    minimal = []
    for s in c["stmts"]:
        rules = os.path.join(tmp, "one.pmie")
        save(tmp, "one.pmie", "\n".join(c["pre"] + [s]) + "\n")
        res = compare(ours, c["arch"], rules, c["flags"], tmp, **kw)
        if not ok(res):
            minimal.append(s)
    save(case, "minimal", "\n".join(c["pre"]) + "\n" + "\n\n".join(minimal) + "\n")
    if c.get("derived"):
        shrink_derived(ours, case, c, minimal, tmp, compare)
    return minimal


def shrink_derived(ours, case, c, minimal, tmp, compare):
    """The lines of a derived case's configuration (one file) that the
    minimal statements (or, with none, the whole rule file) still need
    to differ, written as minimal.conf, with a minimal.sh running them."""
    if c["derived"]["entries"] != ["derived.conf"]:
        return
    rules = os.path.join(tmp, "min.pmie")
    save(tmp, "min.pmie", "\n".join(c["pre"] + (minimal or c["stmts"])) + "\n")
    conf = os.path.join(tmp, "min.conf")
    with open(os.path.join(case, "derived", "derived.conf")) as f:
        lines = f.read().splitlines()

    def differs(ls):
        save(tmp, "min.conf", "".join(l + "\n" for l in ls))
        return not ok(compare(ours, c["arch"], rules, c["flags"], tmp, derived=conf))
    if not differs(lines):
        return
    i = 0
    while i < len(lines) and len(lines) > 1:
        if differs(lines[:i] + lines[i + 1:]):
            lines = lines[:i] + lines[i + 1:]
        else:
            i += 1
    save(case, "minimal.conf", "".join(l + "\n" for l in lines))
    shutil.copy(rules, os.path.join(case, "minimal.pmie"))
    archs = " ".join("-a " + a for a in c["arch"].split(" "))
    save(case, "minimal.sh", "cd \"$(dirname \"$0\")\"\nTZ=UTC PCP_DERIVED_CONFIG=minimal.conf ${PMIE:-pmie} -z %s "
         "-c minimal.pmie %s\n" % (archs, c["flags"]))


def keep(outdir, name, rules, arch, fl, pre, stmts, seed, res, derived=None):
    """Keeps a case that differs under outdir/name, and returns its path.
    derived is a derived case's (files, entries)."""
    case = os.path.join(outdir, name)
    os.makedirs(case, exist_ok=True)
    shutil.copy(rules, os.path.join(case, "rules.pmie"))
    c = {"arch": arch, "flags": fl, "pre": pre, "stmts": stmts, "seed": seed}
    if derived:
        write_derived(os.path.join(case, "derived"), derived[0])
        c["derived"] = {"files": derived[0], "entries": derived[1]}
    with open(os.path.join(case, "case.json"), "w") as f:
        json.dump(c, f)
    for key in ("real", "ours", "real_err", "ours_err"):
        save(case, key, "\n".join(res[key]) + "\n")
    save(case, "summary", "%s %s same %d/%d extra %d err_ok %s exit %s/%s\n%s\n" % (
        arch, fl, res["same"], res["total"], res["extra"], res["err_ok"], res["real_exit"], res["ours_exit"],
        first_diff(res)))
    return case


def cmd_run(args):
    n, seed, outdir, archs, derived = 200, random.randrange(1 << 30), "/tmp/diff-pmie", [], False
    i = 0
    while i < len(args):
        if args[i] == "-n":
            n = int(args[i + 1]); i += 2
        elif args[i] == "-s":
            seed = int(args[i + 1]); i += 2
        elif args[i] == "-o":
            outdir = args[i + 1]; i += 2
        elif args[i] == "-p":
            os.environ["PMIE"] = args[i + 1]; i += 2
        elif args[i] == "--derived":
            derived = True; i += 1
        else:
            archs.append(args[i]); i += 1
    archs = archs or default_archives()
    os.makedirs(outdir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="diff-pmie.")
    try:
        ours = our_pmie(tmp)
        r = random.Random(seed)
        tot = same = bad = errs = exits = crashes = known = 0
        groups = archive_groups()
        for k in range(n):
            arch = r.choice(archs)
            meta = archive_meta(arch)
            hosts = None
            if groups and r.random() < 0.15:
                group = r.choice(groups)
                arch = " ".join(group)
                meta = archive_meta(group[0])
                hosts = [archive_meta(a)["host"] for a in group]
            cs = r.randrange(1 << 30)
            dv = spec = None
            if derived:
                # now and then over another archive's metrics, most of them
                # missing here
                over = archive_meta(r.choice(archs)) if r.random() < 0.08 else meta
                # a configuration libpcp crashes on (anon(U64)) makes every
                # statement a crash of real pmie's: others are drawn
                for t in range(8):
                    files, entries, names = make_derived(over, cs + t * 7919)
                    dv = (files, entries)
                    base = os.path.join(tmp, "derived")
                    shutil.rmtree(base, ignore_errors=True)
                    write_derived(base, files)
                    spec = derived_spec(base, entries)
                    dmeta = derived_meta(arch.split(" ")[0], spec, [x for x in names if PMIE_NAME.fullmatch(x)])
                    if dmeta is not None:
                        break
                dmeta = dmeta or []
                pre, stmts = make_derived_rules(meta, cs, hosts, dmeta, names)
                fl = flags(r)
                if r.random() < 0.1:
                    fl = r.choice(["-C", "-C -v", "-C -V"])
            else:
                pre, stmts = make_rules(meta, cs, hosts)
                fl = flags(r)
            rules = os.path.join(tmp, "rules.pmie")
            save(tmp, "rules.pmie", "\n".join(pre + stmts) + "\n")
            res = compare(ours, arch, rules, fl, tmp, spec)
            if res["real_exit"] < 0:
                # real pmie crashed: compare each statement on its own
                crashes += 1
                print("%d %s %s: real pmie crashed" % (k, os.path.basename(arch), fl), flush=True)
                for j, st in enumerate(stmts):
                    save(tmp, "rules.pmie", "\n".join(pre + [st]) + "\n")
                    one = compare(ours, arch, rules, fl, tmp, spec)
                    if one["real_exit"] < 0:
                        continue
                    tot += one["total"]; same += one["same"]
                    if not ok(one):
                        bad += 1
                        known += known_class([st]) != "" or quoted_only(one)
                        case = keep(outdir, "case-%d-%d.%d" % (seed, k, j), rules, arch, fl, pre, [st], cs, one, dv)
                        if derived:
                            shrink_derived(ours, case, json.load(open(os.path.join(case, "case.json"))), [st],
                                           tmp, compare)
                continue
            tot += res["total"]; same += res["same"]
            if not res["err_ok"]:
                errs += 1
            if not res["exit_ok"]:
                exits += 1
            label = ""
            if not ok(res):
                bad += 1
                case = keep(outdir, "case-%d-%d" % (seed, k), rules, arch, fl, pre, stmts, cs, res, dv)
                label = known_class(shrink(ours, case, tmp)) or ("shell values quoted" if quoted_only(res) else "")
                known += label != ""
                if label:
                    label = " [documented: %s]" % label
            print("%d %s %s: %d/%d%s" % (k, os.path.basename(arch), fl, res["same"], res["total"],
                                          "" if ok(res) else "  DIFF " + first_diff(res) + label), flush=True)
        print("seed %d: %d cases, %d real pmie crashed, %d differ (%d of them a documented class; %d stderr, %d exit); "
              "lines %d/%d identical" % (seed, n, crashes, bad, known, errs, exits, same, tot))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def recheck(cases, compare):
    """Runs kept cases again with compare, saying which still differ."""
    tmp = tempfile.mkdtemp(prefix="diff-pmie.")
    try:
        ours = our_pmie(tmp)
        left = 0
        for case in cases:
            case = os.path.abspath(case)  # pmie runs in a directory of its own
            with open(os.path.join(case, "case.json")) as f:
                c = json.load(f)
            kw = {}
            if c.get("derived"):
                kw["derived"] = derived_spec(os.path.join(case, "derived"), c["derived"]["entries"])
            res = compare(ours, c["arch"], os.path.join(case, "rules.pmie"), c["flags"], tmp, **kw)
            left += not ok(res)
            print("%s: %s" % (case, "same" if ok(res) else "DIFF " + first_diff(res)))
        print("%d of %d still differ" % (left, len(cases)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "gen" and args[:1] == ["--derived"]:
        meta = archive_meta(args[1])
        seed = int(args[2]) if len(args) > 2 else random.randrange(1 << 30)
        files, entries, names = make_derived(meta, seed)
        tmp = tempfile.mkdtemp(prefix="diff-pmie.")
        try:
            write_derived(tmp, files)
            dmeta = derived_meta(args[1], derived_spec(tmp, entries), [x for x in names if PMIE_NAME.fullmatch(x)])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        print("# PCP_DERIVED_CONFIG=%s" % ":".join(entries))
        for path, text in files:
            print("# %s:\n%s" % (path, text))
        pre, stmts = make_derived_rules(meta, seed, None, dmeta, names)
        print("\n".join(pre + stmts))
    elif cmd == "gen":
        meta = archive_meta(args[0])
        pre, stmts = make_rules(meta, int(args[1]) if len(args) > 1 else random.randrange(1 << 30))
        print("\n".join(pre + stmts))
    elif cmd == "run":
        cmd_run(args)
    elif cmd == "dmeta":
        cmd_dmeta(args)
    elif cmd == "recheck":
        recheck(args, compare)
    elif cmd == "shrink":
        tmp = tempfile.mkdtemp(prefix="diff-pmie.")
        try:
            print("\n\n".join(shrink(our_pmie(tmp), args[0], tmp)))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
