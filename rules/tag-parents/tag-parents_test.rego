package specgate.rules["tag-parents_test"]

import data.specgate.rules["tag-parents"] as rule

tag(name, parent, i) := {"name": name, "node": {"name": name, "parent": parent}, "source": ["tags", i]}

root(name, i) := {"name": name, "node": {"name": name}, "source": ["tags", i]}

test_tree_passes if {
	count(rule.violations) == 0 with input as {"tags": [root("animals", 0), tag("cats", "animals", 1), tag("lions", "cats", 2)]}
}

test_unknown_parent if {
	vs := rule.violations with input as {"tags": [tag("cats", "animals", 0)]}
	vs == {{"path": ["tags", 0, "parent"], "message": `the parent "animals" of tag "cats" is not a tag of the document`}}
}

test_loop if {
	vs := rule.violations with input as {"tags": [tag("a", "b", 0), tag("b", "a", 1), tag("c", "a", 2)]}
	vs == {
		{"path": ["tags", 0, "parent"], "message": `the parents of tag "a" lead back to it; tag parents must form a tree`},
		{"path": ["tags", 1, "parent"], "message": `the parents of tag "b" lead back to it; tag parents must form a tree`},
	}
}
