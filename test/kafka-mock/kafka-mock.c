/*
 * A Kafka test broker: librdkafka's in-process mock cluster on loopback.
 *
 *   kafka-mock [topic:partitions ...]
 *
 * Prints "bootstrap <host:port>" once the cluster listens, then reads commands on stdin, one a line:
 *   topic <name> <partitions>   -> "ok <name>" or "error <name> <reason>"
 *   fail <apiKey> <errorCode> <count>   -> "ok fail"  (the next <count> requests of that API fail)
 * (the mock refuses CreateTopics, so tests create topics through this launcher; `fail` lets tests
 * provoke broker errors such as a SyncGroup answered with INVALID_REQUEST). It exits when stdin
 * closes, so it never outlives the test process that started it.
 */
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int create_topic(rd_kafka_mock_cluster_t *mc, const char *name, int partitions) {
  rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mc, name, partitions, 1);
  if (err) {
    printf("error %s %s\n", name, rd_kafka_err2str(err));
  } else {
    printf("ok %s\n", name);
  }
  fflush(stdout);
  return err ? 1 : 0;
}

int main(int argc, char **argv) {
  char errstr[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  /* Quiet the handle's own warning about having no bootstrap servers: it only hosts the mock. */
  rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof errstr);
  /* The mock cluster lives inside this (otherwise idle) client handle. */
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (!rk) {
    fprintf(stderr, "kafka-mock: %s\n", errstr);
    return 2;
  }
  rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(rk, 1);
  if (!mc) {
    fprintf(stderr, "kafka-mock: could not start the mock cluster\n");
    return 2;
  }
  int failed = 0;
  for (int i = 1; i < argc; i++) {
    char *colon = strrchr(argv[i], ':');
    int partitions = colon ? atoi(colon + 1) : 1;
    if (colon) *colon = '\0';
    failed |= create_topic(mc, argv[i], partitions > 0 ? partitions : 1);
  }
  if (failed) return 1;
  printf("bootstrap %s\n", rd_kafka_mock_cluster_bootstraps(mc));
  fflush(stdout);

  char line[1024], name[512];
  int partitions, api_key, error_code, count;
  while (fgets(line, sizeof line, stdin)) {
    if (sscanf(line, "topic %511s %d", name, &partitions) == 2 && partitions > 0) {
      create_topic(mc, name, partitions);
    } else if (sscanf(line, "fail %d %d %d", &api_key, &error_code, &count) == 3 && count > 0 && count <= 64) {
      rd_kafka_resp_err_t errors[64];
      for (int i = 0; i < count; i++) errors[i] = (rd_kafka_resp_err_t)error_code;
      rd_kafka_mock_push_request_errors_array(mc, (int16_t)api_key, (size_t)count, errors);
      printf("ok fail\n");
      fflush(stdout);
    } else if (line[0] != '\n') {
      printf("error - unknown command\n");
      fflush(stdout);
    }
  }
  rd_kafka_mock_cluster_destroy(mc);
  rd_kafka_destroy(rk);
  return 0;
}
