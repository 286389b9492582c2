package io.ytstream.spark.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryClusters;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** The yt scheme over the checkpoint store: found without configuration, never overwrites. */
class YtFileSystemTest {

  private static final String CLUSTER = "fs-test";

  private static Configuration conf() {
    // A fresh configuration: the scheme must be found through Hadoop's service loading alone.
    Configuration conf = new Configuration();
    conf.set("yt.proxy", "inmemory:" + CLUSTER);
    return conf;
  }

  private static void write(FileSystem fs, Path p, String text) throws IOException {
    try (OutputStream out = fs.create(p, false)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String read(FileSystem fs, Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void mapsPathsToCypressAndRoundTripsFiles() throws IOException {
    FileSystem fs = new Path("yt:///ckpt").getFileSystem(conf());
    assertTrue(fs instanceof YtFileSystem, "found through META-INF/services: " + fs.getClass());
    Path file = new Path("yt:///fs/a/offsets/0");
    write(fs, file, "v1\nhello");
    assertEquals("v1\nhello", read(fs, file));
    assertTrue(
        InMemoryClusters.find(CLUSTER).orElseThrow().exists(YPath.of("//fs/a/offsets/0")),
        "yt:///fs/a/offsets/0 is the Cypress node //fs/a/offsets/0");
    FileStatus[] list = fs.listStatus(new Path("yt:///fs/a/offsets"));
    assertEquals(1, list.length);
    assertEquals("0", list[0].getPath().getName());
    assertFalse(list[0].isDirectory());
    assertEquals(8, list[0].getLen());
    assertTrue(fs.getFileStatus(new Path("yt:/fs/a")).isDirectory());
    assertThrows(FileAlreadyExistsException.class, () -> write(fs, file, "again"));
  }

  @Test
  void renameNeverReplacesAnExistingTarget() throws IOException {
    FileSystem fs = new Path("yt:///").getFileSystem(conf());
    write(fs, new Path("yt:/fs/r/.0.tmp"), "mine");
    write(fs, new Path("yt:/fs/r/0"), "theirs");
    assertFalse(fs.rename(new Path("yt:/fs/r/.0.tmp"), new Path("yt:/fs/r/0")));
    assertEquals("theirs", read(fs, new Path("yt:/fs/r/0")));
    assertTrue(fs.rename(new Path("yt:/fs/r/.0.tmp"), new Path("yt:/fs/r/1")));
    assertEquals("mine", read(fs, new Path("yt:/fs/r/1")));
    assertFalse(fs.exists(new Path("yt:/fs/r/.0.tmp")));
    assertTrue(fs.delete(new Path("yt:/fs/r"), true));
    assertFalse(fs.exists(new Path("yt:/fs/r/1")));
  }

  @Test
  void fileContextIsRegisteredAndRefusesToOverwriteOnRename() throws Exception {
    // Spark's default checkpoint manager uses FileContext when fs.AbstractFileSystem.yt.impl is
    // set.
    new Path("yt:///").getFileSystem(conf()); // loads the scheme (and its default resource)
    FileContext fc = FileContext.getFileContext(URI.create("yt:///"), conf());
    Path dir = new Path("yt:/fs/fc");
    fc.mkdir(dir, null, true);
    try (OutputStream out =
        fc.create(
            new Path(dir, ".1.tmp"),
            EnumSet.of(CreateFlag.CREATE),
            Options.CreateOpts.createParent())) {
      out.write(new byte[] {1, 2, 3});
    }
    fc.rename(new Path(dir, ".1.tmp"), new Path(dir, "1"), Options.Rename.NONE);
    try (OutputStream out =
        fc.create(
            new Path(dir, ".1b.tmp"),
            EnumSet.of(CreateFlag.CREATE),
            Options.CreateOpts.createParent())) {
      out.write(new byte[] {9});
    }
    assertThrows(
        FileAlreadyExistsException.class,
        () -> fc.rename(new Path(dir, ".1b.tmp"), new Path(dir, "1"), Options.Rename.NONE));
    try (InputStream in = fc.open(new Path(dir, "1"))) {
      assertArrayEquals(new byte[] {1, 2, 3}, in.readAllBytes());
    }
    assertEquals(
        2,
        Arrays.stream(fc.util().listStatus(dir)).count(),
        "the refused temp file is still there");
  }
}
