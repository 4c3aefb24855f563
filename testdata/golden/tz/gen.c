/*
 * gen.c makes tz.golden: how glibc's localtime(3) reads a set of $TZ
 * values at a set of instants, as libpcp's pmNewZone / pmLocaltime do.
 * Each line is tab-separated:
 *
 *   T  tz  unix-seconds  YYYY-MM-DD HH:MM:SS  isdst  gmtoff
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *zones[] = {
    "UTC", "", ":Australia/Melbourne", "Australia/Melbourne", "AEST-10",
    "AEDT-11", "EST-11", "EST-10", "EET-2", "EST-11EST-10,89/2:00,299/2:00",
    "EST5EDT", "EST+5", "EDT+4", "JST-9", "<+0530>-5:30", "IST-5:30",
    "CET-1CEST,M3.5.0,M10.5.0/3", "NZST-12NZDT,M9.5.0,M4.1.0/3",
    "AEST-10AEDT,M10.1.0,M4.1.0/3", "America/New_York", "Asia/Tokyo",
    ":/usr/share/zoneinfo/Europe/London", "XYZ+3:15:20", "GMT0", "Europe/Berlin",
};

static const long instants[] = {
    0, 870738341, 881042896, 957177405, 1076203351, 1323894707,
    1357328657, 1448949602, 1504214072, 1516999229, 1523883685,
    1649004648, 1714528528, 1715213979, 1760310895, 1779516513,
    /* around southern and northern DST changes */
    1711814399, 1711814400, 1711846799, 1711846800, 1728143999, 1728144000,
    1710054000, 1710054001, 1730613600, 1730613601,
    /* day 89 / 299 of the 1997 rule */
    859651200, 859687200, 877788000, 877824000,
};

int
main(void)
{
    unsigned z, i;

    for (z = 0; z < sizeof(zones) / sizeof(zones[0]); z++) {
	setenv("TZ", zones[z], 1);
	tzset();
	for (i = 0; i < sizeof(instants) / sizeof(instants[0]); i++) {
	    time_t t = instants[i];
	    struct tm tm;
	    localtime_r(&t, &tm);
	    printf("T\t%s\t%ld\t%04d-%02d-%02d %02d:%02d:%02d\t%d\t%ld\n",
		   zones[z], (long)t, tm.tm_year + 1900, tm.tm_mon + 1,
		   tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_isdst,
		   tm.tm_gmtoff);
	}
    }
    return 0;
}
