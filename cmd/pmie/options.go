package main

import "github.com/gopcp/pmie/internal/pcpopt"

// shortOptions is pmie's getopt string, plus -L (the embedded collector).
const shortOptions = "a:A:bc:CdD:efFHh:j:l:Ln:O:PqS:t:T:U:vVWXxzZ:?"

// optionTable is pmie's long options and usage text, with our -L,
// --check-units, --werror, --yaml-config, --route-alerts,
// --replay-alerts, --raw-shell-values and --web.listen-address (those
// but --check-units begin with a letter no option of pmie's has, so
// pmie's abbreviations keep their meaning).
var optionTable = []pcpopt.Option{
	pcpopt.Header("General options"),
	{Short: 'A', Long: "align", HasArg: true, ArgName: "TIME", Help: "align sample times on natural boundaries"},
	{Short: 'a', Long: "archive", HasArg: true, ArgName: "FILE", Help: "metrics source is a PCP log archive"},
	{Short: 'D', Long: "debug", HasArg: true, ArgName: "DBG"},
	{Short: 'h', Long: "host", HasArg: true, ArgName: "HOST", Help: "metrics source is PMCD on host"},
	{Short: 'L', Long: "local", Help: "metrics source is the embedded /proc collector", Extra: true},
	{Short: 'n', Long: "namespace", HasArg: true, ArgName: "FILE", Help: "use an alternative PMNS"},
	{Short: 'O', Long: "origin", HasArg: true, ArgName: "TIME", Help: "initial sample time within the time window"},
	{Short: 'S', Long: "start", HasArg: true, ArgName: "TIME", Help: "start of the time window"},
	{Short: 'T', Long: "finish", HasArg: true, ArgName: "TIME", Help: "end of the time window"},
	{Short: 't', Long: "interval", HasArg: true, ArgName: "DELTA", Help: "sampling interval"},
	{Short: 'Z', Long: "timezone", HasArg: true, ArgName: "TZ", Help: "set reporting timezone"},
	{Short: 'z', Long: "hostzone", Help: "set reporting timezone to local time of metrics source"},
	{Short: '?', Long: "help", Help: "show this usage message and exit"},
	pcpopt.Header("Runtime options"),
	{Short: 'C', Long: "check", Help: "parse configuration and exit"},
	{Long: "check-units", Help: "report comparisons of values with different dimensions, and exit", Extra: true},
	{Long: "werror", Help: "as -C, but exit 1 if any error or warning is reported", Extra: true},
	{Short: 'c', Long: "config", HasArg: true, ArgName: "FILE", Help: "configuration file"},
	{Short: 'd', Long: "interact", Help: "interactive debugging mode"},
	{Short: 'P', Long: "primary", Help: "execute as primary inference engine"},
	{Short: 'f', Long: "foreground", Help: "run in the foreground, not as a daemon"},
	{Short: 'F', Long: "systemd", Help: "systemd mode - notify service manager (if any) when started and ready"},
	{Short: 'H'},
	{Short: 'j', HasArg: true, ArgName: "FILE", Help: "stomp protocol (JMS) file"},
	{Short: 'l', Long: "logfile", HasArg: true, ArgName: "FILE", Help: "send status and error messages to FILE"},
	{Long: "yaml-config", HasArg: true, ArgName: "FILE", Help: "daemon configuration: rule files, sources, alerting, schedules, HTTP", Extra: true},
	{Long: "route-alerts", HasArg: true, ArgName: "FILE", Help: "the same as --yaml-config (its older name)", Extra: true},
	{Long: "replay-alerts", Help: "with -a, send alerts too (actions are only reported)", Extra: true},
	{Long: "raw-shell-values", Help: "put %h %i %v %c into shell actions unquoted, as pmie does (UNSAFE)", Extra: true},
	{Long: "web.listen-address", HasArg: true, ArgName: "HOST:PORT", Help: "serve /metrics, health, reload and the rules API on HOST:PORT", Extra: true},
	{Long: "shard", HasArg: true, ArgName: "I/N", Help: "evaluate shard I of N of the daemon configuration's fleet", Extra: true},
	{Short: 'U', Long: "username", HasArg: true, ArgName: "USER", Help: "run as named USER in daemon mode [default pcp]"},
	pcpopt.Header("Reporting options"),
	{Short: 'b', Long: "buffer", Help: "one line buffered output stream, stdout on stderr"},
	{Short: 'e', Long: "timestamp", Help: "force timestamps to be reported with -V, -v or -W"},
	{Short: 'q', Long: "quiet", Help: "quiet mode, default diagnostics suppressed"},
	{Short: 'v', Help: "verbose mode, expression values printed"},
	{Short: 'V', Long: "verbose", Help: "verbose mode, annotated expression values printed"},
	{Short: 'W', Help: "verbose mode, satisfying expression values printed"},
	{Short: 'X', Long: "secret-applet", Help: "run in secret applet mode (thin client)"},
	{Short: 'x', Long: "secret-agent", Help: "run in secret agent mode (summary PMDA)"},
}

// usage is pmie's usage message.
func usage() string {
	return pcpopt.Usage(prog, "[options] [filename ...]", optionTable)
}
