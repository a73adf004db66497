package httpx

// This file and the other client*.go files are the outgoing side of httpx:
// the client that contract tests and their fixtures send requests with
// (proxies from the environment, mutual TLS, a timeout per request, no
// redirects followed) and the retries of 429 responses after Retry-After.

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// DefaultTimeout bounds one request of a contract test, from connecting to
// the last byte of the response, when ClientOptions.Timeout is zero.
const DefaultTimeout = 30 * time.Second

// ClientOptions configure NewClient.
type ClientOptions struct {
	// Timeout bounds each request (each attempt of a retried one); zero
	// means DefaultTimeout, a negative value no bound.
	Timeout time.Duration
	// Getenv reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY (and their lower
	// case spellings); nil reads the process environment.
	Getenv func(string) string
	// TLS configures certificates; nil uses the system's roots and sends
	// no client certificate.
	TLS *TLSFiles
	// MaxConnsPerHost bounds the connections kept to one host; zero means
	// 16, enough for the parallelism of a contract-test run.
	MaxConnsPerHost int
}

// TLSFiles name PEM files for TLS. With CertFile and KeyFile the client
// presents that certificate to servers that ask for one (mutual TLS).
type TLSFiles struct {
	CertFile string // client certificate chain, PEM
	KeyFile  string // its private key, PEM
	// CAFile holds the certificates that may sign the server's, in
	// addition to the system's roots.
	CAFile string
	// ServerName overrides the name the server's certificate is checked
	// against (the URL's host by default).
	ServerName string
	// InsecureSkipVerify accepts any server certificate: for test
	// environments with self-signed certificates only.
	InsecureSkipVerify bool
}

// NewClient returns the client of contract tests: it honours the proxy
// variables, presents the client certificate of opts.TLS, bounds each
// request by opts.Timeout and returns redirects as they are, since a
// contract test checks the response the service gave, not the one a
// redirect leads to.
func NewClient(opts ClientOptions) (*http.Client, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	proxy, err := ProxyFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	tlsConfig, err := opts.TLS.config()
	if err != nil {
		return nil, err
	}
	conns := opts.MaxConnsPerHost
	if conns <= 0 {
		conns = 16
	}
	transport := &http.Transport{
		Proxy:                 proxy,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSClientConfig:       tlsConfig,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          conns * 4,
		MaxIdleConnsPerHost:   conns,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	timeout := opts.Timeout
	switch {
	case timeout == 0:
		timeout = DefaultTimeout
	case timeout < 0:
		timeout = 0
	}
	return &http.Client{
		Transport: transport,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}, nil
}

// config builds the TLS configuration; nil files give nil (Go's defaults).
func (f *TLSFiles) config() (*tls.Config, error) {
	if f == nil || *f == (TLSFiles{}) {
		return nil, nil
	}
	c := &tls.Config{ServerName: f.ServerName, InsecureSkipVerify: f.InsecureSkipVerify, MinVersion: tls.VersionTLS12}
	switch {
	case f.CertFile != "" && f.KeyFile != "":
		cert, err := tls.LoadX509KeyPair(f.CertFile, f.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("client certificate %s with key %s: %w", f.CertFile, f.KeyFile, err)
		}
		c.Certificates = []tls.Certificate{cert}
	case f.CertFile != "":
		return nil, fmt.Errorf("client certificate %s has no key file", f.CertFile)
	case f.KeyFile != "":
		return nil, fmt.Errorf("client key %s has no certificate file", f.KeyFile)
	}
	if f.CAFile != "" {
		pem, err := os.ReadFile(f.CAFile)
		if err != nil {
			return nil, fmt.Errorf("CA certificates: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("CA certificates %s: no PEM certificate found", f.CAFile)
		}
		c.RootCAs = pool
	}
	return c, nil
}

// IsTimeout reports whether err is a request that ran out of time.
func IsTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
