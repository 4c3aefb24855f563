// Package pmcd is a client for the PCP protocol spoken by pmcd on TCP port
// 44321 and its local unix socket. Its Context implements pmapi.Context.
package pmcd
