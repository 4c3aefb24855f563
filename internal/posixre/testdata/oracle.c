/*
 * oracle: what glibc's regcomp(3) and regexec(3) make of POSIX extended
 * regular expressions compiled as libpcp and pmie compile them
 * (REG_EXTENDED|REG_NOSUB, in the C locale as they run).
 *
 * Input, one item a line (no NUL or newline in either):
 *     p<TAB>pattern       compile pattern
 *     s<TAB>subject       match subject against the last pattern
 * Output, the same lines with a third field:
 *     p<TAB>pattern<TAB>ok            or  <TAB>error: <regerror text>
 *     s<TAB>subject<TAB>1 (matches)   or  0
 * Subjects after a pattern that does not compile are left out.
 *
 * Build and run: cc -o oracle oracle.c && ./oracle < cases.in > cases.golden
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(void)
{
    char	*line = NULL;
    size_t	cap = 0;
    ssize_t	len;
    regex_t	re;
    int		have = 0;

    while ((len = getline(&line, &cap, stdin)) != -1) {
	if (len > 0 && line[len - 1] == '\n')
	    line[--len] = '\0';
	if (len < 2 || line[1] != '\t')
	    continue;
	if (line[0] == 'p') {
	    int	sts;
	    if (have)
		regfree(&re);
	    sts = regcomp(&re, line + 2, REG_EXTENDED | REG_NOSUB);
	    have = sts == 0;
	    if (have)
		printf("%s\tok\n", line);
	    else {
		char	msg[256];
		regerror(sts, &re, msg, sizeof(msg));
		printf("%s\terror: %s\n", line, msg);
	    }
	}
	else if (line[0] == 's' && have)
	    printf("%s\t%d\n", line, regexec(&re, line + 2, 0, NULL, 0) == 0);
    }
    free(line);
    return 0;
}
