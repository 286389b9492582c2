package io.ytstream.spark.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HadoopCheckpointFilesTest {

  @TempDir Path dir;

  private HadoopCheckpointFiles files(boolean raw) {
    Configuration conf = new Configuration();
    if (raw) {
      conf.set("fs.file.impl", RawLocalFileSystem.class.getName());
      conf.setBoolean("fs.file.impl.disable.cache", true);
    }
    return new HadoopCheckpointFiles(
        new org.apache.hadoop.fs.Path(dir.resolve("checkpoint").toUri()), conf);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aLocalFileIsCreatedOnceAndAnEarlierWritersFileStands(boolean raw) throws Exception {
    HadoopCheckpointFiles files = files(raw);
    byte[] first = "first".getBytes(StandardCharsets.UTF_8);

    assertTrue(files.createIfAbsent("sources/0/ytstream-source-v1", first));
    assertFalse(
        files.createIfAbsent(
            "sources/0/ytstream-source-v1", "second".getBytes(StandardCharsets.UTF_8)));

    assertArrayEquals(first, files.read("sources/0/ytstream-source-v1").orElseThrow());
    assertEquals(List.of("ytstream-source-v1"), files.list("sources/0"));
    try (Stream<Path> left = Files.list(dir.resolve("checkpoint/sources/0"))) {
      assertEquals(
          List.of("ytstream-source-v1"),
          left.map(p -> p.getFileName().toString()).toList(),
          "only the file: no temporary file left behind, no checksum file beside it");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aMissingLocalFileReadsAsAbsent(boolean raw) {
    assertEquals(Optional.empty(), files(raw).read("sources/0/ytstream-source-v1"));
    assertEquals(List.of(), files(raw).list("sources/0"));
  }
}
