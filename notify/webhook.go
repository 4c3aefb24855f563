package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// webhook POSTs each alert as JSON.
type webhook struct {
	cfg    *ReceiverConfig
	client *http.Client
}

func (w *webhook) send(ctx context.Context, a *Alert) error {
	return post(ctx, w.client, w.cfg, w.cfg.URLs[0], func() ([]byte, error) { return json.Marshal(a) })
}

// maxBackoff bounds the wait between two attempts.
const maxBackoff = time.Hour

// post sends the body made by body (again for each attempt) to url,
// trying again after failures that may pass (network errors, 5xx and
// 429) with the receiver's backoff doubled each time.
func post(ctx context.Context, client *http.Client, cfg *ReceiverConfig, url string, body func() ([]byte, error)) error {
	wait := cfg.Backoff
	for try := 0; ; try++ {
		b, err := body()
		if err != nil {
			return err
		}
		again, err := postOnce(ctx, client, cfg, url, b)
		if err == nil {
			return nil
		}
		if !again || try >= cfg.Retries {
			if try > 0 {
				return fmt.Errorf("%v (after %d attempts)", err, try+1)
			}
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%v (gave up: %v)", err, ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, maxBackoff)
	}
}

// postOnce makes one request; again says whether a failure may pass.
func postOnce(ctx context.Context, client *http.Client, cfg *ReceiverConfig, url string, body []byte) (again bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "pmie-alerting")
	for k, v := range cfg.Headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return true, err
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 == 2 {
		return false, nil
	}
	err = fmt.Errorf("POST %s: %s", url, resp.Status)
	if len(bytes.TrimSpace(text)) > 0 {
		err = fmt.Errorf("%v: %s", err, bytes.TrimSpace(text))
	}
	return resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests, err
}
