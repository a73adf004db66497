package specgate.rules["tags-alphabetical_test"]

import data.specgate.rules["tags-alphabetical"] as rule

run(names) := vs if vs := rule.violations with input as {"tags": [{"name": n, "source": ["tags", i]} | some i, n in names]}

test_sorted_without_case if {
	count(run(["Accounts", "billing", "Pets", "pets", "users"])) == 0
}

test_descents_are_reported if {
	run(["stores", "pets", "users", "Orders"]) == {
		{"path": ["tags", 1], "message": `tag "pets" is listed after "stores"; list tags in alphabetical order`},
		{"path": ["tags", 3], "message": `tag "Orders" is listed after "users"; list tags in alphabetical order`},
	}
}

test_plain_sort_order_is_accepted if {
	count(run(["AuthRegistrations", "Authorized", "apps"])) == 0
}
