package archive

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// The xz container's framing (the .xz file format, version 1.x): a file
// is one or more streams, each a 12-byte header, blocks, an index of the
// blocks and a 12-byte footer, with zero padding (a multiple of 4 bytes)
// between and after them. libpcp reads the indexes of an .xz file when it
// opens it, and so finds a truncated or damaged file then, and the
// length of its data without decompressing any of it. xzLength does the
// same.

var (
	xzHeaderMagic = []byte{0xfd, '7', 'z', 'X', 'Z', 0}
	xzFooterMagic = []byte{'Y', 'Z'}
)

// xzMaxIndex bounds the size of an index read (each block costs a few
// bytes of index, so this allows millions of blocks).
const xzMaxIndex = 64 << 20

// xzLength reads the stream footers and indexes of the .xz file f, of
// size bytes, and returns the length of the data it holds. It fails if
// they are not well formed.
func xzLength(f io.ReaderAt, size int64) (int64, error) {
	var head [12]byte
	if _, err := f.ReadAt(head[:6], 0); err != nil || string(head[:6]) != string(xzHeaderMagic) {
		return 0, errors.New("no xz stream header")
	}
	var total int64
	end := size
	for end > 0 {
		// stream padding
		var word [4]byte
		for end >= 4 {
			if _, err := f.ReadAt(word[:], end-4); err != nil {
				return 0, err
			}
			if word != [4]byte{} {
				break
			}
			end -= 4
		}
		n, start, err := xzStream(f, end)
		if err != nil {
			return 0, err
		}
		total += n
		end = start
	}
	return total, nil
}

// xzStream reads the footer and index of the stream that ends at end,
// returning the length of its data and where the stream starts.
func xzStream(f io.ReaderAt, end int64) (n, start int64, err error) {
	var foot [12]byte
	if end < 24 || end%4 != 0 {
		return 0, 0, fmt.Errorf("truncated xz stream (%d bytes)", end)
	}
	if _, err := f.ReadAt(foot[:], end-12); err != nil {
		return 0, 0, err
	}
	if string(foot[10:]) != string(xzFooterMagic) {
		return 0, 0, errors.New("no xz stream footer (truncated?)")
	}
	if crc32.ChecksumIEEE(foot[4:10]) != binary.LittleEndian.Uint32(foot[:4]) {
		return 0, 0, errors.New("bad xz stream footer checksum")
	}
	isize := (int64(binary.LittleEndian.Uint32(foot[4:8])) + 1) * 4
	if isize > xzMaxIndex || isize > end-24 {
		return 0, 0, fmt.Errorf("bad xz index size %d", isize)
	}
	index := make([]byte, isize)
	if _, err := f.ReadAt(index, end-12-isize); err != nil {
		return 0, 0, err
	}
	blocks, n, err := xzIndex(index)
	if err != nil {
		return 0, 0, err
	}
	start = end - 12 - isize - blocks - 12
	if start < 0 {
		return 0, 0, errors.New("xz index does not fit in the file")
	}
	var head [12]byte
	if _, err := f.ReadAt(head[:], start); err != nil {
		return 0, 0, err
	}
	if string(head[:6]) != string(xzHeaderMagic) || string(head[6:8]) != string(foot[8:10]) {
		return 0, 0, errors.New("xz stream header does not match its footer")
	}
	return n, start, nil
}

// xzIndex decodes an xz index, returning the space its blocks take
// (padded) and the length of their data.
func xzIndex(b []byte) (blocks, n int64, err error) {
	if len(b) < 8 || b[0] != 0 {
		return 0, 0, errors.New("bad xz index")
	}
	body := b[:len(b)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return 0, 0, errors.New("bad xz index checksum")
	}
	p := body[1:]
	count, k := binary.Uvarint(p)
	if k <= 0 {
		return 0, 0, errors.New("bad xz index record count")
	}
	p = p[k:]
	for i := uint64(0); i < count; i++ {
		unpadded, k1 := binary.Uvarint(p)
		if k1 <= 0 {
			return 0, 0, errors.New("bad xz index record")
		}
		size, k2 := binary.Uvarint(p[k1:])
		if k2 <= 0 || unpadded == 0 || unpadded > 1<<62 || size > 1<<62 {
			return 0, 0, errors.New("bad xz index record")
		}
		p = p[k1+k2:]
		blocks += int64((unpadded + 3) &^ 3)
		n += int64(size)
		if blocks < 0 || n < 0 {
			return 0, 0, errors.New("bad xz index record")
		}
	}
	if len(p) > 3 {
		return 0, 0, errors.New("bad xz index padding")
	}
	for _, c := range p {
		if c != 0 {
			return 0, 0, errors.New("bad xz index padding")
		}
	}
	return blocks, n, nil
}

// xzFileLength is xzLength of the file at path.
func xzFileLength(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return xzLength(f, st.Size())
}
