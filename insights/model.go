// Package insights owns what specgate sends to an insights service and
// what it asks it: the submission format (a run's reports with the CI
// metadata of the build that made it, one result per specification), the
// CI metadata read from the CI provider's variables, SPECGATE_* variables,
// -Dspecgate.* system properties and options, the client that submits
// with retries and asks which consumers use an operation, the spec
// metadata report (spec_metadata_report.json) and the compatibility
// verdicts that name affected consumers. docs/insights-api.yaml is the
// HTTP API; package insightsd is a server of it.
package insights

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/specgate/specgate/reports"
)

// SchemaVersion is the version of the submission format this package
// writes; a service refuses versions it does not know.
const SchemaVersion = 1

// Submission is one run's reports as the insights service receives them.
type Submission struct {
	SchemaVersion int `json:"schemaVersion"`
	// ID is made by the client from the content (ContentID): a
	// submission sent again (a retry after a timeout, the same reports
	// sent twice) has the same ID, so that the service stores it once.
	ID string `json:"id"`
	// Command is the specgate command that ran: test, mock, run-suite,
	// backward-compatibility-check, spec-metadata-report (or send-report,
	// for reports written earlier).
	Command string `json:"command"`
	// Kind is what the run reports, as package reports names it: contract,
	// stub-usage, workflow, backward-compatibility, or spec-metadata.
	Kind string `json:"kind"`
	Tool Tool   `json:"tool"`
	CI   CI     `json:"ci"`
	// Shard is the part of a sharded run (--shard i/n) the submission
	// reports; nil for a whole run. The service combines the shards of one
	// build into one result.
	Shard *Shard    `json:"shard,omitempty"`
	Start time.Time `json:"start,omitzero"`
	Stop  time.Time `json:"stop,omitzero"`
	// Results holds one result per specification the run judged.
	Results []SpecResult `json:"results"`
	Reports Reports      `json:"reports"`
}

// Shard is one part of a sharded run: the Index-th of Count, from 1.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// ParseShard reads a shard as CTRF reports name it ("2/4"); "" is no
// shard (nil).
func ParseShard(s string) (*Shard, error) {
	if s == "" {
		return nil, nil
	}
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || count < 2 || index < 1 || index > count {
		return nil, fmt.Errorf("shard %q is not i/n with 1 ≤ i ≤ n and n ≥ 2", s)
	}
	return &Shard{Index: index, Count: count}, nil
}

func (s *Shard) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) }

// Tool names the program that made the reports.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// SpecMetadataKind is the kind of a submission of the spec metadata report.
const SpecMetadataKind = "spec-metadata"

// Reports are the run's reports as written: the CTRF report (with its
// coverageMetrics) of a test, mock or run-suite run; the JSON report of a
// compatibility check; the spec metadata report.
type Reports struct {
	CTRF         json.RawMessage     `json:"ctrf,omitempty"`
	Compat       json.RawMessage     `json:"compat,omitempty"`
	SpecMetadata *SpecMetadataReport `json:"specMetadata,omitempty"`
}

// SpecRef names a specification the same way from every repository that
// reads it: its path within its git repository, after the repository's
// origin ("github.com/acme/contracts/specs/orders.yaml"); the path within
// the repository without an origin; the path from the working directory
// outside git; a URL as it is.
type SpecRef struct {
	ID         string `json:"id"`
	Repository string `json:"repository,omitempty"` // RepoKey of the origin
	Path       string `json:"path"`                 // within the repository, with slashes
	// File is the spec as the reports name it.
	File string `json:"file,omitempty"`
}

// Status words of a SpecResult beyond the compatibility verdicts.
const (
	StatusPassed    = "passed"    // tests: none failed and some passed; stub usage: some operation used
	StatusFailed    = "failed"    // tests: some failed
	StatusSkipped   = "skipped"   // tests: none ran to a verdict; stub usage: no operation used
	StatusPublished = "published" // spec metadata
	StatusInvalid   = "invalid"   // spec metadata of a specification with problems
)

// SpecResult is what a run says of one specification.
type SpecResult struct {
	Spec SpecRef `json:"spec"`
	// Status is passed, failed or skipped for tests and stub usage;
	// compatible, incompatible, error or skipped for a compatibility
	// check; published, or invalid with problems, for the spec metadata.
	Status string `json:"status"`
	// Tests counts the specification's tests (test, mock, run-suite).
	Tests *TestCounts `json:"tests,omitempty"`
	// Coverage counts its operations (test).
	Coverage *reports.CoverageMetrics `json:"coverage,omitempty"`
	// UsedOperations are the operations a mock's clients requested, "GET
	// /pets": what makes the repository a consumer of them.
	UsedOperations []string `json:"usedOperations,omitempty"`
	// Compat is the verdict of a compatibility check.
	Compat *CompatResult `json:"compat,omitempty"`
	// Operations counts the operations of the spec metadata.
	Operations int `json:"operations,omitempty"`
}

// TestCounts count tests by status.
type TestCounts struct {
	Tests   int `json:"tests"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	Other   int `json:"other"`
}

// Consumer check outcomes of a compatibility result.
const (
	ConsumersFound  = "affected-consumers"
	ConsumersNone   = "no-reported-consumers"
	ConsumersFailed = "insights-check-failed"
)

// CompatResult is the verdict on one specification, and the operations
// its failing changes affect, each once.
type CompatResult struct {
	Verdict  string `json:"verdict"`
	Reason   string `json:"reason"`
	Message  string `json:"message"`
	Base     string `json:"base,omitempty"`
	Breaking int    `json:"breaking"`
	Warnings int    `json:"warnings"`
	// AffectedOperations lists each operation a failing change affects
	// once, with the rules of those changes and its consumers.
	AffectedOperations []AffectedOperation `json:"affectedOperations,omitempty"`
	// ConsumerCheck is how asking the service for consumers went:
	// affected-consumers, no-reported-consumers, insights-check-failed;
	// "" when it was not asked.
	ConsumerCheck string `json:"consumerCheck,omitempty"`
}

// AffectedOperation is an operation a failing change affects.
type AffectedOperation struct {
	Operation string   `json:"operation"` // "GET /pets"
	Rules     []string `json:"rules"`
	Consumers []string `json:"consumers,omitempty"` // repository ids
}

// Receipt is the service's answer to a submission.
type Receipt struct {
	ID         string    `json:"id"`
	ReceivedAt time.Time `json:"receivedAt"`
	// Duplicate is set when the service had the submission already (a
	// retry or a resend of one it stored): it was not stored again.
	Duplicate bool `json:"duplicate,omitempty"`
}

// Consumers is the service's answer to which repositories consume the
// operations of a specification.
type Consumers struct {
	Spec       string               `json:"spec"`
	Operations []OperationConsumers `json:"operations"`
}

// OperationConsumers are the consumers of one operation.
type OperationConsumers struct {
	Operation string     `json:"operation"`
	Consumers []Consumer `json:"consumers"`
}

// Consumer is a repository whose latest mock run of the specification
// received requests for the operation.
type Consumer struct {
	RepoID       string    `json:"repoId"`
	Branch       string    `json:"branch,omitempty"`
	Commit       string    `json:"commit,omitempty"`
	BuildID      string    `json:"buildId,omitempty"`
	LastSeen     time.Time `json:"lastSeen"`
	SubmissionID string    `json:"submissionId"`
}

// Result is a SpecResult as the service files it: with the submission it
// came in and the build that made it. The result of a sharded build is
// its shards' results combined (tests summed, coverage merged), with the
// newest shard's submission and CI metadata, and Shards says which shards
// it holds.
type Result struct {
	SubmissionID string    `json:"submissionId"`
	ReceivedAt   time.Time `json:"receivedAt"`
	Command      string    `json:"command"`
	Kind         string    `json:"kind"`
	CI           CI        `json:"ci"`
	Shards       *ShardSet `json:"shards,omitempty"`
	SpecResult
}

// ShardSet is the shards a combined result holds: Count shards in all,
// Received those the service has, by index, each the submission of its
// latest run attempt.
type ShardSet struct {
	Count    int         `json:"count"`
	Complete bool        `json:"complete"` // every shard is received
	Received []ShardPart `json:"received"`
}

// ShardPart is a shard received.
type ShardPart struct {
	Index        int       `json:"index"`
	SubmissionID string    `json:"submissionId"`
	RunAttempt   int       `json:"runAttempt,omitempty"`
	ReceivedAt   time.Time `json:"receivedAt"`
}

// Results is the service's answer to a query of results.
type Results struct {
	Results []Result `json:"results"`
}
