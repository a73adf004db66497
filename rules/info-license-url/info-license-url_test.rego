package specgate.rules["info-license-url_test"]

import data.specgate.rules["info-license-url"] as rule

run(formats, license) := vs if vs := rule.violations with input as {"formats": formats, "document": {"info": {"license": license}}}

test_url_passes if {
	count(run(["oas", "oas3", "oas3.0"], {"name": "MIT", "url": "https://opensource.org/licenses/MIT"})) == 0
}

test_oas30_needs_url if {
	run(["oas", "oas3", "oas3.0"], {"name": "MIT", "identifier": "MIT"}) == {{"path": ["info", "license"], "message": "info.license has no url; say where to read the license"}}
}

test_oas31_identifier_passes if {
	count(run(["oas", "oas3", "oas3.1"], {"name": "MIT", "identifier": "MIT"})) == 0
}

test_oas31_message if {
	run(["oas", "oas3", "oas3.1"], {"name": "Custom", "url": " "}) == {{"path": ["info", "license"], "message": "info.license has no url or SPDX identifier; say where to read the license"}}
}

test_no_license_is_left_to_info_license if {
	count(rule.violations) == 0 with input as {"formats": ["oas", "oas2"], "document": {"info": {"title": "x"}}}
}
