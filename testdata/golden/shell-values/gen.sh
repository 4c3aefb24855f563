#!/usr/bin/env bash
# gen.sh: regenerate values.out, real pmie 6.0.3's report of the shell
# actions of values.pmie over testdata/archives/linux-v3:
#   TZ=UTC pmie -z -a testdata/archives/linux-v3 -c testdata/golden/shell-values/values.pmie
# run at the repository root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
TZ=UTC pmie -z -a testdata/archives/linux-v3 -c "$here/values.pmie" >"$here/values.out" 2>/dev/null
