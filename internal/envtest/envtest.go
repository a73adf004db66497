// Package envtest builds the environment variables that tests hand to code
// which reads them through a getenv function instead of the process's
// environment. Only tests import it.
package envtest

import "maps"

// Vars returns a new map of base's variables with the name/value pairs of
// kv set over them; an odd last name is set to "".
func Vars(base map[string]string, kv ...string) map[string]string {
	m := maps.Clone(base)
	if m == nil {
		m = map[string]string{}
	}
	for i := 0; i < len(kv); i += 2 {
		v := ""
		if i+1 < len(kv) {
			v = kv[i+1]
		}
		m[kv[i]] = v
	}
	return m
}

// Getenv reads variables from vars as os.Getenv reads the process's: ""
// for one that is not set.
func Getenv(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}
