package io.ytstream.benchmarks.spark;

import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;

/**
 * What the harnesses share in one JVM run: the session, one emulator (HTTP, with a token) whose
 * in-memory cluster is also registered as {@code inmemory:<name>}, so the in-memory and the HTTP
 * variants read the very same rows, a scratch folder for {@code file://} checkpoints, and the
 * sizes.
 */
final class BenchContext implements AutoCloseable {

  final SparkSession spark;
  final SparkBenchOptions options;
  final PrintStream out;
  final YtEmulator emulator;
  final InMemoryCluster cluster;
  final String inMemoryAddress;
  final Path scratch;

  /** The emulator's token, for clients the harnesses connect themselves; never printed. */
  final String token;

  private int queries;

  BenchContext(SparkSession spark, SparkBenchOptions options, PrintStream out) throws IOException {
    this.spark = spark;
    this.options = options;
    this.out = out;
    this.token = UUID.randomUUID().toString();
    String name = "bench-" + UUID.randomUUID().toString().substring(0, 8);
    this.emulator =
        YtEmulator.start(EmulatorOptions.defaults().withToken(token).withClusterName(name));
    this.cluster = emulator.cluster();
    InMemoryClusters.register(cluster);
    this.inMemoryAddress = "inmemory:" + name;
    this.scratch = Files.createTempDirectory("ytstream-spark-bench");
    spark.conf().set("spark.hadoop.yt.token", token);
    spark.conf().set("spark.hadoop.yt.proxy", inMemoryAddress);
  }

  /** A name no earlier query of this run used (consumers, checkpoints). */
  String unique(String prefix) {
    return prefix + "-" + (++queries);
  }

  /** A {@code file://} checkpoint folder that does not exist yet. */
  String fileCheckpoint(String prefix) {
    return scratch.resolve(unique(prefix)).toUri().toString();
  }

  @Override
  public void close() {
    spark.conf().unset("spark.hadoop.yt.token");
    InMemoryClusters.remove(cluster.name());
    emulator.close();
    deleteQuietly(scratch);
  }

  static void deleteQuietly(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | RuntimeException e) {
      // scratch space in the temp folder; nothing to do
    }
  }
}
