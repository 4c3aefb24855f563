#!/bin/sh
# Remakes pmie_check.out: what real PCP 6.0.3's pmie_check says it would
# do (-N, show me; -V, verbose) for the farm described by farm/control
# and farm/control.d, with PCP_LOG_DIR=DIR/log and PCP_VAR_DIR=DIR/var,
# DIR being this farm copied to a temporary directory (and PCP_TMP_DIR an
# empty one, so that no pmie running here is taken for one of the farm's,
# and none slows it down); DIR is written as
# @DIR@ in the output, and this machine's name as @HOST@. Run as root
# (pmie_check needs it), with PCP installed.
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$here/farm/." "$tmp/"
mkdir -p "$tmp/pcptmp/pmie"
PCP_TMP_DIR=$tmp/pcptmp PCP_LOG_DIR=$tmp/log PCP_VAR_DIR=$tmp/var /usr/lib/pcp/bin/pmie_check -N -V -c "$tmp/control" 2>&1 |
	sed -e "s;$tmp;@DIR@;g" -e "s;$(hostname);@HOST@;g" >"$here/pmie_check.out"
