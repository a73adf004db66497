package specgate.rules["proto-file-lower-snake-case_test"]

import data.specgate.rules["proto-file-lower-snake-case"] as rule

test_camel if {
	vs := rule.violations with input as {"proto": {"file": "BookShelf.proto"}}
	vs == {{"path": [], "message": `file name BookShelf.proto is not lower_snake_case (use "book_shelf.proto")`}}
}

test_good if {
	count(rule.violations) == 0 with input as {"proto": {"file": "book_shelf.proto"}}
}
