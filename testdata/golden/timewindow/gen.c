/*
 * gen.c makes timewindow.golden: what libpcp's pmParseHighResTimeWindow
 * gives for -S/-T/-A/-O arguments over a fixed archive span, in a few
 * timezones set with pmNewZone. Input lines (inputs.txt) are
 *
 *   tz|start|end|align|origin[|live]
 *
 * with "-" for an argument not given; "live" makes the span open-ended
 * (its end PM_MAX_TIME_T), as for a live source. Output lines are
 * tab-separated:
 *
 *   W  tz  start  end  align  origin  status  start  end  origin  errmsg
 *
 * (L for a live line), times as seconds.nanoseconds; errmsg with "\n"
 * written as \n.
 *
 * Some dates are relative to the current time, so gen.c must run with
 * fakenow.so preloaded, which stops the clock: it checks that the clock
 * does not move and refuses to run otherwise.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *
arg(char *s)
{
    return strcmp(s, "-") == 0 ? NULL : s;
}

static void
escaped(const char *s)
{
    for (; s && *s; s++) {
	if (*s == '\n')
	    fputs("\\n", stdout);
	else if (*s == '\t')
	    fputs("\\t", stdout);
	else
	    putchar(*s);
    }
}

int
main(int argc, char **argv)
{
    /* the span of the interpmark archive: Thu Dec 15 07:31:47.002331 2011
     * to 07:33:46.039510 (EST-11) */
    struct timespec first = { 1323894707, 2331000 };
    struct timespec last = { 1323894826, 39510000 };
    struct timespec live = { PM_MAX_TIME_T, 0 };
    struct timespec t0, t1, pause = { 0, 2000000 };
    char line[1024];
    FILE *f;

    if (argc != 2 || (f = fopen(argv[1], "r")) == NULL) {
	fprintf(stderr, "usage: LD_PRELOAD=fakenow.so gen inputs.txt\n");
	return 1;
    }
    clock_gettime(CLOCK_REALTIME, &t0);
    nanosleep(&pause, NULL);
    clock_gettime(CLOCK_REALTIME, &t1);
    if (t0.tv_sec != t1.tv_sec || t0.tv_nsec != t1.tv_nsec) {
	fprintf(stderr, "gen: the clock moves: preload fakenow.so\n");
	return 1;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
	char *fields[6], *p = line;
	int islive;
	struct timespec s, e, o;
	char *msg = NULL;
	int i, sts;

	line[strcspn(line, "\n")] = '\0';
	if (line[0] == '#' || line[0] == '\0')
	    continue;
	for (i = 0; i < 6; i++)
	    fields[i] = strsep(&p, "|");
	islive = fields[5] != NULL && strcmp(fields[5], "live") == 0;
	pmNewZone(fields[0]);
	memset(&s, 0, sizeof(s));
	memset(&e, 0, sizeof(e));
	memset(&o, 0, sizeof(o));
	sts = pmParseHighResTimeWindow(arg(fields[1]), arg(fields[2]),
		arg(fields[3]), arg(fields[4]), &first, islive ? &live : &last,
		&s, &e, &o, &msg);
	printf("%c\t%s\t%s\t%s\t%s\t%s\t%d\t%ld.%09ld\t%ld.%09ld\t%ld.%09ld\t",
	       islive ? 'L' : 'W',
	       fields[0], fields[1], fields[2], fields[3], fields[4], sts,
	       (long)s.tv_sec, s.tv_nsec, (long)e.tv_sec, e.tv_nsec,
	       (long)o.tv_sec, o.tv_nsec);
	escaped(msg);
	putchar('\n');
	free(msg);
    }
    return 0;
}
