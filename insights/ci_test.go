package insights

import (
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/envtest"
)

// TestProviders reads each CI provider's variables, as its documentation
// names them, into the same fields.
func TestProviders(t *testing.T) {
	for _, tc := range []struct {
		name string
		vars map[string]string
		want CI
	}{
		{
			name: "github-actions push",
			vars: map[string]string{
				"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/orders", "GITHUB_SERVER_URL": "https://github.com",
				"GITHUB_REF": "refs/heads/main", "GITHUB_REF_NAME": "main", "GITHUB_SHA": "0123abc", "GITHUB_RUN_ID": "987654",
				"GITHUB_RUN_ATTEMPT": "2",
			},
			want: CI{Provider: "github-actions", RepoID: "acme/orders", RepoURL: "https://github.com/acme/orders", Branch: "main",
				Commit: "0123abc", BuildID: "987654", BuildURL: "https://github.com/acme/orders/actions/runs/987654", RunAttempt: 2},
		},
		{
			name: "github-actions pull request",
			vars: map[string]string{
				"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/orders", "GITHUB_SERVER_URL": "https://ghe.example.com/",
				"GITHUB_REF": "refs/pull/42/merge", "GITHUB_HEAD_REF": "feature/pay", "GITHUB_SHA": "m1", "GITHUB_RUN_ID": "5",
				"GITHUB_RUN_ATTEMPT": "1",
			},
			want: CI{Provider: "github-actions", RepoID: "acme/orders", RepoURL: "https://ghe.example.com/acme/orders", Branch: "feature/pay",
				Commit: "m1", BuildID: "5", BuildURL: "https://ghe.example.com/acme/orders/actions/runs/5", RunAttempt: 1, PullRequest: "42"},
		},
		{
			name: "gitlab-ci merge request",
			vars: map[string]string{
				"GITLAB_CI": "true", "CI_PROJECT_PATH": "acme/platform/orders", "CI_PROJECT_URL": "https://gitlab.com/acme/platform/orders",
				"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "feature/pay", "CI_COMMIT_SHA": "abc", "CI_PIPELINE_ID": "777",
				"CI_PIPELINE_URL": "https://gitlab.com/acme/platform/orders/-/pipelines/777", "CI_MERGE_REQUEST_IID": "12",
			},
			want: CI{Provider: "gitlab-ci", RepoID: "acme/platform/orders", RepoURL: "https://gitlab.com/acme/platform/orders", Branch: "feature/pay",
				Commit: "abc", BuildID: "777", BuildURL: "https://gitlab.com/acme/platform/orders/-/pipelines/777", PullRequest: "12"},
		},
		{
			name: "jenkins with the git plugin",
			vars: map[string]string{
				"JENKINS_URL": "https://ci.example.com/", "GIT_URL": "git@github.com:acme/orders.git", "GIT_BRANCH": "origin/release/2",
				"GIT_COMMIT": "def", "BUILD_NUMBER": "31", "BUILD_URL": "https://ci.example.com/job/orders/31/",
			},
			want: CI{Provider: "jenkins", RepoID: "acme/orders", RepoURL: "git@github.com:acme/orders.git", Branch: "release/2",
				Commit: "def", BuildID: "31", BuildURL: "https://ci.example.com/job/orders/31/"},
		},
		{
			name: "jenkins multibranch pull request",
			vars: map[string]string{
				"JENKINS_URL": "https://ci.example.com/", "GIT_URL": "https://github.com/acme/orders.git", "BRANCH_NAME": "PR-7",
				"CHANGE_BRANCH": "feature/x", "CHANGE_ID": "7", "GIT_COMMIT": "def", "BUILD_NUMBER": "3",
			},
			want: CI{Provider: "jenkins", RepoID: "acme/orders", RepoURL: "https://github.com/acme/orders.git", Branch: "feature/x",
				Commit: "def", BuildID: "3", PullRequest: "7"},
		},
		{
			name: "circleci",
			vars: map[string]string{
				"CIRCLECI": "true", "CIRCLE_PROJECT_USERNAME": "acme", "CIRCLE_PROJECT_REPONAME": "orders",
				"CIRCLE_REPOSITORY_URL": "git@github.com:acme/orders.git", "CIRCLE_BRANCH": "main", "CIRCLE_SHA1": "c1",
				"CIRCLE_BUILD_NUM": "88", "CIRCLE_BUILD_URL": "https://circleci.com/gh/acme/orders/88",
				"CIRCLE_PULL_REQUEST": "https://github.com/acme/orders/pull/9",
			},
			want: CI{Provider: "circleci", RepoID: "acme/orders", RepoURL: "git@github.com:acme/orders.git", Branch: "main", Commit: "c1",
				BuildID: "88", BuildURL: "https://circleci.com/gh/acme/orders/88", PullRequest: "9"},
		},
		{
			name: "azure-pipelines pull request",
			vars: map[string]string{
				"TF_BUILD": "True", "BUILD_REPOSITORY_NAME": "acme/orders", "BUILD_REPOSITORY_URI": "https://github.com/acme/orders",
				"BUILD_SOURCEBRANCH": "refs/pull/5/merge", "SYSTEM_PULLREQUEST_SOURCEBRANCH": "refs/heads/feature/a",
				"BUILD_SOURCEVERSION": "a1", "BUILD_BUILDID": "1234", "SYSTEM_COLLECTIONURI": "https://dev.azure.com/acme/",
				"SYSTEM_TEAMPROJECT": "Orders API", "SYSTEM_JOBATTEMPT": "3", "SYSTEM_PULLREQUEST_PULLREQUESTNUMBER": "5",
				"SYSTEM_PULLREQUEST_PULLREQUESTID": "99999",
			},
			want: CI{Provider: "azure-pipelines", RepoID: "acme/orders", RepoURL: "https://github.com/acme/orders", Branch: "feature/a",
				Commit: "a1", BuildID: "1234", BuildURL: "https://dev.azure.com/acme/Orders%20API/_build/results?buildId=1234", RunAttempt: 3, PullRequest: "5"},
		},
		{
			name: "azure-pipelines branch",
			vars: map[string]string{
				"TF_BUILD": "True", "BUILD_REPOSITORY_NAME": "orders", "BUILD_SOURCEBRANCH": "refs/heads/feature/a/b",
				"BUILD_SOURCEBRANCHNAME": "b", "BUILD_SOURCEVERSION": "a1", "BUILD_BUILDID": "1",
			},
			want: CI{Provider: "azure-pipelines", RepoID: "orders", Branch: "feature/a/b", Commit: "a1", BuildID: "1"},
		},
		{
			name: "bitbucket-pipelines",
			vars: map[string]string{
				"BITBUCKET_BUILD_NUMBER": "55", "BITBUCKET_REPO_FULL_NAME": "acme/orders", "BITBUCKET_GIT_HTTP_ORIGIN": "http://bitbucket.org/acme/orders",
				"BITBUCKET_BRANCH": "main", "BITBUCKET_COMMIT": "b1", "BITBUCKET_PR_ID": "3",
			},
			want: CI{Provider: "bitbucket-pipelines", RepoID: "acme/orders", RepoURL: "http://bitbucket.org/acme/orders", Branch: "main",
				Commit: "b1", BuildID: "55", BuildURL: "http://bitbucket.org/acme/orders/addon/pipelines/home#!/results/55", PullRequest: "3"},
		},
		{
			name: "buildkite retried, not a pull request",
			vars: map[string]string{
				"BUILDKITE": "true", "BUILDKITE_REPO": "git@github.com:acme/orders.git", "BUILDKITE_BRANCH": "main",
				"BUILDKITE_COMMIT": "k1", "BUILDKITE_BUILD_NUMBER": "101", "BUILDKITE_BUILD_URL": "https://buildkite.com/acme/orders/builds/101",
				"BUILDKITE_RETRY_COUNT": "1", "BUILDKITE_PULL_REQUEST": "false",
			},
			want: CI{Provider: "buildkite", RepoID: "acme/orders", RepoURL: "git@github.com:acme/orders.git", Branch: "main", Commit: "k1",
				BuildID: "101", BuildURL: "https://buildkite.com/acme/orders/builds/101", RunAttempt: 2},
		},
		{
			name: "no provider",
			vars: map[string]string{"CI": "true", "GITHUB_REPOSITORY": "acme/ignored"},
			want: CI{},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Resolve(Sources{Getenv: envtest.Getenv(tc.vars)})
			if err != nil {
				t.Fatal(err)
			}
			got.Sources = nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestEveryProviderTested keeps TestProviders covering every provider.
func TestEveryProviderTested(t *testing.T) {
	want := []string{"azure-pipelines", "bitbucket-pipelines", "buildkite", "circleci", "github-actions", "gitlab-ci", "jenkins"}
	if got := ProviderNames(); !reflect.DeepEqual(got, want) {
		t.Errorf("providers %v, want %v (add a case to TestProviders)", got, want)
	}
}

// TestPrecedence: each source overrides the ones below it, field by
// field: options over system properties over SPECGATE_* over the CI
// provider over git.
func TestPrecedence(t *testing.T) {
	provider := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/orders", "GITHUB_REF": "refs/heads/main", "GITHUB_SHA": "sha-ci",
		"GITHUB_RUN_ID": "run-ci", "GITHUB_RUN_ATTEMPT": "1",
	}
	git := &GitInfo{Origin: "https://github.com/acme/from-git.git", Branch: "git-branch", Commit: "sha-git"}
	for _, tc := range []struct {
		name    string
		src     Sources
		repo    string
		build   string
		attempt int
		from    map[string]string // field → source
	}{
		{"git alone", Sources{Git: git}, "acme/from-git", "", 0,
			map[string]string{"repoId": "git", "commit": "git", "branch": "git"}},
		{"provider over git", Sources{Getenv: envtest.Getenv(provider), Git: git}, "acme/orders", "run-ci", 1,
			map[string]string{"repoId": "GITHUB_REPOSITORY", "buildId": "GITHUB_RUN_ID", "commit": "GITHUB_SHA", "runAttempt": "GITHUB_RUN_ATTEMPT"}},
		{"SPECGATE_* over the provider", Sources{Getenv: envtest.Getenv(envtest.Vars(provider, "SPECGATE_REPO_ID", "env-repo", "SPECGATE_BUILD_ID", "env-build", "SPECGATE_RUN_ATTEMPT", "4")), Git: git},
			"env-repo", "env-build", 4,
			map[string]string{"repoId": "SPECGATE_REPO_ID", "buildId": "SPECGATE_BUILD_ID", "runAttempt": "SPECGATE_RUN_ATTEMPT", "commit": "GITHUB_SHA"}},
		{"-D over SPECGATE_*", Sources{
			Getenv:     envtest.Getenv(envtest.Vars(provider, "SPECGATE_REPO_ID", "env-repo", "SPECGATE_BUILD_ID", "env-build")),
			Properties: map[string]string{"specgate.repo.id": "prop-repo", "specgate.build.id": "prop-build", "specgate.run.attempt": "5"},
		}, "prop-repo", "prop-build", 5,
			map[string]string{"repoId": "-Dspecgate.repo.id", "buildId": "-Dspecgate.build.id", "runAttempt": "-Dspecgate.run.attempt"}},
		{"options over -D", Sources{
			Getenv:     envtest.Getenv(envtest.Vars(provider, "SPECGATE_REPO_ID", "env-repo")),
			Properties: map[string]string{"specgate.repo.id": "prop-repo", "specgate.build.id": "prop-build"},
			Options:    map[string]string{"repo-id": "opt-repo", "build-id": "opt-build", "run-attempt": "6"},
		}, "opt-repo", "opt-build", 6,
			map[string]string{"repoId": "--repo-id", "buildId": "--build-id", "runAttempt": "--run-attempt"}},
		{"an empty option or variable is not set", Sources{
			Getenv:  envtest.Getenv(envtest.Vars(provider, "SPECGATE_REPO_ID", "  ")),
			Options: map[string]string{"repo-id": "", "build-id": ""},
		}, "acme/orders", "run-ci", 1, map[string]string{"repoId": "GITHUB_REPOSITORY"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Resolve(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if got.RepoID != tc.repo || got.BuildID != tc.build || got.RunAttempt != tc.attempt {
				t.Errorf("repo %q build %q attempt %d, want %q %q %d", got.RepoID, got.BuildID, got.RunAttempt, tc.repo, tc.build, tc.attempt)
			}
			for field, from := range tc.from {
				if got.Sources[field] != from {
					t.Errorf("%s from %q, want %q", field, got.Sources[field], from)
				}
			}
		})
	}
}

// TestEveryFieldOverridable: every field has a SPECGATE_ variable and a
// -D property, and each wins over the provider.
func TestEveryFieldOverridable(t *testing.T) {
	provider := map[string]string{
		"BUILDKITE": "true", "BUILDKITE_REPO": "git@github.com:acme/orders.git", "BUILDKITE_BRANCH": "main",
		"BUILDKITE_COMMIT": "k1", "BUILDKITE_BUILD_NUMBER": "101", "BUILDKITE_BUILD_URL": "https://b/101",
		"BUILDKITE_RETRY_COUNT": "0", "BUILDKITE_PULL_REQUEST": "8",
	}
	envs := map[string]string{}
	props := map[string]string{}
	for k, v := range provider {
		envs[k] = v
	}
	for _, f := range Fields {
		envs[f.Env] = "9"
		props[f.Property] = "7"
	}
	got, err := Resolve(Sources{Getenv: envtest.Getenv(envs)})
	if err != nil {
		t.Fatal(err)
	}
	want := CI{Provider: "buildkite", RepoID: "9", RepoURL: "9", Branch: "9", Commit: "9", BuildID: "9", BuildURL: "9", RunAttempt: 9, PullRequest: "9"}
	got.Sources = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SPECGATE_*: got %+v, want %+v", got, want)
	}
	got, err = Resolve(Sources{Getenv: envtest.Getenv(envs), Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	want = CI{Provider: "buildkite", RepoID: "7", RepoURL: "7", Branch: "7", Commit: "7", BuildID: "7", BuildURL: "7", RunAttempt: 7, PullRequest: "7"}
	got.Sources = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("-D: got %+v, want %+v", got, want)
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  Sources
		want string
	}{
		{"run attempt from an option", Sources{Options: map[string]string{"run-attempt": "two"}}, `--run-attempt="two": the run attempt must be a whole number from 1`},
		{"run attempt zero", Sources{Getenv: envtest.Getenv(map[string]string{"SPECGATE_RUN_ATTEMPT": "0"})}, `SPECGATE_RUN_ATTEMPT="0": the run attempt`},
		{"run attempt from a provider", Sources{Getenv: envtest.Getenv(map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_RUN_ATTEMPT": "x"})}, `GITHUB_RUN_ATTEMPT="x"`},
		{"metadata without =", Sources{Metadata: []string{"team"}}, `--metadata "team" is not KEY=VALUE`},
		{"metadata with an empty key", Sources{Metadata: []string{"=x"}}, `--metadata "=x": the key "" must be`},
		{"metadata with a space in its key", Sources{Metadata: []string{"my team=x"}}, `the key "my team" must be`},
		{"metadata too long", Sources{Metadata: []string{"k=" + strings.Repeat("x", 1025)}}, `--metadata k: the value is longer than 1024 bytes`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Resolve(tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestMetadata(t *testing.T) {
	got, err := Resolve(Sources{Metadata: []string{"team=payments", "tier=a,b=c", "team=billing", "empty="}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"team": "billing", "tier": "a,b=c", "empty": ""}
	if !reflect.DeepEqual(got.Metadata, want) {
		t.Errorf("metadata %v, want %v", got.Metadata, want)
	}
}

func TestRepoURLs(t *testing.T) {
	for _, tc := range []struct{ in, slug, key string }{
		{"https://github.com/acme/orders.git", "acme/orders", "github.com/acme/orders"},
		{"https://user:secret@GitHub.com/acme/orders/", "acme/orders", "github.com/acme/orders"},
		{"git@github.com:acme/orders.git", "acme/orders", "github.com/acme/orders"},
		{"ssh://git@gitlab.example.com:2222/acme/platform/orders.git", "acme/platform/orders", "gitlab.example.com/acme/platform/orders"},
		{"/srv/git/orders.git", "srv/git/orders", "srv/git/orders"},
		{"", "", ""},
	} {
		if got := Slug(tc.in); got != tc.slug {
			t.Errorf("Slug(%q) = %q, want %q", tc.in, got, tc.slug)
		}
		if got := RepoKey(tc.in); got != tc.key {
			t.Errorf("RepoKey(%q) = %q, want %q", tc.in, got, tc.key)
		}
	}
}

// TestCredentialsNeverSent: a clone URL's user and password stay out of
// the metadata.
func TestCredentialsNeverSent(t *testing.T) {
	got, err := Resolve(Sources{
		Getenv: envtest.Getenv(map[string]string{"GITLAB_CI": "true", "CI_PROJECT_PATH": "acme/orders"}),
		Git:    &GitInfo{Origin: "https://gitlab-ci-token:glcbt-secret@gitlab.com/acme/orders.git"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.RepoURL != "https://gitlab.com/acme/orders.git" {
		t.Errorf("repoUrl %q", got.RepoURL)
	}
	if got.RepoID != "acme/orders" {
		t.Errorf("repoId %q", got.RepoID)
	}
}

// TestExplicitIDDropsInferredURL: a repository or build id given
// explicitly that is not the one the provider (or git) inferred names
// another repository or build, so the inferred URL, which points at the
// inferred one, is dropped, unless the URL is given explicitly too; an
// explicit id equal to the inferred one keeps it.
func TestExplicitIDDropsInferredURL(t *testing.T) {
	github := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/orders", "GITHUB_REF": "refs/heads/main", "GITHUB_SHA": "sha-ci",
		"GITHUB_RUN_ID": "555", "GITHUB_RUN_ATTEMPT": "1",
	}
	const repoURL, buildURL = "https://github.com/acme/orders", "https://github.com/acme/orders/actions/runs/555"
	git := &GitInfo{Origin: "https://github.com/acme/from-git.git", Branch: "git-branch", Commit: "sha-git"}
	with := func(kv ...string) func(string) string { return envtest.Getenv(envtest.Vars(github, kv...)) }
	for _, tc := range []struct {
		name              string
		src               Sources
		repoURL, buildURL string
	}{
		{"inferred", Sources{Getenv: with()}, repoURL, buildURL},
		{"SPECGATE_REPO_ID of another repository", Sources{Getenv: with("SPECGATE_REPO_ID", "acme/mirror")}, "", buildURL},
		{"SPECGATE_REPO_ID of the same repository", Sources{Getenv: with("SPECGATE_REPO_ID", "Acme/Orders")}, repoURL, buildURL},
		{"--repo-id with SPECGATE_REPO_URL", Sources{Getenv: with("SPECGATE_REPO_URL", "https://git.example.com/mirror"), Options: map[string]string{"repo-id": "acme/mirror"}},
			"https://git.example.com/mirror", buildURL},
		{"-Dspecgate.build.id of another build", Sources{Getenv: with(), Properties: map[string]string{"specgate.build.id": "nightly-7"}}, repoURL, ""},
		{"-Dspecgate.build.id with -Dspecgate.build.url", Sources{Getenv: with(), Properties: map[string]string{"specgate.build.id": "nightly-7", "specgate.build.url": "https://ci.example.com/7"}},
			repoURL, "https://ci.example.com/7"},
		{"--build-id of the same build", Sources{Getenv: with(), Options: map[string]string{"build-id": "555"}}, repoURL, buildURL},
		{"git's origin under another id", Sources{Git: git, Options: map[string]string{"repo-id": "acme/elsewhere"}}, "", ""},
		{"git's origin under its own id", Sources{Git: git, Options: map[string]string{"repo-id": "acme/from-git"}}, "https://github.com/acme/from-git.git", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Resolve(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if got.RepoURL != tc.repoURL || got.BuildURL != tc.buildURL {
				t.Errorf("repoUrl %q, buildUrl %q; want %q, %q", got.RepoURL, got.BuildURL, tc.repoURL, tc.buildURL)
			}
			for field, v := range map[string]string{"repoUrl": got.RepoURL, "buildUrl": got.BuildURL} {
				if (v == "") != (got.Sources[field] == "") {
					t.Errorf("%s %q from %q", field, v, got.Sources[field])
				}
			}
		})
	}
}
