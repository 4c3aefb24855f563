/*
 * fakenow.c stops the clock for gen.c: preloaded (LD_PRELOAD), it makes
 * time(2), gettimeofday(2) and clock_gettime(2) of CLOCK_REALTIME give one
 * fixed instant, 1700000000.123456789 (Tue Nov 14 22:13:20 2023 UTC), or
 * the one $FAKE_NOW gives as seconds[.nanoseconds]. libpcp reads the
 * current time with them for the getdate-style dates that are relative
 * to now ("today", "10:30", "Thu"), so the golden does not depend on the
 * day it was made. Other clocks are passed on to libc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static struct timespec
fixed(void)
{
    struct timespec ts = { 1700000000, 123456789 };
    const char *s = getenv("FAKE_NOW");
    char *end;

    if (s != NULL && *s != '\0') {
	ts.tv_sec = strtoll(s, &end, 10);
	ts.tv_nsec = *end == '.' ? strtol(end + 1, NULL, 10) : 0;
    }
    return ts;
}

time_t
time(time_t *t)
{
    time_t now = fixed().tv_sec;

    if (t != NULL)
	*t = now;
    return now;
}

int
gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    struct timespec ts = fixed();

    (void)tz;
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
    return 0;
}

int
clock_gettime(clockid_t id, struct timespec *tp)
{
    static int (*real)(clockid_t, struct timespec *);

    if (id == CLOCK_REALTIME) {
	*tp = fixed();
	return 0;
    }
    if (real == NULL)
	real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    return real(id, tp);
}
