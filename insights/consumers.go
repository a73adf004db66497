package insights

import (
	"context"
	"fmt"
	"sort"

	"github.com/specgate/specgate/compat"
	"github.com/specgate/specgate/reports"
)

// ConsumerCheck is what the insights service said of the consumers of one
// compatibility result's affected operations.
type ConsumerCheck struct {
	// Outcome is affected-consumers, no-reported-consumers or
	// insights-check-failed; "" when the result needed no check (it is
	// compatible, or could not be checked).
	Outcome string
	// Consumers are the repository ids consuming each affected operation.
	Consumers map[string][]string
	Err       error
}

// CheckConsumers asks the service which repositories consume the operations
// that each incompatible result's failing changes affect (each operation
// once per specification; a deleted specification asks for all of its
// operations), and adds the answer to the result's message: the affected
// consumers by name with the operations they use, that no consumer is
// reported, or why the check failed. Verdicts and exit codes do not
// change: a breaking change breaks the contract whoever uses it today.
// The checks come back in rep.Results' order.
func CheckConsumers(ctx context.Context, cl *Client, rep *compat.Report, res *Resolver) []ConsumerCheck {
	checks := make([]ConsumerCheck, len(rep.Results))
	for i := range rep.Results {
		r := &rep.Results[i]
		if r.Verdict != compat.Incompatible {
			continue
		}
		var ops []string
		for _, op := range AffectedOperations(r, rep.Strict) {
			ops = append(ops, op.Operation)
		}
		if len(ops) == 0 && r.Reason != compat.ReasonDeleted {
			continue
		}
		ref := res.Ref(ctx, r.Spec)
		ans, err := cl.ConsumersOf(ctx, ref.ID, ops)
		check := &checks[i]
		if err != nil {
			check.Outcome, check.Err = ConsumersFailed, err
			r.Message += "; the consumers of the affected operations could not be checked: " + err.Error()
			continue
		}
		check.Consumers = map[string][]string{}
		byConsumer := map[string][]string{}
		for _, oc := range ans.Operations {
			for _, c := range oc.Consumers {
				check.Consumers[oc.Operation] = append(check.Consumers[oc.Operation], c.RepoID)
				byConsumer[c.RepoID] = append(byConsumer[c.RepoID], oc.Operation)
			}
		}
		if len(byConsumer) == 0 {
			check.Outcome = ConsumersNone
			r.Message += "; the insights service reports no consumer of " + operationsPhrase(ops)
			continue
		}
		check.Outcome = ConsumersFound
		r.Message += "; " + consumersPhrase(byConsumer)
	}
	return checks
}

func operationsPhrase(ops []string) string {
	switch len(ops) {
	case 0:
		return "its operations"
	case 1:
		return ops[0]
	}
	return reports.ShortList(ops, 3)
}

// consumersPhrase names each consumer with the operations it uses: "2
// affected consumers: billing (GET /pets), web (GET /pets, POST /pets)".
func consumersPhrase(byConsumer map[string][]string) string {
	names := make([]string, 0, len(byConsumer))
	for n := range byConsumer {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s (%s)", n, reports.ShortList(byConsumer[n], 3))
	}
	word := "affected consumers"
	if len(names) == 1 {
		word = "affected consumer"
	}
	return fmt.Sprintf("%d %s: %s", len(names), word, reports.ShortList(parts, 5))
}
