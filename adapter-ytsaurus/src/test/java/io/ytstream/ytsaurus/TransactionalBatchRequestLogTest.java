package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.contract.Columns;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * One transactional batch through the ports, as the core runs it (start a tablet transaction, read
 * the consumer at its snapshot, insert the output rows, advance every partition with {@code
 * old_offset = lower}, commit), with every request logged. The log (token redacted) is written to
 * {@code target/transactional-batch-request-log.txt}; the module README shows it.
 */
class TransactionalBatchRequestLogTest {

  private static final String TOKEN = "readme-demo-token";

  @Test
  void everyRequestOfTheBatchGoesToOneProxyAndTheTokenIsRedacted() throws Exception {
    try (YtEmulator emulator =
        YtEmulator.start(EmulatorOptions.defaults().withProxyCount(2).withToken(TOKEN))) {
      YtsaurusClientConfig base =
          YtsaurusClientConfig.of(emulator.url(), Optional.of(OAuthToken.of(TOKEN)));
      YPath queuePath = YPath.of("//home/demo/queue");
      YPath consumerPath = YPath.of("//home/demo/consumer");
      YPath output = YPath.of("//home/demo/output");
      try (YtsaurusCluster setup = YtsaurusCluster.connect(base)) {
        HttpClusterAdmin admin = new HttpClusterAdmin(setup);
        admin.createOrderedTable(queuePath, List.of(Columns.value("value", "string")), 2);
        admin.createConsumer(consumerPath);
        admin.register(queuePath, consumerPath);
        admin.createSortedTable(
            output, List.of(Columns.key("id", "int64"), Columns.value("value", "string")));
        setup.outputTables().append(queuePath, List.of(Row.of("$tablet_index", 0L, "value", "a")));
      }

      List<String> lines = new ArrayList<>();
      List<RequestLogger.LoggedRequest> requests = new ArrayList<>();
      List<String> batchLines = new ArrayList<>();
      List<RequestLogger.LoggedRequest> batchRequests = new ArrayList<>();
      YtsaurusClientConfig logged =
          base.withRequestLogger(
              r -> {
                synchronized (lines) {
                  lines.add(r.line());
                  requests.add(r);
                }
              });
      try (YtsaurusCluster cluster = YtsaurusCluster.connect(logged)) {
        QueueId queue = new QueueId(cluster.name(), queuePath);
        ConsumerId consumer = new ConsumerId(cluster.name(), consumerPath);
        // Batch 0 warms the connection up (it fetches /hosts); batch 1 is the one shown.
        for (long batch = 0; batch < 2; batch++) {
          synchronized (lines) {
            lines.clear();
            requests.clear();
          }
          TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(60));
          StreamOffsets before = tx.readConsumer(consumer, queue);
          tx.insertRows(
              output,
              List.of(
                  Row.of("id", 2 * batch, "value", "a"),
                  Row.of("id", 2 * batch + 1, "value", "b")));
          for (int partition = 0; partition < 2; partition++) {
            PartitionId p = new PartitionId(queue, partition);
            long lower = before.getOrDefault(p, 0);
            tx.advanceConsumer(consumer, p, OptionalLong.of(lower), lower + 1);
          }
          tx.commit();
        }
        synchronized (lines) {
          batchLines.addAll(lines);
          batchRequests.addAll(requests);
        }

        assertEquals(
            StreamOffsets.ofQueue(queue, Map.of(0, 2L, 1, 2L)),
            cluster.consumerOffsets().read(consumer, queue));
      }

      Set<String> proxies = new LinkedHashSet<>();
      List<String> commands = new ArrayList<>();
      batchRequests.forEach(
          r -> {
            proxies.add(r.proxy());
            commands.add(r.command());
          });
      assertEquals(
          List.of(
              "start_transaction",
              "select_rows",
              "insert_rows",
              "advance_queue_consumer",
              "advance_queue_consumer",
              "commit_transaction"),
          commands);
      assertEquals(1, proxies.size(), "the whole batch on one proxy: " + proxies);
      assertEquals(
          emulator.proxyUrls().get(1),
          proxies.iterator().next(),
          "the second transaction is pinned to the second host of /hosts, not the address given");
      // The server's wire: binary YSON rows, the consumer's offset column bracketed.
      for (RequestLogger.LoggedRequest r : batchRequests) {
        boolean rows = r.command().equals("select_rows") || r.command().equals("insert_rows");
        assertEquals(rows ? "<format=binary>yson" : "", r.rowFormat(), r.line());
      }
      assertTrue(batchLines.get(1).contains("partition_index, [offset] from"), batchLines.get(1));
      batchLines.forEach(line -> assertFalse(line.contains(TOKEN), line));
      assertTrue(batchLines.get(0).contains("OAuth <redacted>"));

      String portFree = String.join("\n", batchLines);
      for (String url : emulator.proxyUrls()) {
        portFree =
            portFree.replace(
                url, "http://proxy-" + (emulator.proxyUrls().indexOf(url) + 1) + ":PORT");
      }
      Path file = Path.of("target", "transactional-batch-request-log.txt");
      Files.createDirectories(file.getParent());
      Files.writeString(file, portFree + "\n", StandardCharsets.UTF_8);
    }
  }
}
