#!/usr/bin/python3
"""Writes cases.in, the patterns and subjects the glibc oracle is run on
(gen.sh): hand-picked patterns for each feature of glibc's POSIX extended
regular expressions, then random ones from a fixed seed, each with
subjects that bring out its meaning.

usage: python3 gen.py > cases.in
"""
import random

HAND = r"""
a
abc
a|b
a||b
|a
a|
()
(|a)
(a|)
(a)(b)
((a))
)
a)
(a))
((a)
(a
(
a(
x)y
}
a}
{
a{
a{1
a{1,
a{1,2
a{1}
a{,2}
a{2,}
a{2,1}
a{}
a{x}
a{1x}
a{ 1}
a{1,x}
a{0}
a{0,0}
a{0,1}
a{32767}
a{32768}
a{1}{2}
a**
a+*
a*+
a?*
a*?
a+?
a??
a{2}*
*a
+a
?a
{1}a
(*a)
(+a)
a|*b
a|+b
^*
^+
^?
^{1}
$*
a$*
^a
a$
^a$
a^b
a$b
^^a
a$$
(^a)
(a$)
x(^a)
(a$)y
^$
$^
.
..
a.c
.*
.+
\.
\*
\+
\?
\(
\)
\{
\}
\|
\\
\^
\$
\[
\]
\a
\n
\t
\0
\1
(a)\1
(a)\2
(a)(b)\2
(a\1)
(a)\1\1
(a*)\1
(a|b)\1
(a*)*\1
((a)|b)\2
(a)|\1
(a)(b)(c)(d)(e)(f)(g)(h)(i)\9
(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\1
\w
\W
\s
\S
\b
\B
\<
\>
\`
\'
\<a
a\>
\ba\b
\Ba\B
\`a
a\'
\<\>
\w+
\W+
\s+
\S+
a\
\
[a]
[abc]
[^a]
[^abc]
[a-c]
[c-a]
[a-a]
[]a]
[^]a]
[]]
[]
[^]
[^
[a
[a-]
[-a]
[a-c-e]
[--/]
[!--]
[a-\]
[\]
[\a]
[\\]
[.]
[*]
[[]
[[a]
[a[]
[[:alpha:]]
[[:digit:]]
[[:alnum:]]
[[:upper:]]
[[:lower:]]
[[:space:]]
[[:blank:]]
[[:punct:]]
[[:print:]]
[[:graph:]]
[[:cntrl:]]
[[:xdigit:]]
[[:foo:]]
[[:alpha:]
[[:alpha]]
[[:alpha:
[[:]]
[[::]]
[[=a=]]
[[=ab=]]
[[=a=]b]
[[.a.]]
[[.-.]]
[[.ab.]]
[[.space.]]
[[.hyphen.]]
[[.a.]-c]
[a-[.c.]]
[[:alpha:]-z]
[a-[:alpha:]]
[[=a=]-z]
[[.
[[=
[[:
[a-z0-9_]
[^[:space:]]
[[:alpha:][:digit:]]
[a-z]+
x[a-]y
[\w]
[\d]
[é]
é
.é
[^é]
(a|b)*c
(a*)*
(a*)+
(a+)*
(a?)*
(|a)*
()*
(()|a)+
a*b*c*
(ab|a)(bc|c)
x(a|ab)(c|bcd)y
^(a|b)*$
^[0-9]+$
^cpu[0-3]$
^cpu[0-9]+$
sd[a-z]
^/dev/
^0000[0-2]
init
^000001 
[ ]
a b
a\ b
\.
(^a){2}
(^a){3}
(^a)+$
(^a)*b
^(^a)*b$
^(^a){0,2}b$
(a$){2}
(a$){1,2}
(a\>){2}
(-\<a){2}
(a|^b){2}
(^a|b){2}
(a(^b)){2}
((^a){2}){2}
x(a$){0,2}\b
^(a$)+{0,2}x{1,2}
(^(a|b)){2}(a*)
""".split("\n")[1:-1]

SUBJECTS = ["", "a", "b", "ab", "ba", "abc", "aab", "aaa", "abab", "x ab y",
            "ab cd", ")", "}", "{", "a{1}", "a}", "^a", "a$", ".", "\\", "[",
            "]", "-", "_", " ", "\t", "é", "cpu0", "cpu12", "sda", "/dev/sda1",
            "000001 /sbin/init", "xabcdy", "xabcy", "aa", "abcabc", "a-c", "0",
            "ac", "bb", "a b", "a\\ b", "aaab", "ba", "bab", "-a-a", "xa bb b",
            "axx", "aab", "baa"]

ALPHABET = ["a", "b", "(", ")", "|", "*", "+", "?", "{", "}", ",", "1", "2",
            "0", "[", "]", "^", "-", "$", ".", "\\", ":", "=", "[:alpha:]",
            "[:digit:]", "\\1", "\\2", "\\<", "\\>", "\\b", "\\w", "x", "{1}",
            "{1,2}", "{,1}"]

RSUBJ = "ab)}{-x1 :[]"


def rand_pattern(rng):
    n = rng.randint(1, 8)
    return "".join(rng.choice(ALPHABET) for _ in range(n))


def rand_subject(rng):
    n = rng.randint(0, 6)
    return "".join(rng.choice(RSUBJ) for _ in range(n))


def main():
    rng = random.Random(14)
    for p in HAND:
        print("p\t" + p)
        for s in SUBJECTS:
            print("s\t" + s)
    seen = set(HAND)
    count = 0
    while count < 3000:
        p = rand_pattern(rng)
        if p in seen:
            continue
        seen.add(p)
        count += 1
        print("p\t" + p)
        subs = {rand_subject(rng) for _ in range(10)}
        subs.update(["", "a", "ab", "aab", "b", "x", "1"])
        for s in sorted(subs):
            print("s\t" + s)


main()
