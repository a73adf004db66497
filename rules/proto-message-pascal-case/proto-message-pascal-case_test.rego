package specgate.rules["proto-message-pascal-case_test"]

import data.specgate.rules["proto-message-pascal-case"] as rule

test_reports if {
	vs := rule.violations with input as {"proto": {"messages": [{"name": "book_shelf", "fullName": "a.book_shelf", "source": ["messages", "book_shelf"]}, {"name": "Book", "fullName": "a.Book", "source": ["messages", "Book"]}]}}
	vs == {{"path": ["messages", "book_shelf"], "message": `message a.book_shelf is not PascalCase (use "BookShelf")`}}
}
