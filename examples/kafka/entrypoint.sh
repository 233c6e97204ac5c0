#!/bin/sh
# Starts one Kafka broker of a StatefulSet (KRaft: broker and controller in one process) that
# advertises, to clients outside the cluster, the address its listener volume holds.
#
# The listener operator writes that volume (mounted at /listener) before the container
# starts: default-address/address is the address clients reach this Pod at (its node's
# address for a NodePort class, the Service's load-balancer address for a LoadBalancer
# class), default-address/ports/<name> the port for each container port <name>. Kafka
# hands its clients those advertised.listeners, so each broker must advertise its own.
#
# Three listeners:
#   EXTERNAL  :9094, advertised as <address>:<port> from /listener (clients outside)
#   INTERNAL  :9092, advertised as this Pod's DNS name (brokers among themselves)
#   CONTROLLER:9093, the KRaft quorum, found by the StatefulSet's DNS names
#
# Environment (the StatefulSet sets it; see statefulset.yaml):
#   KAFKA_CLUSTER_ID          required: 22 characters (base64url of 16 bytes), the same for every broker
#   POD_NAME, POD_NAMESPACE   from the downward API; the broker id is the Pod's ordinal
#   KAFKA_HEADLESS_SERVICE    the StatefulSet's serviceName (default: kafka-headless)
#   KAFKA_CONTROLLERS         how many of the first ordinals vote in the quorum (default: 3)
#   KAFKA_CLUSTER_DOMAIN      default cluster.local
#   KAFKA_CONTROLLER_QUORUM_VOTERS  overrides the voters built from the names above
#   KAFKA_INTERNAL_HOST       overrides the INTERNAL listener's advertised host
#   KAFKA_EXTERNAL_PORT_NAME  the container port's name in the volume (default: kafka)
#   KAFKA_REPLICATION_FACTOR  of new topics and Kafka's internal topics (default: 3)
#   KAFKA_SERVER_PROPERTIES   more server.properties lines, appended (a later key wins)
#   KAFKA_HEAP_OPTS, KAFKA_JVM_OPTS  JVM flags (default: a 256 MB heap, the serial collector)
#   LISTENER_DIR, KAFKA_HOME, KAFKA_DATA_DIR, KAFKA_CONFIG, JAVA  paths (defaults below)
set -eu

LISTENER_DIR=${LISTENER_DIR:-/listener}
KAFKA_HOME=${KAFKA_HOME:-/opt/kafka}
KAFKA_DATA_DIR=${KAFKA_DATA_DIR:-/var/lib/kafka/data}
KAFKA_CONFIG=${KAFKA_CONFIG:-/tmp/server.properties}
JAVA=${JAVA:-java}
EXTERNAL_PORT_NAME=${KAFKA_EXTERNAL_PORT_NAME:-kafka}

fail() {
  echo "entrypoint: $*" >&2
  exit 1
}

[ -n "${KAFKA_CLUSTER_ID:-}" ] || fail "KAFKA_CLUSTER_ID is not set (22 characters, the same for every broker)"
POD_NAME=${POD_NAME:-$(hostname)}
node_id=${POD_NAME##*-}
case $node_id in
  '' | *[!0-9]*) fail "cannot take a broker id from the Pod name $POD_NAME (expected <statefulset>-<ordinal>)" ;;
esac
statefulset=${POD_NAME%-*}
domain=${KAFKA_HEADLESS_SERVICE:-kafka-headless}.${POD_NAMESPACE:?POD_NAMESPACE is not set (downward API metadata.namespace)}.svc.${KAFKA_CLUSTER_DOMAIN:-cluster.local}

# What the listener operator wrote: fail clearly if the volume is not there.
from_listener() {
  [ -s "$LISTENER_DIR/$1" ] || fail "$LISTENER_DIR/$1 is missing: mount a listener volume at $LISTENER_DIR whose Pod has a container port named $EXTERNAL_PORT_NAME"
  cat "$LISTENER_DIR/$1"
}
address=$(from_listener default-address/address)
port=$(from_listener "default-address/ports/$EXTERNAL_PORT_NAME")
case $address in
  *:*) address="[$address]" ;; # an IPv6 address
esac

voters=${KAFKA_CONTROLLER_QUORUM_VOTERS:-}
if [ -z "$voters" ]; then
  i=0
  while [ "$i" -lt "${KAFKA_CONTROLLERS:-3}" ]; do
    voters="${voters:+$voters,}$i@$statefulset-$i.$domain:9093"
    i=$((i + 1))
  done
fi
internal_host=${KAFKA_INTERNAL_HOST:-$POD_NAME.$domain}

cat >"$KAFKA_CONFIG" <<EOF
process.roles=broker,controller
node.id=$node_id
controller.quorum.voters=$voters
listeners=INTERNAL://:9092,CONTROLLER://:9093,EXTERNAL://:9094
advertised.listeners=INTERNAL://$internal_host:9092,EXTERNAL://$address:$port
listener.security.protocol.map=INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,EXTERNAL:PLAINTEXT
inter.broker.listener.name=INTERNAL
controller.listener.names=CONTROLLER
log.dirs=$KAFKA_DATA_DIR
default.replication.factor=${KAFKA_REPLICATION_FACTOR:-3}
offsets.topic.replication.factor=${KAFKA_REPLICATION_FACTOR:-3}
transaction.state.log.replication.factor=${KAFKA_REPLICATION_FACTOR:-3}
group.initial.rebalance.delay.ms=0
${KAFKA_SERVER_PROPERTIES:-}
EOF
echo "entrypoint: broker $node_id advertises EXTERNAL://$address:$port (from $LISTENER_DIR), INTERNAL://$internal_host:9092; quorum $voters"

classpath="$KAFKA_HOME/libs/*"
log_config="-Dlog4j2.configurationFile=$KAFKA_HOME/config/log4j2.yaml"
# shellcheck disable=SC2086 # the *_OPTS are lists of flags
"$JAVA" ${KAFKA_HEAP_OPTS:--Xmx128m} -XX:+UseSerialGC "$log_config" -cp "$classpath" kafka.tools.StorageTool \
  format --cluster-id "$KAFKA_CLUSTER_ID" --config "$KAFKA_CONFIG" --ignore-formatted
# shellcheck disable=SC2086
exec "$JAVA" ${KAFKA_HEAP_OPTS:--Xms256m -Xmx256m} ${KAFKA_JVM_OPTS:--XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError} \
  "$log_config" -cp "$classpath" kafka.Kafka "$KAFKA_CONFIG"
