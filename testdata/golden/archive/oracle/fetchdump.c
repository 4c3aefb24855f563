/*
 * fetchdump: print what real libpcp answers for an archive context, in a
 * plain text form that the Go tests of pmapi/archive reproduce exactly.
 * It is a test oracle of this project; build it with ./gen.sh (needs the
 * PCP development files, libpcp and headers).
 *
 * usage:
 *   fetchdump ARCHIVE interp START DELTA COUNT [METRIC...]
 *   fetchdump ARCHIVE forw|back START COUNT [METRIC...]
 *   fetchdump ARCHIVE records
 *   fetchdump ARCHIVE meta
 *   fetchdump ARCHIVE indom START STEP COUNT
 *   fetchdump ARCHIVE script <SCRIPT
 *
 * A script has one step a line: "interp START DELTA", "forw START" and
 * "back START" call pmSetMode; "fetch COUNT [METRIC...]" fetches COUNT
 * times (all metrics if none are named); "+INDOM:..." and "-INDOM:..."
 * change the profile; "indoms" prints every instance domain as of the
 * context's current time (pmGetInDom).
 *
 * Before the command, arguments +INDOM:INST,... and -INDOM:INST,... call
 * pmAddProfile and pmDelProfile (INDOM as in 60.1; no instances for all),
 * in order.
 *
 * START is seconds after the start of the archive (a decimal, possibly
 * negative, with up to 9 fractional digits) or @SEC.NSEC for an absolute
 * time; DELTA and STEP are decimal seconds (DELTA may be negative). With
 * no METRIC, every metric of the archive's namespace is fetched, in
 * traversal order (event.flags and event.missed, libpcp's anonymous
 * derived metrics, are left out).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <pcp/pmapi.h>

static char	**names;
static pmID	*pmids;
static pmDesc	*descs;
static int	nnames;

static void
addname(const char *name)
{
    if (strcmp(name, "event.flags") == 0 || strcmp(name, "event.missed") == 0)
	return;
    names = realloc(names, (nnames + 1) * sizeof(names[0]));
    names[nnames++] = strdup(name);
}

static int64_t
parsens(const char *s)
{
    int		neg = 0;
    int64_t	sec = 0, ns = 0;
    int		digits = 0;

    if (*s == '-') {
	neg = 1;
	s++;
    }
    while (*s >= '0' && *s <= '9')
	sec = sec * 10 + (*s++ - '0');
    if (*s == '.') {
	s++;
	while (*s >= '0' && *s <= '9' && digits < 9) {
	    ns = ns * 10 + (*s++ - '0');
	    digits++;
	}
    }
    while (digits++ < 9)
	ns *= 10;
    ns += sec * 1000000000LL;
    return neg ? -ns : ns;
}

static struct timespec
tsof(int64_t ns)
{
    struct timespec	ts;

    ts.tv_sec = ns / 1000000000LL;
    ts.tv_nsec = ns % 1000000000LL;
    if (ts.tv_nsec < 0) {
	ts.tv_sec--;
	ts.tv_nsec += 1000000000LL;
    }
    return ts;
}

static void
printstr(const char *s, int n)
{
    int		i;

    putchar('"');
    for (i = 0; i < n && s[i] != '\0'; i++) {
	unsigned char c = s[i];
	if (c == '"' || c == '\\')
	    printf("\\%c", c);
	else if (c < ' ' || c >= 0x7f)
	    printf("\\x%02x", c);
	else
	    putchar(c);
    }
    putchar('"');
}

static void
printvalue(int type, int valfmt, pmValue *vp)
{
    pmAtomValue	a;
    int		i, n;

    if (type == PM_TYPE_AGGREGATE || type == PM_TYPE_AGGREGATE_STATIC ||
	type == PM_TYPE_EVENT || type == PM_TYPE_HIGHRES_EVENT ||
	type == PM_TYPE_STRING) {
	if (valfmt == PM_VAL_INSITU) {
	    printf("insitu?");
	    return;
	}
	n = vp->value.pval->vlen - PM_VAL_HDR_SIZE;
	if (type == PM_TYPE_STRING) {
	    printstr(vp->value.pval->vbuf, n);
	    return;
	}
	if (type == PM_TYPE_EVENT || type == PM_TYPE_HIGHRES_EVENT) {
	    int nrec;
	    memcpy(&nrec, vp->value.pval->vbuf, sizeof(nrec));
	    printf("event[%d bytes, %d records]", n, nrec);
	    return;
	}
	printf("blob[");
	for (i = 0; i < n; i++)
	    printf("%02x", (unsigned char)vp->value.pval->vbuf[i]);
	printf("]");
	return;
    }
    if (pmExtractValue(valfmt, vp, type, &a, type) < 0) {
	printf("extract-failed");
	return;
    }
    switch (type) {
	case PM_TYPE_32:	printf("%d", a.l); break;
	case PM_TYPE_U32:	printf("%u", a.ul); break;
	case PM_TYPE_64:	printf("%" PRId64, a.ll); break;
	case PM_TYPE_U64:	printf("%" PRIu64, a.ull); break;
	case PM_TYPE_FLOAT:	printf("%.9g", (double)a.f); break;
	case PM_TYPE_DOUBLE:	printf("%.17g", a.d); break;
	default:		printf("type%d?", type); break;
    }
}

static int
descof(pmID pmid, pmDesc *dp)
{
    int		i;

    for (i = 0; i < nnames; i++) {
	if (pmids[i] == pmid) {
	    *dp = descs[i];
	    return 0;
	}
    }
    return pmLookupDesc(pmid, dp);
}

static void
printsets(int numpmid, pmValueSet **vset)
{
    int		i, j;
    pmDesc	desc;

    for (i = 0; i < numpmid; i++) {
	pmValueSet	*vsp = vset[i];
	printf("  %s", pmIDStr(vsp->pmid));
	if (vsp->numval < 0) {
	    printf(" err %d\n", vsp->numval);
	    continue;
	}
	printf(" %d\n", vsp->numval);
	if (descof(vsp->pmid, &desc) < 0)
	    desc.type = PM_TYPE_UNKNOWN;
	for (j = 0; j < vsp->numval; j++) {
	    printf("    %d ", vsp->vlist[j].inst);
	    printvalue(desc.type, vsp->valfmt, &vsp->vlist[j]);
	    putchar('\n');
	}
    }
}

static void
printresult(pmHighResResult *rp)
{
    /* libpcp can leave tv_nsec at 1000000000 when stepping: normalize */
    int64_t		ns = rp->timestamp.tv_sec * 1000000000LL + rp->timestamp.tv_nsec;
    struct timespec	ts = tsof(ns);

    printf("fetch %lld.%09ld\n", (long long)ts.tv_sec, (long)ts.tv_nsec);
    printsets(rp->numpmid, rp->vset);
}

static void
lookup(int argc, char **argv)
{
    int		i, sts;

    if (argc == 0)
	pmTraversePMNS("", addname);
    else
	for (i = 0; i < argc; i++)
	    addname(argv[i]);
    pmids = calloc(nnames + 1, sizeof(pmids[0]));
    descs = calloc(nnames + 1, sizeof(descs[0]));
    for (i = 0; i < nnames; i++) {
	if ((sts = pmLookupName(1, (const char **)&names[i], &pmids[i])) < 0) {
	    pmids[i] = PM_ID_NULL;
	    continue;
	}
	pmLookupDesc(pmids[i], &descs[i]);
    }
}

/*
 * Drop metrics named twice (names that share a PMID): libpcp loops for
 * ever interpolating a fetch list that holds a PMID twice.
 */
static void
unique(void)
{
    int		i, j, k = 0;

    for (i = 0; i < nnames; i++) {
	for (j = 0; j < k; j++)
	    if (pmids[i] != PM_ID_NULL && pmids[j] == pmids[i])
		break;
	if (j < k)
	    continue;
	names[k] = names[i];
	pmids[k] = pmids[i];
	descs[k] = descs[i];
	k++;
    }
    nnames = k;
}

static void
fetchloop(int mode, int64_t start, int64_t delta, int count)
{
    struct timespec	origin = tsof(start);
    struct timespec	step = tsof(delta < 0 ? -delta : delta);
    pmHighResResult	*rp;
    int			i, sts;

    if (mode == PM_MODE_INTERP && delta < 0) {
	/* pmSetModeHighRes takes a signed delta in its timespec */
	step.tv_sec = -step.tv_sec;
	step.tv_nsec = -step.tv_nsec;
    }
    if ((sts = pmSetModeHighRes(mode, &origin, mode == PM_MODE_INTERP ? &step : NULL)) < 0) {
	printf("setmode err %d\n", sts);
	return;
    }
    for (i = 0; i < count; i++) {
	if ((sts = pmFetchHighRes(nnames, pmids, &rp)) < 0) {
	    printf("fetch err %d\n", sts);
	    if (mode != PM_MODE_INTERP)
		break;
	    continue;
	}
	printresult(rp);
	pmFreeHighResResult(rp);
    }
}

static void
records(void)
{
    pmResult	*rp;
    int		sts;

    pmSetMode(PM_MODE_FORW, NULL, 0);
    while ((sts = pmFetchArchive(&rp)) >= 0) {
	printf("record %lld.%06ld%s\n", (long long)rp->timestamp.tv_sec,
		(long)rp->timestamp.tv_usec, rp->numpmid == 0 ? " mark" : "");
	printsets(rp->numpmid, rp->vset);
	pmFreeResult(rp);
    }
    printf("end %d\n", sts);
}

static void
text(const char *what, int sts, char *buf)
{
    printf("  %s ", what);
    if (sts < 0)
	printf("err %d\n", sts);
    else {
	printstr(buf, strlen(buf));
	putchar('\n');
	free(buf);
    }
}

static void
printlabels(const char *what, int sts, pmLabelSet *sets)
{
    int		i, j;

    printf("  %s", what);
    if (sts < 0) {
	printf(" err %d\n", sts);
	return;
    }
    printf(" %d\n", sts);
    for (i = 0; i < sts; i++) {
	printf("    inst %d", sets[i].inst);
	for (j = 0; j < sets[i].nlabels; j++) {
	    pmLabel *lp = &sets[i].labels[j];
	    printf(" %.*s=%.*s/%d", lp->namelen, sets[i].json + lp->name,
		    lp->valuelen, sets[i].json + lp->value, lp->flags);
	}
	putchar('\n');
    }
    if (sts > 0)
	pmFreeLabelSets(sets, sts);
}

/* is event.* only libpcp's anonymous derived event.flags and event.missed? */
static int
isanonevent(void)
{
    char	**kids;
    int		*status;
    int		n, i, anon = 1;

    n = pmGetChildrenStatus("event", &kids, &status);
    if (n <= 0)
	return 0;
    for (i = 0; i < n; i++)
	if (strcmp(kids[i], "flags") != 0 && strcmp(kids[i], "missed") != 0)
	    anon = 0;
    free(kids);
    free(status);
    return anon;
}

static void
children(const char *name)
{
    char	**kids;
    int		*status;
    int		i, n;

    n = pmGetChildrenStatus(name, &kids, &status);
    if (n < 0) {
	printf("children %s err %d\n", name, n);
	return;
    }
    if (*name == '\0') {
	/* leave out libpcp's anonymous derived event.* metrics */
	for (i = 0; i < n; i++) {
	    if (strcmp(kids[i], "event") == 0 && isanonevent()) {
		memmove(&kids[i], &kids[i+1], (n - i - 1) * sizeof(kids[0]));
		memmove(&status[i], &status[i+1], (n - i - 1) * sizeof(status[0]));
		n--;
		break;
	    }
	}
    }
    if (n == 0)
	return;
    printf("children %s", *name ? name : "<root>");
    for (i = 0; i < n; i++)
	printf(" %s%s", kids[i], status[i] == PMNS_LEAF_STATUS ? "" : "/");
    putchar('\n');
    for (i = 0; i < n; i++) {
	if (status[i] != PMNS_LEAF_STATUS) {
	    char	*full = malloc(strlen(name) + strlen(kids[i]) + 2);
	    sprintf(full, "%s%s%s", name, *name ? "." : "", kids[i]);
	    children(full);
	    free(full);
	}
    }
    free(kids);
    free(status);
}

static void
meta(void)
{
    int		i, j, n, sts;
    char	**all;
    char	*buf;
    pmLabelSet	*sets;

    children("");
    n = pmGetContextLabels(&sets);
    printlabels("context-labels", n, sets);
    for (i = 0; i < nnames; i++) {
	pmDesc	*dp = &descs[i];
	printf("metric %s %s type %d sem %d indom %s units %d,%d,%d,%d,%d,%d\n",
		names[i], pmIDStr(pmids[i]), dp->type, dp->sem,
		pmInDomStr(dp->indom), dp->units.dimSpace, dp->units.dimTime,
		dp->units.dimCount, dp->units.scaleSpace, dp->units.scaleTime,
		dp->units.scaleCount);
	n = pmNameAll(pmids[i], &all);
	printf("  names");
	for (j = 0; j < n; j++)
	    printf(" %s", all[j]);
	putchar('\n');
	if (n > 0)
	    free(all);
	buf = NULL;
	sts = pmLookupText(pmids[i], PM_TEXT_ONELINE, &buf);
	text("oneline", sts, buf);
	buf = NULL;
	sts = pmLookupText(pmids[i], PM_TEXT_HELP, &buf);
	text("help", sts, buf);
	if (dp->indom != PM_INDOM_NULL) {
	    buf = NULL;
	    sts = pmLookupInDomText(dp->indom, PM_TEXT_ONELINE, &buf);
	text("indom-oneline", sts, buf);
	    buf = NULL;
	    sts = pmLookupInDomText(dp->indom, PM_TEXT_HELP, &buf);
	text("indom-help", sts, buf);
	}
	n = pmGetDomainLabels(pmID_domain(pmids[i]), &sets);
	printlabels("domain-labels", n, sets);
	n = pmGetClusterLabels(pmID_build(pmID_domain(pmids[i]), pmID_cluster(pmids[i]), 0), &sets);
	printlabels("cluster-labels", n, sets);
	n = pmGetItemLabels(pmids[i], &sets);
	printlabels("item-labels", n, sets);
	if (dp->indom != PM_INDOM_NULL) {
	    n = pmGetInDomLabels(dp->indom, &sets);
	    printlabels("indom-labels", n, sets);
	    n = pmGetInstancesLabels(dp->indom, &sets);
	    printlabels("instances-labels", n, sets);
	}
    }
}

static void
indoms(int64_t start, int64_t step, int count)
{
    pmInDom	*seen = NULL;
    int		nseen = 0;
    int		i, j, k, n;
    int		*insts;
    char	**inames;
    pmHighResResult *rp;

    for (i = 0; i < nnames; i++) {
	pmInDom	indom = descs[i].indom;
	if (indom == PM_INDOM_NULL)
	    continue;
	for (j = 0; j < nseen; j++)
	    if (seen[j] == indom)
		break;
	if (j < nseen)
	    continue;
	seen = realloc(seen, (nseen + 1) * sizeof(seen[0]));
	seen[nseen++] = indom;
	for (k = 0; k < count; k++) {
	    struct timespec t = tsof(start + k * step);
	    /* pmGetInDom answers as of the context's current time */
	    pmSetModeHighRes(PM_MODE_FORW, &t, NULL);
	    printf("indom %s at %lld.%09ld", pmInDomStr(indom), (long long)t.tv_sec, (long)t.tv_nsec);
	    n = pmGetInDom(indom, &insts, &inames);
	    if (n < 0) {
		printf(" err %d\n", n);
		continue;
	    }
	    printf(" %d\n", n);
	    for (j = 0; j < n; j++) {
		printf("    %d ", insts[j]);
		printstr(inames[j], strlen(inames[j]));
		putchar('\n');
	    }
	    if (n > 0) {
		free(insts);
		free(inames);
	    }
	}
    }
    (void)rp;
}

/* +INDOM:INST,... or -INDOM:INST,... */
static void
profile(const char *spec)
{
    int		domain, serial, n = 0, sts;
    int		insts[64];
    const char	*p = strchr(spec, ':') + 1;

    sscanf(spec + 1, "%d.%d", &domain, &serial);
    while (*p && n < 64) {
	insts[n++] = atoi(p);
	while (*p && *p != ',')
	    p++;
	if (*p == ',')
	    p++;
    }
    if (spec[0] == '+')
	sts = pmAddProfile(pmInDom_build(domain, serial), n, n ? insts : NULL);
    else
	sts = pmDelProfile(pmInDom_build(domain, serial), n, n ? insts : NULL);
    if (sts < 0)
	printf("profile %s err %d\n", spec, sts);
}

/* pmGetInDom for each instance domain of the archive's metrics, now */
static void
printindoms(void)
{
    pmInDom	*seen = NULL;
    int		nseen = 0, i, j, n;
    int		*insts;
    char	**inames;

    nnames = 0;
    lookup(0, NULL);
    for (i = 0; i < nnames; i++) {
	pmInDom	indom = descs[i].indom;
	if (pmids[i] == PM_ID_NULL || indom == PM_INDOM_NULL)
	    continue;
	for (j = 0; j < nseen; j++)
	    if (seen[j] == indom)
		break;
	if (j < nseen)
	    continue;
	seen = realloc(seen, (nseen + 1) * sizeof(seen[0]));
	seen[nseen++] = indom;
	printf("indom %s", pmInDomStr(indom));
	if ((n = pmGetInDom(indom, &insts, &inames)) < 0) {
	    printf(" err %d\n", n);
	    continue;
	}
	printf(" %d\n", n);
	for (j = 0; j < n; j++) {
	    printf("    %d ", insts[j]);
	    printstr(inames[j], strlen(inames[j]));
	    putchar('\n');
	}
	if (n > 0) {
	    free(insts);
	    free(inames);
	}
    }
    free(seen);
}

static void
script(int64_t base)
{
    char	line[4096];
    char	*words[256];
    int		n, i, sts;

    while (fgets(line, sizeof(line), stdin) != NULL) {
	n = 0;
	for (words[n] = strtok(line, " \t\n"); words[n] != NULL && n < 255; words[++n] = strtok(NULL, " \t\n"))
	    ;
	if (n == 0)
	    continue;
	printf("step");
	for (i = 0; i < n; i++)
	    printf(" %s", words[i]);
	putchar('\n');
	if ((words[0][0] == '+' || words[0][0] == '-') && strchr(words[0], ':') != NULL)
	    profile(words[0]);
	else if (strcmp(words[0], "indoms") == 0)
	    printindoms();
	else if (strcmp(words[0], "fetch") == 0 && n >= 2) {
	    pmHighResResult	*rp;
	    int			count = atoi(words[1]);
	    nnames = 0;
	    lookup(n - 2, words + 2);
	    unique();
	    for (i = 0; i < count; i++) {
		if ((sts = pmFetchHighRes(nnames, pmids, &rp)) < 0) {
		    printf("fetch err %d\n", sts);
		    continue;
		}
		printresult(rp);
		pmFreeHighResResult(rp);
	    }
	}
	else if (n >= 2) {
	    int64_t		start = words[1][0] == '@' ? parsens(words[1] + 1) : base + parsens(words[1]);
	    struct timespec	origin = tsof(start);
	    struct timespec	step = { 0, 0 };
	    int			mode = PM_MODE_FORW;
	    if (strcmp(words[0], "interp") == 0 && n >= 3) {
		int64_t d = parsens(words[2]);
		mode = PM_MODE_INTERP;
		step = tsof(d < 0 ? -d : d);
		if (d < 0) {
		    step.tv_sec = -step.tv_sec;
		    step.tv_nsec = -step.tv_nsec;
		}
	    }
	    else if (strcmp(words[0], "back") == 0)
		mode = PM_MODE_BACK;
	    if ((sts = pmSetModeHighRes(mode, &origin, mode == PM_MODE_INTERP ? &step : NULL)) < 0)
		printf("setmode err %d\n", sts);
	}
    }
}

int
main(int argc, char **argv)
{
    int			ctx, sts;
    pmHighResLogLabel	label;
    struct timespec	end;
    int64_t		base, start;
    const char		*cmd;

    if (argc < 3) {
	fprintf(stderr, "usage: fetchdump ARCHIVE interp|forw|back|records|meta|indom ...\n");
	return 2;
    }
    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, argv[1])) < 0) {
	printf("open err %d\n", ctx);
	return 0;
    }
    pmGetHighResArchiveLabel(&label);
    sts = pmGetHighResArchiveEnd(&end);
    base = label.start.tv_sec * 1000000000LL + label.start.tv_nsec;
    printf("archive host %s start %lld.%09ld end %lld.%09ld (%d)\n", label.hostname,
	    (long long)label.start.tv_sec, (long)label.start.tv_nsec,
	    (long long)end.tv_sec, (long)end.tv_nsec, sts);
    argc -= 2;
    argv += 2;
    while (argc > 0 && (argv[0][0] == '+' || argv[0][0] == '-') && strchr(argv[0], ':') != NULL) {
	profile(argv[0]);
	argc--;
	argv++;
    }
    if (argc < 1) {
	fprintf(stderr, "fetchdump: command missing\n");
	return 2;
    }
    cmd = argv[0];
    argc--;
    argv++;
    if (strcmp(cmd, "records") == 0) {
	records();
	return 0;
    }
    if (strcmp(cmd, "script") == 0) {
	script(base);
	return 0;
    }
    if (strcmp(cmd, "meta") == 0) {
	lookup(0, NULL);
	meta();
	return 0;
    }
    if (argc < 1) {
	fprintf(stderr, "fetchdump: START missing\n");
	return 2;
    }
    start = argv[0][0] == '@' ? parsens(argv[0] + 1) : base + parsens(argv[0]);
    if (strcmp(cmd, "interp") == 0 && argc >= 3) {
	lookup(argc - 3, argv + 3);
	unique();
	fetchloop(PM_MODE_INTERP, start, parsens(argv[1]), atoi(argv[2]));
    }
    else if ((strcmp(cmd, "forw") == 0 || strcmp(cmd, "back") == 0) && argc >= 2) {
	lookup(argc - 2, argv + 2);
	unique();
	fetchloop(strcmp(cmd, "forw") == 0 ? PM_MODE_FORW : PM_MODE_BACK, start, 0, atoi(argv[1]));
    }
    else if (strcmp(cmd, "indom") == 0 && argc >= 3) {
	lookup(0, NULL);
	indoms(start, parsens(argv[1]), atoi(argv[2]));
    }
    else {
	fprintf(stderr, "fetchdump: bad arguments\n");
	return 2;
    }
    return 0;
}
