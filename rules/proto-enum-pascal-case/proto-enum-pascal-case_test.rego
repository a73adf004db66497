package specgate.rules["proto-enum-pascal-case_test"]

import data.specgate.rules["proto-enum-pascal-case"] as rule

test_reports if {
	vs := rule.violations with input as {"proto": {"enums": [{"name": "book_genre", "fullName": "a.book_genre", "source": ["enums", "book_genre"]}]}}
	vs == {{"path": ["enums", "book_genre"], "message": `enum a.book_genre is not PascalCase (use "BookGenre")`}}
}
