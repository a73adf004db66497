package mock

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkServe measures the hot path of one answer (route, check,
// choose, render, log) through the handler, without the network.
func BenchmarkServe(b *testing.B) {
	for _, bc := range []struct{ name, spec, path string }{
		{"generated", corpusDir + "/petstore-expanded.yaml", "/v2/pets"},
		{"example", "testdata/pets.yaml", "/v1/pets/1"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			srv, err := New(context.Background(), Options{Specs: []SpecSource{{Path: bc.spec}}, WatchInterval: -1,
				Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
			if err != nil {
				b.Fatal(err)
			}
			h := srv.Handler()
			req := httptest.NewRequest(http.MethodGet, bc.path, nil)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
			}
		})
	}
}
