package specgate.rules["info-contact-properties_test"]

import data.specgate.rules["info-contact-properties"] as rule

run(contact) := vs if vs := rule.violations with input as {"document": {"info": {"contact": contact}}}

test_complete_contacts_pass if {
	count(run({"name": "Pets team", "email": "pets@acme.dev"})) == 0
	count(run({"name": "Pets team", "url": "https://acme.dev/support"})) == 0
	count(run({"name": "Pets team", "email": "mailto:pets@acme.dev", "url": "http://acme.dev"})) == 0
}

test_missing_name if {
	run({"email": "pets@acme.dev"}) == {{"path": ["info", "contact"], "message": "info.contact has no name; say which team owns the API"}}
}

test_missing_way_to_reach if {
	run({"name": "Pets team", "url": " "}) == {{"path": ["info", "contact"], "message": "info.contact has no url or email; say how to reach the team"}}
}

test_unusable_values if {
	run({"name": "Pets", "url": "acme.dev/support", "email": "pets-team"}) == {
		{"path": ["info", "contact", "url"], "message": `info.contact.url "acme.dev/support" is not an absolute http or https URL`},
		{"path": ["info", "contact", "email"], "message": `info.contact.email "pets-team" is not an email address`},
	}
}

test_empty_contact_is_left_to_info_contact if {
	count(run({})) == 0
	count(rule.violations) == 0 with input as {"document": {"info": {}}}
}
