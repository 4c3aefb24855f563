// Package pcptime is PCP's handling of time for command line tools: time
// zones given as $TZ strings (an Olson name, or a POSIX rule such as the
// "EST-11EST-10,89/2:00,299/2:00" old archives carry), ctime(3) formatting
// in a zone, and the -t interval and -S/-T/-A/-O time window options as
// PCPIntro(1) describes them and libpcp interprets them.
package pcptime
