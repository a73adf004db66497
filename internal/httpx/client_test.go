package httpx

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/envtest"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		err  string
	}{
		{in: "120", want: 120 * time.Second},
		{in: " 0 ", want: 0},
		{in: "1.5", want: 1500 * time.Millisecond},
		{in: "Fri, 14 Mar 2025 09:27:03 GMT", want: 10 * time.Second},  // IMF-fixdate
		{in: "Friday, 14-Mar-25 09:27:03 GMT", want: 10 * time.Second}, // RFC 850
		{in: "Fri Mar 14 09:27:03 2025", want: 10 * time.Second},       // asctime
		{in: "Fri, 14 Mar 2025 09:00:00 GMT", want: 0},                 // in the past
		{in: "2025-03-14T09:27:03Z", want: 10 * time.Second},           // ISO-8601, UTC
		{in: "2025-03-14T09:27:03.5Z", want: 10500 * time.Millisecond}, // fractions
		{in: "2025-03-14T10:27:03+01:00", want: 10 * time.Second},      // offset
		{in: "2025-03-14T10:27:03+0100", want: 10 * time.Second},       // basic offset
		{in: "2025-03-14T09:27:03", want: 10 * time.Second},            // no offset: UTC
		{in: "2025-03-14T09:28Z", want: 67 * time.Second},              // no seconds
		{in: "", err: "empty Retry-After"},
		{in: "soon", err: `Retry-After "soon" is neither seconds, an HTTP date nor an ISO-8601 timestamp`},
		{in: "-5", err: `Retry-After "-5" is neither`},
		{in: "1e3", err: `Retry-After "1e3" is neither`},
	}
	for _, tt := range tests {
		got, err := ParseRetryAfter(tt.in, now)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseRetryAfter(%q) = %v, %v; want error %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// recordSleeps is a Sender.Sleep that waits for nothing and notes the
// waits asked for.
type recordSleeps struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (r *recordSleeps) sleep(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waits = append(r.waits, d)
	return ctx.Err()
}

func TestSenderRetries429(t *testing.T) {
	now := time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)
	forms := map[string]struct {
		header string
		wait   time.Duration
	}{
		"seconds":   {"2", 2 * time.Second},
		"HTTP date": {"Fri, 14 Mar 2025 09:26:56 GMT", 3 * time.Second},
		"ISO-8601":  {"2025-03-14T09:26:57Z", 4 * time.Second},
		"none":      {"", 250 * time.Millisecond},
		"garbage":   {"later", 250 * time.Millisecond},
	}
	for name, form := range forms {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				if string(body) != `{"a":1}` {
					t.Errorf("attempt %d sent body %q", calls.Load()+1, body)
				}
				if calls.Add(1) <= 2 {
					if form.header != "" {
						w.Header().Set("Retry-After", form.header)
					}
					w.WriteHeader(http.StatusTooManyRequests)
					return
				}
				fmt.Fprint(w, "ok")
			}))
			defer srv.Close()
			var rec recordSleeps
			s := &Sender{Client: srv.Client(), Retry: RetryPolicy{MaxRetries: 3, MaxWait: 10 * time.Second, DefaultWait: 250 * time.Millisecond},
				Sleep: rec.sleep, Now: func() time.Time { return now }}
			req, _ := http.NewRequest("POST", srv.URL+"/things", nil)
			attempts := s.Do(context.Background(), req, []byte(`{"a":1}`))
			if len(attempts) != 3 {
				t.Fatalf("%d attempts, want 3", len(attempts))
			}
			for i, a := range attempts[:2] {
				if a.Response.StatusCode != 429 || a.Wait != form.wait {
					t.Errorf("attempt %d: %d, wait %v; want 429, wait %v", i+1, a.Response.StatusCode, a.Wait, form.wait)
				}
				if !strings.Contains(a.Reason, "retried after") {
					t.Errorf("attempt %d reason %q", i+1, a.Reason)
				}
			}
			last := attempts[2]
			if last.Response.StatusCode != 200 || string(last.Body) != "ok" || last.Reason != "" {
				t.Errorf("last attempt: %d %q %q", last.Response.StatusCode, last.Body, last.Reason)
			}
			if len(rec.waits) != 2 || rec.waits[0] != form.wait {
				t.Errorf("slept %v, want twice %v", rec.waits, form.wait)
			}
		})
	}
}

func TestSenderStopsRetrying(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", r.URL.Query().Get("after"))
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	tests := []struct {
		after    string
		retries  int
		attempts int
		reason   string
	}{
		{after: "1", retries: 2, attempts: 3, reason: "still 429 after 2 retries"},
		{after: "3600", retries: 2, attempts: 1, reason: `429 with Retry-After "3600" asks for a wait of 1h0m0s, longer than the longest allowed (1m0s): not retried`},
		{after: "1", retries: 0, attempts: 1, reason: ""},
	}
	for _, tt := range tests {
		var rec recordSleeps
		s := &Sender{Client: srv.Client(), Retry: RetryPolicy{MaxRetries: tt.retries, MaxWait: time.Minute}, Sleep: rec.sleep}
		req, _ := http.NewRequest("GET", srv.URL+"/?after="+tt.after, nil)
		attempts := s.Do(context.Background(), req, nil)
		if len(attempts) != tt.attempts {
			t.Errorf("after=%s retries=%d: %d attempts, want %d", tt.after, tt.retries, len(attempts), tt.attempts)
			continue
		}
		if got := attempts[len(attempts)-1].Reason; got != tt.reason {
			t.Errorf("after=%s retries=%d: last reason %q, want %q", tt.after, tt.retries, got, tt.reason)
		}
	}
}

func TestSenderWaitsOnATimer(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "0.2")
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	s := &Sender{Client: srv.Client(), Retry: DefaultRetryPolicy}
	req, _ := http.NewRequest("GET", srv.URL, nil)
	start := time.Now()
	attempts := s.Do(context.Background(), req, nil)
	if len(attempts) != 2 || attempts[1].Response.StatusCode != 200 {
		t.Fatalf("attempts: %d", len(attempts))
	}
	if waited := time.Since(start); waited < 200*time.Millisecond {
		t.Errorf("retried after %v, before the 0.2 s asked for", waited)
	}

	// A cancelled run stops waiting.
	calls.Store(0)
	ctx, cancel := context.WithCancel(context.Background())
	s.Retry.DefaultWait = time.Hour
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
	})
	time.AfterFunc(100*time.Millisecond, cancel)
	attempts = s.Do(ctx, req, nil)
	if len(attempts) != 1 || !strings.HasSuffix(attempts[0].Reason, "(cancelled)") {
		t.Errorf("cancelled wait: %d attempts, reason %q", len(attempts), attempts[0].Reason)
	}
}

func TestSenderNetworkErrorsAndLimits(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			time.Sleep(300 * time.Millisecond)
		case "/big":
			w.Write([]byte(strings.Repeat("x", 100)))
		case "/redirect":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		}
	}))
	defer srv.Close()
	client, err := NewClient(ClientOptions{Timeout: 100 * time.Millisecond, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	s := &Sender{Client: client, MaxBody: 10}
	do := func(path string) Attempt {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		attempts := s.Do(context.Background(), req, nil)
		if len(attempts) != 1 {
			t.Fatalf("%s: %d attempts", path, len(attempts))
		}
		return attempts[0]
	}
	if a := do("/slow"); a.Err == nil || !IsTimeout(a.Err) {
		t.Errorf("/slow: err %v, want a timeout", a.Err)
	}
	if a := do("/big"); a.Err != nil || !a.Truncated || len(a.Body) != 10 {
		t.Errorf("/big: err %v, truncated %v, %d bytes", a.Err, a.Truncated, len(a.Body))
	}
	if a := do("/redirect"); a.Err != nil || a.Response.StatusCode != http.StatusFound || a.Response.Header.Get("Location") != "/elsewhere" {
		t.Errorf("/redirect was followed or failed: %+v", a)
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	req, _ := http.NewRequest("GET", closed.URL, nil)
	if a := s.Do(context.Background(), req, nil); a[0].Err == nil || !strings.Contains(a[0].Err.Error(), "connection refused") {
		t.Errorf("closed server: %v", a[0].Err)
	}
}

func TestProxyFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string { return envtest.Getenv(envtest.Vars(nil, kv...)) }
	tests := []struct {
		env  func(string) string
		url  string
		want string // proxy URL, "" for direct
	}{
		{env("HTTP_PROXY", "http://proxy:3128"), "http://api.example.com/x", "http://proxy:3128"},
		{env("HTTP_PROXY", "proxy:3128"), "http://api.example.com/x", "http://proxy:3128"},
		{env("http_proxy", "http://lower:1"), "http://api.example.com/x", "http://lower:1"},
		{env("HTTP_PROXY", "http://upper:1", "http_proxy", "http://lower:1"), "http://api.example.com/x", "http://upper:1"},
		{env("HTTP_PROXY", "http://proxy:3128"), "https://api.example.com/x", ""},
		{env("HTTPS_PROXY", "http://secure:3128"), "https://api.example.com/x", "http://secure:3128"},
		{env("HTTPS_PROXY", "socks5://socks:1080"), "https://api.example.com/x", "socks5://socks:1080"},
		{env("HTTP_PROXY", "http://proxy:3128"), "http://localhost:8080/x", ""},
		{env("HTTP_PROXY", "http://proxy:3128"), "http://127.0.0.1:8080/x", ""},
		{env("HTTP_PROXY", "http://proxy:3128"), "http://[::1]:8080/x", ""},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", "*"), "http://api.example.com/x", ""},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", "example.com"), "http://api.example.com/x", ""},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", "example.com"), "http://example.com/x", ""},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", "example.com"), "http://notexample.com/x", "http://proxy:3128"},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", ".example.com"), "http://example.com/x", "http://proxy:3128"},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", ".example.com"), "http://a.example.com/x", ""},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", "*.example.com"), "http://a.example.com/x", ""},
		{env("HTTP_PROXY", "http://proxy:3128", "no_proxy", "other.org, Example.COM:8080"), "http://api.example.com:8080/x", ""},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", "example.com:8080"), "http://api.example.com/x", "http://proxy:3128"},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", "10.0.0.0/8"), "http://10.1.2.3/x", ""},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", "10.0.0.0/8"), "http://11.1.2.3/x", "http://proxy:3128"},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", "192.168.1.7"), "http://192.168.1.7:9000/x", ""},
		{env("HTTP_PROXY", "http://proxy:3128", "NO_PROXY", "[2001:db8::1]:80"), "http://[2001:db8::1]/x", ""},
		{env(), "http://api.example.com/x", ""},
	}
	for i, tt := range tests {
		proxy, err := ProxyFromEnv(tt.env)
		if err != nil {
			t.Errorf("%d: %v", i, err)
			continue
		}
		req, _ := http.NewRequest("GET", tt.url, nil)
		got, err := proxy(req)
		if err != nil {
			t.Errorf("%d: %v", i, err)
			continue
		}
		gotS := ""
		if got != nil {
			gotS = got.String()
		}
		if gotS != tt.want {
			t.Errorf("%d: %s goes through %q, want %q", i, tt.url, gotS, tt.want)
		}
	}
	for _, bad := range []string{"ftp://proxy:21", "http://[::1"} {
		if _, err := ProxyFromEnv(env("HTTPS_PROXY", bad)); err == nil || !strings.Contains(err.Error(), "HTTPS_PROXY=") {
			t.Errorf("HTTPS_PROXY=%s: %v", bad, err)
		}
	}
}

// TestClientThroughProxies sends a plain request through a forward proxy
// and an https one through a CONNECT tunnel, both proxies on loopback,
// to hosts that only the proxy can reach.
func TestClientThroughProxies(t *testing.T) {
	target := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "tls %s %s", r.Host, r.URL.Path)
	}))
	defer target.Close()
	var seen []string
	var mu sync.Mutex
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.RequestURI)
		mu.Unlock()
		if r.Method != http.MethodConnect {
			fmt.Fprintf(w, "proxied %s", r.URL)
			return
		}
		upstream, err := net.Dial("tcp", target.Listener.Addr().String())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		fmt.Fprint(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
		go func() { io.Copy(upstream, buf); upstream.Close() }()
		io.Copy(conn, upstream)
		conn.Close()
	}))
	defer proxy.Close()

	caFile := filepath.Join(t.TempDir(), "ca.pem")
	writePEM(t, caFile, "CERTIFICATE", target.Certificate().Raw)
	env := map[string]string{"HTTP_PROXY": proxy.URL, "HTTPS_PROXY": proxy.URL, "NO_PROXY": "direct.example"}
	client, err := NewClient(ClientOptions{Getenv: func(k string) string { return env[k] }, TLS: &TLSFiles{CAFile: caFile, ServerName: "example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	get := func(u string) string {
		resp, err := client.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if got := get("http://api.internal.test/pets?limit=1"); got != "proxied http://api.internal.test/pets?limit=1" {
		t.Errorf("http through the proxy: %q", got)
	}
	if got := get("https://secure.internal.test/pets"); got != "tls secure.internal.test /pets" {
		t.Errorf("https through the tunnel: %q", got)
	}
	if _, err := client.Get("http://direct.example/"); err == nil {
		t.Error("NO_PROXY host direct.example was reached (through the proxy?)")
	}
	want := []string{"GET http://api.internal.test/pets?limit=1", "CONNECT secure.internal.test:443"}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("the proxy saw %q, want %q", seen, want)
	}
}

func TestClientMutualTLS(t *testing.T) {
	dir := t.TempDir()
	caKey, caCert := newCert(t, nil, nil, "test CA", true)
	clientKey, clientCert := newCert(t, caKey, caCert, "contract tests", false)
	writePEM(t, filepath.Join(dir, "client.pem"), "CERTIFICATE", clientCert.Raw)
	der, err := x509.MarshalECPrivateKey(clientKey)
	if err != nil {
		t.Fatal(err)
	}
	writePEM(t, filepath.Join(dir, "client.key"), "EC PRIVATE KEY", der)

	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, r.TLS.PeerCertificates[0].Subject.CommonName)
	}))
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused client below is expected
	srv.StartTLS()
	defer srv.Close()
	writePEM(t, filepath.Join(dir, "server-ca.pem"), "CERTIFICATE", srv.Certificate().Raw)

	noEnv := func(string) string { return "" }
	client, err := NewClient(ClientOptions{Getenv: noEnv, TLS: &TLSFiles{
		CertFile: filepath.Join(dir, "client.pem"), KeyFile: filepath.Join(dir, "client.key"),
		CAFile: filepath.Join(dir, "server-ca.pem"), ServerName: "example.com",
	}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "contract tests" {
		t.Errorf("the server saw client certificate %q", b)
	}

	without, err := NewClient(ClientOptions{Getenv: noEnv, TLS: &TLSFiles{CAFile: filepath.Join(dir, "server-ca.pem"), ServerName: "example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := without.Get(srv.URL); err == nil {
		resp.Body.Close()
		t.Error("the server accepted a client without a certificate")
	}

	bad := []struct {
		files TLSFiles
		want  string
	}{
		{TLSFiles{CertFile: filepath.Join(dir, "client.pem")}, "has no key file"},
		{TLSFiles{KeyFile: filepath.Join(dir, "client.key")}, "has no certificate file"},
		{TLSFiles{CertFile: filepath.Join(dir, "client.pem"), KeyFile: filepath.Join(dir, "server-ca.pem")}, "client certificate " + filepath.Join(dir, "client.pem")},
		{TLSFiles{CAFile: filepath.Join(dir, "missing.pem")}, "no such file"},
		{TLSFiles{CAFile: filepath.Join(dir, "client.key")}, "no PEM certificate found"},
	}
	for _, b := range bad {
		if _, err := NewClient(ClientOptions{Getenv: noEnv, TLS: &b.files}); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%+v: %v, want %q", b.files, err, b.want)
		}
	}
}

func newCert(t *testing.T, signerKey *ecdsa.PrivateKey, signer *x509.Certificate, cn string, ca bool) (*ecdsa.PrivateKey, *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		BasicConstraintsValid: true, IsCA: ca,
	}
	parent, parentKey := tmpl, key
	if signer != nil {
		parent, parentKey = signer, signerKey
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return key, cert
}

func writePEM(t *testing.T, name, kind string, der []byte) {
	t.Helper()
	if err := os.WriteFile(name, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestSleep(t *testing.T) {
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Errorf("Sleep of a millisecond: %v", err)
	}
	if err := Sleep(context.Background(), 0); err != nil {
		t.Errorf("Sleep(0): %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) || time.Since(start) > 10*time.Second {
		t.Errorf("Sleep with a canceled context = %v after %s, want context.Canceled at once", err, time.Since(start))
	}
}
