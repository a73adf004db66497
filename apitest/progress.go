package apitest

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress is a Sink that shows a run as it goes. On a terminal it draws
// a bar with live counts on one line, redrawn in place at most ten times a
// second, and prints each failure above it; elsewhere (CI logs, files) it
// prints one line per test.
type Progress struct {
	w        io.Writer
	terminal bool
	color    bool
	// Verbose prints passed tests too on a terminal.
	Verbose bool

	mu      sync.Mutex
	total   int
	done    int
	passed  int
	failed  int
	skipped int
	start   time.Time
	drawn   time.Time
	width   int
	barLive bool
	now     func() time.Time
}

// NewProgress returns a progress sink writing to w; terminal selects the
// bar, color paints verdicts.
func NewProgress(w io.Writer, terminal, color bool) *Progress {
	return &Progress{w: w, terminal: terminal, color: color, width: 30, now: time.Now}
}

func (p *Progress) Begin(info *RunInfo) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.start = info.Total, p.now()
	if p.terminal {
		p.draw(true)
	}
}

func (p *Progress) Result(r *Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	switch r.Outcome {
	case Passed:
		p.passed++
	case Failed:
		p.failed++
	default:
		p.skipped++
	}
	if !p.terminal || r.Outcome == Failed || p.Verbose {
		p.clear()
		p.line(r)
	}
	if p.terminal {
		p.draw(false)
	}
}

func (p *Progress) End(s *Summary) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal {
		p.draw(true)
		fmt.Fprintln(p.w)
		p.barLive = false
	}
}

// line prints one test's verdict, and under a failure what failed.
func (p *Progress) line(r *Result) {
	verdict := map[Outcome]string{Passed: "PASS", Failed: "FAIL", Skipped: "SKIP"}[r.Outcome]
	if p.color {
		verdict = map[Outcome]string{Passed: "\x1b[32mPASS\x1b[0m", Failed: "\x1b[31mFAIL\x1b[0m", Skipped: "\x1b[33mSKIP\x1b[0m"}[r.Outcome]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", verdict, r.Test.Title())
	if r.Status != 0 {
		fmt.Fprintf(&b, " got %d", r.Status)
	}
	switch n := r.Retries(); {
	case n == 1:
		b.WriteString(" after 1 retry")
	case n > 1:
		fmt.Fprintf(&b, " after %d retries", n)
	}
	fmt.Fprintf(&b, " %s\n", r.Duration.Round(time.Millisecond))
	if r.Outcome != Passed {
		for _, l := range strings.Split(r.Message(), "\n") {
			if l != "" {
				b.WriteString("    ")
				b.WriteString(l)
				b.WriteByte('\n')
			}
		}
	}
	io.WriteString(p.w, b.String())
}

// clear erases the bar so that a line can be printed in its place.
func (p *Progress) clear() {
	if p.terminal && p.barLive {
		io.WriteString(p.w, "\r\x1b[K")
		p.barLive = false
	}
}

// draw redraws the bar, at most every 100 ms unless forced.
func (p *Progress) draw(force bool) {
	now := p.now()
	if !force && p.barLive && now.Sub(p.drawn) < 100*time.Millisecond {
		return
	}
	p.drawn = now
	var b strings.Builder
	b.WriteString("\r\x1b[K")
	if p.total > 0 {
		fill := p.width * min(p.done, p.total) / p.total
		b.WriteByte('[')
		b.WriteString(strings.Repeat("=", fill))
		if fill < p.width {
			b.WriteByte('>')
			b.WriteString(strings.Repeat(" ", p.width-fill-1))
		}
		fmt.Fprintf(&b, "] %3d%% %d/%d", 100*p.done/p.total, p.done, p.total)
	} else {
		fmt.Fprintf(&b, "%d tests", p.done)
	}
	fmt.Fprintf(&b, "  passed %d  failed %d", p.passed, p.failed)
	if p.skipped > 0 {
		fmt.Fprintf(&b, "  skipped %d", p.skipped)
	}
	if el := now.Sub(p.start); el > 0 && p.done > 0 {
		fmt.Fprintf(&b, "  %.1f tests/s", float64(p.done)/el.Seconds())
	}
	io.WriteString(p.w, b.String())
	p.barLive = true
}
