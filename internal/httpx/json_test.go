package httpx

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// TestRawAnswerHasItsLength: a JSON answer says its length and is sent
// whole, not in chunks (a view of 10 KB went out in three writes, the
// last one the chunks' end).
func TestRawAnswerHasItsLength(t *testing.T) {
	body := append([]byte(`{"x":"`), bytes.Repeat([]byte("a"), 10000)...)
	body = append(body, `"}`...)
	api := &API{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.Raw(w, http.StatusOK, body)
	}))
	defer srv.Close()
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(res.Body)
	if !bytes.Equal(got, body) {
		t.Fatalf("body: %d bytes, want %d", len(got), len(body))
	}
	if res.ContentLength != int64(len(body)) || res.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
		t.Errorf("Content-Length %d (%q), want %d", res.ContentLength, res.Header.Get("Content-Length"), len(body))
	}
	if len(res.TransferEncoding) > 0 {
		t.Errorf("Transfer-Encoding %v, want none", res.TransferEncoding)
	}
}
