package io.ytstream.application.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.CheckpointFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint files in the format that ships, read and written through {@link CheckpointFiles}.
 */
class QueryCheckpointTest {

  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final QueueId R = QueueId.of("primary", "//r");
  private static final ConsumerId C = ConsumerId.of("primary", "//c");

  /** Files in a sorted map, as a file system would hold them. */
  private static final class MapFiles implements CheckpointFiles {
    final TreeMap<String, byte[]> files = new TreeMap<>();

    @Override
    public Optional<byte[]> read(String path) {
      return Optional.ofNullable(files.get(path));
    }

    @Override
    public List<String> list(String directory) {
      List<String> names = new ArrayList<>();
      String prefix = directory + "/";
      for (String path : files.keySet()) {
        if (path.startsWith(prefix)) {
          String name = path.substring(prefix.length()).split("/")[0];
          if (!names.contains(name)) {
            names.add(name);
          }
        }
      }
      return names;
    }

    @Override
    public boolean createIfAbsent(String path, byte[] content) {
      return files.putIfAbsent(path, content.clone()) == null;
    }

    @Override
    public String location() {
      return "yt:///ckpt";
    }

    void write(String path, String text) {
      files.put(path, text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private final MapFiles files = new MapFiles();
  private final QueryCheckpoint checkpoint = new QueryCheckpoint(files);

  private static StreamOffsets offsets(QueueId q, long p0, long p1) {
    return StreamOffsets.of(Map.of(new PartitionId(q, 0), p0, new PartitionId(q, 1), p1));
  }

  @Test
  void aSourceRecordIsWrittenOnceAndAnEarlierOneStands() {
    assertEquals(Optional.empty(), checkpoint.source(0));
    SourceRecord first = new SourceRecord(C, offsets(Q, 3, 4));
    assertEquals(first, checkpoint.recordSource(0, first));
    SourceRecord second = new SourceRecord(C, offsets(Q, 9, 9));
    assertEquals(first, checkpoint.recordSource(0, second), "the first driver's record stands");
    assertEquals(Optional.of(first), checkpoint.source(0));
    assertTrue(files.files.containsKey("sources/0/ytstream-source-v1"));
  }

  @Test
  void batchRangesComeFromTheOffsetLogAndBatchZeroFromTheSourceRecord() {
    checkpoint.recordSource(0, new SourceRecord(C, offsets(Q, 3, 4)));
    files.write("offsets/0", OffsetLogEntry.of(offsets(Q, 5, 4)));
    files.write("offsets/1", OffsetLogEntry.of(offsets(Q, 8, 6)));
    assertEquals(
        List.of(new OffsetRange(new PartitionId(Q, 0), 3, 5)), checkpoint.batchRanges(0).ranges());
    BatchRanges one = checkpoint.batchRanges(1);
    assertEquals(
        List.of(
            new OffsetRange(new PartitionId(Q, 0), 5, 8),
            new OffsetRange(new PartitionId(Q, 1), 4, 6)),
        one.ranges());
    assertEquals(Map.of(Q, C), one.consumers());
    assertEquals(Optional.of(1L), checkpoint.latestBatch());
    assertEquals(
        Optional.of(new BatchEnd(1, offsets(Q, 8, 6))),
        checkpoint.latestBatchEnd(),
        "the whole logged end, partitions without rows included");
  }

  @Test
  void otherSourcesLinesOfSparksLogAreSkipped() {
    checkpoint.recordSource(1, new SourceRecord(C, offsets(R, 0, 0)));
    files.write(
        "offsets/0",
        "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":0,\"conf\":{}}\n{\"topic\":{\"0\":5}}\n"
            + OffsetsJson.write(offsets(R, 2, 0)));
    assertEquals(List.of(offsets(R, 2, 0)), checkpoint.batchEnd(0));
    assertEquals(
        List.of(new OffsetRange(new PartitionId(R, 0), 0, 2)), checkpoint.batchRanges(0).ranges());
  }

  @Test
  void aMissingEntryOrRecordIsADamagedCheckpoint() {
    IllegalStateException missing =
        assertThrows(IllegalStateException.class, () -> checkpoint.batchRanges(4));
    assertTrue(
        missing.getMessage().contains("yt:///ckpt/offsets/4 is missing"), missing.getMessage());
    files.write("offsets/0", OffsetLogEntry.of(offsets(Q, 1, 1)));
    IllegalStateException noRecord =
        assertThrows(IllegalStateException.class, () -> checkpoint.batchRanges(0));
    assertTrue(noRecord.getMessage().contains("no yt source folder"), noRecord.getMessage());
  }

  @Test
  void aRecordOfAnotherVersionIsRefusedNamingTheFile() {
    files.write("sources/0/ytstream-source-v1", "ytstream-source v2\nconsumer x\ninitial {}\n");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> checkpoint.source(0));
    assertTrue(
        e.getMessage().startsWith("yt:///ckpt/sources/0/ytstream-source-v1"), e.getMessage());
    assertTrue(e.getMessage().contains("Use a new checkpointLocation"), e.getMessage());
  }

  @Test
  void aTornOffsetLogEntryIsRefusedNamingTheFileNotReadAsNoOffsets() {
    String whole = OffsetLogEntry.of(offsets(Q, 5, 4));
    int json = whole.indexOf("{\"version\"");
    // Cut in Spark's lines, right after them, inside the marker, inside the JSON; a NUL byte.
    for (String torn :
        List.of(
            whole.substring(0, 4),
            whole.substring(0, json),
            whole.substring(0, json + 5),
            whole.substring(0, whole.length() - 3),
            whole.substring(0, json + 3) + "\0" + whole.substring(json + 3))) {
      files.write("offsets/7", torn);
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> checkpoint.batchEnd(7), torn);
      assertTrue(e.getMessage().contains("yt:///ckpt/offsets/7 is damaged"), e.getMessage());
    }
    files.write("offsets/7", whole);
    assertEquals(List.of(offsets(Q, 5, 4)), checkpoint.batchEnd(7));
  }

  @Test
  void anEntryOfQueuesNoSourceRecordsNamesTheEntry() {
    files.write("offsets/0", OffsetLogEntry.of(offsets(Q, 1, 1)));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> checkpoint.batchRanges(0));
    assertTrue(
        e.getMessage().startsWith("yt:///ckpt/offsets/0 reads [primary://q]"), e.getMessage());
  }

  @Test
  void aSourceRecordWithDamagedOffsetsIsRefusedNamingTheFile() {
    String whole = new SourceRecord(C, offsets(Q, 3, 2)).serialize();
    files.write("sources/0/ytstream-source-v1", whole.substring(0, whole.length() - 6));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> checkpoint.source(0));
    assertTrue(
        e.getMessage().startsWith("yt:///ckpt/sources/0/ytstream-source-v1 is damaged"),
        e.getMessage());
  }

  @Test
  void noOffsetLogMeansNoLatestBatch() {
    assertEquals(Optional.empty(), checkpoint.latestBatch());
    assertEquals(Optional.empty(), checkpoint.latestBatchEnd());
    files.write("offsets/.0.tmp", "partial");
    assertFalse(checkpoint.latestBatch().isPresent(), "a temporary file is not an entry");
  }
}
