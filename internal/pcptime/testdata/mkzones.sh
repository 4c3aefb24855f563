#!/bin/sh
# Regenerates zones.golden: for each TZ value and time, what the C library
# (via date(1)) gives as ctime(3) text. Run from this directory.
for tz in UTC "EDT+4" "EST+5" "AEDT-11" "AEST-10" "EET-2" "EST-11" \
    "EST-11EST-10,89/2:00,299/2:00" ":Australia/Melbourne" "America/New_York" \
    "EST5EDT" "AEST-10AEDT,M10.1.0,M4.1.0/3"; do
  for s in 0 870731141 881030000 1523887285 1517042429 1760310895 1714528528 \
      944000000 957177405 1700000000 1711800000 1728000000; do
    printf '%s|%s|%s\n' "$tz" "$s" "$(TZ="$tz" date -d "@$s" '+%a %b %e %H:%M:%S %Y')"
  done
done
