package io.ytstream.benchmarks.spark;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.QueueRow;
import io.ytstream.ytsaurus.OAuthToken;
import io.ytstream.ytsaurus.PullAnswers;
import io.ytstream.ytsaurus.YtsaurusClientConfig;
import io.ytstream.ytsaurus.YtsaurusCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The read path's control: what the wire alone costs on this machine, in the same round as the
 * Spark variants and over the same pulls the HTTP variant makes ({@link #PULL_ROWS} rows from each
 * offset of every partition, one task per partition on as many threads as Spark has cores):
 *
 * <ul>
 *   <li>{@link #SERVER}: the emulator answers each pull to a client that fetches the answer's bytes
 *       through the adapter's own HTTP client and decodes nothing: the server's work and the
 *       transport, the bound the server side sets;
 *   <li>{@link #CLIENT}: the adapter's decoder ({@link PullAnswers#decode}, text kept as bytes as
 *       the Spark reader asks) over the answers the server-side pass recorded: the client side's
 *       bound, without a request.
 * </ul>
 *
 * Rows per second are the rows over the pass's wall time. The emulator runs in this JVM, as in the
 * HTTP variant, so both passes share the same cores with nothing else of the benchmark running.
 */
final class WireControl {

  static final String SERVER = "wire: emulator + HTTP";
  static final String CLIENT = "wire: decode only";
  static final List<String> NAMES = List.of(SERVER, CLIENT);

  /** Rows per pull, as the Spark source's partition reader asks for. */
  static final int PULL_ROWS = 10_000;

  private final BenchContext ctx;
  private final String queue;

  WireControl(BenchContext ctx, String queue) {
    this.ctx = ctx;
    this.queue = queue;
  }

  /** One answer as recorded: where it was read from and its bytes. */
  private record Answer(PartitionId partition, long offset, int maxRows, byte[] body) {}

  /** Both passes, server side first; rows per second of each. */
  double[] round() throws Exception {
    String consumerPath = BenchQueues.consumer(ctx.cluster, queue, "//bench/" + ctx.unique("w"));
    int partitions = ctx.options.partitions();
    long perPartition = ctx.options.rowsPerPartition();
    long total = perPartition * partitions;
    int threads = ctx.spark.sparkContext().defaultParallelism();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    YtsaurusClientConfig config =
        YtsaurusClientConfig.of(ctx.emulator.url(), Optional.of(OAuthToken.of(ctx.token)));
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(config)) {
      ConsumerId consumer = new ConsumerId(cluster.name(), YPath.of(consumerPath));
      QueueId queueId = new QueueId(cluster.name(), YPath.of(queue));
      List<List<Answer>> answers = new ArrayList<>();
      long start = System.nanoTime();
      List<Future<List<Answer>>> fetched = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        PartitionId partition = new PartitionId(queueId, p);
        fetched.add(pool.submit(() -> fetchAll(cluster, consumer, partition, perPartition)));
      }
      for (Future<List<Answer>> f : fetched) {
        answers.add(f.get());
      }
      double server = total / ((System.nanoTime() - start) / 1e9);

      start = System.nanoTime();
      List<Future<Long>> decoded = new ArrayList<>();
      for (List<Answer> partitionAnswers : answers) {
        decoded.add(pool.submit(() -> decodeAll(cluster, partitionAnswers)));
      }
      long rows = 0;
      for (Future<Long> f : decoded) {
        rows += f.get();
      }
      double client = total / ((System.nanoTime() - start) / 1e9);
      if (rows != total) {
        throw new IllegalStateException("the wire control decoded " + rows + " rows of " + total);
      }
      return new double[] {server, client};
    } finally {
      pool.shutdownNow();
    }
  }

  private static List<Answer> fetchAll(
      YtsaurusCluster cluster, ConsumerId consumer, PartitionId partition, long rows) {
    List<Answer> answers = new ArrayList<>();
    for (long offset = 0; offset < rows; offset += PULL_ROWS) {
      int maxRows = (int) Math.min(PULL_ROWS, rows - offset);
      byte[] body = PullAnswers.fetch(cluster, consumer, partition, offset, maxRows);
      answers.add(new Answer(partition, offset, maxRows, body));
    }
    return answers;
  }

  /**
   * Decodes every answer; each must hold the rows asked for (the server-side pass steps by {@link
   * #PULL_ROWS} without decoding, so a short answer would make the two passes differ).
   */
  private static long decodeAll(YtsaurusCluster cluster, List<Answer> answers) {
    long rows = 0;
    for (Answer a : answers) {
      List<QueueRow> decoded =
          PullAnswers.decode(cluster, a.partition(), a.offset(), a.maxRows(), a.body(), true);
      if (decoded.size() != a.maxRows()) {
        throw new IllegalStateException(
            "the wire control's pull of "
                + a.partition()
                + " at "
                + a.offset()
                + " was short ("
                + decoded.size()
                + " of "
                + a.maxRows()
                + " rows): the emulator's rows per store must be a multiple of "
                + PULL_ROWS);
      }
      rows += decoded.size();
    }
    return rows;
  }
}
