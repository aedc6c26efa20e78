"""Word lists for LLM-free claim extraction: tool categories, aliases, status and state words.

A ``uses``/``prefers`` value conflict needs to know that webpack and vite are alternatives
(both bundlers) while Postgres and Redis are not; this table is that knowledge. Extend it with
``RECOLLECT``-side code, not user text.
"""

from __future__ import annotations

import re

#: Alternatives that exclude each other, by category.
CATEGORIES: dict[str, tuple[str, ...]] = {
    "bundler": ("webpack", "vite", "rollup", "parcel", "esbuild", "turbopack", "snowpack",
                "rspack"),
    "database": ("postgres", "mysql", "mariadb", "mongodb", "sqlite", "oracle", "sql server",
                 "dynamodb", "cassandra", "cockroachdb", "neo4j", "supabase"),
    "cache": ("redis", "memcached", "varnish", "valkey"),
    "queue": ("kafka", "rabbitmq", "sqs", "nats", "pulsar", "kinesis", "celery"),
    "ci": ("jenkins", "github actions", "gitlab ci", "circleci", "travis", "buildkite",
           "teamcity", "drone"),
    "editor": ("vim", "neovim", "emacs", "vscode", "intellij", "sublime", "nano", "helix"),
    "indentation": ("tabs", "spaces"),
    "cloud": ("aws", "gcp", "azure", "digitalocean", "heroku", "fly.io", "vercel", "netlify"),
    "frontend_framework": ("react", "vue", "angular", "svelte", "solid", "ember", "preact"),
    "package_manager": ("npm", "yarn", "pnpm", "bun", "pip", "poetry", "uv", "conda"),
    "test_framework": ("jest", "vitest", "mocha", "pytest", "unittest", "cypress", "playwright"),
    "orchestrator": ("kubernetes", "nomad", "docker swarm", "ecs", "mesos"),
    "monitoring": ("datadog", "grafana", "new relic", "prometheus", "honeycomb"),
    "error_tracking": ("sentry", "rollbar", "bugsnag", "honeybadger", "airbrake"),
    "registry": ("docker hub", "ecr", "gcr", "ghcr", "quay", "artifactory", "harbor"),
    "issue_tracker": ("jira", "linear", "github issues", "youtrack", "asana", "trello"),
    "shell": ("bash", "zsh", "fish", "powershell"),
    "logging": ("loki", "elk", "splunk", "papertrail", "logz.io", "cloudwatch"),
    "search_engine": ("elasticsearch", "opensearch", "solr", "meilisearch", "typesense", "algolia"),
    "iac": ("terraform", "pulumi", "cloudformation", "ansible", "cdk"),
    "web_server": ("nginx", "apache", "caddy", "traefik", "haproxy", "envoy"),
    "payments": ("stripe", "adyen", "braintree", "paypal"),
    "language": ("python", "go", "rust", "java", "kotlin", "typescript", "javascript", "ruby",
                 "elixir", "php", "scala", "c#", "swift", "c++", "c", "dart", "haskell",
                 "clojure", "perl", "r", "julia", "lua", "zig", "ocaml", "f#"),
    "merge_strategy": ("squash", "rebase", "merge commits"),
    "branch": ("main", "master", "trunk", "develop"),
    "os": ("linux", "windows", "macos"),
    "warehouse": ("bigquery", "snowflake", "redshift", "databricks", "clickhouse", "synapse"),
    "static_site": ("hugo", "jekyll", "gatsby", "eleventy", "astro", "docusaurus", "mkdocs",
                    "sphinx"),
    "deploy_tool": ("helm", "kustomize", "argocd", "argo cd", "flux", "spinnaker", "octopus"),
    "incident": ("pagerduty", "opsgenie", "victorops", "incident.io", "firehydrant"),
    "chat": ("slack", "microsoft teams", "discord", "mattermost", "zulip"),
    "object_store": ("s3", "gcs", "azure blob", "minio", "r2"),
    "serverless": ("aws lambda", "lambda", "cloud run", "cloud functions", "azure functions",
                   "fargate"),
    "container_runtime": ("docker", "podman", "containerd"),
    "auth_provider": ("auth0", "okta", "cognito", "keycloak", "clerk", "firebase auth"),
    "analytics": ("google analytics", "mixpanel", "amplitude", "segment", "posthog", "plausible"),
    "vcs_host": ("github", "gitlab", "bitbucket"),
    "feature_flags": ("launchdarkly", "unleash", "flagsmith", "split"),
    "orm": ("sqlalchemy", "prisma", "typeorm", "hibernate", "django orm", "sequelize"),
    "web_framework": ("django", "flask", "fastapi", "rails", "express", "spring", "laravel",
                      "phoenix", "next.js", "nextjs", "nuxt"),
    "mobile_framework": ("react native", "flutter", "swiftui", "jetpack compose", "ionic"),
    "css": ("tailwind", "bootstrap", "bulma", "styled-components", "sass"),
    "secrets": ("vault", "aws secrets manager", "doppler", "1password", "sops"),
}  # fmt: skip

#: Spellings folded into one key.
ALIASES: dict[str, str] = {
    "postgresql": "postgres", "psql": "postgres", "pg": "postgres", "mongo": "mongodb",
    "k8s": "kubernetes", "gh actions": "github actions", "github action": "github actions",
    "vs code": "vscode", "visual studio code": "vscode", "nvim": "neovim",
    "golang": "go", "ts": "typescript", "js": "javascript", "gcloud": "gcp",
    "google cloud": "gcp", "amazon web services": "aws", "elastic": "elasticsearch",
    "production": "prod", "prod environment": "prod", "the production environment": "prod",
    "staging environment": "staging", "development": "dev",
    "tab": "tabs", "space": "spaces", "squashing": "squash", "rebasing": "rebase",
    "amazon s3": "s3", "aws s3": "s3", "google cloud storage": "gcs", "argo": "argocd",
    "node.js": "node", "nodejs": "node", "ms teams": "microsoft teams", "lambda": "aws lambda",
    "gke": "kubernetes", "eks": "kubernetes", "aks": "kubernetes", "elasticache": "redis",
}  # fmt: skip

CATEGORY_OF: dict[str, str] = {v: c for c, vs in CATEGORIES.items() for v in vs}

#: Status words -> status class.
STATUS: dict[str, str] = {
    "done": "done", "complete": "done", "completed": "done", "finished": "done",
    "shipped": "done", "live": "done", "released": "done", "merged": "done", "closed": "done",
    "deployed": "done", "resolved": "done", "open": "open", "reopened": "open",
    "in code review": "in_progress", "under review": "in_progress",
    "in progress": "in_progress", "ongoing": "in_progress", "underway": "in_progress",
    "started": "in_progress", "wip": "in_progress", "in review": "in_progress",
    "fixed": "done", "failing": "open", "broken": "open", "unresolved": "open",
    "unfixed": "open", "unblocked": "in_progress", "going ahead": "in_progress",
    "back on": "in_progress", "called off": "cancelled", "scrapped": "cancelled",
    "dropped": "cancelled", "shelved": "cancelled", "deprecated": "deprecated",
    "supported": "supported", "maintained": "supported", "end of life": "deprecated",
    "eol": "deprecated", "sunset": "deprecated", "retired": "deprecated",
    "not shipped": "in_progress", "in development": "in_progress", "in testing": "in_progress",
    "blocked": "blocked", "on hold": "blocked", "paused": "blocked", "stalled": "blocked",
    "cancelled": "cancelled", "canceled": "cancelled", "abandoned": "cancelled",
    "not started": "todo", "planned": "todo", "todo": "todo", "pending": "todo",
}  # fmt: skip

#: On/off words -> polarity.
STATE: dict[str, int] = {
    "enabled": 1, "on": 1, "active": 1, "turned on": 1, "switched on": 1, "activated": 1,
    "allowed": 1, "required": 1, "mandatory": 1,
    "disabled": -1, "off": -1, "inactive": -1, "turned off": -1, "switched off": -1,
    "deactivated": -1, "forbidden": -1, "blocked": -1, "optional": -1,
}  # fmt: skip

#: Subjects that stand for the team / the scope as a whole.
GENERIC_SUBJECTS = frozenset({"we", "us", "our team", "the team", "team", "i", "everyone",
                              "our", "our company", "the company"})  # fmt: skip

#: Head nouns whose copula value is an attribute ("the default branch is main").
ATTRIBUTE_NOUNS = frozenset({
    "limit", "size", "timeout", "port", "version", "name", "default", "branch", "region",
    "language", "host", "url", "path", "value", "count", "threshold", "owner", "lead", "budget",
    "deadline", "price", "rate", "ttl", "interval", "schedule", "quota", "capacity", "replicas",
    "retention", "maximum", "minimum", "max", "min", "date", "day", "endpoint",
    "provider", "vendor", "format", "encoding", "strategy", "tool", "framework", "bundler",
    "manager", "registry", "editor", "tracker", "runner",
})  # fmt: skip

DETERMINERS = frozenset({"the", "a", "an", "our", "my", "your", "their", "its", "this",
                         "that", "these", "those", "his", "her", "some", "all"})  # fmt: skip


def canonical(value: str) -> str:
    """Lower-case, strip determiners and punctuation, fold aliases."""
    words = [w for w in value.lower().strip(" .,;:!?\"'()").split() if w]
    while words and words[0] in DETERMINERS:
        words = words[1:]
    text = " ".join(words).strip(" .,;:!?\"'()")
    return ALIASES.get(text, text)


def category(value: str) -> str | None:
    """The category of a canonical tool name, if known."""
    return CATEGORY_OF.get(value)


_STOP = frozenset({"the", "a", "an", "of", "for", "on", "in", "to", "at", "with", "and", "our",
                   "my", "your", "their", "its", "this", "that", "every", "all", "each", "any",
                   "some", "by", "from", "is", "are"})  # fmt: skip
_IRREGULAR = {"retention": "retain", "expiration": "expire", "expiry": "expire",
              "maintainer": "maintain", "assignee": "assign", "deployment": "deploy",
              "migration": "migrat", "migrating": "migrat", "migrated": "migrat",
              "logs": "log", "caching": "cache", "cache": "cache"}  # fmt: skip
_DROP_TAIL = frozenset({"feature", "project", "work", "task", "effort", "initiative", "ticket",
                        "flag", "issue", "epic", "bug", "story"})  # fmt: skip


def stem(word: str) -> str:
    """A crude English stem (enough to match migration/migrating, logs/log)."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    for suf in ("ations", "ation", "ings", "ing", "ions", "ion", "ies", "es", "ed", "s"):
        if word.endswith(suf) and len(word) - len(suf) >= 3:
            return word[: -len(suf)] + ("y" if suf == "ies" else "")
    return word


def bag_key(value: str) -> str:
    """An order-free key of a phrase: ticket ids as they are, else sorted stems of content words."""
    text = canonical(value)
    ticket = re.search(r"\b[a-z]+-\d+\b|#\d+", text)
    if ticket:
        return ticket.group(0)
    words = [w for w in re.split(r"[^\w.+#-]+", text) if w and w not in _STOP]
    kept = [w for w in words if w not in _DROP_TAIL]
    words = kept or words
    return " ".join(sorted({stem(w) for w in words}))
