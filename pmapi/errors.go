package pmapi

import (
	"strconv"
	"syscall"
)

// Errno is a PCP error code: a negative PM_ERR_* value, or the negation of
// a Unix errno. Its Error text is what pmErrStr prints.
type Errno int32

// errBase is PM_ERR_BASE.
const errBase = 12345

// The PCP error codes of pmapi.h.
const (
	ErrGeneric        Errno = -errBase - 0
	ErrPMNS           Errno = -errBase - 1
	ErrNoPMNS         Errno = -errBase - 2
	ErrDupPMNS        Errno = -errBase - 3
	ErrText           Errno = -errBase - 4
	ErrAppVersion     Errno = -errBase - 5
	ErrValue          Errno = -errBase - 6
	ErrTimeout        Errno = -errBase - 8
	ErrNoData         Errno = -errBase - 9
	ErrReset          Errno = -errBase - 10
	ErrName           Errno = -errBase - 12
	ErrPMID           Errno = -errBase - 13
	ErrInDom          Errno = -errBase - 14
	ErrInst           Errno = -errBase - 15
	ErrUnit           Errno = -errBase - 16
	ErrConv           Errno = -errBase - 17
	ErrTrunc          Errno = -errBase - 18
	ErrSign           Errno = -errBase - 19
	ErrProfile        Errno = -errBase - 20
	ErrIPC            Errno = -errBase - 21
	ErrEOF            Errno = -errBase - 23
	ErrNotHost        Errno = -errBase - 24
	ErrEOL            Errno = -errBase - 25
	ErrMode           Errno = -errBase - 26
	ErrLabel          Errno = -errBase - 27
	ErrLogRec         Errno = -errBase - 28
	ErrNotArchive     Errno = -errBase - 29
	ErrLogFile        Errno = -errBase - 30
	ErrNoContext      Errno = -errBase - 31
	ErrProfileSpec    Errno = -errBase - 32
	ErrPMIDLog        Errno = -errBase - 33
	ErrInDomLog       Errno = -errBase - 34
	ErrInstLog        Errno = -errBase - 35
	ErrNoProfile      Errno = -errBase - 36
	ErrNoAgent        Errno = -errBase - 41
	ErrPermission     Errno = -errBase - 42
	ErrConnLimit      Errno = -errBase - 43
	ErrAgain          Errno = -errBase - 44
	ErrIsConn         Errno = -errBase - 45
	ErrNotConn        Errno = -errBase - 46
	ErrNeedPort       Errno = -errBase - 47
	ErrNonLeaf        Errno = -errBase - 49
	ErrType           Errno = -errBase - 52
	ErrThread         Errno = -errBase - 53
	ErrNoContainer    Errno = -errBase - 54
	ErrBadStore       Errno = -errBase - 55
	ErrLogOverlap     Errno = -errBase - 56
	ErrLogHost        Errno = -errBase - 57
	ErrLogChangeType  Errno = -errBase - 59
	ErrLogChangeSem   Errno = -errBase - 60
	ErrLogChangeInDom Errno = -errBase - 61
	ErrLogChangeUnits Errno = -errBase - 62
	ErrNeedClientCert Errno = -errBase - 63
	ErrBadDerive      Errno = -errBase - 64
	ErrNoLabels       Errno = -errBase - 65
	ErrPMDAFenced     Errno = -errBase - 66
	ErrRecType        Errno = -errBase - 67
	ErrFeature        Errno = -errBase - 68
	ErrTLS            Errno = -errBase - 69
	ErrBotch          Errno = -errBase - 97
	ErrTooSmall       Errno = -errBase - 98
	ErrTooBig         Errno = -errBase - 99
	ErrFault          Errno = -errBase - 100
	ErrPMDAReady      Errno = -errBase - 1048
	ErrPMDANotReady   Errno = -errBase - 1049
	ErrNYI            Errno = -errBase - 8999
)

type errInfo struct {
	symbol, text string
}

var errTable = map[Errno]errInfo{
	ErrGeneric:        {"PM_ERR_GENERIC", "Generic error, already reported above"},
	ErrPMNS:           {"PM_ERR_PMNS", "Problems parsing PMNS definitions"},
	ErrNoPMNS:         {"PM_ERR_NOPMNS", "PMNS not accessible"},
	ErrDupPMNS:        {"PM_ERR_DUPPMNS", "Attempt to reload the PMNS"},
	ErrText:           {"PM_ERR_TEXT", "One-line or help text is not available"},
	ErrAppVersion:     {"PM_ERR_APPVERSION", "Metric not supported by this version of monitored application"},
	ErrValue:          {"PM_ERR_VALUE", "Missing metric value(s)"},
	ErrTimeout:        {"PM_ERR_TIMEOUT", "Timeout waiting for a response from PMCD"},
	ErrNoData:         {"PM_ERR_NODATA", "Empty archive log file"},
	ErrReset:          {"PM_ERR_RESET", "PMCD reset or configuration change"},
	ErrName:           {"PM_ERR_NAME", "Unknown metric name"},
	ErrPMID:           {"PM_ERR_PMID", "Unknown or illegal metric identifier"},
	ErrInDom:          {"PM_ERR_INDOM", "Unknown or illegal instance domain identifier"},
	ErrInst:           {"PM_ERR_INST", "Unknown or illegal instance identifier"},
	ErrType:           {"PM_ERR_TYPE", "Unknown or illegal metric type"},
	ErrUnit:           {"PM_ERR_UNIT", "Illegal pmUnits specification"},
	ErrConv:           {"PM_ERR_CONV", "Impossible value or scale conversion"},
	ErrTrunc:          {"PM_ERR_TRUNC", "Truncation in value conversion"},
	ErrSign:           {"PM_ERR_SIGN", "Negative value in conversion to unsigned"},
	ErrProfile:        {"PM_ERR_PROFILE", "Explicit instance identifier(s) required"},
	ErrIPC:            {"PM_ERR_IPC", "IPC protocol failure"},
	ErrTLS:            {"PM_ERR_TLS", "TLS protocol failure"},
	ErrEOF:            {"PM_ERR_EOF", "IPC channel closed"},
	ErrNotHost:        {"PM_ERR_NOTHOST", "Operation requires context with host source of metrics"},
	ErrEOL:            {"PM_ERR_EOL", "End of PCP archive log"},
	ErrMode:           {"PM_ERR_MODE", "Illegal mode specification"},
	ErrLabel:          {"PM_ERR_LABEL", "Illegal label record at start of a PCP archive log file"},
	ErrLogRec:         {"PM_ERR_LOGREC", "Corrupted record in a PCP archive log"},
	ErrLogFile:        {"PM_ERR_LOGFILE", "Missing PCP archive log file"},
	ErrNotArchive:     {"PM_ERR_NOTARCHIVE", "Operation requires context with archive source of metrics"},
	ErrNoContext:      {"PM_ERR_NOCONTEXT", "Attempt to use an illegal context"},
	ErrProfileSpec:    {"PM_ERR_PROFILESPEC", "NULL pmInDom with non-NULL instlist"},
	ErrPMIDLog:        {"PM_ERR_PMID_LOG", "Metric not defined in the PCP archive log"},
	ErrInDomLog:       {"PM_ERR_INDOM_LOG", "Instance domain identifier not defined in the PCP archive log"},
	ErrInstLog:        {"PM_ERR_INST_LOG", "Instance identifier not defined in the PCP archive log"},
	ErrNoProfile:      {"PM_ERR_NOPROFILE", "Missing profile - protocol botch"},
	ErrNoAgent:        {"PM_ERR_NOAGENT", "No PMCD agent for domain of request"},
	ErrPermission:     {"PM_ERR_PERMISSION", "No permission to perform requested operation"},
	ErrConnLimit:      {"PM_ERR_CONNLIMIT", "PMCD connection limit for this host exceeded"},
	ErrAgain:          {"PM_ERR_AGAIN", "Try again. Information not currently available"},
	ErrIsConn:         {"PM_ERR_ISCONN", "Already Connected"},
	ErrNotConn:        {"PM_ERR_NOTCONN", "Not Connected"},
	ErrNeedPort:       {"PM_ERR_NEEDPORT", "A non-null port name is required"},
	ErrNonLeaf:        {"PM_ERR_NONLEAF", "Metric name is not a leaf in PMNS"},
	ErrPMDANotReady:   {"PM_ERR_PMDANOTREADY", "PMDA is not yet ready to respond to requests"},
	ErrPMDAReady:      {"PM_ERR_PMDAREADY", "PMDA is now responsive to requests"},
	ErrBotch:          {"PM_ERR_BOTCH", "Internal inconsistency detected or assertion failed"},
	ErrTooSmall:       {"PM_ERR_TOOSMALL", "Insufficient elements in list"},
	ErrTooBig:         {"PM_ERR_TOOBIG", "Result size exceeded"},
	ErrFault:          {"PM_ERR_FAULT", "QA fault injected"},
	ErrThread:         {"PM_ERR_THREAD", "Operation not supported for multi-threaded applications"},
	ErrNoContainer:    {"PM_ERR_NOCONTAINER", "Container not found"},
	ErrBadStore:       {"PM_ERR_BADSTORE", "Bad input to pmstore"},
	ErrLogOverlap:     {"PM_ERR_LOGOVERLAP", "Archives overlap in time"},
	ErrLogHost:        {"PM_ERR_LOGHOST", "Archives differ by host"},
	ErrLogChangeType:  {"PM_ERR_LOGCHANGETYPE", "The type of a metric has changed in an archive"},
	ErrLogChangeSem:   {"PM_ERR_LOGCHANGESEM", "The semantics of a metric has changed in an archive"},
	ErrLogChangeInDom: {"PM_ERR_LOGCHANGEINDOM", "The instance domain of a metric has changed in an archive"},
	ErrLogChangeUnits: {"PM_ERR_LOGCHANGEUNITS", "The units of a metric have changed in an archive"},
	ErrNeedClientCert: {"PM_ERR_NEEDCLIENTCERT", "PMCD requires a client certificate"},
	ErrBadDerive:      {"PM_ERR_BADDERIVE", "Derived metric definition failed"},
	ErrNoLabels:       {"PM_ERR_NOLABELS", "No support for metric label metadata"},
	ErrPMDAFenced:     {"PM_ERR_PMDAFENCED", "PMDA is currently fenced and unable to respond to requests"},
	ErrRecType:        {"PM_ERR_RECTYPE", "Incorrect record type in an archive"},
	ErrFeature:        {"PM_ERR_FEATURE", "Archive feature not supported"},
	ErrNYI:            {"PM_ERR_NYI", "Functionality not yet implemented"},
}

// Error is the text pmErrStr gives for e.
func (e Errno) Error() string {
	if e == 0 {
		return "No error"
	}
	if info, ok := errTable[e]; ok {
		return info.text
	}
	if e < 0 && e > -errBase {
		return errnoText(int32(-e))
	}
	return "No such PMAPI error code (" + strconv.Itoa(int(e)) + ")"
}

// Symbol is the PM_ERR_* name of e, or "" for an errno or unknown code.
func (e Errno) Symbol() string { return errTable[e].symbol }

// Code returns the PCP error code that err carries: the Errno itself, the
// negated errno of a syscall.Errno, the errno of io/fs's ErrNotExist,
// ErrPermission and ErrExist, or ErrGeneric for any other error. It looks
// through wrapped errors.
func Code(err error) Errno {
	if err == nil {
		return 0
	}
	for e := err; e != nil; {
		switch v := e.(type) {
		case Errno:
			return v
		case syscall.Errno:
			return Errno(-int32(v))
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			break
		}
		e = u.Unwrap()
	}
	return fsCode(err)
}
