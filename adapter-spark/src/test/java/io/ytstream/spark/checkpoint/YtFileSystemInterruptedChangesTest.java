package io.ytstream.spark.checkpoint;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Over HTTP, a change to the checkpoint made on an interrupted thread (a stopping query's driver
 * thread) runs to its end before the call returns, and the interrupt stays set: an abandoned
 * request could reach the cluster after the next query run read the logs.
 */
class YtFileSystemInterruptedChangesTest {

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  private static FileSystem fs(YtEmulator emulator) throws IOException {
    Configuration conf = new Configuration();
    conf.set("yt.proxy", emulator.url());
    return new Path("yt:///ckpt").getFileSystem(conf);
  }

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  @Test
  void aLogEntryPublishedOnAnInterruptedThreadIsPublished(YtEmulator emulator) throws Exception {
    FileSystem fs = fs(emulator);
    Path temp = new Path("yt:///rt/commits/.3.6f1c2e1a-0000-4000-8000-000000000000.tmp");
    OutputStream out = fs.create(temp, false);
    out.write("v1\n{}".getBytes(StandardCharsets.UTF_8));
    // The stop lands while the entry is written (reads before it would fail: they change nothing).
    Thread.currentThread().interrupt();
    out.close();
    assertTrue(fs.rename(temp, new Path("yt:///rt/commits/3")), "the move ran to its end");
    assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
    assertTrue(emulator.cluster().exists(YPath.of("//rt/commits/3")));
    assertFalse(
        emulator
            .cluster()
            .exists(YPath.of("//rt/commits/.3.6f1c2e1a-0000-4000-8000-000000000000.tmp")));
  }

  @Test
  void aDeleteOnAnInterruptedThreadDeletes(YtEmulator emulator) throws Exception {
    FileSystem fs = fs(emulator);
    Path file = new Path("yt:///rt/offsets/4");
    try (OutputStream out = fs.create(file, false)) {
      out.write('x');
    }
    Thread.currentThread().interrupt();
    assertTrue(fs.delete(file, false));
    assertTrue(Thread.interrupted());
    assertFalse(emulator.cluster().exists(YPath.of("//rt/offsets/4")));
  }
}
