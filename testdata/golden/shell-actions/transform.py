#!/usr/bin/python3
"""transform.py PMIEFILE: prints the pmie file pmieconf made with each
rule's predicate replaced by one that is true at every sample of the
archives in testdata/archives/shell, so that every action fires there:
  some_inst ( shelltest.inst > 0 )   for rules whose actions use %i
  some_host ( shelltest.host > 0 )   for the others
Everything else (names, deltas, actions and their holdoffs) is kept."""
import re
import sys

text = open(sys.argv[1]).read()
rule = re.compile(r"^(\S+) = \n(.*?)\n\) -> (.*?;)$", re.S | re.M)


def replace(m):
    name, actions = m.group(1), m.group(3)
    if "%i" in actions:
        pred = "some_inst ( shelltest.inst > 0 )"
    else:
        pred = "some_host ( shelltest.host > 0 )"
    return "%s = \n%s\n  -> %s" % (name, pred, actions)


out, n = rule.subn(replace, text)
if n != out.count("\n// 1 ") - out.count(" enabled = yes"):
    sys.exit("transform.py: not every rule's predicate was replaced")
sys.stdout.write(out)
