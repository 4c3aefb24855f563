// Package pdu encodes and decodes the protocol data units (PDUs) of the PCP
// protocol that clients and pmcd exchange, in both directions: the client
// (pmapi/pmcd) encodes requests and decodes replies, the test stand-in
// (internal/pmcdtest) does the reverse.
//
// Every PDU starts with a 12-byte header of three big-endian 32-bit words:
// the total length in bytes (header included), the PDU type and the sender
// ("from"). Everything after it is big-endian 32-bit words, with strings
// padded to a word boundary.
//
// Decoders take one whole PDU (header included, as Read returns it), check
// every length and offset against the PDU's bounds, and fail with an error
// whose pmapi.Code is pmapi.ErrIPC rather than panic or allocate without
// limit. The package knows nothing of connections, timeouts or contexts.
package pdu
