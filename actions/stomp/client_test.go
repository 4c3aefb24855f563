package stomp

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/stomptest"
)

// start starts a broker stand-in of behaviour b and a client of it whose
// messages (Info ones too) are collected in msgs, "Error: ..." and
// "Info: ...".
func start(t *testing.T, b string, timeout int) (*stomptest.Broker, *Client, *[]string) {
	t.Helper()
	beh, err := stomptest.ParseBehaviour(b)
	if err != nil {
		t.Fatal(err)
	}
	br, err := stomptest.Start("127.0.0.1:0", beh)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(br.Close)
	var msgs []string
	c := &Client{Cfg: &Config{Host: "127.0.0.1", Port: br.Port(), User: "joe", Pass: "secret", Timeout: timeout, Topic: "PMIE"},
		Verbose: true,
		Info:    func(m string) { msgs = append(msgs, "Info: "+m) },
		Error:   func(m string) { msgs = append(msgs, "Error: "+m) }}
	t.Cleanup(c.Close)
	return br, c, &msgs
}

// TestReconnectRecordings replays real pmie's two long runs against a
// broker that closes the connection after each first message
// (testdata/golden/pmie-stomp/reconnect-*.txt): a stomp action every 20
// and every 65 seconds, the clock the client reads standing at each
// evaluation's time. The messages, the actions that fail and every byte
// the broker receives must be pmie's.
func TestReconnectRecordings(t *testing.T) {
	stamp := regexp.MustCompile(`^\[\w{3} (\w{3} [ \d]\d \d\d:\d\d:\d\d)\] pmie\(\d+\) (.*)$`)
	printed := regexp.MustCompile(`^\w{3} (\w{3} [ \d]\d \d\d:\d\d:\d\d) \d{4}: (.*)$`)
	for _, every := range []int{20, 65} {
		t.Run(strconv.Itoa(every), func(t *testing.T) {
			data, err := os.ReadFile(fmt.Sprintf("../../testdata/golden/pmie-stomp/reconnect-%d.txt", every))
			if err != nil {
				t.Fatal(err)
			}
			text, record, _ := strings.Cut(string(data), "--- record\n")
			// pmie's lines, at seconds from its first evaluation (one
			// interval before the first line)
			var want []string
			var t0 time.Time
			sc := bufio.NewScanner(strings.NewReader(text))
			for sc.Scan() {
				m := stamp.FindStringSubmatch(sc.Text())
				if m == nil {
					m = printed.FindStringSubmatch(sc.Text())
				}
				if m == nil || strings.Contains(m[2], "evaluator exiting") {
					continue
				}
				at, err := time.Parse("Jan _2 15:04:05", m[1])
				if err != nil {
					t.Fatal(err)
				}
				if t0.IsZero() {
					t0 = at.Add(-time.Duration(every) * time.Second)
				}
				want = append(want, fmt.Sprintf("+%d %s", int(at.Sub(t0).Seconds()), m[2]))
			}
			br, c, msgs := start(t, "close-at=4", 2)
			c.Verbose = false
			now := time.Unix(1e9, 0)
			c.Now = func() time.Time { return now }
			if !c.Start() {
				t.Fatalf("no connection: %q", *msgs)
			}
			var got []string
			conns := 1
			port := strconv.Itoa(br.Port())
			for at := 0; at <= runFor(t, text); at += every {
				now = time.Unix(1e9+int64(at), 0)
				*msgs = nil
				ok := c.Send("msg 2")
				for _, m := range *msgs {
					m = strings.ReplaceAll(m, port, "@PORT@")
					got = append(got, fmt.Sprintf("+%d %s", at, m))
				}
				if strings.Contains(strings.Join(*msgs, "\n"), "Reconnected") {
					conns++
				}
				if !ok {
					got = append(got, fmt.Sprintf("+%d alt", at))
				} else if !br.Settle(conns, 5*time.Second) {
					// the broker closes after the message: wait for that
					// before the next evaluation, as a second passes in pmie's
					t.Fatalf("+%d: the broker did not close the connection", at)
				}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got:\n%s\nwant (pmie's):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if rec := br.Record(); rec != record {
				t.Errorf("broker saw:\n%s\npmie's broker saw:\n%s", rec, record)
			}
		})
	}
}

// runFor is the -T of a recording's command line, in seconds.
func runFor(t *testing.T, text string) int {
	m := regexp.MustCompile(` -T (\d+) `).FindStringSubmatch(text)
	if m == nil {
		t.Fatal("no -T in the recording's command line")
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestEmptyMessage checks that a stomp action with an empty message sends
// a frame with an empty body (pmie 6.0.3 crashes on it, README).
func TestEmptyMessage(t *testing.T) {
	br, c, msgs := start(t, "", 2)
	if !c.Start() || !c.Send("") {
		t.Fatalf("not sent: %q", *msgs)
	}
	c.Close()
	br.Settle(1, 5*time.Second)
	if rec := br.Record(); !strings.Contains(rec, `"SEND\ndestination:/topic/PMIE\n\n\x00\n"`) {
		t.Errorf("no empty SEND frame:\n%s", rec)
	}
}

// TestClosedWhileAcknowledging checks that a broker that answers and then
// closes the connection while the acknowledgement is read fails the
// connection at once, where pmie reads the connection's end for ever
// (README).
func TestClosedWhileAcknowledging(t *testing.T) {
	for _, b := range []string{"close-at=1", "replies=1 close-at=1", "close-at=2"} {
		_, c, msgs := start(t, b, 30)
		began := time.Now()
		if c.Start() {
			t.Errorf("%s: connected", b)
		}
		if d := time.Since(began); d > 10*time.Second {
			t.Errorf("%s: took %v", b, d)
		}
		if got := strings.Join(*msgs, "\n"); !strings.Contains(got, "Error: Error recving from server 127.0.0.1:") ||
			!strings.Contains(got, "Could not read STOMP ACK frame") {
			t.Errorf("%s: messages %q", b, *msgs)
		}
	}
}

// TestStalledBroker checks that a broker that stops reading fails a send
// after the timeout instead of holding the evaluation for ever, and that
// the connection is then given up.
func TestStalledBroker(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a connection")
	}
	_, c, msgs := start(t, "stall-at=3", 1)
	if !c.Start() {
		t.Fatalf("no connection: %q", *msgs)
	}
	big := strings.Repeat("m", 8<<20)
	sent := 0
	for ; sent < 16 && c.Send(big); sent++ {
	}
	if sent == 16 {
		t.Fatal("128 MB went to a broker that reads nothing")
	}
	want := "Error: Write error to JMS server 127.0.0.1:"
	if n := len(*msgs); n == 0 || !strings.HasPrefix((*msgs)[n-1], want) ||
		!strings.HasSuffix((*msgs)[n-1], " - Connection timed out") {
		t.Errorf("messages %q", *msgs)
	}
	if c.conn != nil {
		t.Error("the connection was kept")
	}
}

// TestSilentBroker checks the acknowledgement's timeout: a broker that
// says nothing fails the connection after it, with pmie's messages.
func TestSilentBroker(t *testing.T) {
	_, c, msgs := start(t, "replies=0", 1)
	c.Verbose = false
	if c.Start() {
		t.Fatal("connected")
	}
	want := []string{"Error: Timed out waiting for server 127.0.0.1:" + strconv.Itoa(c.Cfg.Port) + " - Operation now in progress",
		"Error: Could not read STOMP ACK frame."}
	if strings.Join(*msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages %q, want %q", *msgs, want)
	}
}
