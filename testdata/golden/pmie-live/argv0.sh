#!/bin/sh
# Prints the command line of the process that ran it: for a shell action,
# the shell pmie started, as it names itself.
tr '\0' ' ' </proc/$PPID/cmdline
echo
