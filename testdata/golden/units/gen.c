/*
 * gen.c makes units.golden: what libpcp's pmParseUnitsStr, pmUnitsStr,
 * pmConvScale and pmExtractValue answer for a fixed set of inputs. See
 * README for how to build and run it. Every output line is tab-separated
 * and starts with a record kind:
 *
 *   P  input  status  units  multiplier  errmsg  pmUnitsStr(units)
 *   U  units  pmUnitsStr(units)  status  reparsed-units  multiplier
 *   C  type  value  from-units  to-units  status  value
 *   X  from-type  value  to-type  status  value
 *
 * units are six decimal fields "dimSpace dimTime dimCount scaleSpace
 * scaleTime scaleCount"; floating point values are printed with %a so they
 * read back exactly; status is the PCP error code, or ABORT when libpcp
 * died (an assert) on that input.
 */
#include <pcp/pmapi.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static void
units_str(char *buf, size_t len, const pmUnits *u)
{
    snprintf(buf, len, "%d %d %d %d %d %d", u->dimSpace, u->dimTime,
	     u->dimCount, u->scaleSpace, u->scaleTime, u->scaleCount);
}

static pmUnits
mk(int ds, int dt, int dc, int ss, int st, int sc)
{
    pmUnits u;
    memset(&u, 0, sizeof(u));
    u.dimSpace = ds; u.dimTime = dt; u.dimCount = dc;
    u.scaleSpace = ss; u.scaleTime = st; u.scaleCount = sc;
    return u;
}

/* parse_one runs pmParseUnitsStr in a child, so that an assert in libpcp
 * is recorded as ABORT instead of ending the run. */
static void
parse_one(const char *in)
{
    int fds[2];
    char out[512], ubuf[64];
    ssize_t n;
    pid_t pid;
    int status;

    fflush(stdout);
    if (pipe(fds) < 0 || (pid = fork()) < 0) {
	perror("gen");
	exit(1);
    }
    if (pid == 0) {
	pmUnits u;
	double m;
	char *err = NULL;
	int sts;

	close(fds[0]);
	close(2);
	sts = pmParseUnitsStr(in, &u, &m, &err);
	units_str(ubuf, sizeof(ubuf), &u);
	n = snprintf(out, sizeof(out), "%d\t%s\t%a\t%s\t%s", sts, ubuf, m,
		     sts < 0 && err ? err : "-", pmUnitsStr(&u));
	if (write(fds[1], out, n) != n)
	    _exit(2);
	_exit(0);
    }
    close(fds[1]);
    n = read(fds[0], out, sizeof(out) - 1);
    close(fds[0]);
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || n <= 0)
	printf("P\t%s\tABORT\n", in);
    else {
	out[n] = '\0';
	printf("P\t%s\t%s\n", in, out);
    }
}

static void
parse_inputs(const char *path)
{
    char line[1024];
    FILE *f = fopen(path, "r");

    if (f == NULL) {
	perror(path);
	exit(1);
    }
    while (fgets(line, sizeof(line), f) != NULL) {
	line[strcspn(line, "\n")] = '\0';
	parse_one(line);
    }
    fclose(f);
}

/* print_units prints and reparses a grid of pmUnits. */
static void
print_units(void)
{
    static const int dims[] = { -8, -2, -1, 0, 1, 2, 7 };
    static const int sspace[] = { 0, 1, 2, 6, 8, 9, 15 };
    static const int stime[] = { 0, 1, 3, 5, 6 };
    static const int scount[] = { -8, -1, 0, 1, 2, 7 };
    int nd = sizeof(dims) / sizeof(dims[0]);
    int a, b, c, s, t, k;
    char ubuf[64], rbuf[64];

    for (a = 0; a < nd; a++)
	for (b = 0; b < nd; b++)
	    for (c = 0; c < nd; c++)
		for (k = 0; k < 3; k++) {
		    /* a few scale combinations per dimension triple */
		    pmUnits u, r;
		    double m;
		    char *err = NULL;
		    int sts;
		    const char *str;

		    s = sspace[(a + b + k) % 7];
		    t = stime[(b + c + k) % 5];
		    u = mk(dims[a], dims[b], dims[c], s, t, scount[(a + c + k) % 6]);
		    units_str(ubuf, sizeof(ubuf), &u);
		    str = pmUnitsStr(&u);
		    if (u.scaleTime > PM_TIME_HOUR && u.dimTime != 0) {
			/* reparsing would assert in libpcp */
			printf("U\t%s\t%s\t-\t-\t-\n", ubuf, str);
			continue;
		    }
		    sts = pmParseUnitsStr(str, &r, &m, &err);
		    units_str(rbuf, sizeof(rbuf), &r);
		    printf("U\t%s\t%s\t%d\t%s\t%a\n", ubuf, str, sts, rbuf, m);
		    free(err);
		}
}

static const pmUnits *conv_units(int *n);

static sigjmp_buf fpe_jump;

static void
on_fpe(int sig)
{
    (void)sig;
    siglongjmp(fpe_jump, 1);
}

static void
print_atom(int type, const pmAtomValue *a)
{
    switch (type) {
    case PM_TYPE_32: printf("%d", a->l); break;
    case PM_TYPE_U32: printf("%u", a->ul); break;
    case PM_TYPE_64: printf("%" PRId64, a->ll); break;
    case PM_TYPE_U64: printf("%" PRIu64, a->ull); break;
    case PM_TYPE_FLOAT: printf("%a", (double)a->f); break;
    case PM_TYPE_DOUBLE: printf("%a", a->d); break;
    }
}

static int
values(int type, pmAtomValue *v)
{
    int n = 0;

    switch (type) {
    case PM_TYPE_32:
	v[n++].l = 0; v[n++].l = 1; v[n++].l = -1; v[n++].l = 1500;
	v[n++].l = -1537; v[n++].l = 2147483647; v[n++].l = -2147483647 - 1;
	break;
    case PM_TYPE_U32:
	v[n++].ul = 0; v[n++].ul = 1; v[n++].ul = 1536; v[n++].ul = 999999;
	v[n++].ul = 4294967295u;
	break;
    case PM_TYPE_64:
	v[n++].ll = 0; v[n++].ll = -1; v[n++].ll = 1536; v[n++].ll = -999999;
	v[n++].ll = INT64_MAX; v[n++].ll = INT64_MIN;
	v[n++].ll = 1234567890123LL;
	break;
    case PM_TYPE_U64:
	v[n++].ull = 0; v[n++].ull = 1; v[n++].ull = 1536;
	v[n++].ull = UINT64_MAX; v[n++].ull = 1ULL << 63;
	v[n++].ull = 9876543210987ULL;
	break;
    case PM_TYPE_FLOAT:
	v[n++].f = 0; v[n++].f = 1.5f; v[n++].f = -2.25f; v[n++].f = 3.14159f;
	v[n++].f = 1e30f; v[n++].f = 1.0f / 0.0f; v[n++].f = 0.0f / 0.0f;
	break;
    case PM_TYPE_DOUBLE:
	v[n++].d = 0; v[n++].d = 1.5; v[n++].d = -2.25; v[n++].d = 0.1;
	v[n++].d = 1e300; v[n++].d = 4.9e-324; v[n++].d = -1.0 / 0.0;
	v[n++].d = 0.0 / 0.0;
	break;
    }
    return n;
}

static void
convert(void)
{
    int nu, i, j, type, k, nv, sts;
    const pmUnits *u = conv_units(&nu);
    pmAtomValue v[16], out;
    char ibuf[64], obuf[64];

    for (i = 0; i < nu; i++)
	for (j = 0; j < nu; j++) {
	    units_str(ibuf, sizeof(ibuf), &u[i]);
	    units_str(obuf, sizeof(obuf), &u[j]);
	    /* only every third cross-dimension pair: those are all errors */
	    if ((u[i].dimSpace != u[j].dimSpace ||
		 u[i].dimTime != u[j].dimTime ||
		 u[i].dimCount != u[j].dimCount) && (i + j) % 7 != 0)
		continue;
	    for (type = PM_TYPE_32; type <= PM_TYPE_DOUBLE; type++) {
		nv = values(type, v);
		for (k = 0; k < nv; k++) {
		    /* thin the table: all values for a few types per pair */
		    if ((i + j + type) % 3 != 0 && k > 1)
			continue;
		    memset(&out, 0, sizeof(out));
		    printf("C\t%d\t", type);
		    print_atom(type, &v[k]);
		    printf("\t%s\t%s\t", ibuf, obuf);
		    /* pmConvScale divides by zero when a scale factor
		     * overflows to 0: record that as FPE */
		    signal(SIGFPE, on_fpe);
		    if (sigsetjmp(fpe_jump, 1) != 0) {
			printf("FPE\t-\n");
			continue;
		    }
		    sts = pmConvScale(type, &v[k], &u[i], &out, &u[j]);
		    printf("%d\t", sts);
		    if (sts == 0)
			print_atom(type, &out);
		    else
			printf("-");
		    putchar('\n');
		}
	    }
	}
}

static const pmUnits *
conv_units(int *n)
{
    static pmUnits u[40];
    int i = 0;

    u[i++] = mk(0, 0, 0, 0, 0, 0);	/* none */
    u[i++] = mk(0, 0, 0, 0, 0, 3);	/* x 10^3 */
    u[i++] = mk(0, 0, 0, 0, 0, -2);	/* x 10^-2 */
    u[i++] = mk(0, 0, 1, 0, 0, 0);	/* count */
    u[i++] = mk(0, 0, 1, 0, 0, 1);
    u[i++] = mk(0, 0, 1, 0, 0, 6);
    u[i++] = mk(0, 0, 1, 0, 0, -3);
    u[i++] = mk(1, 0, 0, 0, 0, 0);	/* byte */
    u[i++] = mk(1, 0, 0, 1, 0, 0);
    u[i++] = mk(1, 0, 0, 2, 0, 0);
    u[i++] = mk(1, 0, 0, 3, 0, 0);
    u[i++] = mk(1, 0, 0, 6, 0, 0);
    u[i++] = mk(1, 0, 0, 7, 0, 0);	/* Zbyte: not convertible */
    u[i++] = mk(0, 1, 0, 0, 0, 0);	/* nanosec */
    u[i++] = mk(0, 1, 0, 0, 1, 0);
    u[i++] = mk(0, 1, 0, 0, 2, 0);
    u[i++] = mk(0, 1, 0, 0, 3, 0);
    u[i++] = mk(0, 1, 0, 0, 4, 0);
    u[i++] = mk(0, 1, 0, 0, 5, 0);
    u[i++] = mk(0, 1, 0, 0, 6, 0);	/* time-6: not convertible */
    u[i++] = mk(1, -1, 0, 1, 3, 0);	/* Kbyte / sec */
    u[i++] = mk(1, -1, 0, 0, 2, 0);	/* byte / millisec */
    u[i++] = mk(1, -1, 0, 2, 5, 0);	/* Mbyte / hour */
    u[i++] = mk(0, -1, 1, 0, 3, 0);	/* count / sec */
    u[i++] = mk(0, -1, 1, 0, 1, 3);	/* count x 10^3 / microsec */
    u[i++] = mk(2, 0, 0, 0, 0, 0);	/* byte^2 */
    u[i++] = mk(2, 0, 0, 4, 0, 0);	/* Tbyte^2 */
    u[i++] = mk(0, 2, -1, 0, 2, 0);	/* millisec^2 / count */
    u[i++] = mk(0, 2, -1, 0, 4, 2);
    *n = i;
    return u;
}

/* extract converts between every pair of numeric types, through
 * pmValue as archives hold them: 32-bit types in situ, the others in a
 * pmValueBlock. */
static void
extract(void)
{
    int itype, otype, k, nv, sts;
    pmAtomValue v[16], out;
    pmValue pv;
    char block[PM_VAL_HDR_SIZE + 16] __attribute__((aligned(8)));
    pmValueBlock *vb = (pmValueBlock *)block;
    int valfmt;

    for (itype = PM_TYPE_32; itype <= PM_TYPE_DOUBLE; itype++) {
	nv = values(itype, v);
	for (k = 0; k < nv; k++)
	    for (otype = PM_TYPE_32; otype <= PM_TYPE_STRING; otype++) {
		size_t size = 0;
		memset(&pv, 0, sizeof(pv));
		switch (itype) {
		case PM_TYPE_32: case PM_TYPE_U32:
		    valfmt = PM_VAL_INSITU;
		    pv.value.lval = v[k].l;
		    break;
		case PM_TYPE_FLOAT: size = sizeof(float); break;
		default: size = 8; break;
		}
		if (size) {
		    valfmt = PM_VAL_DPTR;
		    vb->vtype = itype;
		    vb->vlen = PM_VAL_HDR_SIZE + size;
		    memcpy(vb->vbuf, &v[k], size);
		    pv.value.pval = vb;
		}
		memset(&out, 0, sizeof(out));
		sts = pmExtractValue(valfmt, &pv, itype, &out, otype);
		printf("X\t%d\t", itype);
		print_atom(itype, &v[k]);
		printf("\t%d\t%d\t", otype, sts);
		if (sts == 0 && otype != PM_TYPE_STRING)
		    print_atom(otype, &out);
		else
		    printf("-");
		putchar('\n');
	    }
    }
}

int
main(int argc, char **argv)
{
    if (argc != 2) {
	fprintf(stderr, "usage: gen parse-inputs.txt > units.golden\n");
	return 1;
    }
    parse_inputs(argv[1]);
    print_units();
    convert();
    extract();
    return 0;
}
