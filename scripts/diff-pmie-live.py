#!/usr/bin/python3
"""diff-pmie-live.py: random differential testing of our pmie against real
pmie in live mode, on a pmcd serving PCP's sample PMDA.

Makes random rule files (diff-pmie.py's generator) over the metrics a pmcd
serves, weighted towards metrics whose values do not change, runs real pmie
and ours side by side on the same pmcd (-h HOST -t 0.5 -T +Nsec with -v, -V,
-W or -e; some cases -C only), then real pmie again, and compares standard
output line by line, standard error and the exit status. Timestamps and
pids are normalised; lines that differ between the two real runs (values of
metrics that change) are not counted. Differing cases are kept with their
rule file, both outputs and the statements that still differ on their own
("minimal").

The sample PMDA is not in this machine's pmcd, and that pmcd must not be
reconfigured, so `setup` starts a private pmcd on port 44399 serving only
sample (pipe) and sampledso (DSO), with its files, pid and socket under
/tmp/livediff-pmcd; `stop` ends it (by its recorded pid).

usage:
  /usr/bin/python3 scripts/diff-pmie-live.py setup
      start the private pmcd (localhost:44399)
  /usr/bin/python3 scripts/diff-pmie-live.py stop
      stop it
  /usr/bin/python3 scripts/diff-pmie-live.py gen [SEED]
      print one random rule file for the pmcd
  /usr/bin/python3 scripts/diff-pmie-live.py run [--derived] [-n CASES]
      [-s SEED] [-o DIR] [-p OUR_PMIE] [-h HOST] [-x OTHER_HOST]...
      run CASES cases (default 50) against HOST (default localhost:44399),
      keep the differing ones under DIR (default /tmp/livediff-cases) and
      print the totals; metrics named with their host are named on HOST
      or on an OTHER_HOST (`-x 127.0.0.1:44399`: the same pmcd under
      another name; `-x local:`: the machine's own pmcd, which gives
      itself the same name as HOST and has not HOST's metrics)
  /usr/bin/python3 scripts/diff-pmie-live.py recheck CASEDIR...
      run kept cases again (after a fix) and say which still differ

With --derived, each case also has a random derived-metric configuration
(PCP_DERIVED_CONFIG, for both pmies), made as diff-pmie.py --derived makes
one, over the pmcd's metrics whose values hold still, and its rules name
the derived metrics that libpcp accepts about half the time (and now and
then one that failed or was never defined). A kept derived case has its
configuration under derived/, and minimal.conf and minimal.sh when it is
one file.

It needs PCP (pmie, pmcd, python3-pcp: run it with /usr/bin/python3).
OUR_PMIE defaults to $PMIE, else a pmie built from ./cmd/pmie. Shell actions
only run `true` and `false`; syslog and alarm actions become print.
"""
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("diffpmie", os.path.join(ROOT, "scripts", "diff-pmie.py"))
dp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dp)

PMCD_DIR = "/tmp/livediff-pmcd"
PORT = 44399
DEFAULT_HOST = "localhost:%d" % PORT
SAMPLE = "/var/lib/pcp/pmdas/sample"

# ---------------------------------------------------------------- private pmcd


def setup():
    d = PMCD_DIR
    os.makedirs(os.path.join(d, "run"), exist_ok=True)
    os.makedirs(os.path.join(d, "pmdas", "sample"), exist_ok=True)
    with open(os.path.join(SAMPLE, "pmns")) as f:
        pmns = f.read()
    dso = "\n".join(l.replace("sample", "sampledso", 1).replace("SAMPLE", "SAMPLEDSO", 1)
                    for l in pmns.splitlines())
    with open(os.path.join(d, "root"), "w") as f:
        f.write("#define SAMPLE 29\n#define SAMPLEDSO 30\nroot {\n    sample\n    sampledso\n}\n")
        f.write(pmns + "\n" + dso + "\n")
    newhelp = "/usr/lib/pcp/bin/newhelp"
    subprocess.run([newhelp, "-n", os.path.join(d, "root"), "-o",
                    os.path.join(d, "pmdas", "sample", "help"), os.path.join(SAMPLE, "help")],
                   stderr=subprocess.DEVNULL)
    with open(os.path.join(d, "pmcd.conf"), "w") as f:
        f.write("sample\t29\tpipe\tbinary\t%s/pmdasample -d 29 -l %s/sample.log\n" % (SAMPLE, d))
        f.write("sampledso\t30\tdso\tsample_init\t%s/pmda_sample.so\n" % SAMPLE)
    subprocess.run(["chmod", "-R", "a+rwX", d])
    env = dict(os.environ, PCP_RUN_DIR=d + "/run", PCP_PMDAS_DIR=d + "/pmdas", PCP_LOG_DIR=d,
               PCP_PMCDCONF_PATH=d + "/pmcd.conf")
    p = subprocess.Popen(["/usr/lib/pcp/bin/pmcd", "-f", "-A", "-c", d + "/pmcd.conf", "-n", d + "/root",
                          "-p", str(PORT), "-s", d + "/run/pmcd.socket", "-l", d + "/pmcd.log",
                          "-x", d + "/pmcd.err"], env=env, cwd=d, start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(d, "pmcd.pid"), "w") as f:
        f.write("%d\n" % p.pid)
    time.sleep(2)
    subprocess.run(["pminfo", "-h", DEFAULT_HOST, "-f", "sample.long.one"])


def stop():
    with open(os.path.join(PMCD_DIR, "pmcd.pid")) as f:
        pid = int(f.read())
    os.kill(pid, 15)


# ---------------------------------------------------------------- metadata


# Metrics of the sample PMDA whose values change with time or with other
# clients (sample.percontext.control.active counts the contexts open), too
# slowly for four fetches a second apart to see it.
VARYING = re.compile(r"\.(percontext|scale_step|lights|step|step_counter|drift|seconds|milliseconds|wrap|"
                     r"slow_wrap|rapid|const_rate|pdu|recv_pdu|xmit_pdu|magnitude|mirage|mirage_longlong|"
                     r"scramble|proc|updown|dodgey)\b")


def describe_host(ctx, names):
    """The metrics of names in the host context ctx (those it can look
    up): name, PMID list (for pmFetch), type, semantics, units, instance
    domain and instance names (None if they cannot be had)."""
    from pcp import pmapi
    import cpmapi as c
    metrics = []
    for name in names:
        try:
            ids = ctx.pmLookupName([name])
            d = ctx.pmLookupDescs(ids)[0]
        except pmapi.pmErr:
            continue
        insts = []
        if d.indom != c.PM_INDOM_NULL:
            try:
                insts = list(ctx.pmGetInDom(d)[1] or [])
            except pmapi.pmErr:
                insts = None
        metrics.append({"name": name, "pmid": ids, "type": d.type, "sem": d.sem,
                        "units": ctx.pmUnitsStr(d.units), "indom": d.indom, "insts": insts})
    return metrics


def live_meta(host):
    """Metrics of the pmcd at host, as diff-pmie.py's archive_meta gives
    them; "seen" is true only of metrics whose values were there and the
    same at four fetches a second apart (the generator prefers
    those), "vals" holds one fetch's values. Metrics whose values or
    errors change between the fetches are left out (sample.lights and
    sample.scale_step.* change every few seconds): real pmie and ours
    fetch them at different moments (and counters such as sample.wrap.*
    step at every fetch of any client), so their lines never compare."""
    from pcp import pmapi
    import cpmapi as c
    ctx = pmapi.pmContext(c.PM_CONTEXT_HOST, host)
    names = []
    ctx.pmTraversePMNS("", lambda n: names.append(n))
    metrics = describe_host(ctx, names)
    snaps = []
    for k in range(4):
        snap = {}
        for m in metrics:
            try:
                res = ctx.pmFetch(m["pmid"])
            except pmapi.pmErr:
                continue
            vs = res.contents.get_vset(0)
            vals = []
            if vs.contents.numval > 0 and m["type"] in dp.NUMERIC + (dp.STRING,):
                for j in range(vs.contents.numval):
                    try:
                        a = ctx.pmExtractValue(vs.contents.valfmt, res.contents.get_vlist(0, j),
                                               m["type"], m["type"])
                        v = ctx.pmAtomStr(a, m["type"])
                    except pmapi.pmErr:
                        v = "?"
                    vals.append((res.contents.get_inst(0, j), v))
            snap[m["name"]] = (vs.contents.numval, vals)
            ctx.pmFreeResult(res)
        snaps.append(snap)
        if k < 3:
            time.sleep(1)
    stable = []
    for m in metrics:
        if VARYING.search(m["name"]):
            continue
        s = [sn.get(m["name"]) for sn in snaps]
        del m["pmid"]
        if not all(x == s[0] for x in s):
            continue  # values or instances change: the two pmies would see different ones
        m["seen"] = s[0] is not None and s[0][0] > 0
        m["vals"] = s[0][1] if s[0] else []
        stable.append(m)
    return {"host": host, "metrics": stable}


def cmd_dmeta(args):
    """dmeta HOST NAME...: the derived metrics of NAME... as libpcp sees
    them at HOST with this process's PCP_DERIVED_CONFIG, for
    diff-pmie.py's derived_meta: as live_meta describes metrics, "seen"
    if one fetch gave values."""
    from pcp import pmapi
    import cpmapi as c
    ctx = pmapi.pmContext(c.PM_CONTEXT_HOST, args[0])
    out = describe_host(ctx, args[1:])
    for m in out:
        m["seen"] = False
        try:
            res = ctx.pmFetch(m.pop("pmid"))
            m["seen"] = res.contents.get_vset(0).contents.numval > 0
            ctx.pmFreeResult(res)
        except pmapi.pmErr:
            pass
    print(json.dumps(out))


# ---------------------------------------------------------------- generator

BAD = float(os.environ.get("LIVEDIFF_BAD", "0.1"))  # share of statements broken


class LiveActions:
    """Actions as the generator makes them, syslog and alarm made print."""

    def action(self):
        s = super().action()
        kind = s.split(" ", 1)[0]
        if kind in ("syslog", "alarm"):
            s = "print" + s[len(kind):]
        return s


class LiveGen(LiveActions, dp.Gen):
    pass


class LiveDerivedGen(LiveActions, dp.DerivedGen):
    pass


def make_rules(meta, seed, host, derived=None, names=None, extra=()):
    """A rule file for host: its preamble and statements. derived, if not
    None, is the derived metrics (cmd_dmeta) that the statements
    name about half the time; names, those defined. Metrics named with
    their host name host or one of extra."""
    r = random.Random(seed)
    hosts = [host] + list(extra)
    if derived is None:
        g = LiveGen(meta, r, hosts)
    else:
        g = LiveDerivedGen(meta, r, hosts, derived, names)
    pre = []
    if r.random() < 0.3:
        pre.append("delta = %s;" % r.choice(["0.5 sec", "1 sec", "500 msec", "0.3 sec", "700 msec"]))
    if r.random() < 0.5:
        pre.append('rx = "%s";' % g.regex())
        g.strmacros.append("rx")
    for i in range(r.randint(0, 2)):
        pre.append("k%d = %s;" % (i, g.const()))
        g.macros.append("k%d" % i)
    stmts = []
    for _ in range(r.randint(2, 8)):
        s = g.statement(r.randint(1, 3))
        if s.startswith("delta ="):
            s = "delta = %s" % r.choice(["0.5 sec", "1 sec", "2 sec", "0.7 sec"])
        if r.random() < BAD:
            s = g.breakit(s)
        stmts.append(s + ";")
    return pre, stmts


def flags(r):
    if r.random() < 0.15:
        return r.choice(["-C", "-C -v", "-C -V"])
    f = [r.choice(["-v", "-v", "-V", "-W", "-V -e", "-e -v"])]
    if r.random() < 0.15:
        f.append(r.choice(["-b", "-q", "-z", "-Z UTC+3"]))  # not -d, -x, -X: see README
    t = r.choice([0.3, 0.5, 0.5, 1])
    # a finish half an interval after an evaluation, so that both pmies
    # evaluate as often
    f.append("-t %g -T +%gsec" % (t, t * r.randint(1, 4) + t / 2))
    return " ".join(f)


# ---------------------------------------------------------------- running

DATE = re.compile(r"[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d( \d{4})?")
PID = re.compile(r"pmie\(\d+\)")
UNSTABLE = re.compile(r"^pmie: warning - rule .* compares ")


def _tmp_dir():
    try:
        with open(os.environ.get("PCP_CONF", "/etc/pcp.conf")) as f:
            for l in f:
                if l.startswith("PCP_TMP_DIR="):
                    return l.split("=", 1)[1].strip()
    except OSError:
        pass
    return "/var/lib/pcp/tmp"


STATS_DIR = os.path.join(os.environ.get("PCP_TMP_DIR") or _tmp_dir(), "pmie")


def start1(prog, host, rules, fl, tmp, derived=None):
    env = dict(os.environ, TZ="UTC")
    env.pop("PCP_XCONFIRM_PROG", None)
    if derived is not None:
        env["PCP_DERIVED_CONFIG"] = derived
    return subprocess.Popen([prog, "-h", host, "-c", rules] + fl.split(), cwd=tmp, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish1(p, rules):
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return ["<timeout>"], ["<timeout>"], -1

    def norm(l):
        return PID.sub("pmie(PID)", DATE.sub("DATE", l.replace(rules, "RULES")))
    out = [norm(l) for l in out.decode(errors="replace").splitlines()]
    err = [norm(l) for l in err.decode(errors="replace").splitlines() if not UNSTABLE.search(l)]
    # pmie's statistics file ($PCP_TMP_DIR/pmie/PID) should be gone when
    # it has exited; one left behind is compared as a line of stderr
    stats = os.path.join(STATS_DIR, str(p.pid))
    if os.path.exists(stats):
        err.append("<statistics file left behind>")
        os.unlink(stats)
    return out, err, p.returncode


def compare(ours, host, rules, fl, tmp, derived=None):
    """Real pmie and ours at once, then real again; derived, if not None,
    is their PCP_DERIVED_CONFIG."""
    pr = start1("pmie", host, rules, fl, tmp, derived)
    po = start1(ours, host, rules, fl, tmp, derived)
    r1, e1, x1 = finish1(pr, rules)
    o, eo, xo = finish1(po, rules)
    r2, e2, _ = finish1(start1("pmie", host, rules, fl, tmp, derived), rules)
    res = dp.tally(r1, e1, x1, r2, o, eo, xo)
    res["err_ok"] = res["err_ok"] or e2 == eo  # a message real pmie gives at one run and not the other
    return res


def derived_case(meta, host, cs, tmp):
    """A derived-metric configuration for a case: (files, entries), its
    PCP_DERIVED_CONFIG under tmp, the derived metrics libpcp accepts and
    the names defined. Configurations libpcp crashes on are drawn again."""
    for t in range(8):
        files, entries, names = dp.make_derived(meta, cs + t * 7919)
        base = os.path.join(tmp, "derived")
        shutil.rmtree(base, ignore_errors=True)
        dp.write_derived(base, files)
        spec = dp.derived_spec(base, entries)
        dmeta = dp.derived_meta(host, spec, [x for x in names if dp.PMIE_NAME.fullmatch(x)],
                                os.path.abspath(__file__))
        if dmeta is not None:
            break
    return (files, entries), spec, dmeta or [], names


def live_minimal_sh(case, host):
    """minimal.sh of a kept derived case, run against host (shrink_derived
    writes one for archives)."""
    with open(os.path.join(case, "case.json")) as f:
        c = json.load(f)
    if os.path.exists(os.path.join(case, "minimal.sh")):
        dp.save(case, "minimal.sh", "cd \"$(dirname \"$0\")\"\nTZ=UTC PCP_DERIVED_CONFIG=minimal.conf ${PMIE:-pmie} "
                "-h %s -c minimal.pmie %s\n" % (host, c["flags"]))


def cmd_run(args):
    n, seed, outdir, host = 50, random.randrange(1 << 30), "/tmp/livediff-cases", DEFAULT_HOST
    derived, extra = False, []
    if args[:1] == ["--derived"]:
        derived, args = True, args[1:]
    i = 0
    while i < len(args):
        if args[i] == "-n":
            n = int(args[i + 1])
        elif args[i] == "-s":
            seed = int(args[i + 1])
        elif args[i] == "-o":
            outdir = args[i + 1]
        elif args[i] == "-p":
            os.environ["PMIE"] = args[i + 1]
        elif args[i] == "-h":
            host = args[i + 1]
        elif args[i] == "-x":
            extra.append(args[i + 1])
        else:
            sys.exit(__doc__)
        i += 2
    os.makedirs(outdir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="livediff-run.")
    try:
        ours = dp.our_pmie(tmp)
        meta = live_meta(host)
        r = random.Random(seed)
        tot = same = bad = 0
        for k in range(n):
            cs = r.randrange(1 << 30)
            dv = spec = None
            if derived:
                dv, spec, dmeta, names = derived_case(meta, host, cs, tmp)
                pre, stmts = make_rules(meta, cs, host, dmeta, names, extra)
            else:
                pre, stmts = make_rules(meta, cs, host, extra=extra)
            fl = flags(r)
            rules = os.path.join(tmp, "rules.pmie")
            dp.save(tmp, "rules.pmie", "\n".join(pre + stmts) + "\n")
            res = compare(ours, host, rules, fl, tmp, spec)
            tot += res["total"]
            same += res["same"]
            if not dp.ok(res):
                bad += 1
                case = dp.keep(outdir, "case-%d-%d" % (seed, k), rules, host, fl, pre, stmts, cs, res, dv)
                dp.shrink(ours, case, tmp, compare)
                if derived:
                    live_minimal_sh(case, host)
            print("%d %s: %d/%d%s" % (k, fl, res["same"], res["total"], "" if dp.ok(res) else "  DIFF"),
                  flush=True)
        print("seed %d: %d cases, %d differ; lines %d/%d identical" % (seed, n, bad, same, tot))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "setup":
        setup()
    elif cmd == "stop":
        stop()
    elif cmd == "gen":
        meta = live_meta(DEFAULT_HOST)
        pre, stmts = make_rules(meta, int(args[0]) if args else random.randrange(1 << 30), DEFAULT_HOST)
        print("\n".join(pre + stmts))
    elif cmd == "run":
        cmd_run(args)
    elif cmd == "recheck":
        dp.recheck(args, compare)
    elif cmd == "dmeta":
        cmd_dmeta(args)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
