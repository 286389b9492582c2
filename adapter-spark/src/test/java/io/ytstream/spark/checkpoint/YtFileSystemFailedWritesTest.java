package io.ytstream.spark.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A checkpoint log write that fails, as a stopped query's last write does, leaves no temporary file
 * behind, even on the interrupted thread: Spark refuses to restart a query whose {@code offsets/}
 * or {@code commits/} holds any file while the offset log is empty.
 */
class YtFileSystemFailedWritesTest {

  private static final String CLUSTER = "fs-failed-writes";
  private static final String TEMP = ".0.6f1c2e1a-0000-4000-8000-000000000000.tmp";

  private final InMemoryCluster cluster = InMemoryClusters.getOrCreate(CLUSTER);

  private static FileSystem fs() throws IOException {
    Configuration conf = new Configuration();
    conf.set("yt.proxy", "inmemory:" + CLUSTER);
    return new Path("yt:///ckpt").getFileSystem(conf);
  }

  @AfterEach
  void clear() {
    cluster.faults().clearPending();
    Thread.interrupted();
  }

  private static void writeAndClose(FileSystem fs, Path p) throws IOException {
    OutputStream out = fs.create(p, false);
    out.write("v1\n{}".getBytes(StandardCharsets.UTF_8));
    out.close();
  }

  @Test
  void aTemporaryFileWhoseWriteFailedAfterLandingIsRemovedAndTheInterruptKept() throws Exception {
    FileSystem fs = fs();
    fs.mkdirs(new Path("yt:///rt/a/commits"));
    cluster.faults().failNextAfterApplying(ClusterOperation.CHECKPOINT_WRITE, 1, 1, "interrupted");
    Thread.currentThread().interrupt();
    assertThrows(
        IOException.class, () -> writeAndClose(fs, new Path("yt:///rt/a/commits/" + TEMP)));
    assertTrue(Thread.interrupted(), "the thread is still interrupted");
    assertFalse(cluster.exists(YPath.of("//rt/a/commits/" + TEMP)), "no temporary file left");
    assertEquals(0, fs.listStatus(new Path("yt:///rt/a/commits")).length);
  }

  @Test
  void aTemporaryFileWhoseRenameFailedIsRemoved() throws Exception {
    FileSystem fs = fs();
    Path temp = new Path("yt:///rt/b/offsets/" + TEMP);
    writeAndClose(fs, temp);
    cluster.faults().failNext(ClusterOperation.CHECKPOINT_RENAME, 1, 1, "proxy went away");
    assertThrows(IOException.class, () -> fs.rename(temp, new Path("yt:///rt/b/offsets/0")));
    assertFalse(cluster.exists(YPath.of("//rt/b/offsets/" + TEMP)));
    assertFalse(cluster.exists(YPath.of("//rt/b/offsets/0")));
  }

  @Test
  void anyOtherFileWhoseWriteFailedIsLeftAsItIs() throws Exception {
    FileSystem fs = fs();
    cluster.faults().failNextAfterApplying(ClusterOperation.CHECKPOINT_WRITE, 1, 1, "lost");
    assertThrows(IOException.class, () -> writeAndClose(fs, new Path("yt:///rt/c/metadata")));
    assertTrue(cluster.exists(YPath.of("//rt/c/metadata")), "it may be someone else's");
  }
}
