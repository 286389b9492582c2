package io.ytstream.spark.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.FaultInjector;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * How many checkpoint-store calls one checkpoint log entry costs when written the way Spark's
 * FileContext-based checkpoint manager writes it. Over HTTP each store call is one request (a file
 * write is two: {@code create}, {@code write_file}), so this bounds the round trips per micro-batch
 * with {@code yt:///} checkpoints on a remote cluster. Calls are counted on the in-memory cluster
 * by scheduling pass-through entries in its fault injector and seeing how many were used.
 */
class YtFileSystemStoreCallsTest {

  private static final String CLUSTER = "fs-calls-test";
  private static final int PASS = 10_000;

  private static final ClusterOperation[] CHECKPOINT_OPERATIONS = {
    ClusterOperation.CHECKPOINT_MKDIRS,
    ClusterOperation.CHECKPOINT_WRITE,
    ClusterOperation.CHECKPOINT_READ,
    ClusterOperation.CHECKPOINT_RENAME,
    ClusterOperation.CHECKPOINT_LIST,
    ClusterOperation.CHECKPOINT_DELETE,
    ClusterOperation.CHECKPOINT_STATUS
  };

  private static FileContext fileContext() throws IOException {
    Configuration conf = new Configuration();
    conf.set("yt.proxy", "inmemory:" + CLUSTER);
    new Path("yt:///").getFileSystem(conf); // loads the scheme's default resource
    return FileContext.getFileContext(URI.create("yt:///"), conf);
  }

  /** What {@code HDFSMetadataLog.add} then {@code createAtomic} and its close do for entry N. */
  private static void writeLogEntry(FileContext fc, Path dir, long batch, byte[] content)
      throws IOException {
    Path target = new Path(dir, Long.toString(batch));
    assertThrows(FileNotFoundException.class, () -> fc.getFileStatus(target), "not yet written");
    Path temp = new Path(dir, "." + batch + ".some-uuid.tmp");
    try (OutputStream out =
        fc.create(
            temp,
            EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE),
            Options.CreateOpts.checksumParam(Options.ChecksumOpt.createDisabled()))) {
      out.write(content);
    }
    fc.rename(temp, target, Options.Rename.NONE);
    Path crc = new Path(dir, "." + temp.getName() + ".crc");
    assertThrows(FileNotFoundException.class, () -> fc.getFileStatus(crc), "no checksum files");
  }

  private static Map<ClusterOperation, Integer> count(FaultInjector faults, IoAction action)
      throws IOException {
    for (ClusterOperation op : CHECKPOINT_OPERATIONS) {
      faults.skipNext(op, PASS);
    }
    action.run();
    Map<ClusterOperation, Integer> calls = new EnumMap<>(ClusterOperation.class);
    for (ClusterOperation op : CHECKPOINT_OPERATIONS) {
      int used = PASS - faults.pendingCount(op);
      if (used > 0) {
        calls.put(op, used);
      }
    }
    faults.clearPending();
    return calls;
  }

  @FunctionalInterface
  private interface IoAction {
    void run() throws IOException;
  }

  @Test
  void aLogEntryCostsAtMostSixStoreCallsOnceItsDirectoryIsKnown() throws IOException {
    InMemoryCluster cluster = InMemoryClusters.getOrCreate(CLUSTER);
    FileContext fc = fileContext();
    Path offsets = new Path("yt:/calls/q/offsets");
    fc.mkdir(offsets, null, true);
    writeLogEntry(fc, offsets, 0, new byte[] {0});

    Map<ClusterOperation, Integer> calls =
        count(cluster.faults(), () -> writeLogEntry(fc, offsets, 1, new byte[] {1, 2}));

    // getFileStatus(1), the temp file's status in create, the write, the rename, the .crc check.
    assertEquals(
        Map.of(
            ClusterOperation.CHECKPOINT_STATUS, 3,
            ClusterOperation.CHECKPOINT_WRITE, 1,
            ClusterOperation.CHECKPOINT_RENAME, 1),
        calls);
    int total = calls.values().stream().mapToInt(Integer::intValue).sum();
    assertTrue(total <= 6, "store calls per log entry: " + calls);
    try (InputStream in = fc.open(new Path(offsets, "1"))) {
      assertArrayEquals(new byte[] {1, 2}, in.readAllBytes());
    }
  }

  @Test
  void theOneRequestRenameStillRefusesAnExistingTargetWithHadoopsException() throws IOException {
    FileContext fc = fileContext();
    Path dir = new Path("yt:/calls/refuse");
    fc.mkdir(dir, null, true);
    writeLogEntry(fc, dir, 0, new byte[] {7});
    Path late = new Path(dir, ".0.late.tmp");
    try (OutputStream out = fc.create(late, EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE))) {
      out.write(new byte[] {8});
    }
    assertThrows(
        FileAlreadyExistsException.class,
        () -> fc.rename(late, new Path(dir, "0"), Options.Rename.NONE));
    assertThrows(
        FileNotFoundException.class,
        () -> fc.rename(new Path(dir, ".missing.tmp"), new Path(dir, "9"), Options.Rename.NONE));
    assertThrows(
        FileNotFoundException.class,
        () -> fc.rename(late, new Path("yt:/calls/no-such-dir/0"), Options.Rename.NONE));
    try (InputStream in = fc.open(new Path(dir, "0"))) {
      assertArrayEquals(new byte[] {7}, in.readAllBytes(), "the first writer's entry is kept");
    }
  }

  @Test
  void aDeletedDirectoryIsForgottenSoTheNextCreateRecreatesIt() throws IOException {
    FileContext fc = fileContext();
    Path dir = new Path("yt:/calls/gone");
    fc.mkdir(dir, null, true);
    writeLogEntry(fc, dir, 0, new byte[] {1});
    fc.delete(dir, true);
    try (OutputStream out =
        fc.create(
            new Path(dir, "again"),
            EnumSet.of(CreateFlag.CREATE),
            Options.CreateOpts.createParent())) {
      out.write(new byte[] {2});
    }
    try (InputStream in = fc.open(new Path(dir, "again"))) {
      assertArrayEquals(new byte[] {2}, in.readAllBytes());
    }
  }
}
