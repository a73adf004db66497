package specgate.rules["tags-unique_test"]

import data.specgate.rules["tags-unique"] as rule

tag(name, i) := {"name": name, "source": ["tags", i]}

test_unique_tags_pass if {
	count(rule.violations) == 0 with input as {"tags": [tag("pets", 0), tag("Pets", 1)]}
}

test_repeated_tag if {
	vs := rule.violations with input as {"tags": [tag("pets", 0), tag("users", 1), tag("pets", 2)]}
	vs == {{"path": ["tags", 2, "name"], "message": `tag "pets" is declared twice (tags 0 and 2); tag names are unique`}}
}

# Every repeat names the first tag; a tag without a name is not compared.
test_each_repeat_names_the_first if {
	vs := rule.violations with input as {"tags": [{"source": ["tags", 0]}, tag("pets", 1), {"source": ["tags", 2]}, tag("pets", 3), tag("pets", 4)]}
	vs == {
		{"path": ["tags", 3, "name"], "message": `tag "pets" is declared twice (tags 1 and 3); tag names are unique`},
		{"path": ["tags", 4, "name"], "message": `tag "pets" is declared twice (tags 1 and 4); tag names are unique`},
	}
}
