#!/usr/bin/python3
"""Print what libpcp's __pmStringValue (which fetchgroups use to turn a
string metric's value into a number) makes of each string of
strvalue.txt (one per line, with C escapes) for each numeric type.

Usage: strvalue.py strvalue.txt > strvalue.golden
"""
import ctypes
import sys

from pcp import pmapi

from oracle import atom_str

LIB = ctypes.CDLL("libpcp.so.3", use_errno=True)
LIB.__pmStringValue.argtypes = [ctypes.c_char_p, ctypes.POINTER(pmapi.pmAtomValue), ctypes.c_int]
LIB.__pmStringValue.restype = ctypes.c_int

TYPES = [("32", 0), ("U32", 1), ("64", 2), ("U64", 3), ("FLOAT", 4), ("DOUBLE", 5)]


for line in open(sys.argv[1], encoding="utf-8"):
    s = line.rstrip("\n").encode().decode("unicode_escape")
    for name, code in TYPES:
        a = pmapi.pmAtomValue()
        ctypes.set_errno(0)
        sts = LIB.__pmStringValue(s.encode("latin-1"), ctypes.byref(a), code)
        out = atom_str(a, name) if sts == 0 else "-"
        print("%s\t%s\t%d\t%s" % (line.rstrip("\n"), name, sts, out))
