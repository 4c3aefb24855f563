package pdu

// The error PDU carries one error code, or in the connection handshake two
// words: a status and the "challenge" describing pmcd's protocol version
// and features.

// errBase1 and errBase2 are PM_ERR_BASE of PCP 1.x and 2.x. The handshake
// status is always sent as a 1.x code.
const (
	errBase1 = 1000
	errBase2 = 12345
)

func errV2ToV1(code int32) int32 {
	if code <= -errBase2 {
		return code + errBase2 - errBase1
	}
	return code
}

func errV1ToV2(code int32) int32 {
	if code <= -errBase1 {
		return code + errBase1 - errBase2
	}
	return code
}

// EncodeError builds an error PDU. Positive codes are the state change
// flags pmcd sends ahead of a fetch result.
func EncodeError(code int32) []byte {
	e := newEncoder(Error, 0, 4)
	e.i32(code)
	return e.finish()
}

// DecodeError decodes an error PDU of either form and returns its code.
func DecodeError(p []byte) (int32, error) {
	d := newDecoder(p, Error)
	if d.err == nil && len(p) != HeaderLen+4 && len(p) != HeaderLen+8 {
		d.fail("length %d is neither %d nor %d", len(p), HeaderLen+4, HeaderLen+8)
	}
	code := d.i32()
	return code, d.err
}

// Features are the PDU_FLAG_* bits of the handshake.
type Features uint16

// The feature flags pmcd advertises and clients request.
const (
	FeatureSecure    Features = 1 << 0
	FeatureCompress  Features = 1 << 1
	FeatureAuth      Features = 1 << 2
	FeatureCredsReqd Features = 1 << 3
	FeatureSecureAck Features = 1 << 4
	FeatureNoNSSInit Features = 1 << 5
	FeatureContainer Features = 1 << 6
	FeatureCertReqd  Features = 1 << 7
	FeatureBadLabel  Features = 1 << 8
	FeatureLabels    Features = 1 << 9
	FeatureHighRes   Features = 1 << 10
	FeatureDescs     Features = 1 << 11
)

// Version is the only PDU protocol version PCP 6 speaks.
const Version = 2

// Challenge is what pmcd says about itself when a client connects.
type Challenge struct {
	Version  uint8 // 7 bits
	Licensed uint8
	Features Features
}

// word packs c as it travels: from the top bit down a zero bit, 7 bits of
// version, 8 of licensed, 16 of features.
func (c Challenge) word() uint32 {
	return uint32(c.Version&0x7f)<<24 | uint32(c.Licensed)<<16 | uint32(c.Features)
}

func challengeOf(w uint32) Challenge {
	return Challenge{Version: uint8(w >> 24 & 0x7f), Licensed: uint8(w >> 16), Features: Features(w)}
}

// EncodeHandshake builds the extended error PDU pmcd sends first on every
// new connection: status (0, or why the client is refused) and challenge.
func EncodeHandshake(status int32, c Challenge) []byte {
	e := newEncoder(Error, 0, 8)
	e.i32(errV2ToV1(status))
	e.u32(c.word())
	return e.finish()
}

// DecodeHandshake decodes pmcd's first PDU.
func DecodeHandshake(p []byte) (status int32, c Challenge, err error) {
	d := newDecoder(p, Error)
	if d.err == nil && len(p) != HeaderLen+8 {
		d.fail("handshake has length %d, not %d", len(p), HeaderLen+8)
	}
	status = errV1ToV2(d.i32())
	c = challengeOf(d.u32())
	return status, c, d.err
}

// credVersion is the CVERSION credential type.
const credVersion = 1

// maxCreds is the most credentials one PDU may carry.
const maxCreds = 1024

// EncodeCreds builds the credentials PDU by which a client answers the
// handshake: one version credential with the features it wants.
func EncodeCreds(from int32, version uint8, flags Features) []byte {
	e := newEncoder(Creds, from, 8)
	e.i32(1)
	e.u32(credVersion<<24 | uint32(version)<<16 | uint32(flags))
	return e.finish()
}

// ClientCreds is the version credential of a creds PDU.
type ClientCreds struct {
	Version uint8
	Flags   Features
}

// DecodeCreds decodes a credentials PDU. Credentials of other types are an
// error, as they are to pmcd.
func DecodeCreds(p []byte) (ClientCreds, error) {
	d := newDecoder(p, Creds)
	n := d.count("credential count", 4)
	if n > maxCreds {
		d.fail("%d credentials", n)
	}
	var cc ClientCreds
	for i := 0; i < n && d.err == nil; i++ {
		w := d.u32()
		if w>>24 != credVersion {
			d.fail("unknown credential type %d", w>>24)
			break
		}
		cc = ClientCreds{Version: uint8(w >> 16), Flags: Features(w)}
	}
	return cc, d.end(true)
}

// EncodeAttr builds an attribute PDU, by which a client tells pmcd a
// connection attribute (a PCP_ATTR_* code) and its value after the
// handshake. Its length is exact: the value is not padded.
func EncodeAttr(attr int32, value string) []byte {
	e := newEncoder(Attr, 0, 4+len(value))
	e.i32(attr)
	e.b = append(e.b, value...)
	return e.finish()
}
