/*
 * gen.c makes timewindow.golden: what libpcp's pmParseHighResTimeWindow
 * gives for -S/-T/-A/-O arguments over a fixed archive span, in a few
 * timezones set with pmNewZone. Input lines (inputs.txt) are
 *
 *   tz|start|end|align|origin
 *
 * with "-" for an argument not given. Output lines are tab-separated:
 *
 *   W  tz  start  end  align  origin  status  start  end  origin  errmsg
 *
 * times as seconds.nanoseconds; errmsg with "\n" written as \n.
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    char line[1024];
    FILE *f;

    if (argc != 2 || (f = fopen(argv[1], "r")) == NULL) {
	fprintf(stderr, "usage: gen inputs.txt\n");
	return 1;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
	char *fields[5], *p = line;
	struct timespec s, e, o;
	char *msg = NULL;
	int i, sts;

	line[strcspn(line, "\n")] = '\0';
	if (line[0] == '#' || line[0] == '\0')
	    continue;
	for (i = 0; i < 5; i++)
	    fields[i] = strsep(&p, "|");
	pmNewZone(fields[0]);
	memset(&s, 0, sizeof(s));
	memset(&e, 0, sizeof(e));
	memset(&o, 0, sizeof(o));
	sts = pmParseHighResTimeWindow(arg(fields[1]), arg(fields[2]),
		arg(fields[3]), arg(fields[4]), &first, &last, &s, &e, &o, &msg);
	printf("W\t%s\t%s\t%s\t%s\t%s\t%d\t%ld.%09ld\t%ld.%09ld\t%ld.%09ld\t",
	       fields[0], fields[1], fields[2], fields[3], fields[4], sts,
	       (long)s.tv_sec, s.tv_nsec, (long)e.tv_sec, e.tv_nsec,
	       (long)o.tv_sec, o.tv_nsec);
	escaped(msg);
	putchar('\n');
	free(msg);
    }
    return 0;
}
