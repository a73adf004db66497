package spec

import (
	"fmt"
	"math"

	yaml "go.yaml.in/yaml/v3"
)

// yamlAlias is one alias written in the file and the value it stands for.
type yamlAlias struct {
	y *yaml.Node
	n *Node
}

// aliasBudget is how many values a file of written values may expand to.
func aliasBudget(lim Limits, written int) int64 {
	return int64(lim.MaxAliasFactor)*int64(written) + 1000
}

// countWritten counts the values written in a YAML tree, not following
// aliases.
func countWritten(root *yaml.Node) int {
	n := 0
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		y := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		stack = append(stack, y.Content...)
	}
	return n
}

// checkAliases fails when the aliases of a document expand it beyond the
// alias budget, naming the alias that stands for the most values.
func (c *yamlConv) checkAliases(root *Node) error {
	if len(c.aliases) == 0 {
		return nil
	}
	budget := aliasBudget(c.lim, c.real)
	total := c.expanded(root)
	if total <= budget {
		return nil
	}
	worst := c.aliases[0]
	for _, a := range c.aliases[1:] {
		if c.expanded(a.n) > c.expanded(worst.n) {
			worst = a
		}
	}
	return &SyntaxError{Pos: c.pos(worst.y.Line, worst.y.Column), Msg: fmt.Sprintf(
		"YAML aliases expand %d written values to %d (*%s alone stands for %d), more than %d times as many plus 1000: an alias bomb? (--max-alias-expansion)",
		c.real, total, worst.y.Value, c.expanded(worst.n), c.lim.MaxAliasFactor)}
}

// expanded is the number of values n stands for once aliases are expanded,
// saturating instead of overflowing.
func (c *yamlConv) expanded(n *Node) int64 {
	if s, ok := c.size[n]; ok {
		return s
	}
	s := int64(1)
	add := func(k int64) {
		if s += k; s > math.MaxInt64/4 {
			s = math.MaxInt64 / 4
		}
	}
	for _, f := range n.Fields {
		add(c.expanded(f.Value))
	}
	for _, it := range n.Items {
		add(c.expanded(it))
	}
	c.size[n] = s
	return s
}
