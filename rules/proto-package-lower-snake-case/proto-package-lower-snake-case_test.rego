package specgate.rules["proto-package-lower-snake-case_test"]

import data.specgate.rules["proto-package-lower-snake-case"] as rule

test_upper if {
	vs := rule.violations with input as {"proto": {"package": "Acme.bookShelf.v1", "packageSource": ["package"]}}
	vs == {{"path": ["package"], "message": `package Acme.bookShelf.v1 is not lower_snake_case (use "acme.book_shelf.v1")`}}
}

test_good if {
	count(rule.violations) == 0 with input as {"proto": {"package": "acme.book_shelf.v1", "packageSource": ["package"]}}
}
