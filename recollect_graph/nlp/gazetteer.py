"""Word lists the entity extractor matches by rule, ahead of the statistical NER.

The small spaCy model types many technologies as people or organisations (Grafana, Kafka, Ruff)
and every capitalised acronym as an organisation (UTC, TTL, CI). These lists are general
knowledge of the field, not phrasings of any corpus:

- :data:`TOOL_NAMES`: technology, product and service names (lower case; matched case-blind
  when written as a name) beyond the claim lexicon's;
- :data:`GENERIC_ACRONYMS`: acronyms of the trade that name no thing (protocols, formats,
  roles, units of work);
- :data:`COMPONENT_HEADS`: head nouns that make a noun phrase a named part of a system
  ("billing service", "nightly backup job"): the only noun phrases kept as concepts;
- :data:`GROUP_HEADS`: heads that make it a group of people ("platform team"): organisations;
- :data:`TIME_WORDS`: months, weekdays and relative days, which are dates, not entities;
- :data:`KIN_WORDS`: family and social roles ("my aunt Nkechi", "Grandpa Arjun", "her son
  Chidi"): the name after one is a person, and the word is no part of the name nor an entity;
- :data:`HUMAN_VERBS`: verbs whose subject is a person (says, lives, grew up, studies, speaks):
  a name the NER takes for an organisation or a place is a person as their subject.

Extend a list here (lower case) to teach the extractor a name; nothing else needs to change.
"""

from __future__ import annotations

TOOL_NAMES = frozenset(
    """
    airflow dagster prefect luigi dbt cron crontab systemd launchd debezium pgbackrest pgbouncer
    patroni barman wal-g firebase firestore supabase keycloak auth0 okta ruff flake8 pylint mypy
    black isort pyright pytest tox nox hatch pipenv pipx conda mamba torch pytorch tensorflow
    keras jax numpy pandas polars scipy scikit-learn sklearn spacy nltk huggingface transformers
    sentence-transformers onnx onnxruntime minilm xgboost lightgbm mlflow wandb jupyter jupyterlab
    colab luxon moment.js date-fns lodash axios express koa nestjs fastify django flask fastapi
    starlette uvicorn gunicorn celery rq sidekiq resque zoom slack notion confluence
    figma miro loom xcode android studio intellij pycharm webstorm goland rider clion eclipse
    zsh bash fish tmux git mercurial svn gitea gerrit atlantis terragrunt packer vagrant ansible
    saltstack consul vault nomad istio linkerd envoy cilium calico argo argocd flux
    tekton jenkins buildkite circleci travis drone concourse spinnaker octopus
    prometheus grafana loki jaeger zipkin opentelemetry datadog newrelic honeycomb
    sentry rollbar bugsnag pagerduty opsgenie statuspage kibana logstash fluentd fluent-bit
    elasticsearch opensearch solr meilisearch typesense algolia pinecone weaviate qdrant
    milvus chroma faiss pgvector neo4j bolt cypher memgraph dgraph arangodb janusgraph redis valkey
    memcached
    dragonfly keydb postgresql postgres mysql mariadb sqlite oracle mssql cockroachdb yugabyte
    tidb vitess planetscale neon timescaledb clickhouse druid pinot duckdb snowflake bigquery
    redshift databricks trino presto athena emr spark flink hadoop hive kafka
    redpanda pulsar rabbitmq nats zeromq activemq sqs sns kinesis eventbridge pubsub
    stripe adyen braintree paypal plaid twilio sendgrid mailgun postmark mailchimp segment
    mixpanel amplitude posthog hotjar metabase looker tableau superset redash
    kubernetes k8s k3s minikube helm kustomize docker podman containerd buildah kaniko
    terraform pulumi cloudformation cdk crossplane aws gcp azure eks gke aks ecs fargate lambda
    s3 ec2 rds aurora dynamodb cloudfront route53 cloudwatch iam gcs cloudflare fastly akamai
    vercel netlify heroku fly.io digitalocean linode hetzner ovh backblaze
    dropbox onedrive github gitlab bitbucket jira linear asana trello clickup
    copilot chatgpt claude gemini ollama vllm llama.cpp langchain llamaindex openai anthropic
    react vue angular svelte solid next.js nuxt remix gatsby astro vite webpack esbuild rollup
    parcel turbopack babel swc tsc typescript javascript python java kotlin scala go golang rust
    ruby php perl elixir erlang haskell ocaml clojure swift dart flutter c# c++ zig julia lua
    node.js nodejs deno bun npm yarn pnpm pip uv poetry cargo maven gradle sbt bazel cmake
    nginx apache caddy traefik haproxy varnish tomcat jetty wildfly iis
    linux ubuntu debian fedora centos alpine macos windows ios android
    strava garmin spotify netflix whatsapp telegram discord
    """.split()  # noqa: SIM905
) | frozenset(
    {
        "android studio",
        "github actions",
        "gitlab ci",
        "google drive",
        "google docs",
        "google sheets",
        "google cloud",
        "terraform cloud",
        "visual studio code",
        "vs code",
        "sql server",
        "cloud run",
        "cloud functions",
        "app engine",
        "azure devops",
        "microsoft teams",
        "new relic",
        "apache kafka",
        "apache spark",
        "amazon s3",
        "aws lambda",
        "react native",
        "ruby on rails",
        "spring boot",
    }
)

GENERIC_ACRONYMS = frozenset(
    """
    api apis cli gui ui ux ci cd pr prs mr qa sre sla slo sli kpi okr cto ceo cfo coo cpo vp hr
    pm em adr rfc poc mvp ttl utc gmt cet cest pst pdt est edt bst dns tls ssl ssh http https
    tcp udp ip ipv4 ipv6 vpn vpc cpu gpu tpu ram ssd hdd nvme oom iops rps qps p50 p95 p99 wal
    etl elt sql nosql orm sdk ide os pdf csv tsv json yaml toml xml html css jwt oidc oauth
    saml sso mfa 2fa rbac acl cdn db dbs eta eod eow fyi asap tbd wip lgtm nps arr mrr gdpr pii
    kyc aml b2b b2c saas paas iaas ml ai llm nlp ocr rag utf utf-8 ascii url uri uuid id pid
    todo readme faq markdown regex cron-job env dev prod staging qa uat dr rto rpo mttr mttd
    sev sev1 sev2 sev3 p0 p1 p2 p3 ooo pto wfh 1:1 ama q1 q2 q3 q4 h1 h2 fy gps usb wifi sms nfc
    qr lan wan posix unix sr jr
    """.split()  # noqa: SIM905
)

COMPONENT_HEADS = frozenset(
    """
    service services job jobs worker workers flow flows pipeline pipelines cluster clusters
    queue queues cache caches api apis app apps application panel dashboard index indexer
    learner learners server servers bucket buckets database gateway model report workflow
    process rotation train checker daemon bot script module library repo repository endpoint
    stream store storefront portal console frontend backend engine scheduler dispatcher
    crawler scraper proxy balancer router broker consumer producer exporter importer agent
    monitor runner builder compiler linter tracker replica shard warehouse lake
    """.split()  # noqa: SIM905
)

GROUP_HEADS = frozenset({"team", "squad", "guild", "tribe", "chapter", "department", "crew"})

TIME_WORDS = frozenset(
    """
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
    saturday sunday mon tue tues wed thu thur thurs fri sat sun today tomorrow yesterday
    tonight weekend week month quarter year morning afternoon evening night noon midnight
    sprint mondays tuesdays wednesdays thursdays fridays saturdays sundays weekends christmas
    easter xmas ramadan eid diwali hanukkah thanksgiving halloween
    """.split()  # noqa: SIM905
)

#: Technology names that are also everyday English words ("go", "rust", "spark", "linear"):
#: only a written name (capitalised, mixed case) counts as the tool. Any other known name counts
#: in lower case too ("dbt", "npm", "esbuild", "pytest"), as such names are usually written.
EVERYDAY_TOOL_WORDS = frozenset(
    """
    alpine apache argo astro athena aurora bash black bootstrap bun c cargo celery chroma clerk
    concourse consul copilot dart drone elastic ember envoy express fish flask fluent flux
    gemini go harbor hatch helix helm hive hugo jest julia lambda linear loom mamba maven mocha
    nano neon next node notion octopus oracle packer parcel phoenix pinot plaid plausible poetry
    prefect presto r rails react remix rider rollup ruby rust sass segment sentry solid spark
    sphinx split spring studio sublime swift synapse telegram torch transformers unleash vault
    windows zoom slack discord vagrant quay nomad mercurial lambda java python ts js pg iam
    linux ios sentry airflow strava garmin netflix spotify colab elk gcs gcr ovh r2 uv tox nox
    solr dragonfly crossplane doppler ghost kafka looker
    """.split()  # noqa: SIM905
)

KIN_WORDS = frozenset(
    """
    mum mom mother dad father parent parents son daughter brother sister sibling wife husband
    partner fiance fiancee girlfriend boyfriend aunt uncle cousin niece nephew grandma grandpa
    grandmother grandfather granny nan nana grandson granddaughter stepmother stepfather
    stepson stepdaughter flatmate roommate housemate neighbour neighbor friend bestie colleague
    coworker teammate boss manager mentor mentee landlord landlady tenant teacher tutor coach
    doctor dentist therapist
    """.split()  # noqa: SIM905
)

HUMAN_VERBS = frozenset(
    """
    say tell ask think feel want agree disagree prefer like love hate enjoy live grow study
    speak teach practise practice sing marry visit talk promise fly drive cook sleep eat drink
    laugh complain volunteer apologise apologize pair cover port suggest mention recommend
    wonder remember forget wish hope joke retire graduate relocate commute
    """.split()  # noqa: SIM905
)
