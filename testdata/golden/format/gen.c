/*
 * gen.c makes format.golden: what libpcp's pmPrintValue prints for values
 * of every type at a few widths. See README for how to run it. Each line
 * is tab-separated:
 *
 *   V  type  minwidth  value  output
 *
 * value is decimal for integers, %a for floats, and for strings,
 * aggregates and event arrays the hex of the value's bytes, event arrays
 * in network byte order as archives hold them (less the type/length
 * word). output has "\n" written as \n and "\t" as \t.
 */
#include <pcp/pmapi.h>
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
emit(int type, int width, const char *value, int valfmt, pmValue *pv)
{
    char *out = NULL, *p;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);

    pmPrintValue(f, valfmt, type, pv, width);
    fclose(f);
    printf("V\t%d\t%d\t%s\t", type, width, value);
    for (p = out; p < out + len; p++) {
	if (*p == '\n')
	    fputs("\\n", stdout);
	else if (*p == '\t')
	    fputs("\\t", stdout);
	else
	    putchar(*p);
    }
    putchar('\n');
    free(out);
}

static const int widths[] = { 1, 12, 30 };
#define NWIDTHS (sizeof(widths) / sizeof(widths[0]))

static void
insitu(int type, int32_t v)
{
    pmValue pv;
    char buf[64];
    unsigned i;

    pv.inst = PM_IN_NULL;
    pv.value.lval = v;
    if (type == PM_TYPE_32)
	snprintf(buf, sizeof(buf), "%d", v);
    else
	snprintf(buf, sizeof(buf), "%u", (uint32_t)v);
    for (i = 0; i < NWIDTHS; i++)
	emit(type, widths[i], buf, PM_VAL_INSITU, &pv);
}

/* block prints a value held in a pmValueBlock; text names the value */
static void
block(int type, const void *data, int size, const char *text)
{
    pmValue pv;
    char storage[PM_VAL_HDR_SIZE + 512] __attribute__((aligned(8)));
    pmValueBlock *vb = (pmValueBlock *)storage;
    unsigned i;

    vb->vtype = type;
    vb->vlen = PM_VAL_HDR_SIZE + size;
    memcpy(vb->vbuf, data, size);
    pv.inst = PM_IN_NULL;
    pv.value.pval = vb;
    for (i = 0; i < NWIDTHS; i++)
	emit(type, widths[i], text, PM_VAL_DPTR, &pv);
}

static void
hexof(char *out, const unsigned char *b, int n)
{
    int i;
    for (i = 0; i < n; i++)
	sprintf(out + 2 * i, "%02x", b[i]);
    out[2 * n] = '\0';
}

static void
bytes_value(int type, const char *b, int n)
{
    char text[1100];
    hexof(text, (const unsigned char *)b, n);
    block(type, b, n, text);
}

static void
numbers(void)
{
    int64_t ll[] = { 0, -1, INT64_MAX, INT64_MIN, 1234567890123LL };
    uint64_t ull[] = { 0, 1, UINT64_MAX, 1ULL << 63 };
    float f[] = { 0, -0.0f, 1.5f, 1e6f, 1e8f, 123456789.0f, 3.14159274f,
		  1e-5f, 0.0001f, 1e-45f, 3.4e38f, 1.0f / 0.0f, 0.0f / 0.0f,
		  -(0.0f / 0.0f), 99999999.0f, 0.5f };
    double d[] = { 0, 0.1, 1.0 / 3, 1e16, 1e15, 123456789012345678.0,
		   1e-300, 5e-324, 1e-4, 1e-5, 2.5, 1e300, -1.0 / 0.0,
		   0.0 / 0.0, 9999999999999999.0, 1000000 };
    char buf[64];
    unsigned i;

    insitu(PM_TYPE_32, 0);
    insitu(PM_TYPE_32, -1);
    insitu(PM_TYPE_32, 2147483647);
    insitu(PM_TYPE_32, -2147483647 - 1);
    insitu(PM_TYPE_U32, 0);
    insitu(PM_TYPE_U32, -1);
    insitu(PM_TYPE_U32, 123456);
    for (i = 0; i < sizeof(ll) / sizeof(ll[0]); i++) {
	snprintf(buf, sizeof(buf), "%" PRId64, ll[i]);
	block(PM_TYPE_64, &ll[i], 8, buf);
    }
    for (i = 0; i < sizeof(ull) / sizeof(ull[0]); i++) {
	snprintf(buf, sizeof(buf), "%" PRIu64, ull[i]);
	block(PM_TYPE_U64, &ull[i], 8, buf);
    }
    for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
	snprintf(buf, sizeof(buf), "%a", (double)f[i]);
	block(PM_TYPE_FLOAT, &f[i], 4, buf);
    }
    for (i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
	snprintf(buf, sizeof(buf), "%a", d[i]);
	block(PM_TYPE_DOUBLE, &d[i], 8, buf);
    }
}

static void
strings_and_blobs(void)
{
    char longs[101];
    unsigned char bin[20];
    float nanf = 0.0f / 0.0f;
    double nand = 0.0 / 0.0;
    double pi = 3.14159;
    float half = 0.5f;
    unsigned i;

    memset(longs, 'x', 100);
    longs[100] = '\0';
    bytes_value(PM_TYPE_STRING, "", 1);
    bytes_value(PM_TYPE_STRING, "hullo world!", 13);
    bytes_value(PM_TYPE_STRING, longs, 101);
    bytes_value(PM_TYPE_STRING, "ab\0cd", 6);
    bytes_value(PM_TYPE_STRING, "tab\there", 9);

    for (i = 0; i < sizeof(bin); i++)
	bin[i] = (unsigned char)(i * 37 + 1);
    bytes_value(PM_TYPE_AGGREGATE, "", 0);
    bytes_value(PM_TYPE_AGGREGATE, "abcd", 4);
    bytes_value(PM_TYPE_AGGREGATE, (char *)&nanf, 4);
    bytes_value(PM_TYPE_AGGREGATE, (char *)&half, 4);
    bytes_value(PM_TYPE_AGGREGATE, "\x01\x03\x07\x0f\x1f\x3f\x7f\xff", 8);
    bytes_value(PM_TYPE_AGGREGATE, "ABCDEFGH", 8);
    bytes_value(PM_TYPE_AGGREGATE, (char *)&nand, 8);
    bytes_value(PM_TYPE_AGGREGATE, (char *)&pi, 8);
    bytes_value(PM_TYPE_AGGREGATE, "xyz", 3);
    bytes_value(PM_TYPE_AGGREGATE, (char *)bin, 20);
    bytes_value(PM_TYPE_AGGREGATE, "a longer printable aggregate", 28);
}

/*
 * Event arrays are built twice at once: in host order for pmPrintValue,
 * and in network order for the golden file.
 */
struct ebuf {
    char host[1024] __attribute__((aligned(8)));
    char net[1024];
    int len;
};

static void
put32(struct ebuf *e, uint32_t v)
{
    uint32_t n = htonl(v);
    memcpy(e->host + e->len, &v, 4);
    memcpy(e->net + e->len, &n, 4);
    e->len += 4;
}

static void
put64(struct ebuf *e, uint64_t v)
{
    uint32_t hi = htonl((uint32_t)(v >> 32)), lo = htonl((uint32_t)v);
    memcpy(e->host + e->len, &v, 8);
    memcpy(e->net + e->len, &hi, 4);
    memcpy(e->net + e->len + 4, &lo, 4);
    e->len += 8;
}

static void
stamp(struct ebuf *e, int highres, int64_t sec, int64_t frac)
{
    if (highres) {
	put64(e, sec);
	put64(e, frac);
    } else {
	put32(e, (uint32_t)sec);
	put32(e, (uint32_t)frac);
    }
}

/* param32 adds a 32-bit parameter; the type/len word is one field */
static void
param32(struct ebuf *e, pmID pmid, int type, uint32_t v)
{
    put32(e, pmid);
    put32(e, (uint32_t)type << 24 | 8);
    put32(e, v);
}

static void
paramstr(struct ebuf *e, pmID pmid, const char *s)
{
    int n = strlen(s) + 1, padded = (n + 3) & ~3;
    put32(e, pmid);
    put32(e, (uint32_t)PM_TYPE_STRING << 24 | (4 + n));
    memset(e->host + e->len, 0, padded);
    memset(e->net + e->len, 0, padded);
    memcpy(e->host + e->len, s, n);
    memcpy(e->net + e->len, s, n);
    e->len += padded;
}

/* event_value prints the array built in e, whose first word (after the
 * value block header) is the record count */
static void
event_value(int type, struct ebuf *e)
{
    char storage[PM_VAL_HDR_SIZE + 1024] __attribute__((aligned(8)));
    pmValueBlock *vb = (pmValueBlock *)storage;
    pmValue pv;
    char text[2100];

    vb->vtype = type;
    vb->vlen = PM_VAL_HDR_SIZE + e->len;
    memcpy(vb->vbuf, e->host, e->len);
    pv.inst = 0;
    pv.value.pval = vb;
    hexof(text, (unsigned char *)e->net, e->len);
    emit(type, 1, text, PM_VAL_DPTR, &pv);
}

static void
events(void)
{
    int highres;
    pmID p1 = pmID_build(29, 0, 127), p2 = pmID_build(29, 0, 134);

    for (highres = 0; highres <= 1; highres++) {
	int type = highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT;
	int64_t frac = highres ? 555941984 : 555941;
	struct ebuf e;

	/* no records */
	e.len = 0;
	put32(&e, 0);
	event_value(type, &e);

	/* one record, two parameters */
	e.len = 0;
	put32(&e, 1);
	stamp(&e, highres, 1415844051, frac);
	put32(&e, PM_EVENT_FLAG_POINT);
	put32(&e, 2);
	param32(&e, p1, PM_TYPE_32, 4);
	paramstr(&e, p2, "fetch #4");
	event_value(type, &e);

	/* five records, the fourth reporting 7 missed */
	e.len = 0;
	put32(&e, 5);
	stamp(&e, highres, 1415844041, frac);
	put32(&e, PM_EVENT_FLAG_START | PM_EVENT_FLAG_ID);
	put32(&e, 1);
	param32(&e, p1, PM_TYPE_U32, 4);
	stamp(&e, highres, 1415844042, frac);
	put32(&e, 0);
	put32(&e, 0);
	stamp(&e, highres, 1415844043, frac);
	put32(&e, PM_EVENT_FLAG_END);
	put32(&e, 1);
	paramstr(&e, p2, "twelve");
	stamp(&e, highres, 1415844044, frac);
	put32(&e, PM_EVENT_FLAG_MISSED);
	put32(&e, 7);
	stamp(&e, highres, 1415844045, frac);
	put32(&e, PM_EVENT_FLAG_POINT);
	put32(&e, 1);
	param32(&e, p1, PM_TYPE_32, 16);
	event_value(type, &e);

	/* two records just before midnight */
	e.len = 0;
	put32(&e, 2);
	stamp(&e, highres, 86399, frac);
	put32(&e, 0);
	put32(&e, 0);
	stamp(&e, highres, 86400 + 3661, frac);
	put32(&e, 0);
	put32(&e, 0);
	event_value(type, &e);
    }
}

int
main(void)
{
    setenv("TZ", "UTC", 1);
    numbers();
    strings_and_blobs();
    events();
    return 0;
}
