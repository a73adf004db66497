package specgate.lib.util_test

import data.specgate.lib.util

test_unescape if {
	util.unescape("Pet") == "Pet"
	util.unescape("a~1b") == "a/b"
	util.unescape("a~0b") == "a~b"
	# "~01" is an escaped "~" followed by "1", not "/".
	util.unescape("~01") == "~1"
	util.unescape("") == ""
}

test_escape if {
	util.escape("Pet") == "Pet"
	util.escape("a/b") == "a~1b"
	util.escape("a~b") == "a~0b"
	util.escape("~1") == "~01"
	util.escape("") == ""
}

test_escape_round_trip if {
	every key in ["/pets/{id}", "x~y/z", "~0~1", "plain"] {
		util.unescape(util.escape(key)) == key
	}
}

test_ref_path if {
	util.ref_path("#/components/responses/Not~1Found") == ["components", "responses", "Not/Found"]
	not util.ref_path("pet.yaml#/Pet")
}
