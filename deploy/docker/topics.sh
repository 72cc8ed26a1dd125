#!/bin/sh
# Creates Parley's Kafka topics (idempotent). Keep in step with @parley/contracts' TopicCatalog and
# the Helm chart's values (kafka.topics): test/e2e/deploy.test.ts checks all three agree.
set -eu
bootstrap="${KAFKA_BOOTSTRAP:-localhost:9092}"
replication="${KAFKA_REPLICATION_FACTOR:-1}"
create() {
  /opt/kafka/bin/kafka-topics.sh --bootstrap-server "$bootstrap" --create --if-not-exists \
    --topic "$1" --partitions "$2" --replication-factor "$replication" --config "cleanup.policy=$3"
}
create parley.identity.keys.v1 8 compact
create parley.identity.key-usage.v1 8 delete
create parley.identity.members.v1 8 compact
create parley.registry.webhooks.v1 8 compact
create parley.events.message.v1 8 delete
create parley.events.lead.v1 8 delete
create parley.events.template.v1 8 delete
create parley.events.campaign.v1 8 delete
create parley.dispatch.deliveries.v1 8 delete
create parley.dispatch.retry.5s.v1 8 delete
create parley.dispatch.retry.10s.v1 8 delete
create parley.dispatch.attempts.v1 8 delete
create parley.channel.inbound.v1 8 delete
create parley.channel.outbound.v1 8 delete
create parley.assistant.settings.v1 8 compact
